#!/usr/bin/env bash
# Create .venv and install guyenne_explore with the extras named as arguments (default: notebooks,
# all that the explorer and the Voilà app need; scripts/test.sh adds dev and bench), then compile
# the fast simulator once into numba's cache so that no analysis waits for it.
#
# Installs with uv when it can (pip-installed into .venv if not on PATH; several times faster than
# pip), else with pip. Does nothing when nothing changed: a stamp in .venv records which extras
# were installed from which pyproject.toml, another which kernel sources were compiled.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
EXTRAS=("$@")
if [ ${#EXTRAS[@]} -eq 0 ]; then EXTRAS=(notebooks); fi
STAMP=.venv/.guyenne-installed
WARMED=.venv/.guyenne-warmed
KEY=$(sha256sum pyproject.toml | cut -c1-16)

missing=()
for extra in "${EXTRAS[@]}"; do
  grep -qx "$KEY $extra" "$STAMP" 2>/dev/null || missing+=("$extra")
done
if [ ! -x .venv/bin/python ] || [ ${#missing[@]} -gt 0 ]; then
  start=$SECONDS
  if [ ! -x .venv/bin/python ]; then "$PYTHON" -m venv .venv; fi
  spec=".[$(IFS=,; echo "${EXTRAS[*]}")]"
  UV=$(command -v uv || true)
  if [ -z "$UV" ]; then
    [ -x .venv/bin/uv ] || .venv/bin/python -m pip install -q uv >/dev/null 2>&1 || true
    if [ -x .venv/bin/uv ]; then UV=.venv/bin/uv; fi
  fi
  echo "Installing guyenne_explore$spec into .venv with $([ -n "$UV" ] && echo uv || echo pip)..."
  if [ -n "$UV" ]; then
    # bytecode at install, as pip does: with PYTHONDONTWRITEBYTECODE set, every launch would recompile
    "$UV" pip install -q --python .venv/bin/python --compile-bytecode -e "$spec"
  else
    .venv/bin/python -m pip install -q -e "$spec"
  fi
  { grep "^$KEY " "$STAMP" 2>/dev/null || true; printf "$KEY %s\n" "${EXTRAS[@]}"; } | sort -u > "$STAMP.new"
  mv "$STAMP.new" "$STAMP"
  echo "Installed in $((SECONDS - start)) s."
fi

# numba keeps compiled code while a kernel source keeps its size and modification time.
# GUYENNE_WARM=background (the launch scripts) compiles in a process of its own while the server starts, so that
# the explorer is shown within about a minute of a fresh clone: meanwhile Run analysis is answered at once by the
# engine (fewer games, saying so) and refined when the compiling ends, and other runs wait for it, saying how long
# it has left (the process holds a lock, analysis/sampling/warm.py lock_file, so no kernel compiles beside it).
# A cached kernel holds the code of the kernels it calls, but numba checks only its own module's
# source: after any change under compiled/ or exact/ the whole cache goes, so the heuristic's games never run a
# kernel.py of before.  warm then compiles every entry point an analysis uses (analysis/sampling/warm.py STEPS,
# the search's included).
WARM_KEY=$({ cat "$STAMP"; ls -l --time-style=+%s guyenne_explore/analysis/compiled/*.py guyenne_explore/analysis/exact/*.py; } | sha256sum | cut -c1-16)
compiling() { .venv/bin/python -m guyenne_explore.analysis.sampling.warm --compiling; }
if [ "$(cat "$WARMED" 2>/dev/null)" = "$WARM_KEY" ]; then
  :  # compiled for these sources already
elif compiling; then
  # an earlier setup's background compiling is under way (its cache would be removed under it): left to finish
  echo "The fast simulator is being compiled in the background already (log in .venv/warm.log)."
  if [ "${GUYENNE_WARM:-now}" != background ]; then
    while compiling; do sleep 1; done
    for _ in $(seq 20); do [ "$(cat "$WARMED" 2>/dev/null)" = "$WARM_KEY" ] && break; sleep 0.5; done
  fi
else
  rm -f guyenne_explore/analysis/{compiled,exact}/__pycache__/*.nb[ic]
  if [ "${GUYENNE_WARM:-now}" = background ]; then
    echo "Compiling the fast simulator in the background (once, about 4 minutes; log in .venv/warm.log)."
    ( .venv/bin/python -m guyenne_explore.analysis.sampling.warm > .venv/warm.log 2>&1 \
        && echo "$WARM_KEY" > "$WARMED" ) &
    # the lock is taken before the server's kernels can ask for it
    for _ in $(seq 50); do [ -s .venv/warm.log ] && break; sleep 0.1; done
  elif .venv/bin/python -m guyenne_explore.analysis.sampling.warm; then
    echo "$WARM_KEY" > "$WARMED"
  else
    echo "warning: the fast simulator could not be compiled ahead; the first analysis will compile it" >&2
  fi
fi
