#!/usr/bin/env bash
# The chi services of main.go (httprate, go-limiter, ulule: one binary), built with Go from the module proxy
# (go.mod and go.sum pin every module) into the git-ignored .cache/: a no-op when the binary there was built
# from these sources.
# .ci/run calls it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/.cache/limiters-go"
stamp="$out/sources.sha256"
sum="$(cat "$here/go.mod" "$here/go.sum" "$here/main.go" | sha256sum | cut -d' ' -f1)"
if [ -x "$out/httprate" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
  echo "httprate service: up to date ($out/httprate)"
  exit 0
fi
mkdir -p "$out"
(cd "$here" && GOFLAGS=-mod=readonly go build -trimpath -o "$out/httprate" .)
echo "$sum" >"$stamp"
echo "httprate service: built ($out/httprate)"
