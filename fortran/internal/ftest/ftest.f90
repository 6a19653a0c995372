! ftest.f90: the benchmark routines of package fortran, compiled by cgo
! with gfortran (typed.f90, generated, has the test routines). Every
! routine is RECURSIVE (see ftest.go).

! Benchmark routines: each does nothing with its argument but take it.
recursive subroutine lapis_empty_ptr(a) bind(C)
  use iso_c_binding
  real(c_double), intent(inout) :: a(*)
end subroutine

recursive subroutine lapis_empty_desc3(a) bind(C)
  use iso_c_binding
  real(c_double), intent(inout) :: a(:,:,:)
end subroutine

recursive subroutine empty_f77(m, n, k, a, lda)
  integer m, n, k, lda
  double precision a(lda, n, *)
end subroutine

! lapis_sum sets s(1) to sum(a).
recursive subroutine lapis_sum(a, s) bind(C)
  use iso_c_binding
  real(c_double), intent(in) :: a(:,:)
  real(c_double), intent(out) :: s(:)
  s(1) = sum(a)
end subroutine

! lapis_sum_rev sets s(1) to the sum of a with its columns reversed:
! it calls lapis_sum on a(:, n:1:-1), a section whose descriptor gfortran
! makes itself. It is the pure Fortran counterpart of handing lapis_sum a
! view with reversed columns.
recursive subroutine lapis_sum_rev(a, s) bind(C)
  use iso_c_binding
  real(c_double), intent(in) :: a(:,:)
  real(c_double), intent(out) :: s(:)
  interface
    recursive subroutine lapis_sum(a, s) bind(C)
      import c_double
      real(c_double), intent(in) :: a(:,:)
      real(c_double), intent(out) :: s(:)
    end subroutine
  end interface
  call lapis_sum(a(:, size(a, 2):1:-1), s)
end subroutine

! lapis_sum_cols sets s(1) to the sum of a, column by column.
recursive subroutine lapis_sum_cols(a, s) bind(C)
  use iso_c_binding
  real(c_double), intent(in) :: a(:,:)
  real(c_double), intent(out) :: s(:)
  integer :: j
  s(1) = 0
  do j = 1, size(a, 2)
    s(1) = s(1) + sum(a(:, j))
  end do
end subroutine

! mixed takes every kind of explicit-shape argument fortran.ExplicitN
! hands over, scalars by reference and an assumed-length CHARACTER
! argument, whose length gfortran passes hidden after all the others
! (size_t): total = sum of ia(i) + ja(i) where l(i), ja(i) = -ja(i),
! l(i) = .not. l(i), a(1:m, 1:k) = a + total, info = len(mode).
recursive subroutine mixed(mode, n, ia, ja, l, m, k, a, lda, total, info)
  implicit none
  character*(*) mode
  integer n, m, k, lda, info
  integer ia(n)
  integer*8 ja(n)
  logical l(n)
  double precision a(lda, k), total
  integer i
  total = 0
  do i = 1, n
    if (l(i)) total = total + ia(i) + ja(i)
    ja(i) = -ja(i)
    l(i) = .not. l(i)
  end do
  a(1:m, 1:k) = a(1:m, 1:k) + total
  info = len(mode)
end subroutine

! apply calls the EXTERNAL procedure f on each column of the m x n
! matrix a(lda, *): call f(m, a(1, j)), every argument by address.
recursive subroutine apply(f, m, n, a, lda)
  implicit none
  external f
  integer m, n, lda, j
  double precision a(lda, *)
  do j = 1, n
    call f(m, a(1, j))
  end do
end subroutine
