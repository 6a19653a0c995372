package cblas

//go:generate go run ./internal/gen zblas.go

/*
#cgo pkg-config: openblas
#include <cblas.h>

// openblas_get_num_threads and friends are declared in cblas.h by OpenBLAS.
*/
import "C"

import "github.com/lapis-go/lapis/views"

// Scalar is the set of element types: views.Scalar.
type Scalar = views.Scalar
