"""What the doors cost before any work: each floor's import time, and whole commands against their own work.

Each import runs in a fresh interpreter with ``python -X importtime``; the figure is the cumulative time
of the module itself, and the heavy libraries it pulled in are named.  Then whole commands, each run in a
fresh process (the best of ``--repeat``, after one unmeasured run that writes Python's bytecode and reads numba's cache into
the OS's):

- ``analyse --rules advanced --samples 1`` and ``--samples 1000``: the first is the command's start-up to its
  first game (imports, the compiled path's check and load, the plan), the difference its games;
- the exact 6-against-6 endgame of the speed check (``tests/test_exact_fast.six_against_six``), as a whole
  ``analyse FILE --exact`` command.

Run: ``.venv/bin/python benchmarks/bench_imports.py [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_exact_fast import six_against_six  # noqa: E402  (the test's position)

#: each floor's door, bottom to top, and the command line
MODULES = ["guyenne_explore.engine", "guyenne_explore.analysis", "guyenne_explore.analysis.api",
           "guyenne_explore.render", "guyenne_explore.widgets", "guyenne_explore.cli"]
HEAVY = ["numba", "scipy.stats", "scipy.sparse", "scipy.special", "optuna", "statsmodels", "plotly", "ipywidgets",
         "pandas", "numpy"]


#: the commands' environment: Python writes and reads its bytecode, as on a person's machine (without it, every
#: start compiles the package's sources again: tenths of a second)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def import_profile(module: str) -> tuple[float, list[str]]:
    """Cumulative import time of ``module`` in seconds, and which heavy libraries it imported."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                       capture_output=True, text=True, check=True, env=ENV)
    total, seen = 0.0, set()
    for line in r.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = (part.strip() for part in line.split("|"))
        if name == module:
            total = int(cumulative) / 1e6
        if name in HEAVY:
            seen.add(name)
    return total, sorted(seen)


def command_seconds(args: list[str], repeat: int) -> float:
    """The best wall time of ``guyenne-explore ARGS`` over ``repeat`` fresh processes (one more run first)."""
    best = float("inf")
    for i in range(repeat + 1):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "guyenne_explore", *args], check=True, capture_output=True, cwd=ROOT, env=ENV)
        if i:
            best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    print(f"{'module':40} {'import s':>9}  heavy libraries imported")
    for m in MODULES:
        import_profile(m)  # writes the bytecode
        seconds, heavy = import_profile(m)
        print(f"{m:40} {seconds:9.3f}  {', '.join(heavy) or '-'}")
    print(f"\nwhole commands, best of {repeat} (target: first game within 1 s of start; the 6v6 endgame within 1 s)")
    first = command_seconds(["analyse", "--rules", "advanced", "--samples", "1", "--json"], repeat)
    thousand = command_seconds(["analyse", "--rules", "advanced", "--samples", "1000", "--json"], repeat)
    print(f"  {'analyse --rules advanced --samples 1':48} {first:6.2f} s  (start-up to the first game)")
    print(f"  {'analyse --rules advanced --samples 1000':48} {thousand:6.2f} s  (games: {thousand - first:.2f} s)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "six-against-six.json"
        path.write_text(json.dumps(six_against_six().to_json()))
        endgame = command_seconds(["analyse", str(path), "--exact", "--json"], repeat)
    print(f"  {'analyse 6v6-endgame.json --exact':48} {endgame:6.2f} s")


if __name__ == "__main__":
    main()
