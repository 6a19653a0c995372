// Package known holds the known bugs and conventions of the libraries
// lapis is tested against, keyed to the library, version (and kernel
// set) lapis.Info reports at run time, so that a library without the bug
// runs the cases the others skip (docs/defects.md). Each function returns
// why a case is skipped, "" when it is not; Skip skips on a reason. The
// tests of cblas and gonumblas use it; only tests import it.
package known

import (
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/rt/version"
)

// Skip skips the test when why is not empty.
func Skip(t *testing.T, why string) {
	t.Helper()
	if why != "" {
		t.Skip(why)
	}
}

// Library names the library for the known-bug keys: Info's Library
// and Version, or for a CBLAS without OpenBLAS's or BLIS's extensions
// what Debian's file names tell: .../blas/libblas.so.3.11.0 is the netlib
// reference BLAS 3.11.0, .../blis-*/libblas.so.3 is BLIS (linked through
// -lblas, whose libblas.so.3 exports no BLIS symbols; version unknown).
func Library() (name, version string) {
	info := lapis.Info()
	if info.Library != "unknown" {
		return info.Library, info.Version
	}
	if m := regexp.MustCompile(`/blas/libblas\.so\.3\.([0-9.]+)$`).FindStringSubmatch(info.Path); m != nil {
		return "reference", "3." + m[1]
	}
	if strings.Contains(info.Path, "/blis") {
		return "BLIS", ""
	}
	return "unknown", ""
}

// ScalZeroNaN returns why the library's ?scal gives NaN for 0 * NaN (and
// 0 * Inf), where gonum's testblas Dscal expects the zeros OpenBLAS <
// 0.3.27 writes for alpha = 0: the reference BLAS multiplies (IEEE), and
// OpenBLAS does so too since 0.3.27 (OpenMathLib/OpenBLAS#4728, #4729).
// A difference of convention, not a wrong product: lapis's Scal passes
// the library's behaviour on.
func ScalZeroNaN() string {
	name, ver := Library()
	switch {
	case name == "reference":
		return fmt.Sprintf("reference BLAS %s's dscal computes 0 * NaN = NaN; gonum's testblas expects alpha = 0 to write zeros", ver)
	case name == "MKL":
		return fmt.Sprintf("MKL %s's dscal computes 0 * NaN = NaN as the reference BLAS does; gonum's testblas expects alpha = 0 to write zeros", ver)
	case name == "OpenBLAS" && !version.Less(ver, "0.3.27"):
		return fmt.Sprintf("OpenBLAS %s's dscal computes 0 * NaN = NaN as the reference BLAS does (OpenMathLib/OpenBLAS#4728, since 0.3.27); gonum's testblas expects alpha = 0 to write zeros", ver)
	}
	return ""
}

// RotmgRescale returns why the library's drotmg is known to return a
// wrong H when it rescales (H's implied elements overwrite the scaled
// ones, so drotm does not zero y1): the reference BLAS up to 3.11
// (Debian 12's 3.11.0; Reference-LAPACK/lapack#244, fixed upstream by
// #1284, so a newer reference runs the suite) and BLIS, whose
// drotmg is the reference one (Debian 12's 0.9.0). OpenBLAS fixed its
// copy in 0.3.0 (OpenMathLib/OpenBLAS#1452, #1480); gonum's Drotmg is the
// corrected algorithm the suite checks against.
func RotmgRescale() string {
	name, ver := Library()
	switch {
	case name == "reference" && version.Less(ver, "3.12"):
		return fmt.Sprintf("reference BLAS %s's drotmg rescales H wrongly (Reference-LAPACK/lapack#244)", ver)
	case name == "BLIS":
		return "BLIS's drotmg is the reference one and rescales H wrongly (Reference-LAPACK/lapack#244)"
	case name == "MKL":
		// Measured with MKL 2020.0.4 (scripts/docker-test.sh mkl): d2 =
		// 3.36e17 and H / 4096^2 where gonum's has 1191.97 and H, one
		// rescaling short; d1, d2 off in the 13th digit elsewhere; for d1
		// = 0 h22 = 2 where gonum's H is all zeros.
		return fmt.Sprintf("MKL %s's drotmg leaves d1, d2 outside gonum's rescaling range (the same transformation scaled by powers of 4096), rounds differently, and fills h22 for d1 = 0 (docs/defects.md)", ver)
	}
	return ""
}

// Nrm2Infs returns why the library's dnrm2 is known to get infinities
// wrong (the C path of Nrm2 and the gonum adapter's Dnrm2 meet it; Nrm2
// runs in Go by default): BLIS before flame/blis#668 (in 1.0) gives NaN
// for several infinities (Inf/Inf in its scaling; Debian 12 has 0.9.0,
// whose version the -lblas route cannot read, so BLIS is taken as
// affected); OpenBLAS 0.3.21 on arm64 gets one
// case wrong on every kernel set, found by the arm64 Docker variant under
// qemu: nrm2.S (armv8, cortexa53/57/72/73, falkor, thunderx, tsv110,
// emag8180) gives NaN for several infinities, the thunderx2t99 kernel
// (thunderx2t99, neoversen1, neoversev1, neoversen2) +Inf for an infinity
// beside a NaN. Later OpenBLAS versions run the cases.
func Nrm2Infs() string {
	name, ver := Library()
	switch {
	case name == "BLIS":
		return "BLIS 0.9's dnrm2 gives NaN for several infinities (fixed by flame/blis#668 in 1.0)"
	case name == "MKL":
		return fmt.Sprintf("MKL %s's dnrm2 gives NaN for [-Inf, -Inf] (docs/defects.md)", ver)
	case name == "OpenBLAS" && runtime.GOARCH == "arm64" && !version.Less("0.3.21", ver):
		return fmt.Sprintf("OpenBLAS %s's arm64 dnrm2 kernels get infinities wrong: NaN for several on nrm2.S's sets, +Inf for an infinity beside a NaN on thunderx2t99's (%s now)", ver, lapis.Info().Core)
	}
	return ""
}
