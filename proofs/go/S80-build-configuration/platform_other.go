//go:build !windows

package main

func platform() string {
	return "not windows"
}
