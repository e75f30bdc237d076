package main

import "fmt"

func main() {
	xs := []int{1, 2}
	xs = append(xs, 3)
	fmt.Println(len(xs))
}
