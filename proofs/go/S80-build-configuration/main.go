package main

import (
	"fmt"

	"proof/hash"
)

func main() {
	fmt.Println(checksum("abc"))
	fmt.Println(platform())
	fmt.Println(hash.Sum("abc"))
}
