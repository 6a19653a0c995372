package lapis_test

import (
	"errors"
	"testing"

	"github.com/lapis-go/lapis"
	_ "github.com/lapis-go/lapis/cblas" // registers the linked library
)

func TestConfigure(t *testing.T) {
	def := lapis.Configure()
	if def.Strict || def.Path != lapis.PathAuto || def.QRIteration || !def.ConditionCheck || def.UpperTriangle {
		t.Fatalf("defaults: %+v", def)
	}
	c := lapis.Configure(lapis.Strict(true), lapis.ForceC(), lapis.QRIteration(), lapis.NoConditionCheck(), lapis.UpperTriangle())
	if !c.Strict || c.Path != lapis.PathC || !c.QRIteration || c.ConditionCheck || !c.UpperTriangle {
		t.Fatalf("all set: %+v", c)
	}
	// Later options override earlier ones.
	c = lapis.Configure(lapis.ForceC(), lapis.ForcePureGo(), lapis.UpperTriangle(), lapis.LowerTriangle(), lapis.Strict(true), lapis.Strict(false))
	if c.Path != lapis.PathGo || c.UpperTriangle || c.Strict {
		t.Fatalf("overrides: %+v", c)
	}
	// The process-wide switch is the default Strict overrides.
	prev := lapis.SetStrict(true)
	defer lapis.SetStrict(prev)
	if !lapis.Configure().Strict || lapis.Configure(lapis.Strict(false)).Strict {
		t.Fatal("SetStrict(true) not the default, or Strict(false) not overriding it")
	}
	if !lapis.SetStrict(prev) {
		t.Fatal("SetStrict did not return the previous setting")
	}
	lapis.SetStrict(true)
}

func TestSettings(t *testing.T) {
	before := lapis.ThreadPolicy()
	for _, n := range []int{-1, 100000} {
		if err := lapis.SetThreads(n); !errors.Is(err, lapis.ErrInvalid) || lapis.ThreadPolicy() != before {
			t.Fatalf("SetThreads(%d): %v, policy %q (was %q)", n, err, lapis.ThreadPolicy(), before)
		}
	}
	info := lapis.Info()
	if info.Library == "none" {
		t.Fatal("Info: no library registered although cblas is linked")
	}
	if info.Kernels != lapis.KernelSet() {
		t.Fatalf("Info().Kernels %+v, KernelSet() %+v", info.Kernels, lapis.KernelSet())
	}
	if info.Library == "OpenBLAS" {
		if err := lapis.SetThreads(2); err != nil {
			t.Fatal(err)
		}
		if lapis.Threads() != 2 || lapis.ThreadPolicy() != "fixed 2" {
			t.Fatalf("after SetThreads(2): Threads %d, policy %q", lapis.Threads(), lapis.ThreadPolicy())
		}
		if err := lapis.SetThreads(lapis.AutoThreads); err != nil {
			t.Fatal(err)
		}
	}
	def := lapis.Workers()
	prev, err := lapis.SetWorkers(3)
	if err != nil || prev != def || lapis.Workers() != 3 {
		t.Fatalf("SetWorkers(3): %d, %v; Workers %d", prev, err, lapis.Workers())
	}
	if _, err := lapis.SetWorkers(-5); !errors.Is(err, lapis.ErrInvalid) || lapis.Workers() != 3 {
		t.Fatalf("SetWorkers(-5): %v, Workers %d", err, lapis.Workers())
	}
	if prev, err := lapis.SetWorkers(lapis.AutoWorkers); err != nil || prev != 3 || lapis.Workers() != def {
		t.Fatalf("SetWorkers(AutoWorkers): %d, %v; Workers %d, want the default %d", prev, err, lapis.Workers(), def)
	}
	s0 := lapis.ReadStats()
	if s0.Calls < 0 || s0.Copies < 0 {
		t.Fatalf("stats %+v", s0)
	}
}
