package cblas

import "github.com/lapis-go/lapis/internal/rt/threads"

// level3 starts a level-3 call of m*n*k work under the thread policy
// (internal/rt/threads); the caller ends it when the library returns.
func level3(m, n, k int) threads.Section {
	return threads.Begin(threads.Level3, float64(m)*float64(n)*float64(k))
}
