#!/usr/bin/env bash
# Set up (if needed, with the dev and bench extras) and run the whole test suite; exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# the explorer plus the test and benchmark tools; a fresh clone's simulator compiles in the background (below)
GUYENNE_WARM=background bash scripts/setup.sh notebooks dev bench
# two workers (-n 2), each test module whole on one of them (--dist loadfile: a module's server and port are
# never started twice at once); GUYENNE_TEST_WORKERS=0 runs in one process
WORKERS=(-n "${GUYENNE_TEST_WORKERS:-2}" --dist loadfile)
PYTEST=(.venv/bin/python -m pytest -q)
compiling() { .venv/bin/python -m guyenne_explore.analysis.sampling.warm --compiling; }

if [ $# -gt 0 ] || ! compiling; then
  while compiling; do sleep 1; done  # a chosen part of the suite waits for it, as a run of the explorer does
  exec "${PYTEST[@]}" "${WORKERS[@]}" "$@"
fi
# The fast simulator is compiling in the background (a fresh clone's setup, on one core, about 4 minutes): the files
# that never run it (tests/conftest.py WITHOUT_SIMULATOR) take the other core meanwhile, and the rest start once it
# is compiled.  Each part's failures fail the run.
echo "The fast simulator is compiling (.venv/warm.log): the tests that never run it go first, on the other core."
status=0
GUYENNE_TESTS_WITHOUT_SIMULATOR=1 "${PYTEST[@]}" -p no:cacheprovider -m "without_simulator and not slow" \
  > .venv/tests-while-compiling.log 2>&1 &
first=$!
trap 'kill "$first" 2> /dev/null || true' EXIT  # Ctrl-C (which a background job ignores) stops it too
while compiling; do sleep 1; done
cat .venv/warm.log
"${PYTEST[@]}" "${WORKERS[@]}" -m "not without_simulator and not slow" || status=$?
wait "$first" || status=$?
echo "--- the tests run while the simulator compiled:"
cat .venv/tests-while-compiling.log
exit "$status"
