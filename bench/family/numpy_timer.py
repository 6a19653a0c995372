# numpy_timer.py: the numpy anchor of every lapis bench family, the one
# numpy timer of the benchmarks (package family embeds it and runs it as
# `python3 -c`; scripts/bench-*.sh get numpy through lapis bench).
#
# It reads {"budget": seconds, "count": COUNT, "jobs": [...]} on stdin and
# prints, as a JSON list, the seconds per call of each job. The timing
# rule is timeOp's in family.go: one call as warm-up, then COUNT batches
# of calls, each batch about budget / COUNT long (one call when a call
# takes longer), and the median of the COUNT per-call times.
#
# A job is {"Family", "op", "n", "count"}; the operations match the Go
# jobs of family.go: copy is np.ascontiguousarray(a.T) (numpy's transposing
# copy), elem np.copyto, np.add into a given array and np.add(a, a.T),
# reduce a.sum(axis) of a C-order array, gemm and small a @ b, lapack np.linalg.solve (one right-hand
# side), cholesky and eigh, batch and tiny np.matmul and np.linalg.solve on
# (count, n, n) stacks. numpy's functions are out of place, so they pay for
# their result's allocation where lapis restores its operands.
#
#   echo '{"budget": 0.1, "count": 5, "jobs": [{"Family": "gemm", "op": "dgemm", "n": 256, "count": 0}]}' |
#     /usr/bin/python3 bench/family/numpy_timer.py
import json
import sys
import time

import numpy as np


def median(xs):
    s = sorted(xs)
    k = len(s)
    return s[k // 2] if k % 2 else (s[k // 2 - 1] + s[k // 2]) / 2


def timeop(f, budget, count):
    t = time.perf_counter()
    f()
    first = time.perf_counter() - t
    reps = max(1, int(budget / count / max(first, 1e-9)))
    times = []
    for _ in range(count):
        t = time.perf_counter()
        for _ in range(reps):
            f()
        times.append((time.perf_counter() - t) / reps)
    return median(times)


rng = np.random.default_rng(41)


def rand(*shape):
    return rng.random(shape) * 2 - 1


def spd(n):
    m = rand(n, n)
    return m @ m.T + n * np.eye(n)


def make(j):
    fam, op, n, count = j["Family"], j["op"], j["n"], j["count"]
    if fam == "copy":
        a = rand(n, n)
        return lambda: np.ascontiguousarray(a.T)
    if fam == "elem":
        a, b, c = rand(n, n), rand(n, n), np.empty((n, n))
        if op == "copy":
            return lambda: np.copyto(c, a)
        if op == "add":
            return lambda: np.add(a, b, out=c)
        if op == "a+a^T":
            return lambda: np.add(a, a.T, out=c)
    if fam == "reduce":
        a = rand(n, n)
        axis = 0 if op == "sum axis 0" else 1
        return lambda: a.sum(axis=axis)
    if fam in ("gemm", "small"):
        a, b = rand(n, n), rand(n, n)
        return lambda: a @ b
    if fam == "lapack":
        if op == "dgesv":
            a, b = rand(n, n) + n * np.eye(n), rand(n)
            return lambda: np.linalg.solve(a, b)
        if op == "dpotrf":
            a = spd(n)
            return lambda: np.linalg.cholesky(a)
        if op == "dsyevd":
            m = rand(n, n)
            a = m + m.T
            return lambda: np.linalg.eigh(a)
    if fam in ("batch", "tiny"):
        if op == "gemm":
            a, b = rand(count, n, n), rand(count, n, n)
            return lambda: np.matmul(a, b)
        if op == "solve":
            m = rand(count, n, n)
            a = m @ m.transpose(0, 2, 1) + n * np.eye(n)
            b = rand(count, n, 1)
            return lambda: np.linalg.solve(a, b)
    raise SystemExit("numpy_timer.py: no job for %s %s" % (fam, op))


def main():
    spec = json.load(sys.stdin)
    budget, count = spec["budget"], max(1, spec.get("count", 1))
    json.dump([timeop(make(j), budget, count) for j in spec["jobs"]], sys.stdout)


main()
