package batch

import (
	"github.com/lapis-go/lapis"
	"github.com/lapis-go/lapis/internal/finite"
	"github.com/lapis-go/lapis/internal/rt/cond"
	"github.com/lapis-go/lapis/internal/rt/errop"
	"github.com/lapis-go/lapis/internal/scalar"
	"github.com/lapis-go/lapis/internal/strided"
	"github.com/lapis-go/lapis/lapack"
	"github.com/lapis-go/lapis/views"
)

// package lapack's rules per matrix: each computed by the internal
// package lapack uses too (internal/strided, internal/rt/cond,
// internal/finite), its error an *lapack.Error as lapack's.

// gesvRun is internal/strided.Gesv on the runs a and b, with each failed
// system's info as the *lapack.Error gesv's would be (ErrSingular with
// the pivot's index).
func gesvRun[T Scalar](op string, a, b views.View[T], opts []lapis.Option) (map[int]*lapack.Error, error) {
	infos, err := strided.Gesv(op, a, b, opts...)
	if err != nil || len(infos) == 0 {
		return nil, err
	}
	routine := scalar.Prefix[T]() + "gesv"
	failed := make(map[int]*lapack.Error, len(infos))
	for t, info := range infos {
		failed[t] = &lapack.Error{Op: op, Routine: routine, Info: info, Index: info - 1, Rank: -1, Err: lapack.ErrSingular}
	}
	return failed, nil
}

// checkCondition is lapack's conditioning check of the LU factors lu
// (Solve's): an ErrIllConditioned error when the reciprocal condition
// number is below machine epsilon, nil otherwise.
func checkCondition[T Scalar](op string, norm lapack.Norm, lu views.View[T], anorm float64, opts []lapis.Option) error {
	if lu.Layout().Dim(0) == 0 || anorm == 0 {
		return nil
	}
	rcond, routine, how, err := cond.LU(norm == lapack.InfNorm, lu, anorm, func(lu views.View[T]) (float64, error) {
		return lapack.Gecon(norm, lu, anorm, opts...)
	})
	if err != nil {
		return errop.Rename(err, op)
	}
	return illConditioned[T](op, routine, how, rcond)
}

// checkInverse is lapack's conditioning check of an inverse (Inv's).
func checkInverse[T Scalar](op string, norm lapack.Norm, inv views.View[T], anorm float64, opts []lapis.Option) error {
	if inv.Layout().Dim(0) == 0 || anorm == 0 {
		return nil
	}
	rcond, how, err := cond.Inverse(norm == lapack.InfNorm, inv, anorm, func() (float64, error) {
		return lapack.Lange(norm, inv, opts...)
	})
	if err != nil {
		return errop.Rename(err, op)
	}
	return illConditioned[T](op, cond.RoutineExact, how, rcond)
}

// illConditioned is the error for rcond (nil when it passes the check).
func illConditioned[T Scalar](op, routine, how string, rcond float64) error {
	if !cond.Ill[T](rcond) {
		return nil
	}
	return &lapack.Error{Op: op, Routine: routine, Index: -1, Rank: -1, Rcond: rcond, Err: lapack.ErrIllConditioned, Detail: cond.Detail(how, rcond)}
}

// notFinite is the finite-input rule's error for the operand name.
func notFinite(op, name, detail string) error {
	return &lapack.Error{Op: op, Index: -1, Rank: -1, Arg: name, Err: lapis.ErrNotFinite, Detail: name + ": " + detail}
}

// checkFinite is the finite-input rule on the inputs of one matrix.
func checkFinite[T Scalar](op string, ins ...finite.Input[T]) error {
	if name, detail, bad := finite.First(ins...); bad {
		return notFinite(op, name, detail)
	}
	return nil
}
