package main

import (
	"fmt"
	"strings"
)

func main() {
	var sb strings.Builder
	sb.WriteString("built")
	fmt.Println(sb.String())
}
