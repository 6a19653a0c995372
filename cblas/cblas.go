package cblas

//go:generate go run ./internal/gen zblas.go

import "github.com/lapis-go/lapis/views"

// Scalar is the set of element types: views.Scalar.
type Scalar = views.Scalar
