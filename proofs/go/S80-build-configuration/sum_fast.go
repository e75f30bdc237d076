//go:build !purego

package main

func checksum(s string) string {
	return "fast:" + s
}
