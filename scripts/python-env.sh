#!/usr/bin/env bash
# Makes BUILD_DIR/python-env, a virtual environment with the pinned packages
# of scripts/python-requirements.txt (Debian 12's system Python refuses pip
# installs, PEP 668). Idempotent: when the environment already holds those
# requirements it only says so.
# Usage: scripts/python-env.sh [build-dir]     (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
env="$build/python-env"
requirements="$root/scripts/python-requirements.txt"
# A copy of the requirements the environment was made from.
stamp="$env/requirements.txt"

if [ -x "$env/bin/python3" ] && cmp -s "$requirements" "$stamp"; then
  echo "python-env: $env is up to date"
  exit 0
fi

echo "python-env: installing $(grep -v '^#' "$requirements" | xargs) into $env"
mkdir -p "$build"
python3 -m venv "$env"
"$env/bin/python3" -m pip install --quiet --disable-pip-version-check \
  -r "$requirements"
cp "$requirements" "$stamp"
