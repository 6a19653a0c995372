#!/usr/bin/env bash
# bench-copy.sh: the copy engine against its anchors, measured in one run,
# printed as tables of ratios (medians of COUNT passes, default 4).
#   scripts/bench-copy.sh            # all ops
#   COUNT=8 scripts/bench-copy.sh
# numpy's np.ascontiguousarray(a.T) is timed too when /usr/bin/python3 has
# numpy (Debian: apt-get install python3-numpy); otherwise it is skipped with
# a note.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-4}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

go test -run '^$' -bench '^BenchmarkCopy$' -count "$count" ./bench | tee "$out" >&2

if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  /usr/bin/python3 - "$count" >>"$out" <<'PY'
import sys, time
import numpy as np
count = int(sys.argv[1])
for n in (1024, 4096):
    a = np.arange(n * n, dtype=np.float64).reshape(n, n)
    reps = 20 if n == 1024 else 3
    np.ascontiguousarray(a.T)  # warm
    for _ in range(count):
        t = time.perf_counter()
        for _ in range(reps):
            np.ascontiguousarray(a.T)
        ns = (time.perf_counter() - t) / reps * 1e9
        mbs = 16 * n * n / ns * 1e3
        print(f"BenchmarkCopy/op=transpose/n={n}/impl=numpy \t{reps}\t{ns:.0f} ns/op\t{mbs:.2f} MB/s")
PY
  echo "numpy $(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)') timed in the same run" >&2
else
  echo "note: /usr/bin/python3 has no numpy (apt-get install python3-numpy); numpy rows skipped" >&2
fi

echo
echo "Copy engine, float64, $(nproc) cores, medians of $count; impl=lapis is one goroutine, lapis-2t two."
echo "time / memcpy: the target is <= 3 for transpose; time / lapis > 1 means lapis is faster."
go run ./bench/report -ref memcpy,lapis <"$out"
