// Package einsum contracts tensors written in numpy's einsum notation,
// over views of any layout, lowered to GEMM and batched GEMM on the
// operands' own memory wherever their strides allow.
//
//	c, err := einsum.Contract("ijk,jkl->il", a, b)  // a new tensor
//	err = einsum.ContractTo(c.View(), "ij,jk->ik", a, b)
//
// Each pairwise step is arranged as the batch package arranges a product,
// batch axes on the right:
//
//	A[left, summed, batch] x B[summed, right, batch] -> C[left, right, batch]
//
// Every index of the step's two tensors is a batch index (in both and in
// the result), a left or right index (in one of them and in the result)
// or a summed index (in both, not in the result). Each group of indices
// becomes one matrix dimension when its strides fuse (each index's stride
// the previous one's times its extent, in some order that both tensors
// sharing the group agree on), and the step is one cblas.Gemm or
// batch.Gemm call on the operands' memory. Row and column indices that do
// not fuse may instead be looped over as batch axes; otherwise a tensor
// whose groups do not fuse is copied into a compact buffer laid out so
// that they do. A float64 product into the destination whose batch index
// has stride 1 everywhere (bij,bjk->bik column-major), which BLAS cannot
// take, runs lane-parallel on the operands' memory instead where the CPU
// has AVX2 (docs/einsum.md). The planner takes the cheapest of these choices (elements
// copied, products added); each copy is counted in lapis.ReadStats's
// Copies and refused in strict mode (Plan.Copies says how many a plan
// makes). A step with no summed index is an element-wise product (package
// elem, broadcasting); one with only batch and summed indices is a batched
// dot product (elem.DotTo); indices of one operand only are summed first
// (elem.SumTo); a repeated index within an operand is its diagonal, a
// view. Conjugated operands go through their views' flag (BLAS's "C",
// or the product on the stored data with the flags turned); a conjugated
// column-major operand that BLAS could take only untransposed is the one
// case that copies, counted.
//
// Several operands are contracted pairwise in the order of a path: greedy
// by default, Optimal (fewest multiply-adds, for up to MaxOptimal
// operands), or the caller's, with an optional limit on the size of
// intermediates. NewPlan does the parsing, the path and the lowering once
// for given layouts; Plan.Execute runs it with alpha and beta into a
// destination and allocates nothing when given the workspace. Contract and
// ContractTo cache their plans.
//
// Aliasing: the destination must not share memory with an operand, and
// must not reach an element twice (layout.ErrOverlap). Operands may share
// memory with each other (a*a^T).
package einsum
