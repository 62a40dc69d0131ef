"""How long each panel's first run of its defaults takes in a fresh kernel, as a new user meets it.

Each panel runs in its own new process (a fresh kernel: nothing compiled in memory, numba's cache as the setup
left it), on the explorer's opening position with the panel's default settings, and the seconds from "Run" to
its result are printed beside what the fast simulator still had to compile.  Issue 42 asks at most 10 s a panel on two
cores once the explorer is shown.

    .venv/bin/python benchmarks/bench_first_runs.py [--only analysis,skill,...]
    .venv/bin/python benchmarks/bench_first_runs.py --compile
    .venv/bin/python benchmarks/bench_first_runs.py --while-compiling

``--compile`` prints instead each part of the fast simulator's compiling, cold (a new, empty numba cache in a
temporary folder, so the project's own cache is untouched), beside the seconds ``warm.STEPS`` says for it (what
the cost lines and the bar add up before a first run).

``--while-compiling`` runs each panel as a fresh launch meets it, its fast simulator said to be compiling in the
background (nothing compiles: the compiling process's core is left idle here, so the figures are for the one
core it leaves): each panel's first answer from the engine, and its words.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

PANELS = {
    "analysis": "e.analysis.run(block=True)",
    "compare": "e.lab.run_compare(block=True)",
    "sweep": "e.lab.run_sweep(block=True)",
    "skill": "e.skill.run(block=True)",
    "how they play": "e.skill.how_they_play.run(block=True)",
    "balance": "e.balance.run(block=True)",
    "depth": "e.balance.run_depth(block=True)",
}

CHILD = """
import time
from guyenne_explore.analysis.sampling.warm import needs_compiling
from guyenne_explore.widgets.explorer import Explorer
{compiling}
pending = needs_compiling()
e = Explorer()
start = time.perf_counter()
{call}
print(f"{{time.perf_counter() - start:.1f}} {{pending}}")
"""

#: a fresh launch's state while its background process compiles: every panel told so, none allowed to wait or compile
COMPILING = """
from guyenne_explore.widgets import balance_panel, run_controls
def refuse(*args, **kwargs):
    raise SystemExit("a first answer waited for the compiling")
for module in (run_controls, balance_panel):
    module.needs_compiling = lambda games=None: True
run_controls.compiling_in_background = lambda: True
run_controls.compile_in_background = lambda: None
run_controls.prepare = refuse
run_controls.RunControls._await_compiling = refuse
run_controls.RunControls.refine_when_compiled = lambda *args, **kwargs: None
needs_compiling = lambda: True
"""


COMPILE = """
import time
from guyenne_explore.analysis.sampling import warm
for step in warm.STEPS:
    began = time.perf_counter()
    step.run()
    print(f"{step.what:<24} {time.perf_counter() - began:>8.1f} {step.seconds:>8.0f}", flush=True)
"""


def compile_cold() -> None:
    """Each step of the fast simulator compiled into an empty cache, in the order a run meets them."""
    print(f"{'part':<24} {'seconds':>8} {'said':>8}")
    with tempfile.TemporaryDirectory() as cache:
        subprocess.run([sys.executable, "-c", COMPILE], env={**os.environ, "NUMBA_CACHE_DIR": cache}, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(PANELS), help="panels, comma-separated: " + ", ".join(PANELS))
    parser.add_argument("--compile", action="store_true", help="time each part of the fast simulator's compiling, cold")
    parser.add_argument("--while-compiling", action="store_true",
                        help="each panel's first answer while the fast simulator is said to compile in the background")
    args = parser.parse_args()
    if args.compile:
        compile_cold()
        return
    print(f"{'panel':<14} {'seconds':>8}  compile pending at start  (whole process, import included)")
    for name in args.only.split(","):
        began = time.perf_counter()
        child = CHILD.format(call=PANELS[name], compiling=COMPILING if args.while_compiling else "")
        out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
        whole = time.perf_counter() - began
        if out.returncode and "waited for the compiling" in out.stderr:
            print(f"{name:<14} waits for the compiling, as its cost line says")
            continue
        if out.returncode:
            print(f"{name:<14} failed: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else out.returncode}")
            continue
        seconds, pending = out.stdout.split()[-2:]
        print(f"{name:<14} {float(seconds):>8.1f}  {pending:<24}  ({whole:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
