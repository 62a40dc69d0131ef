"""Import times: what `import guyenne_explore`, the command line and the analysis cost before any work.

Each import runs in a fresh interpreter with ``python -X importtime``; the figure is the
cumulative time of the module itself, and the heavy libraries it pulled in are named.
Run: ``.venv/bin/python benchmarks/bench_imports.py``.
"""

from __future__ import annotations

import subprocess
import sys

MODULES = ["guyenne_explore", "guyenne_explore.cli", "guyenne_explore.analysis.api",
           "guyenne_explore.analysis.studies.variants", "guyenne_explore.render.plots"]
HEAVY = ["numba", "scipy.stats", "scipy.sparse", "statsmodels", "plotly", "ipywidgets", "pandas"]


def import_profile(module: str) -> tuple[float, list[str]]:
    """Cumulative import time of ``module`` in seconds, and which heavy libraries it imported."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                       capture_output=True, text=True, check=True)
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


def main() -> None:
    print(f"{'module':40} {'import s':>9}  heavy libraries imported")
    for m in MODULES:
        seconds, heavy = import_profile(m)
        print(f"{m:40} {seconds:9.3f}  {', '.join(heavy) or '-'}")


if __name__ == "__main__":
    main()
