#!/usr/bin/python3
"""Einsum benchmark anchors for lapis' einsum package.

Times numpy.einsum(optimize=False), numpy.einsum(optimize='optimal'),
torch.einsum, and the plain (batched) GEMM with the same M, N, K
(numpy.matmul, plus torch.matmul for comparison), float64, with 1 and
2 threads.  Each thread count runs in its own child process so that
OPENBLAS_NUM_THREADS / OMP_NUM_THREADS are set before numpy/torch load.

Usage:  /usr/bin/python3 anchors.py            # runs 1 and 2 threads
        /usr/bin/python3 anchors.py --threads 1 # one thread count only
Output: '#' comment lines, a TSV block (case, impl, threads, ms,
other_cores) and a readable table.  other_cores = average number of cores
that OTHER processes used while the number was being measured (from
/proc/stat minus this process); before each measurement the worker waits up
to ANCHORS_QUIET_WAIT seconds (default 30) for that load to drop below 0.15,
and re-measures (up to ANCHORS_ATTEMPTS times, default 6) when the load
during the measurement was above 0.15, keeping the least disturbed attempt.  Times are the median over repetitions after warm-up;
each repetition runs the call `inner` times (inner chosen so that one
repetition lasts >= ~20 ms) and reports the time per call.
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import time

CHAIN_NOOPT_LIMIT_S = 60.0  # skip optimize=False for the 4-operand chain above this
QUIET_MAX_WAIT_S = float(os.environ.get("ANCHORS_QUIET_WAIT", "30"))  # wait for other load to go
QUIET_THRESHOLD = 0.15  # cores used by other processes counted as "quiet"
MAX_ATTEMPTS = int(os.environ.get("ANCHORS_ATTEMPTS", "6"))  # re-measure when disturbed
CLK_TCK = os.sysconf("SC_CLK_TCK")


def _cpu_snapshot():
    """(wall time, busy jiffies of the whole machine, jiffies of this process
    incl. all its threads and reaped children)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    busy = v[0] + v[1] + v[2] + v[5] + v[6]  # user nice system irq softirq
    with open("/proc/self/stat") as f:
        st = f.read().rsplit(")", 1)[1].split()
    own = int(st[11]) + int(st[12]) + int(st[13]) + int(st[14])  # utime stime cutime cstime
    return time.perf_counter(), busy, own


def other_cores(a, b):
    """Average number of cores used by OTHER processes between two snapshots."""
    dt = b[0] - a[0]
    if dt <= 0:
        return 0.0
    return max(0.0, ((b[1] - a[1]) - (b[2] - a[2])) / CLK_TCK / dt)


def wait_quiet(max_wait=QUIET_MAX_WAIT_S, probe_s=0.5):
    """Wait (up to max_wait s) until other processes use < QUIET_THRESHOLD
    cores; return the load seen in the last probe."""
    t_end = time.perf_counter() + max_wait
    while True:
        a = _cpu_snapshot(); time.sleep(probe_s); b = _cpu_snapshot()
        load = other_cores(a, b)
        if load < QUIET_THRESHOLD or time.perf_counter() >= t_end:
            return load


# ---------------------------------------------------------------------------
# case definitions
# ---------------------------------------------------------------------------
def make_cases(np):
    """Return list of dicts: name, eq, operands (numpy, C order), ref (callable
    building the GEMM reference operands), flops (useful flops, minimal)."""
    rng = np.random.default_rng(12345)
    rnd = lambda *s: rng.standard_normal(s)  # float64, C order
    cases = []

    # 1. ijk,jkl->il : M=i=100, K=j*k=10000, N=l=100 (exactly a GEMM, no transpose)
    A, B = rnd(100, 100, 100), rnd(100, 100, 100)
    a2, b2 = rnd(100, 10000), rnd(10000, 100)
    cases.append(dict(name="ijk,jkl->il", eq="ijk,jkl->il", ops=(A, B),
                      mnk="M=100 N=100 K=10000 batch=1",
                      ref=("gemm", (a2, b2)), flops=2.0 * 100 * 100 * 10000))

    # 2. ijb,jkb->ikb : batch b=256 trailing (stride 1), M=i=64, K=j=64, N=k=64
    A, B = rnd(64, 64, 256), rnd(64, 64, 256)
    a3, b3 = rnd(256, 64, 64), rnd(256, 64, 64)
    cases.append(dict(name="ijb,jkb->ikb", eq="ijb,jkb->ikb", ops=(A, B),
                      mnk="M=64 N=64 K=64 batch=256",
                      ref=("bgemm", (a3, b3)), flops=2.0 * 256 * 64 ** 3))

    # 3. abcd,cdef->abef : M=ab=576, K=cd=576, N=ef=576 (exactly a GEMM)
    A, B = rnd(24, 24, 24, 24), rnd(24, 24, 24, 24)
    a2, b2 = rnd(576, 576), rnd(576, 576)
    cases.append(dict(name="abcd,cdef->abef", eq="abcd,cdef->abef", ops=(A, B),
                      mnk="M=576 N=576 K=576 batch=1",
                      ref=("gemm", (a2, b2)), flops=2.0 * 576 ** 3))

    # 4. ij,jk,kl,lm->im : 300x20, 20x300, 300x20, 20x300
    A, B, C, D = rnd(300, 20), rnd(20, 300), rnd(300, 20), rnd(20, 300)
    # reference = optimal GEMM order: A @ ((B @ C) @ D)  -> 4.08 MFLOP
    cases.append(dict(name="ij,jk,kl,lm->im", eq="ij,jk,kl,lm->im", ops=(A, B, C, D),
                      mnk="chain 300x20.20x300.300x20.20x300; opt order A@((B@C)@D): "
                          "(20x300x20)+(20x20x300)+(300x20x300) MNK",
                      ref=("chain", (A, B, C, D)),
                      flops=2.0 * (20 * 20 * 300 + 20 * 300 * 20 + 300 * 300 * 20)))

    # 5. bij,bjk->bik : batch b=256 leading, 64x64x64 (exactly batched GEMM)
    A, B = rnd(256, 64, 64), rnd(256, 64, 64)
    cases.append(dict(name="bij,bjk->bik", eq="bij,bjk->bik", ops=(A, B),
                      mnk="M=64 N=64 K=64 batch=256",
                      ref=("bgemm", (A, B)), flops=2.0 * 256 * 64 ** 3))
    return cases


# ---------------------------------------------------------------------------
# timing
# ---------------------------------------------------------------------------
def bench(fn, target_rep_s=0.02, budget_s=3.0, max_reps=21, min_reps=5, first=None):
    """Median time per call in seconds.  `first` = duration of a warm-up call
    already made elsewhere (then no local warm-up is needed)."""
    if first is None:
        fn()  # warm-up 1 (allocations, BLAS thread start, path caches)
        t = time.perf_counter(); fn(); first = time.perf_counter() - t  # warm-up 2
    if first > 1.0:  # slow call: few reps, inner=1
        reps = 3
        inner = 1
    else:
        inner = max(1, math.ceil(target_rep_s / max(first, 1e-9)))
        reps = int(budget_s / max(first * inner, 1e-9))
        reps = max(min_reps, min(max_reps, reps))
    samples = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t) / inner)
    return statistics.median(samples), reps, inner


def probe_with_timeout(fn, limit_s):
    """Run fn once in a forked child; return its duration, or None if it did not
    finish within limit_s (the child is then killed)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        t = time.perf_counter(); fn(); d = time.perf_counter() - t
        os.write(w, repr(d).encode()); os.close(w)
        os._exit(0)
    os.close(w)
    import select
    ready, _, _ = select.select([r], [], [], limit_s)
    if not ready:
        os.kill(pid, 9); os.waitpid(pid, 0); os.close(r)
        return None
    data = os.read(r, 100); os.close(r); os.waitpid(pid, 0)
    return float(data.decode())


# ---------------------------------------------------------------------------
# worker: one thread count
# ---------------------------------------------------------------------------
def worker(nthreads):
    import ctypes
    import numpy as np
    import torch
    torch.set_num_threads(nthreads)
    try:
        ob = ctypes.CDLL("libopenblas.so.0")
        ob_threads = ob.openblas_get_num_threads()
        ob.openblas_get_config.restype = ctypes.c_char_p
        ob_cfg = ob.openblas_get_config().decode()
        ob.openblas_get_corename.restype = ctypes.c_char_p
        ob_core = ob.openblas_get_corename().decode()
    except Exception as e:  # pragma: no cover
        ob_threads, ob_cfg, ob_core = "?", str(e), "?"
    print(f"# threads={nthreads}: openblas_get_num_threads={ob_threads} "
          f"torch.get_num_threads={torch.get_num_threads()} "
          f"openblas_config='{ob_cfg}' core={ob_core}", flush=True)

    cases = make_cases(np)
    only = os.environ.get("ANCHORS_ONLY")  # e.g. "bij,bjk->bik" (";"-separated) for a quick run
    for c in cases:
        if only and c["name"] not in only.split(";"):
            continue
        eq, ops = c["eq"], c["ops"]
        tops = tuple(torch.from_numpy(o) for o in ops)
        impls = []
        impls.append(("numpy.einsum(optimize=False)", lambda: np.einsum(eq, *ops, optimize=False)))
        # precompute the path once, as a user of optimize='optimal' would not:
        # we pass optimize='optimal' verbatim so path search cost is included
        impls.append(("numpy.einsum(optimize='optimal')", lambda: np.einsum(eq, *ops, optimize="optimal")))
        impls.append(("torch.einsum", lambda: torch.einsum(eq, *tops)))
        kind, rops = c["ref"]
        if kind in ("gemm", "bgemm"):
            ra, rb = rops
            ta, tb = torch.from_numpy(ra), torch.from_numpy(rb)
            impls.append(("numpy.matmul (ref GEMM)" if kind == "gemm" else "numpy.matmul (ref batched GEMM)",
                          lambda: np.matmul(ra, rb)))
            impls.append(("torch.matmul (ref)", lambda: torch.matmul(ta, tb)))
        else:
            A, B, C, D = rops
            tA, tB, tC, tD = (torch.from_numpy(x) for x in rops)
            impls.append(("numpy.matmul chain A@((B@C)@D) (ref)", lambda: A @ ((B @ C) @ D)))
            impls.append(("torch.matmul chain A@((B@C)@D) (ref)", lambda: tA @ ((tB @ tC) @ tD)))

        # correctness cross-check against optimize='optimal'
        want = np.einsum(eq, *ops, optimize="optimal")
        got_t = torch.einsum(eq, *tops).numpy()
        err = float(np.max(np.abs(got_t - want)) / max(1.0, float(np.max(np.abs(want)))))
        print(f"# {c['name']}: torch vs numpy rel.err {err:.2e}; {c['mnk']}", flush=True)

        for iname, fn in impls:
            first = None
            if iname == "numpy.einsum(optimize=False)" and len(ops) > 2:
                first = probe_with_timeout(fn, CHAIN_NOOPT_LIMIT_S)
                if first is None:
                    print(f"# {c['name']}: {iname} SKIPPED (first call > {CHAIN_NOOPT_LIMIT_S:.0f} s)", flush=True)
                    print(f"{c['name']}\t{iname}\t{nthreads}\tSKIPPED\t-", flush=True)
                    continue
                print(f"# {c['name']}: {iname} first call {first:.1f} s (< {CHAIN_NOOPT_LIMIT_S:.0f} s limit), timing 3 reps", flush=True)
            # retry while other processes disturbed the measurement; keep the
            # least disturbed attempt (slow optimize=False chain: one attempt)
            best = None
            attempts = 1 if first is not None else MAX_ATTEMPTS
            for att in range(attempts):
                pre = wait_quiet() if first is None else float("nan")
                a = _cpu_snapshot()
                ms, reps, inner = bench(fn, first=first)
                load = other_cores(a, _cpu_snapshot())
                print(f"# {c['name']}\t{iname}\tattempt={att + 1} reps={reps} inner={inner} "
                      f"ms={ms * 1e3:.4f} other_cores_before={pre:.2f} other_cores_during={load:.2f}", flush=True)
                if best is None or load < best[1]:
                    best = (ms, load)
                if load < QUIET_THRESHOLD:
                    break
            ms, load = best
            print(f"{c['name']}\t{iname}\t{nthreads}\t{ms * 1e3:.4f}\t{load:.2f}", flush=True)


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return

    import numpy as np
    import torch
    import platform
    print(f"# python {platform.python_version()} ({sys.executable}), numpy {np.__version__}, torch {torch.__version__}")
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip(); break
    except OSError:
        pass
    print(f"# cpu: {cpu}, os.cpu_count()={os.cpu_count()}")
    flops = {c["name"]: c["flops"] for c in make_cases(np)}
    order = [c["name"] for c in make_cases(np)]
    del np, torch

    rows = []  # (case, impl, threads, ms or None)
    loads = {}  # (case, impl, threads) -> cores used by other processes while timing
    comments = []
    for n in args.threads:
        env = dict(os.environ)
        for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env[k] = str(n)
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", str(n)],
                           env=env, stdout=subprocess.PIPE, text=True, check=True)
        for line in p.stdout.splitlines():
            if line.startswith("#"):
                comments.append(line)
                continue
            case, impl, th, ms, load = line.split("\t")
            rows.append((case, impl, int(th), None if ms == "SKIPPED" else float(ms)))
            loads[(case, impl, int(th))] = load

    for line in comments:
        print(line)
    print()
    print("## TSV")
    print("case\timpl\tthreads\tms\tother_cores")
    for case, impl, th, ms in rows:
        print(f"{case}\t{impl}\t{th}\t{'SKIPPED' if ms is None else f'{ms:.4f}'}\t{loads[(case, impl, th)]}")
    print()

    # readable table
    print("## Table (median ms per call; GF/s = minimal useful flops / time)")
    ths = args.threads
    impls = []
    for _, impl, _, _ in rows:
        if impl not in impls:
            impls.append(impl)
    get = {(c, i, t): m for c, i, t, m in rows}
    hdr = f"{'case':<18} {'impl':<40}" + "".join(f" {f'{t}T ms':>11}" for t in ths) \
        + "".join(f" {f'{t}T GF/s':>9}" for t in ths)
    if len(ths) == 2:
        hdr += f" {'speedup':>8}"
    hdr += f" {'other':>6}"
    print(hdr)
    print("-" * len(hdr))
    for case in order:
        printed = False
        for impl in impls:
            vals = [get.get((case, impl, t), "n/a") for t in ths]
            if all(v == "n/a" for v in vals):
                continue
            line = f"{case:<18} {impl:<40}"
            for v in vals:
                line += f" {'SKIPPED' if v is None else ('n/a' if v == 'n/a' else f'{v:.3f}'):>11}"
            for v in vals:
                gf = "" if v in (None, "n/a") else f"{flops[case] / (v * 1e-3) / 1e9:.1f}"
                line += f" {gf:>9}"
            if len(ths) == 2:
                line += f" {vals[0] / vals[1]:>8.2f}" if all(isinstance(v, float) for v in vals) else f" {'':>8}"
            ol = [loads.get((case, impl, t), "-") for t in ths]
            line += " " + "/".join(ol)
            print(line)
            printed = True
        if printed:
            print()
    print("# 'other' = average number of cores used by other processes while timing "
          "(1T/2T); > ~0.1 means the number is contended by foreign load")
    print(f"# minimal flops per case: " + ", ".join(f"{k}={v / 1e6:.2f} MFLOP" for k, v in flops.items()))


if __name__ == "__main__":
    main()
