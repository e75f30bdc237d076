package main

import "fmt"

type Conn struct{}

func (c *Conn) Query() string {
	return "rows"
}

type Pool struct{}

func (p *Pool) Get() *Conn {
	return &Conn{}
}

func open() *Pool {
	return &Pool{}
}

func main() {
	fmt.Println(open().Get().Query())
}
