package main

import "fmt"

type Counter struct {
	n int
}

func (c *Counter) bump() {
	c.n++
}

func (c *Counter) twice() {
	c.bump()
	c.bump()
}

func main() {
	c := &Counter{}
	c.twice()
	fmt.Println(c.n)
}
