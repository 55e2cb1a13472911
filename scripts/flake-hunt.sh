#!/usr/bin/env bash
# Hunts load-sensitive tests: runs the suite RUNS times in a clean clone of this repository's HEAD (what
# CI sees: no uncommitted file, node_modules from `npm ci`) while a CPU hog (stress-ng) takes cores beside
# it, and prints per run the tests that failed and those skipped, then every failure across runs with
# its count. A test that fails in some runs and not others is sized for a quiet machine: fix it at the
# root (a window long enough for its count, a deadline that counts only the target's time), never by
# retrying it until green.
#
#   scripts/flake-hunt.sh [--runs N] [--hogs N] [--keep] [-- VITEST_ARGS...]
#
#   --runs N      runs of the suite (default 3)
#   --hogs N      stress-ng CPU workers beside each run (default 1; 0 runs it on a quiet machine)
#   --keep        keep the clone and each run's log and JSON (printed at the end)
#   VITEST_ARGS   passed to `vitest run`, e.g. `-- http/undici-send.e2e.test.ts` for one file
#
# The clone reuses this checkout's built k6 versions and Python venv (.cache/, symlinked: building k6
# takes minutes) and runs with CI=true, so a missing k6 fails its tests as in CI instead of skipping.
# Like .ci/run it installs stress-ng and chromium from Debian when they are missing. A full run of the
# suite takes about 8 minutes on 2 cores beside the hog: a hunt of three takes about half an hour.
set -euo pipefail

runs=3
hogs=1
keep=false
vitest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --hogs) hogs=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    --) shift; vitest_args=("$@"); break ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "flake-hunt: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/petcert-flake-hunt-XXXXXX")"
clone="$work/petcert"
hog=""

cleanup() {
  if [ -n "$hog" ]; then kill "$hog" 2>/dev/null || true; fi
  if [ "$keep" = true ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

need_debian_package() {
  local binary=$1 package=$2
  command -v "$binary" >/dev/null && return 0
  echo "installing $package (Debian) …"
  apt-get update >/dev/null && apt-get install -y "$package" >/dev/null
}

provision() {
  need_debian_package stress-ng stress-ng
  # The HTML report's browser test needs Debian's chromium (report/html.e2e.test.ts), as in .ci/run.
  [ -x /usr/bin/chromium ] || need_debian_package chromium chromium
  git clone --quiet "$repo" "$clone"
  # Tests read ../shared (the specification, the k6-operator CRD) beside the repository, as CI's clone does.
  if [ -d "$repo/../shared" ]; then ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"; fi
  echo "clone of $(git -C "$clone" log -1 --format='%h %s' | cut -c1-100)"
  (cd "$clone" && npm ci --no-audit --no-fund >/dev/null)
  mkdir -p "$clone/.cache"
  for cached in k6 limiters-python limiters-go; do
    if [ -d "$repo/.cache/$cached" ]; then ln -s "$repo/.cache/$cached" "$clone/.cache/$cached"; fi
  done
  # No-ops when the symlinked caches hold what the pins ask; otherwise they build into those caches (the main tree's).
  (cd "$clone" && npm run --silent k6:build >/dev/null && bash testkit/limiters/python/setup.sh >/dev/null &&
    bash testkit/limiters/go/setup.sh >/dev/null)
}

# One line per failed or skipped test of a vitest JSON report: "failed|skipped  file › test".
outcomes() {
  node -e '
    const report = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const root = process.argv[2] + "/";
    for (const file of report.testResults) {
      const name = file.name.replace(root, "");
      if (file.status === "failed" && file.assertionResults.every((a) => a.status !== "failed")) {
        console.log(`failed   ${name} (the file itself: ${(file.message || "no message").split("\n")[0].slice(0, 160)})`);
      }
      for (const a of file.assertionResults) {
        if (a.status === "failed") console.log(`failed   ${name} › ${a.fullName}`);
        else if (a.status === "skipped" || a.status === "pending" || a.status === "todo") console.log(`skipped  ${name} › ${a.fullName}`);
      }
    }' "$1" "$clone"
}

# The slowest files of a vitest JSON report, wall time each (files run two at a time: they overlap).
slowest() {
  node -e '
    const report = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const root = process.argv[2] + "/";
    const files = report.testResults.map((f) => ({ name: f.name.replace(root, ""), s: (f.endTime - f.startTime) / 1000 }));
    files.sort((a, b) => b.s - a.s);
    for (const f of files.slice(0, Number(process.argv[3]))) console.log(`${f.s.toFixed(1).padStart(7)} s  ${f.name}`);' "$1" "$clone" "$2"
}

run_once() {
  local n=$1 json="$work/run-$1.json" log="$work/run-$1.log" started code=0
  hog=""
  if [ "$hogs" -gt 0 ]; then
    stress-ng --cpu "$hogs" --timeout 7200 >/dev/null 2>&1 &
    hog=$!
  fi
  started=$(date +%s)
  (cd "$clone" && CI=true npx vitest run "${vitest_args[@]}" --reporter=default --reporter=json --outputFile.json="$json") >"$log" 2>&1 || code=$?
  if [ -n "$hog" ]; then kill "$hog" 2>/dev/null || true; wait "$hog" 2>/dev/null || true; hog=""; fi
  echo "run $n/$runs: exit $code in $(( $(date +%s) - started )) s ($(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +Tests ' | xargs))"
  if [ ! -s "$json" ]; then
    echo "  no JSON report: the last lines of the log:"; tail -20 "$log" | sed 's/^/  /'
    echo "failed   (run $n ended without a report)" >>"$work/all-failures"
    return
  fi
  outcomes "$json" | tee "$work/run-$n.outcomes" | sed 's/^/  /'
  echo "  slowest files:"; slowest "$json" 8 | sed 's/^/  /'
  grep '^failed' "$work/run-$n.outcomes" >>"$work/all-failures" || true
}

provision
echo "$runs run(s) of: vitest run ${vitest_args[*]:-(the whole suite)} · stress-ng --cpu $hogs beside · $(nproc) cores"
: >"$work/all-failures"
for n in $(seq 1 "$runs"); do run_once "$n"; done

echo
if [ -s "$work/all-failures" ]; then
  echo "failures across $runs run(s) (count, test):"
  sort "$work/all-failures" | uniq -c | sort -rn | sed 's/failed   //'
  exit 1
fi
echo "no test failed in $runs run(s)"
