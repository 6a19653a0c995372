package layout_test

import (
	"fmt"

	"github.com/lapis-go/lapis/layout"
)

// The views of the table in docs/layout.md, "Views", from an owned batch
// [2, 3, 2].
func Example() {
	a, _ := layout.ColMajor(2, 3, 2)
	m1, _ := a.Index(2, 1)
	m1t, _ := m1.T()
	row1, _ := a.Slice(0, 1, 2, 1)
	rev, _ := a.Reverse(1)
	bc, _ := a.BroadcastTo(2, 3, 2, 4)
	for _, l := range []layout.Layout{a, m1, m1t, row1, rev, bc} {
		m, ok := l.Matrix()
		fmt.Printf("%-38v %-16v %+v %v overlap=%v\n", l, l.Class(), m, ok, l.HasOverlap())
	}
	// Output:
	// shape [2 3 2] strides [1 2 6] offset 0 ColMajorPacked   {Rows:2 Cols:3 LD:2 Trans:false} true overlap=false
	// shape [2 3] strides [1 2] offset 6     ColMajorPacked   {Rows:2 Cols:3 LD:2 Trans:false} true overlap=false
	// shape [3 2] strides [2 1] offset 6     RowMajorPacked   {Rows:3 Cols:2 LD:2 Trans:true} true overlap=false
	// shape [1 3 2] strides [1 2 6] offset 1 ColMajorStrided  {Rows:1 Cols:3 LD:2 Trans:false} true overlap=false
	// shape [2 3 2] strides [1 -2 6] offset 4 General          {Rows:0 Cols:0 LD:0 Trans:false} false overlap=false
	// shape [2 3 2 4] strides [1 2 6 0] offset 0 ColMajorPacked   {Rows:2 Cols:3 LD:2 Trans:false} true overlap=true
}

// Reshape merges and splits axes by strides; when no strides can describe
// the result it says a copy is needed.
func ExampleLayout_Reshape() {
	a, _ := layout.ColMajor(2, 2, 3)
	lead, _ := a.Slice(0, 1, 2, 1) // shape [1 2 3] strides [1 2 4] offset 1
	flat, err := lead.Reshape(6)
	fmt.Println(flat, err)
	t, _ := a.Transpose(0, 1)
	_, err = t.Reshape(12)
	fmt.Println(err)
	// Output:
	// shape [6] strides [2] offset 1 <nil>
	// layout.Reshape: shape: [12] cannot be a view of shape [2 2 3] strides [2 1 4] offset 0: copy first (ToColMajor) and reshape the copy (reshape needs a copy)
}
