package main

import "fmt"

type Leaf struct{}

func (l *Leaf) Ping() {
	fmt.Println("ping")
}

type Branch struct {
	leaf *Leaf
}

type Tree struct {
	branch Branch
}

func main() {
	t := Tree{branch: Branch{leaf: &Leaf{}}}
	t.branch.leaf.Ping()
}
