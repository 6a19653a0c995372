! routines.f90: the Fortran side of examples/fortran, compiled by cgo with
! gfortran. Both routines are RECURSIVE (the source form of -frecursive,
! which cgo's #cgo FFLAGS allowlist does not take): their locals live on
! the stack, so calls from several goroutines at once are safe.

! scale2 is an F77-style routine with an explicit-shape argument: the
! m x n matrix in a(lda, *) is doubled. Its C name is scale2_, every
! argument by reference.
recursive subroutine scale2(m, n, a, lda)
  implicit none
  integer m, n, lda
  double precision a(lda, *)
  a(1:m, 1:n) = 2*a(1:m, 1:n)
end subroutine

! addbatch is a bind(C) routine with an assumed-shape argument: it adds
! 100*k to matrix k of the [M, N, B] batch a (k from 1), whatever its
! strides, and reports in info what it sees: extents and contiguity.
recursive subroutine addbatch(a, info) bind(C)
  use iso_c_binding
  implicit none
  real(c_double), intent(inout) :: a(:,:,:)
  real(c_double), intent(out) :: info(:)
  integer :: k
  do k = 1, size(a, 3)
    a(:, :, k) = a(:, :, k) + 100*k
  end do
  info(1:3) = shape(a)
  info(4) = merge(1, 0, is_contiguous(a))
end subroutine
