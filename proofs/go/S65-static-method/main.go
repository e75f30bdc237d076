package main

import "fmt"

type Temp struct {
	c int
}

func (t Temp) Show() {
	fmt.Println(t.c)
}

func main() {
	Temp.Show(Temp{c: 21})
}
