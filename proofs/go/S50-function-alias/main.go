package main

import "fmt"

func greet() {
	fmt.Println("greet")
}

func main() {
	h := greet
	h()
}
