package main

import "fmt"

type Bell struct{}

func (b Bell) Ring() {
	fmt.Println("ring")
}

func main() {
	b := Bell{}
	r := b.Ring
	r()
}
