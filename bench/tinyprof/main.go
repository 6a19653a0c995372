// Command tinyprof is the instruction profile of batch's tiny operations
// (docs/bench/mkl.md, "Where the time goes"): it runs one operation on
// 10000 float64 matrices for callgrind, and reads callgrind's per-
// instruction counts back by instruction class. scripts/profile-tiny.sh
// runs it for every operation, order and layout.
//
//	tinyprof run OP N LAYOUT       OP solve, cholesky, inv or det; LAYOUT compact or inner
//	tinyprof classify OUT BINARY   OUT from valgrind --tool=callgrind --dump-instr=yes
//
// classify prints, per matrix, the instructions of the tiny kernels and
// their load and store routines, then by class (divisions and square
// roots, FMAs, blends, shuffles and gathers, instructions that read
// memory, that write it), then lapis's other instructions ("Go side"),
// separated by " | ".
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/batch"
	"github.com/lapis-go/lapis/views"
)

const count = 10000

func main() {
	if len(os.Args) == 5 && os.Args[1] == "run" {
		n, err := strconv.Atoi(os.Args[3])
		if err == nil {
			err = run(os.Args[2], n, os.Args[4] == "inner")
		}
		exit(err)
	}
	if len(os.Args) == 4 && os.Args[1] == "classify" {
		exit(classify(os.Args[2], os.Args[3]))
	}
	exit(fmt.Errorf("usage: tinyprof run OP N LAYOUT | tinyprof classify OUT BINARY"))
}

func exit(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "tinyprof:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// batchOf returns count diagonally dominant matrices [n, cols, count],
// compact or with the batch axis innermost.
func batchOf(n, cols int, inner bool, fill func(i, j int) float64) (views.View[float64], error) {
	s := make([]float64, n*cols*count)
	for t := range count {
		for j := range cols {
			for i := range n {
				if inner {
					s[t+count*(i+n*j)] = fill(i, j)
				} else {
					s[t*n*cols+i+n*j] = fill(i, j)
				}
			}
		}
	}
	if inner {
		v, err := views.FromColMajor(s, count, n, cols)
		if err != nil {
			return views.View[float64]{}, err
		}
		return v.View().Permute(1, 2, 0)
	}
	v, err := views.FromColMajor(s, n, cols, count)
	if err != nil {
		return views.View[float64]{}, err
	}
	return v.View(), nil
}

// run runs op once, one worker, no conditioning check.
func run(op string, n int, inner bool) error {
	if _, err := lapis.SetWorkers(1); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	a, err := batchOf(n, n, inner, func(i, j int) float64 {
		v := 0.1 * (rng.Float64() - 0.5)
		if i == j {
			v += float64(n)
		}
		return v
	})
	if err != nil {
		return err
	}
	zero := func(int, int) float64 { return 0 }
	x, _ := batchOf(n, n, inner, zero)
	b, _ := batchOf(n, 1, inner, func(int, int) float64 { return 1 })
	xb, _ := batchOf(n, 1, inner, zero)
	switch op {
	case "cholesky":
		return batch.CholeskyTo(batch.Lower, x, a)
	case "inv":
		return batch.InvTo(x, a, lapis.NoConditionCheck())
	case "solve":
		return batch.SolveTo(xb, a, b, lapis.NoConditionCheck())
	case "det":
		_, err := batch.Det(a)
		return err
	}
	return fmt.Errorf("no operation %q", op)
}

// classify reads callgrind's self cost per instruction address from out
// and the binary's disassembly (objdump), and prints the classes.
func classify(out, binary string) error {
	cost, err := costs(out)
	if err != nil {
		return err
	}
	dis, err := exec.Command("objdump", "-d", "--no-show-raw-insn", binary).Output()
	if err != nil {
		return fmt.Errorf("objdump: %v", err)
	}
	symRe := regexp.MustCompile(`^([0-9a-f]+) <(.*)>:$`)
	insRe := regexp.MustCompile(`^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$`)
	// The kernels (tiny.<name>.abi0) and their routines (dload..., dstore...).
	routineRe := regexp.MustCompile(`^(d|s)(z|zt|t)?(load|store)`)
	classes := map[string]float64{}
	var kernel, goSide float64
	sym := ""
	sc := bufio.NewScanner(strings.NewReader(string(dis)))
	for sc.Scan() {
		line := sc.Text()
		if m := symRe.FindStringSubmatch(line); m != nil {
			sym = m[2]
			continue
		}
		m := insRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		addr, _ := strconv.ParseUint(m[1], 16, 64)
		c, ok := cost[addr]
		if !ok {
			continue
		}
		mn, ops := m[2], m[3]
		if !(strings.Contains(sym, "kernel/tiny.") && strings.HasSuffix(sym, ".abi0")) && !routineRe.MatchString(sym) {
			if strings.Contains(sym, "lapis-go/lapis") {
				goSide += c
			}
			continue
		}
		kernel += c
		mem := strings.Contains(ops, "(")
		store := mem && (strings.HasPrefix(mn, "vmov") || strings.HasPrefix(mn, "mov")) && strings.HasSuffix(strings.TrimSpace(ops), ")")
		switch {
		case strings.HasPrefix(mn, "vdiv") || strings.HasPrefix(mn, "vsqrt"):
			classes["div, sqrt"] += c
		case strings.HasPrefix(mn, "vfmadd") || strings.HasPrefix(mn, "vfnmadd") || strings.HasPrefix(mn, "vfmsub") || strings.HasPrefix(mn, "vfnmsub"):
			classes["FMA"] += c
		case strings.HasPrefix(mn, "vblend"):
			classes["blend"] += c
		case strings.HasPrefix(mn, "vperm") || strings.HasPrefix(mn, "vshuf") || strings.HasPrefix(mn, "vunpck") || strings.HasPrefix(mn, "vinsert") || strings.HasPrefix(mn, "vextract") || strings.HasPrefix(mn, "vgather"):
			classes["shuffle, gather"] += c
		}
		switch {
		case store:
			classes["stores"] += c
		case mem:
			classes["loads"] += c
		}
	}
	// The columns of profile-tiny.sh's table.
	fmt.Printf("%.0f", kernel/count)
	for _, k := range []string{"div, sqrt", "FMA", "blend", "shuffle, gather", "loads", "stores"} {
		fmt.Printf(" | %.2f", classes[k]/count)
	}
	fmt.Printf(" | %.1f\n", goSide/count)
	return nil
}

// costs reads the self cost of each instruction address from a
// callgrind output written with --dump-instr=yes (positions "instr
// line", absolute or relative to the line before; a calls= line's next
// line is the call's inclusive cost, not counted).
func costs(out string) (map[uint64]float64, error) {
	f, err := os.Open(out)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cost := map[uint64]float64{}
	var addr int64
	skip := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "calls=") {
			skip = true
			continue
		}
		if line == "" || !strings.ContainsAny(line[:1], "+-*0123456789") {
			continue
		}
		f := strings.Fields(line)
		switch a := f[0]; {
		case strings.HasPrefix(a, "0x"):
			v, _ := strconv.ParseUint(a[2:], 16, 64)
			addr = int64(v)
		case strings.HasPrefix(a, "+"):
			v, _ := strconv.ParseInt(a[1:], 0, 64)
			addr += v
		case strings.HasPrefix(a, "-"):
			v, _ := strconv.ParseInt(a[1:], 0, 64)
			addr -= v
		}
		if skip {
			skip = false
			continue
		}
		if len(f) >= 3 {
			v, _ := strconv.ParseFloat(f[len(f)-1], 64)
			cost[uint64(addr)] += v
		}
	}
	return cost, sc.Err()
}
