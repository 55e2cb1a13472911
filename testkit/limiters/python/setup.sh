#!/usr/bin/env bash
# The venv of the FastAPI + slowapi service (app.py), from the pinned requirements.txt (PyPI), under the
# git-ignored .cache/: a no-op when it is there and was built from this requirements.txt. .ci/run calls it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
venv="$root/.cache/limiters-python/venv"
stamp="$venv/requirements.txt"
if [ -x "$venv/bin/python" ] && cmp -s "$here/requirements.txt" "$stamp"; then
  echo "slowapi venv: up to date ($venv)"
  exit 0
fi
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$here/requirements.txt"
cp "$here/requirements.txt" "$stamp"
echo "slowapi venv: built ($venv)"
