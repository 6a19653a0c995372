package layout

import "math"

// Overflow-checked int arithmetic. Every product and sum that computes an
// extent, a stride, a length or an offset goes through these.

// mulOK returns a*b and whether it fits in an int.
func mulOK(a, b int) (int, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == math.MinInt) || (b == -1 && a == math.MinInt) {
		return 0, false
	}
	return c, true
}

// addOK returns a+b and whether it fits in an int.
func addOK(a, b int) (int, bool) {
	c := a + b
	if (b > 0 && c < a) || (b < 0 && c > a) {
		return 0, false
	}
	return c, true
}
