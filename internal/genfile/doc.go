// Package genfile is what the module's table generators share: the
// line that marks a file as generated, the output path from the
// //go:generate line, and gofmt before the file is written.
//
//	lapack/internal/gen  --+
//	cblas/internal/gen   --+--> Header, Path, WriteGo
//	tiny's gentiny       --+
//
// Each generator builds its file's text itself; WriteGo writes what
// gofmt makes of it, as the generators did before, so no generated
// byte depends on this package beyond the header line.
package genfile
