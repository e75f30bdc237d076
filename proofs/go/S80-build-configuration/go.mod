module proof

go 1.21
