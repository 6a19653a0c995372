package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"

	"github.com/klauspost/cpuid/v2"

	"github.com/lapis-go/lapis"
	tk "github.com/lapis-go/lapis/internal/kernel/tiny"
	"github.com/lapis-go/lapis/views"
)

// Info is what `lapis info` reports (and -json prints).
type Info struct {
	Library string `json:"library"` // "OpenBLAS", "BLIS" or "unknown" (lapis.Info)
	Version string `json:"version"` // the library's own version, "" when unknown
	Path    string `json:"path"`    // the file cblas_dgemm was loaded from
	Config  string `json:"config"`  // openblas_get_config()
	Core    string `json:"core"`    // openblas_get_corename(): the kernel set in use
	// Kernels is how the set in use was chosen (lapis.KernelSet);
	// KernelSets the sets this OpenBLAS has and this CPU can run.
	Kernels    lapis.KernelChoice `json:"kernels"`
	KernelSets []string           `json:"kernel_sets"`
	Threads    int                `json:"threads"`   // OpenBLAS threads per call
	Parallel   int                `json:"parallel"`  // openblas_get_parallel(): 0, 1, 2; -1 not OpenBLAS
	Threading  string             `json:"threading"` // Parallel in words: serial, pthreads, OpenMP, unknown
	IntBits    int                `json:"int_bits"`  // the BLAS integer lapis was compiled for
	// LibraryIntBits is the width the library reports; lapis refuses to
	// call a library whose width differs from IntBits.
	LibraryIntBits int `json:"library_int_bits"`
	// Loaded lists the shared objects mapped into this process
	// (/proc/self/maps), in the order they are mapped.
	Loaded []string `json:"loaded"`
	CPU    CPUInfo  `json:"cpu"`
	// Env holds the environment variables that change what BLAS does
	// (OPENBLAS_*, OMP_*, GOTO_*, BLIS_*, MKL_*, GOMAXPROCS, LD_*).
	Env map[string]string `json:"env"`
	// Policy lists the thread and worker settings lapis applies.
	Policy []Setting `json:"policy"`
	// TinyKernels names the set of batch's tiny-matrix kernels this CPU
	// runs: avx512 (Intel's, gathers and scatters), avx512-noscatter
	// (AMD's), avx2 or go.
	TinyKernels string `json:"tiny_kernels"`
	Go          GoInfo `json:"go"`
}

// CPUInfo is the CPU as cpuid reports it.
type CPUInfo struct {
	Model         string   `json:"model"`
	Vendor        string   `json:"vendor"`
	Family        int      `json:"family"`
	ModelNumber   int      `json:"model_number"`
	X64Level      int      `json:"x64_level,omitempty"` // x86-64 microarchitecture level (1-4)
	LogicalCores  int      `json:"logical_cores"`
	PhysicalCores int      `json:"physical_cores"`
	Features      []string `json:"features"`     // those that matter to BLAS kernels (lapis.Info)
	AllFeatures   []string `json:"all_features"` // everything cpuid detects
	L1D           int      `json:"l1d_bytes"`
	L1I           int      `json:"l1i_bytes"`
	L2            int      `json:"l2_bytes"`
	L3            int      `json:"l3_bytes"`
	CacheLine     int      `json:"cache_line_bytes"`
}

// GoInfo is the Go side of the process.
type GoInfo struct {
	Version    string `json:"version"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	NumCPU     int    `json:"num_cpu"`
}

// Setting is one knob of lapis's thread policy: its name, its value now,
// and what sets it.
type Setting struct {
	Name  string `json:"name"`
	Value int    `json:"value"`
	Doc   string `json:"doc"`
}

// threadPolicy returns the settings lapis applies to threads. Add new
// knobs here (one line each) as cblas, batch and views grow them.
func threadPolicy() []Setting {
	return []Setting{
		{"blas_threads", lapis.Threads(), "most threads one OpenBLAS call may use (lapis.SetThreads fixes it, AutoThreads returns to the policy; OPENBLAS_NUM_THREADS and GOMAXPROCS at start)"},
		{"batch_workers", lapis.Workers(), "goroutines that run a batch's chunks, each calling BLAS/LAPACK (batch.SetWorkers; default GOMAXPROCS)"},
		{"copy_goroutines", views.CopyThreads(), "goroutines one large copy may use (views.SetCopyThreads; default GOMAXPROCS)"},
	}
}

// threading names openblas_get_parallel's answer.
func threading(parallel int, variant string) string {
	if variant == "per-thread" {
		return "per calling thread (MKL)"
	}
	switch parallel {
	case 0:
		return "serial"
	case 1:
		return "pthreads"
	case 2:
		return "OpenMP"
	}
	return "unknown (not OpenBLAS)"
}

// collectInfo gathers Info.
func collectInfo() Info {
	ci := lapis.Info()
	info := Info{
		Library:        ci.Library,
		Version:        ci.Version,
		Path:           ci.Path,
		Config:         ci.Config,
		Core:           ci.Core,
		Kernels:        ci.Kernels,
		KernelSets:     lapis.KernelSets(),
		Threads:        ci.Threads,
		Parallel:       ci.Parallel,
		Threading:      threading(ci.Parallel, ci.Variant),
		IntBits:        ci.IntBits,
		LibraryIntBits: ci.LibraryIntBits,
		Loaded:         loadedObjects(),
		CPU: CPUInfo{
			Model:         ci.CPU,
			Vendor:        cpuid.CPU.VendorString,
			Family:        cpuid.CPU.Family,
			ModelNumber:   cpuid.CPU.Model,
			X64Level:      cpuid.CPU.X64Level(),
			LogicalCores:  ci.LogicalCores,
			PhysicalCores: cpuid.CPU.PhysicalCores,
			Features:      ci.Features,
			AllFeatures:   cpuid.CPU.FeatureSet(),
			L1D:           ci.L1D,
			L1I:           cpuid.CPU.Cache.L1I,
			L2:            ci.L2,
			L3:            ci.L3,
			CacheLine:     ci.CacheLine,
		},
		Env:    blasEnv(os.Environ()),
		Policy: threadPolicy(),

		TinyKernels: tk.Impl(),
		Go: GoInfo{
			Version:    runtime.Version(),
			OS:         runtime.GOOS,
			Arch:       runtime.GOARCH,
			GOMAXPROCS: runtime.GOMAXPROCS(0),
			NumCPU:     runtime.NumCPU(),
		},
	}
	if info.Loaded == nil {
		info.Loaded = []string{}
	}
	return info
}

// envPrefixes are the variables that change which BLAS is loaded or how
// it runs.
var envPrefixes = []string{"OPENBLAS_", "OMP_", "GOTO_", "BLIS_", "MKL_", "GOMAXPROCS", "GODEBUG", "LD_LIBRARY_PATH", "LD_PRELOAD"}

// blasEnv picks the relevant variables out of environ.
func blasEnv(environ []string) map[string]string {
	env := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		for _, p := range envPrefixes {
			if strings.HasPrefix(k, p) {
				env[k] = v
				break
			}
		}
	}
	return env
}

// loadedObjects returns the shared objects mapped into this process, from
// /proc/self/maps (nil where there is no such file).
func loadedObjects() []string {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil
	}
	defer f.Close()
	return parseMaps(f)
}

// parseMaps returns the distinct shared objects (".so" files) named in a
// /proc/<pid>/maps listing, in order of first appearance.
func parseMaps(r io.Reader) []string {
	var out []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		// address perms offset dev inode path
		f := strings.Fields(sc.Text())
		if len(f) < 6 {
			continue
		}
		p := strings.Join(f[5:], " ")
		base := p[strings.LastIndexByte(p, '/')+1:]
		if !strings.HasPrefix(p, "/") || !(strings.HasSuffix(base, ".so") || strings.Contains(base, ".so.")) || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

func infoCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lapis info", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	sets := fs.Bool("sets", false, "print only the kernel sets this OpenBLAS has and this CPU runs, one a line")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *sets {
		for _, s := range lapis.KernelSets() {
			fmt.Fprintln(stdout, s)
		}
		return 0
	}
	info := collectInfo()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(info); err != nil {
			fmt.Fprintln(stderr, "lapis info:", err)
			return 2
		}
		return 0
	}
	fmt.Fprint(stdout, info.text())
	return 0
}

// text formats Info for people.
func (i Info) text() string {
	var b strings.Builder
	p := func(k, format string, a ...any) {
		fmt.Fprintf(&b, "%-16s"+format+"\n", append([]any{k + ":"}, a...)...)
	}
	orUnknown := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	p("library", "%s %s", i.Library, i.Version)
	p("loaded from", "%s", orUnknown(i.Path))
	p("config", "%s", i.Config)
	p("core (kernels)", "%s", i.Core)
	if i.Kernels.Reason != "" {
		p("  chosen", "%s", i.Kernels.Reason)
	}
	if len(i.KernelSets) > 0 {
		p("  available", "%s (LAPIS_OPENBLAS_CORE=<name> runs one)", strings.Join(i.KernelSets, " "))
	}
	if i.Kernels.Below() {
		p("  WARNING", "%s needs only x86-64-v%d on this x86-64-v%d CPU: BLAS runs slower than it could (unset OPENBLAS_CORETYPE, or LAPIS_OPENBLAS_CORE=auto)", i.Core, i.Kernels.InUseLevel, i.Kernels.CPULevel)
	}
	p("threads", "%d per call, %s", i.Threads, i.Threading)
	p("integer", "%d-bit (library reports %d-bit)", i.IntBits, i.LibraryIntBits)
	p("CPU", "%s (%s family %d model %d), %d logical / %d physical cores", i.CPU.Model, i.CPU.Vendor, i.CPU.Family, i.CPU.ModelNumber, i.CPU.LogicalCores, i.CPU.PhysicalCores)
	level := ""
	if i.CPU.X64Level > 0 {
		level = fmt.Sprintf(" (x86-64-v%d)", i.CPU.X64Level)
	}
	p("CPU features", "%s%s; %d in all (-json lists them)", strings.Join(i.CPU.Features, " "), level, len(i.CPU.AllFeatures))
	p("caches", "L1d %s, L1i %s, L2 %s, L3 %s, line %d B", size(i.CPU.L1D), size(i.CPU.L1I), size(i.CPU.L2), size(i.CPU.L3), i.CPU.CacheLine)
	p("Go", "%s %s/%s, GOMAXPROCS %d, NumCPU %d", i.Go.Version, i.Go.OS, i.Go.Arch, i.Go.GOMAXPROCS, i.Go.NumCPU)
	p("tiny kernels", "%s (batch's orders 2-8)", i.TinyKernels)
	fmt.Fprintf(&b, "thread policy:  %s\n", lapis.ThreadPolicy())
	for _, s := range i.Policy {
		fmt.Fprintf(&b, "  %-16s%-4d %s\n", s.Name, s.Value, s.Doc)
	}
	b.WriteString("environment:\n")
	keys := make([]string, 0, len(i.Env))
	for k := range i.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		b.WriteString("  (none of OPENBLAS_*, OMP_*, GOMAXPROCS, LD_LIBRARY_PATH, ... is set)\n")
	}
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s=%s\n", k, i.Env[k])
	}
	b.WriteString("shared objects loaded:\n")
	for _, o := range i.Loaded {
		mark := ""
		if o == i.Path {
			mark = "   <- BLAS (cblas_dgemm)"
		}
		fmt.Fprintf(&b, "  %s%s\n", o, mark)
	}
	return b.String()
}

// size formats a byte count (negative: unknown).
func size(n int) string {
	switch {
	case n < 0:
		return "unknown"
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
