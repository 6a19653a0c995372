package cblas

import (
	"strings"
	"testing"

	"github.com/lapis-go/lapis"
)

// TestInfo checks that Info's facts agree with each other and logs them on
// one line (LAPIS_INFO|key=value|...), which scripts/docker-test.sh reads
// for its table.
func TestInfo(t *testing.T) {
	info := lapis.Info()
	switch info.Library {
	case "OpenBLAS":
		if info.Version == "" || !strings.HasPrefix(info.Config, "OpenBLAS "+info.Version) {
			t.Errorf("OpenBLAS version %q does not match its config %q", info.Version, info.Config)
		}
		if info.Parallel < 0 || info.Threads < 1 {
			t.Errorf("OpenBLAS with parallel mode %d, %d threads", info.Parallel, info.Threads)
		}
	case "MKL":
		// Version from MKLVersion, Config from mkl_get_version_string
		// and the layers loaded, Core the code path MKL dispatches to.
		if info.Version == "" || !strings.Contains(info.Config, "Version "+info.Version) || !strings.Contains(info.Config, "layers: libmkl_") || info.Core == "" {
			t.Errorf("MKL: version %q, config %q, core %q; want a version that the config names, its layers, a code path", info.Version, info.Config, info.Core)
		}
		if info.Parallel != -1 || info.Variant != "per-thread" || info.Threads < 1 {
			t.Errorf("MKL: parallel %d, variant %q, threads %d; want -1, per-thread, >= 1", info.Parallel, info.Variant, info.Threads)
		}
	case "BLIS":
		if info.Version == "" || info.Parallel != -1 || info.Threads != 1 {
			t.Errorf("BLIS: version %q, parallel %d, threads %d; want a version, -1, 1", info.Version, info.Parallel, info.Threads)
		}
	case "unknown":
		if info.Threads != 1 || info.Parallel != -1 || !strings.HasPrefix(info.Config, "unknown") {
			t.Errorf("unknown library: threads %d, parallel %d, config %q; want 1, -1, unknown", info.Threads, info.Parallel, info.Config)
		}
		if err := lapis.SetThreads(2); err == nil {
			t.Errorf("lapis.SetThreads on a library that is not OpenBLAS returned no error")
		}
	default:
		t.Errorf("Library %q", info.Library)
	}
	if info.IntBits != IntBits || info.LibraryIntBits != IntBits {
		t.Errorf("IntBits %d, LibraryIntBits %d; want %d", info.IntBits, info.LibraryIntBits, IntBits)
	}
	if info.Path == "" {
		t.Errorf("no path for cblas_dgemm's library")
	}
	if info.CPU == "" { // arm64 CPUs report no brand name
		t.Errorf("Info().CPU is empty")
	}
	t.Logf("LAPIS_INFO|library=%s|version=%s|path=%s|intbits=%d|threads=%d|parallel=%d|core=%s|variant=%s|config=%s|",
		info.Library, info.Version, info.Path, info.IntBits, info.Threads, info.Parallel, info.Core, info.Variant, strings.ReplaceAll(info.Config, "|", "/"))
}
