package main

func platform() string {
	return "windows"
}
