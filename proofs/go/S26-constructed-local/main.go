package main

import "fmt"

type Greeter struct {
	word string
}

func (g Greeter) Greet() {
	fmt.Println(g.word)
}

func main() {
	g := Greeter{word: "hey"}
	g.Greet()
	p := &Greeter{word: "ho"}
	p.Greet()
	n := new(Greeter)
	n.word = "hum"
	n.Greet()
}
