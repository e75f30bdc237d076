package main

import "fmt"

type Shape interface {
	Area() int
}

type Square struct {
	side int
}

func (s Square) Area() int {
	return s.side * s.side
}

func report(s Shape) {
	fmt.Println(s.Area())
}

func main() {
	report(Square{side: 3})
}
