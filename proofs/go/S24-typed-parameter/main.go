package main

import "fmt"

type Printer struct{}

func (p *Printer) Emit(text string) {
	fmt.Println("Printer.Emit " + text)
}

type Logger struct{}

func (l *Logger) Emit(text string) {
	fmt.Println("Logger.Emit " + text)
}

func send(p *Printer, text string) {
	p.Emit(text)
}

func main() {
	send(&Printer{}, "hello")
}
