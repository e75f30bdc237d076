package main

import "fmt"

type Engine struct{}

func (e *Engine) Start() {
	fmt.Println("engine started")
}

type Car struct {
	engine *Engine
}

func (c *Car) Drive() {
	c.engine.Start()
}

func main() {
	car := Car{engine: &Engine{}}
	car.Drive()
}
