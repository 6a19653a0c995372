#!/usr/bin/env bash
# dist-docker.sh: package dist across hosts. Four Docker containers on a
# private Docker network, each its own host (hostname node0..node3, its
# own address), run dist's multi-rank test binary (dist/internal/mpitest)
# with one rank per container under mpirun, started over ssh; then a
# second job is started and one rank's container is killed mid-job, and
# the job must fail with Open MPI's error within the timeout instead of
# hanging. Exit status 0 only if both behave.
#
#   scripts/dist-docker.sh            both runs
#   scripts/dist-docker.sh --clean    remove the image this script made
#
# Steps: the base image comes from scripts/docker-test.sh --base bookworm
# (debian:bookworm, or lapis-base:bookworm built there with debootstrap
# when no registry answers; reused). docker/Dockerfile.dist adds Open MPI,
# ScaLAPACK, OpenBLAS and ssh (lapis-dist:bookworm, cached by Docker).
# mpitest is built in a container of that image with the host's Go
# toolchain and module cache mounted read-only and the lapis-gocache
# volume, as docker-test.sh does, and mounted read-only at /opt/lapis in
# the four containers. mpirun runs in node0 (`--host node0,...,node3`,
# ssh to the others; Open MPI settings in /etc/openmpi of the image:
# TCP over eth0, no tree spawn, keepalives on the daemons' channel).
# Containers run with a low CPU weight (--cpu-shares) and the jobs under
# nice, so that they yield to other work on the machine.
#
#   LAPIS_DIST_TIMEOUT=S   the suite's timeout in seconds (default 360)
#   LAPIS_DIST_STOP=kill   how the rank's container is ended: kill
#                          (SIGKILL, default: the host vanishes, its
#                          sockets are never closed) or stop (docker stop)
#   LAPIS_DOCKER_LOGS=DIR  where the logs go (default: a new temp dir)
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'dist-docker.sh: %s\n' "$*" >&2; exit 1; }
say() { printf 'dist-docker.sh: %s\n' "$*" >&2; }

image=lapis-dist:bookworm
case "${1:-}" in
  "") ;;
  --clean) docker image rm -f "$image" >/dev/null 2>&1 || true; echo "dist-docker.sh: removed $image"; exit 0 ;;
  *) die "unknown argument $1 (see the top of $0)" ;;
esac
command -v docker >/dev/null 2>&1 || die "docker not found"
docker info >/dev/null 2>&1 || die "the Docker daemon does not answer (docker info)"
command -v go >/dev/null 2>&1 || die "go not found on PATH (its toolchain is mounted into the containers)"
[ "$(go env GOOS)" = linux ] || die "the host's Go must be a linux toolchain to run in the containers"
suite_timeout=${LAPIS_DIST_TIMEOUT:-360}
stop=${LAPIS_DIST_STOP:-kill}
case "$stop" in kill | stop) ;; *) die "LAPIS_DIST_STOP=$stop: want kill or stop" ;; esac
logs=${LAPIS_DOCKER_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/lapis-dist-docker.XXXXXX")}
mkdir -p "$logs"
say "logs in $logs"

tag=lapis-dist-$$
net=$tag-net
nodes=(node0 node1 node2 node3)
bindir=$(mktemp -d "${TMPDIR:-/tmp}/lapis-dist-bin.XXXXXX")
cleanup() {
  for n in "${nodes[@]}"; do docker rm -f "$tag-$n" >/dev/null 2>&1 || true; done
  docker network rm "$net" >/dev/null 2>&1 || true
  rm -rf "$bindir"
}
trap cleanup EXIT

# The image.
base=$(LAPIS_DOCKER_LOGS="$logs" bash scripts/docker-test.sh --base bookworm) || die "no base image (scripts/docker-test.sh --base bookworm)"
say "building $image on $base (log: $logs/build.log)"
start=$(date +%s)
docker build --cpu-shares 256 -t "$image" -f docker/Dockerfile.dist --build-arg BASE="$base" docker >"$logs/build.log" 2>&1 ||
  { tail -n 30 "$logs/build.log" >&2; die "docker build failed"; }
build_secs=$(($(date +%s) - start))

# The test binary, built in the image (its libraries are the ones the
# ranks load).
go mod download || die "go mod download failed"
docker volume create lapis-gocache >/dev/null
say "building dist/internal/mpitest in $image"
start=$(date +%s)
docker run --rm --cpu-shares 256 -v "$PWD:/src:ro" -v "$(go env GOROOT):/usr/local/go:ro" \
  -v "$(go env GOMODCACHE):/gomodcache:ro" -v lapis-gocache:/gocache -v "$bindir:/out" -w /src "$image" \
  nice -n 15 go build -buildvcs=false -o /out/mpitest ./dist/internal/mpitest >"$logs/go-build.log" 2>&1 ||
  { tail -n 30 "$logs/go-build.log" >&2; die "go build ./dist/internal/mpitest in $image failed"; }
gobuild_secs=$(($(date +%s) - start))

# The hosts: a private (internal) network, one container per host, each
# reachable by its name.
docker network create --internal "$net" >/dev/null
for n in "${nodes[@]}"; do
  docker run -d --name "$tag-$n" --hostname "$n" --network "$net" --network-alias "$n" \
    --cpu-shares 256 -v "$bindir:/opt/lapis:ro" "$image" >/dev/null
done
head=$tag-node0
hosts=$(IFS=,; echo "${nodes[*]}")
for n in "${nodes[@]}"; do
  for _ in $(seq 30); do
    docker exec "$head" ssh -o BatchMode=yes "$n" true >/dev/null 2>&1 && continue 2
    sleep 1
  done
  die "node0 cannot ssh to $n after 30 s"
done

# mpirun in node0 under a timeout inside the container (timeout(1) kills
# mpirun, which takes its daemons and ranks with it; -k: then SIGKILL).
# Every rank runs under nice (mpirun starts nice, which execs the program).
job() {
  local secs=$1
  shift
  docker exec "$head" timeout -k 10 "$secs" mpirun -np 4 --host "$hosts" \
    -x OPENBLAS_NUM_THREADS=1 nice -n 15 "$@"
}

rows=() failed=0
row() { rows+=("| $1 | $2 | $3 | $4 |"); }

# Each rank its own host and address.
job 60 sh -c 'echo "$(hostname) $(hostname -i)"' 2>&1 | sort >"$logs/hosts.log" || true
distinct=$(awk '{print $1, $2}' "$logs/hosts.log" | sort -u | grep -c '^node[0-3] ' || true)
addrs=$(awk '/^node[0-3] /{print $2}' "$logs/hosts.log" | sort -u | wc -l)
if [ "$distinct" -eq 4 ] && [ "$addrs" -eq 4 ]; then
  row "placement" "4 ranks on $(awk '/^node/{printf "%s%s (%s)", sep, $1, $2; sep=", "}' "$logs/hosts.log")" "" ok
else
  row "placement" "want node0..node3 with 4 addresses" "" FAIL
  failed=1
  cat "$logs/hosts.log" >&2
fi

# 1. The suite, 4 ranks on 4 hosts.
say "mpitest suite, 4 ranks on 4 containers (timeout ${suite_timeout}s)"
start=$(date +%s) rc=0
job "$suite_timeout" /opt/lapis/mpitest suite >"$logs/suite.log" 2>&1 || rc=$?
secs=$(($(date +%s) - start))
if [ "$rc" -eq 0 ] && grep -q 'PASS suite on 4 ranks' "$logs/suite.log"; then
  row "mpitest suite" "PASS suite on 4 ranks" "${secs}s" ok
else
  verdict="FAIL (exit $rc)"
  [ "$rc" -eq 124 ] && verdict="FAIL (timeout ${suite_timeout}s: a hang)"
  row "mpitest suite" "$(grep -m1 -E 'FAIL|fatal|ORTE|error' "$logs/suite.log" | cut -c1-80 || true)" "${secs}s" "$verdict"
  failed=1
  tail -n 40 "$logs/suite.log" >&2
fi

# 2. A rank's host lost mid-job: node2 is killed while the ranks are in
# ScaLAPACK; the job must end with an error well before its timeout.
say "mpitest busy, 4 ranks; $stop node2 mid-job"
busy_timeout=150 busy_secs=100
rc_file=$logs/busy.rc
( rc=0; job "$busy_timeout" /opt/lapis/mpitest busy "$busy_secs" >"$logs/busy.log" 2>&1 || rc=$?; echo "$rc" >"$rc_file" ) &
jobpid=$!
for _ in $(seq 120); do
  grep -q 'busy: iteration 3 done' "$logs/busy.log" 2>/dev/null && break
  [ -f "$rc_file" ] && break
  sleep 1
done
if ! grep -q 'busy: iteration 3 done' "$logs/busy.log" 2>/dev/null; then
  row "$stop node2 mid-job" "the job did not reach iteration 3" "" FAIL
  failed=1
  tail -n 30 "$logs/busy.log" >&2
else
  killed=$(date +%s)
  docker "$stop" "$tag-node2" >/dev/null
  wait "$jobpid" || true
  secs=$(($(date +%s) - killed))
  rc=$(cat "$rc_file")
  iters=$(grep -c 'busy: iteration' "$logs/busy.log" || true)
  # Open MPI's report of the lost host (its daemon or its connection).
  msg=$(grep -m1 -E 'ORTE has lost communication|lost connection|An ORTE daemon has unexpectedly failed|unable to reach|Connection to node2|node2.*(lost|fail)' "$logs/busy.log" | cut -c1-100 || true)
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && [ -n "$msg" ] && ! grep -q 'PASS busy' "$logs/busy.log"; then
    row "$stop node2 mid-job" "exit $rc after ${iters} iterations: $msg" "${secs}s after the $stop" ok
  else
    verdict="FAIL (exit $rc)"
    [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && verdict="FAIL (timeout ${busy_timeout}s: a hang)"
    [ "$rc" -ne 0 ] && [ -z "$msg" ] && verdict+=", no report of the lost host"
    row "$stop node2 mid-job" "$(tail -n1 "$logs/busy.log" | cut -c1-80)" "${secs}s after the $stop" "$verdict"
    failed=1
    tail -n 40 "$logs/busy.log" >&2
  fi
fi

echo
echo "| run (4 containers, mpitest on $image) | what happened | time | result |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "(image build ${build_secs}s, mpitest build ${gobuild_secs}s; logs in $logs)"
[ "$failed" -eq 0 ] || die "failed"
echo "dist-docker.sh: ok"
