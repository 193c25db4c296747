#!/usr/bin/env bash
# Runs the Python package's tests (CPU only) with an interpreter that has torch:
# $PYTHON if set, else python3 if it imports torch, else /usr/bin/python3 (Debian's python3-torch).
# Usage: python/run_tests.sh [unittest args, e.g. tests.test_fixtures]
set -euo pipefail
cd "$(dirname "$0")"
pick() {
  if [ -n "${PYTHON:-}" ]; then echo "$PYTHON"; return; fi
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import torch, numpy' >/dev/null 2>&1; then echo "$py"; return; fi
  done
}
PY="$(pick)"
if [ -z "$PY" ] || ! "$PY" -c 'import torch, numpy' >/dev/null 2>&1; then
  echo "No Python with torch and numpy found (tried ${PYTHON:-python3, /usr/bin/python3})." >&2
  echo "Install Debian's: sudo apt-get install -y python3-torch python3-numpy   (or set PYTHON=/path/to/python)" >&2
  exit 1
fi
echo "Python tests with $PY (torch $("$PY" -c 'import torch; print(torch.__version__)'))"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
if [ "$#" -gt 0 ]; then exec "$PY" -m unittest -v "$@"; fi
# Every module, one process per core (tests/run_parallel.py).
exec "$PY" -m tests.run_parallel
