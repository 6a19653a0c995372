package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/bench/family"
)

// bench runs the families of package bench/family (family.All) and prints
// them as Markdown tables, JSON (-json) or go test -bench text
// (-benchfmt, for benchstat and bench/report); -out writes all three and
// a chart per family (FAMILY.png). It is the benchmarks' one harness:
// scripts/bench-*.sh run their families through it.

// intList parses "16,64,256".
func intList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive size", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no sizes in %q", s)
	}
	return out, nil
}

// familyNames lists every family's name.
func familyNames() []string {
	var names []string
	for _, f := range family.All() {
		names = append(names, f.Name)
	}
	return names
}

// isTerminal reports whether w is a terminal (the progress line's \r
// would litter a file or pipe).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func benchCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lapis bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "fewer sizes and a shorter time per measurement (under a minute in all)")
	famList := fs.String("families", "", "families to run, comma-separated (default all: "+strings.Join(familyNames(), ",")+")")
	sizes := map[string][]int{}
	fs.Func("sizes", "FAMILY=N,N,...: the sizes n of one family (repeatable), e.g. -sizes gemm=64,256", func(s string) error {
		name, list, ok := strings.Cut(s, "=")
		if !ok || !slices.Contains(familyNames(), name) {
			return fmt.Errorf("%q: want FAMILY=N,N,... with FAMILY one of %s", s, strings.Join(familyNames(), ","))
		}
		v, err := intList(list)
		if err != nil {
			return err
		}
		sizes[name] = v
		return nil
	})
	budget := fs.Duration("time", 0, "time budget per measurement, split over its -count batches (default 100ms; 15ms with -quick)")
	count := fs.Int("count", 0, fmt.Sprintf("batches of calls per measurement, after a warm-up call; each figure is their median, numpy's too (default %d; 3 with -quick)", family.DefaultCount))
	outDir := fs.String("out", "", "write bench.md, bench.json, bench.txt (go test -bench format) and a chart per family (FAMILY.png) to this directory")
	asJSON := fs.Bool("json", false, "print the measurements as JSON instead of tables")
	benchfmt := fs.Bool("benchfmt", false, "print the measurements in go test -bench format (benchstat, bench/report) instead of tables")
	threads := fs.Int("threads", 0, "OpenBLAS threads per call during the run (lapis.SetThreads; 0: lapis's default policy). The C reference and numpy get the same count")
	noNumpy := fs.Bool("nonumpy", false, "do not run numpy even when python3 has it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	o := family.Options{Sizes: sizes, Quick: *quick, Budget: 100 * time.Millisecond}
	if isTerminal(stderr) {
		o.Progress = stderr
	}
	if *quick {
		o.Budget = 15 * time.Millisecond
	}
	if *budget > 0 {
		o.Budget = *budget
	}
	switch {
	case *count < 0:
		fmt.Fprintf(stderr, "lapis bench: -count %d: want at least 1\n", *count)
		return 2
	case *count > 0:
		o.Count = *count
	case *quick:
		o.Count = 3
	}
	if *famList != "" {
		for _, name := range strings.Split(*famList, ",") {
			if !slices.Contains(familyNames(), name) {
				fmt.Fprintf(stderr, "lapis bench: -families: unknown family %q (families: %s)\n", name, strings.Join(familyNames(), ","))
				return 2
			}
			o.Families = append(o.Families, name)
		}
	}
	if *threads > 0 {
		restore := family.SaveThreads()
		if err := lapis.SetThreads(*threads); err != nil {
			fmt.Fprintln(stderr, "lapis bench: -threads:", err)
			return 2
		}
		defer restore()
	}
	numpyNote := "numpy: not run (-nonumpy)"
	if !*noNumpy {
		o.Numpy, numpyNote = family.FindNumpy()
	}
	ms, err := family.Run(o)
	if err != nil {
		fmt.Fprintln(stderr, "lapis bench:", err)
		return 2
	}
	md := family.Markdown(o, ms, numpyNote, false)
	js, err := json.MarshalIndent(ms, "", "  ")
	if err != nil {
		fmt.Fprintln(stderr, "lapis bench:", err)
		return 2
	}
	var txt strings.Builder
	if err := family.WriteBenchmarks(&txt, ms); err != nil {
		fmt.Fprintln(stderr, "lapis bench:", err)
		return 2
	}
	switch {
	case *asJSON:
		fmt.Fprintf(stdout, "%s\n", js)
	case *benchfmt:
		fmt.Fprint(stdout, txt.String())
	default:
		fmt.Fprint(stdout, md)
	}
	if *outDir != "" {
		if err := writeOut(*outDir, o, ms, numpyNote, js, txt.String()); err != nil {
			fmt.Fprintln(stderr, "lapis bench:", err)
			return 2
		}
		fmt.Fprintf(stderr, "wrote bench.md, bench.json, bench.txt and a chart per family (FAMILY.png) to %s\n", *outDir)
	}
	return 0
}

// writeOut writes bench's files to dir: bench.md (the tables, each with a
// link to its chart), bench.json, bench.txt and FAMILY.png for each
// family that measured something.
func writeOut(dir string, o family.Options, ms []family.Measurement, numpyNote string, js []byte, txt string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	md := family.Markdown(o, ms, numpyNote, true)
	type file struct {
		name string
		data []byte
	}
	files := []file{{"bench.md", []byte(md)}, {"bench.json", append(js, '\n')}, {"bench.txt", []byte(txt)}}
	for _, f := range o.Selected() {
		var png bytes.Buffer
		if err := family.WriteChart(&png, f, ms); err != nil {
			return err
		}
		files = append(files, file{family.ChartFile(f), png.Bytes()})
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
