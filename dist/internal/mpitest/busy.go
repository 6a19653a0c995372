package main

import (
	"fmt"
	"time"

	"github.com/lapis-go/lapis/dist"
)

// busy keeps every rank in ScaLAPACK for up to d: Gesv of a 400 x 400
// system on the squarest grid, over and over, rank 0 printing each
// iteration. scripts/dist-docker.sh kills one rank's container while this
// runs and checks that the job fails within its timeout instead of
// hanging (it prints "PASS busy" only if nothing stopped it).
func busy(d time.Duration) {
	p := 1
	for q := 1; q*q <= dist.Size(); q++ {
		if dist.Size()%q == 0 {
			p = q
		}
	}
	g, err := dist.NewGrid(p, dist.Size()/p)
	must(err)
	const n, nb = 400, 32
	a, err := dist.New[float64](g, n, n, nb, nb)
	must(err)
	b, err := dist.New[float64](g, n, 1, nb, nb)
	must(err)
	start := time.Now()
	for it := 1; ; it++ {
		a.Fill(func(i, j int) float64 {
			if i == j {
				return float64(n)
			}
			return float64((i*7+j*3)%11) / 11
		})
		b.Fill(func(i, j int) float64 { return 1 })
		if _, err := dist.Gesv(a, b); err != nil {
			failf("busy: Gesv: %v", err)
			break
		}
		// Every rank stops at the same iteration: rank 0's clock decides.
		stop := 0
		if dist.Rank() == 0 {
			fmt.Printf("busy: iteration %d done after %.1f s\n", it, time.Since(start).Seconds())
			if time.Since(start) > d {
				stop = 1
			}
		}
		stop, err = dist.AllMaxInt(stop)
		must(err)
		if stop == 1 {
			break
		}
	}
	a.Release()
	b.Release()
	must(g.Exit())
}
