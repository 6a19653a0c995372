// Package blasgo is what cblas and gonumblas both run around the BLAS
// library, so that the rules hold the same on lapis's views and behind
// gonum's interfaces:
//
//   - the pure-Go level-1 loops (Dot, Axpy, Scal, Nrm2, Iamax): the path
//     for small vectors, the oracle beside the library's, and the answer
//     where the library is wrong;
//   - the rules that send a call to them or guard the library's kernels,
//     decided from what lapis.Info and lapis.KernelSet report
//     (docs/defects.md): complex dots with a non-unit increment
//     (ComplexStridedDot), complex64 ?asum on the kernel sets that add the
//     wrong elements (AsumC, CasumDefect), i?amax over a NaN (IamaxC),
//     real ?symv on the kernel sets that read past their operands
//     (RealSymvOverRead), and the complex level-2 kernels that read past
//     their vectors (OverReadSafe).
//
// Vectors here are a pointer and an increment, as BLAS takes them: the
// caller has checked lengths and that sizes fit the library's integer.
package blasgo
