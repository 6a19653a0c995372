! sum.f90: the pure Fortran counterpart of package fortran's BenchmarkSum
! (no Go, no lapis). It times sum(a) over an n x n array through an
! assumed-shape dummy argument, on the array itself (col) and on its
! section a(:, n:1:-1) with reversed columns (reversed), for n = 256,
! 1024 and 4096, and prints the best of 15 alternating runs of each and
! their ratio. -fno-inline keeps total a routine of its own, called with
! a descriptor as lapis's benchmark calls it (inlined, the compiler would
! know the section's strides). Run it (docs/bench/fortran.md has its
! numbers):
!
!   gfortran -O2 -fno-inline -J /tmp bench/fortransum/sum.f90 -o /tmp/fortransum && /tmp/fortransum
module sums
  implicit none
contains
  function total(a) result(s)
    double precision, intent(in) :: a(:,:)
    double precision :: s
    s = sum(a)
  end function
end module

program fortransum
  use sums
  implicit none
  integer, parameter :: sizes(3) = [256, 1024, 4096]
  double precision, allocatable :: a(:,:)
  double precision :: best(2), t, s
  integer :: i, r, k, n, reps
  integer(8) :: c0, c1, rate
  call system_clock(count_rate=rate)
  do i = 1, size(sizes)
    n = sizes(i)
    reps = (4096 / n)**2
    allocate(a(n, n))
    a = 1
    best = huge(1d0)
    do r = 1, 15
      do k = 1, 2
        call system_clock(c0)
        s = 0
        block
          integer :: j
          do j = 1, reps
            if (k == 1) then
              s = s + total(a)
            else
              s = s + total(a(:, n:1:-1))
            end if
          end do
        end block
        call system_clock(c1)
        if (s /= dble(n) * n * reps) stop 'wrong sum'
        t = dble(c1 - c0) / rate / reps
        best(k) = min(best(k), t)
      end do
    end do
    print '(a,i5,a,f10.3,a,f10.3,a,f6.2)', 'n=', n, '  col', best(1) * 1e3, &
      ' ms  reversed', best(2) * 1e3, ' ms  reversed/col', best(2) / best(1)
    deallocate(a)
  end do
end program
