//go:build purego

package main

func checksum(s string) string {
	return "purego:" + s
}
