#!/usr/bin/env bash
# Set up (if needed, with the dev and bench extras) and run the whole test suite; exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh notebooks dev bench   # the explorer plus the test and benchmark tools
exec .venv/bin/python -m pytest -q "$@"
