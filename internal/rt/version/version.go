// Package version compares the dotted version numbers libraries report
// ("0.3.21"), for decisions keyed to a library's known defects.
package version

import (
	"strconv"
	"strings"
)

// Less reports whether version a is below b, comparing dotted numeric
// parts in order; a missing or non-numeric part counts as 0, and a's
// parts may carry a leading "v".
func Less(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(strings.TrimLeft(as[i], "v"))
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}
