module github.com/lapis-go/lapis

go 1.26
