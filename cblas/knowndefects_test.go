package cblas

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/blasgo"
	"github.com/lapis-go/lapis/layout"
	"github.com/lapis-go/lapis/views"
)

// TestScasum checks complex64 Asum for every length up to 40 (the tail
// cases blasgo.CasumDefect names) on the C path, as the linked library
// runs it and with the Go sum lapis takes where the library is known to
// be wrong (gonumblas's rules_test.go checks its Scasum likewise).
func TestScasum(t *testing.T) {
	t.Logf("blasgo.CasumDefect: %q", blasgo.CasumDefect())
	for _, defect := range []string{blasgo.CasumDefect(), "forced"} {
		saved := blasgo.CasumDefect
		blasgo.CasumDefect = func() string { return defect }
		testScasum(t, defect)
		blasgo.CasumDefect = saved
	}
}

func testScasum(t *testing.T, defect string) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 40; n++ {
		x := make([]complex64, n)
		want := 0.0
		for i := range x {
			x[i] = complex(float32(rng.NormFloat64()), float32(rng.NormFloat64()))
			want += math.Abs(float64(real(x[i]))) + math.Abs(float64(imag(x[i])))
		}
		l, err := layout.ColMajor(n)
		if err != nil {
			t.Fatal(err)
		}
		v, err := views.FromSlice(x, l)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Asum(v, lapis.ForceC()); err != nil || math.Abs(got-want) > 1e-5*(1+want) {
			t.Errorf("%s (defect %q): complex64 Asum of %d elements = %v, %v; want %v", lapis.Info().Library, defect, n, got, err, want)
		}
	}
}
