package cblas

import "github.com/lapis-go/lapis/views"

// Scalar is the set of element types: views.Scalar.
type Scalar = views.Scalar
