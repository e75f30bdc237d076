package main

import "fmt"

type Animal struct {
	name string
}

func (a Animal) Describe() string {
	return "animal " + a.name
}

type Dog struct {
	Animal
}

func main() {
	d := Dog{Animal{"rex"}}
	fmt.Println(d.Describe())
}
