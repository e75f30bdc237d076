package main

import (
	"fmt"

	"proof/tools"
)

func main() {
	fmt.Println(tools.Double(21))
}
