package main

import "fmt"

func greet() {
	fmt.Println("package greet")
}

func apply(greet func()) {
	greet()
}

func other() {
	fmt.Println("other")
}

func main() {
	apply(other)
}
