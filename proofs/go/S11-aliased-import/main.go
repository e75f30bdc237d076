package main

import (
	"fmt"

	t "proof/tools"
)

func main() {
	fmt.Println(t.Shout("hi"))
}
