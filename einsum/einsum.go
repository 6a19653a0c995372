package einsum

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/views"
)

// Contract returns the contraction given by numpy's subscripts (Parse) of
// the operands, as a new compact column-major tensor (from the pool:
// Release it when done). It is ContractTo into views.Zeros. Errors are
// Parse's, NewPlan's and Execute's, named einsum.Contract, and
// lapis.ErrTooLarge for a result beyond memory.
func Contract[T Scalar](subscripts string, ops ...views.View[T]) (*views.Tensor[T], error) {
	const op = "einsum.Contract"
	s, err := Parse(subscripts)
	if err != nil {
		return nil, errop.Rename(err, op)
	}
	for k := range ops {
		name := fmt.Sprintf("ops[%d]", k)
		if ops[k].IsZero() {
			return nil, errop.ZeroView(op, name)
		}
		if err := ops[k].CheckLive(op, name); err != nil {
			return nil, err
		}
	}
	pr, err := resolve(&s, ops, nil)
	if err != nil {
		return nil, errop.Rename(err, op)
	}
	t, err := views.Zeros[T](pr.shape()...)
	if err != nil {
		return nil, errop.Rename(err, op)
	}
	if err := run(s, t.View(), ops); err != nil {
		t.Release()
		return nil, errop.Rename(err, op)
	}
	return t, nil
}

// ContractTo sets dst to the contraction given by numpy's subscripts
// (Parse) of the operands. dst may have any layout; it must not share
// memory with an operand. The plan (path, lowering, workspace layout) is
// cached by subscripts, element type and the operands' and dst's layouts;
// the workspace is allocated per call (Plan.Execute takes one).
// Errors are Parse's, NewPlan's and Execute's, named einsum.ContractTo.
func ContractTo[T Scalar](dst views.View[T], subscripts string, ops ...views.View[T]) error {
	s, err := Parse(subscripts)
	if err == nil {
		err = run(s, dst, ops)
	}
	return errop.Rename(err, "einsum.ContractTo")
}

// run executes s through a cached plan, with alpha 1 and beta 0.
func run[T Scalar](s Spec, dst views.View[T], ops []views.View[T]) error {
	key := cacheKey(s, dst, ops)
	var p *Plan[T]
	if v, ok := plans.Load(key); ok {
		p = v.(*Plan[T]) // Execute checks the views
	} else {
		// Execute's checks first: an overlap is an error before strict
		// mode's refusal of a copy, which NewPlan returns.
		if err := usable("einsum.Execute", &dst, ops, false); err != nil {
			return err
		}
		var err error
		if p, err = NewPlan(s, dst, ops, Options{}); err != nil {
			return err
		}
		if plans.n.Add(1) > maxPlans {
			plans.Clear()
			plans.n.Store(0)
		}
		plans.Store(key, p)
	}
	return p.Execute(1, ops, 0, dst, nil)
}

// maxPlans bounds the plan cache: past it, the cache starts over.
const maxPlans = 512

// plans caches plans by cacheKey.
var plans struct {
	sync.Map
	n atomic.Int64
}

// cacheKey is what a plan depends on: the subscripts, the element type and
// every view's layout and conjugation flag.
func cacheKey[T Scalar](s Spec, dst views.View[T], ops []views.View[T]) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%T|%s|%s %v", *new(T), s.text, dst.Layout().String(), dst.IsConj())
	for _, v := range ops {
		fmt.Fprintf(&b, "|%s %v", v.Layout().String(), v.IsConj())
	}
	return b.String()
}
