#!/usr/bin/env bash
# Set up (if needed, with the dev and bench extras) and run the whole test suite; exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh notebooks dev bench   # the explorer plus the test and benchmark tools
# two workers (-n 2), each test module whole on one of them (--dist loadfile: a module's server and port are
# never started twice at once); GUYENNE_TEST_WORKERS=0 runs in one process
exec .venv/bin/python -m pytest -q -n "${GUYENNE_TEST_WORKERS:-2}" --dist loadfile "$@"
