#!/usr/bin/env bash
# Create .venv (if missing) and install guyenne_explore with its notebook, development and benchmark extras.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[notebooks,dev,bench]"
