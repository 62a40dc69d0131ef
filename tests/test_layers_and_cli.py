"""The layering contract and the command line as a user runs it."""

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    """The layers of pyproject.toml's [tool.importlinter] (widgets > render > analysis > the engine,
    the engine's own order from Position down to its data), checked on the real import graph."""
    lint = pathlib.Path(sys.executable).parent / "lint-imports"
    r = subprocess.run([str(lint), "--no-cache"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout and "KEPT" in r.stdout


def test_the_engine_has_no_import_cycle():
    """No module of the package takes part in an import cycle, lazy imports included."""
    import grimp

    graph = grimp.build_graph("guyenne_explore", exclude_type_checking_imports=True)
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            assert back is None, f"{importer} -> {imported} -> ... -> {importer}: {back}"


@pytest.mark.parametrize("module", ["guyenne_explore", "guyenne_explore.cli", "guyenne_explore.analysis.results"])
def test_light_imports(module):
    """The engine and the command line load no compiler, statistics or plotting library before a
    command needs it (``benchmarks/bench_imports.py`` prints the times)."""
    heavy = ["numba", "scipy.stats", "statsmodels", "plotly", "ipywidgets"]
    code = f"import sys, {module}; print(' '.join(m for m in {heavy!r} if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(r.stdout.split())
    if module == "guyenne_explore.analysis.results":  # the analysis may compile, but states its intervals lazily
        loaded -= {"numba"}
    assert not loaded, f"import {module} loads {sorted(loaded)}"


def run(*args, input_=None):
    return subprocess.run([sys.executable, "-m", "guyenne_explore", *args], capture_output=True, text=True,
                          input=input_)


def test_check_valid_and_invalid(tmp_path):
    good = tmp_path / "good.json"
    from guyenne_explore.engine import Position

    good.write_text(json.dumps(Position.start("advanced").to_json()))
    r = run("check", str(good))
    assert r.returncode == 0 and "valid" in r.stdout
    bad = tmp_path / "bad.json"
    data = Position.start("advanced").to_json()
    data["sides"]["english"]["hand"] = ["H", "2", "2", "2", "2", "2", "2"]
    data["sides"]["french"]["hand"] = ["Q"]
    bad.write_text(json.dumps(data))
    r = run("check", str(bad))
    assert r.returncode == 1
    assert "hand holds at most" in r.stderr or "hold 7 cards" in r.stderr
    assert "sides.french.hand" in r.stderr and "not 'Q'" in r.stderr  # the field and what is wrong in it
    assert "Traceback" not in r.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    r = run("check", str(broken))
    assert r.returncode == 1 and "not valid JSON" in r.stderr
    r = run("check", str(tmp_path / "missing.json"))
    assert r.returncode == 1 and "cannot read" in r.stderr


@pytest.mark.parametrize("rules", ["base", "advanced", "expert", "classic2021", "team", "team3",
                                   '{"preset": "advanced", "hand_size": 7}'])
def test_play_json(rules):
    r = run("play", "--rules", rules, "--seed", "4", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["result"]["winner"] in ("english", "french", "draw")
    assert data["moves"] and set(data["result"]) == {"english", "french", "winner", "ending"}
    assert data["result"]["ending"]["reason"] in ("sweep", "exhausted", "out_of_cards")
    assert json.loads(run("play", "--rules", rules, "--seed", "4", "--json").stdout) == data


def test_play_bad_rules_is_a_clear_error():
    r = run("play", "--rules", "nosuch", "--seed", "1")
    assert r.returncode == 1 and "unknown rules preset" in r.stderr and "Traceback" not in r.stderr  # invalid input


def test_analyse_exact_json():
    pos = pathlib.Path(__file__).parent / "positions" / "advanced-respond-second.json"
    r = run("analyse", str(pos), "--exact", "--json")
    data = json.loads(r.stdout)
    assert data["exact"] is True and data["win_exact"]["english"] == "1"


def test_analyse_sampled_from_the_start():
    r = run("analyse", "--rules", "team", "--samples", "40", "--seed", "2", "--json")
    data = json.loads(r.stdout)
    assert data["games"] == 40 and abs(sum(data["win"].values()) - 1) < 1e-9
    assert all(lo <= data["win"][w] <= hi for w, (lo, hi) in data["win_ci95"].items())


def analysis_sub_doors() -> set[str]:
    """The analysis' sub-doors, as its door's docstring names them in its table (``:mod:`.studies.skill```...)."""
    import re

    import guyenne_explore.analysis as analysis

    rules = [i for i, line in enumerate(analysis.__doc__.splitlines()) if line.startswith("====")]
    table = analysis.__doc__.splitlines()[rules[0]:rules[-1]]
    return {f"guyenne_explore.analysis.{m}" for line in table for m in re.findall(r"^:mod:`\.([\w.]+)`", line)}


def test_the_door_contract_forbids_every_module_of_the_analysis_but_its_sub_doors():
    """The door's contract forbids the floors above each module of the analysis but the sub-doors the door names
    (and the packages that hold them, which define nothing), so a module added later is forbidden until it is named
    a sub-door; every name the door and each sub-door list resolves."""
    import importlib
    import inspect
    import pkgutil
    import tomllib

    import guyenne_explore.analysis as analysis

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    door = next(c for c in contracts if c["name"].startswith("The analysis' door and sub-doors"))
    modules = {m.name for m in pkgutil.walk_packages(analysis.__path__, "guyenne_explore.analysis.")}
    sub_doors = analysis_sub_doors()
    holders = {".".join(d.split(".")[:i]) for d in sub_doors for i in range(3, d.count(".") + 1)}
    assert len(sub_doors) >= 10 and sub_doors <= modules
    forbidden = set(door["forbidden_modules"])
    covered = {m for m in modules if any(m == f or m.startswith(f + ".") for f in forbidden)}
    assert covered == modules - sub_doors - holders
    for holder in holders:
        defined = [n for n, v in vars(importlib.import_module(holder)).items() if not n.startswith("_")]
        assert all(inspect.ismodule(vars(importlib.import_module(holder))[n]) for n in defined), holder
    assert sorted(analysis.__all__) == sorted(analysis._DOOR)
    for module in [analysis, *map(importlib.import_module, sorted(sub_doors))]:
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{module.__name__}.{name}"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        analysis.nothing  # noqa: B018


def test_the_floors_above_take_each_name_from_the_door_or_the_sub_door_that_lists_it():
    """Render, widgets, the command line and the notebooks import a name of the analysis from its door when the door
    lists it, else from the one sub-door whose ``__all__`` lists it: one way in for each name."""
    import ast
    import importlib

    import guyenne_explore.analysis as analysis

    sub_doors = analysis_sub_doors()
    sources = {path: path.read_text() for floor in ("widgets", "render", "cli") for path in
               (ROOT / "guyenne_explore" / floor).rglob("*.py")}
    sources[ROOT / "guyenne_explore" / "__main__.py"] = (ROOT / "guyenne_explore" / "__main__.py").read_text()
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):
        cells = json.loads(notebook.read_text())["cells"]
        sources[notebook] = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    taken = 0
    for path, source in sources.items():
        package = ".".join(path.relative_to(ROOT).parts[:-1])
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + [node.module or ""]) if node.level else node.module or ""
            if not module.startswith("guyenne_explore.analysis"):
                continue
            names = {a.name for a in node.names}
            if module == "guyenne_explore.analysis":
                assert names <= set(analysis.__all__), (path.name, node.lineno, names - set(analysis.__all__))
            else:
                assert module in sub_doors, (path.name, node.lineno, module)
                listed = set(importlib.import_module(module).__all__) - set(analysis.__all__)
                assert names <= listed, (path.name, node.lineno, names - listed)
            taken += 1
    assert taken > 50  # the floors above were read


def test_the_engine_door_contract_names_every_module_of_the_engine():
    """The engine's one-door contract forbids the floors above each module of the engine by name, so a module
    added later must be added to it; and every name the door lists resolves."""
    import pkgutil
    import tomllib

    import guyenne_explore.engine as engine

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    door = next(c for c in contracts if c["name"].startswith("The engine's one door"))
    children = {f"guyenne_explore.engine.{m.name}" for m in pkgutil.iter_modules(engine.__path__)}
    assert set(door["forbidden_modules"]) == children
    order = next(c for c in contracts if c["name"].startswith("The engine's own order"))
    layered = {f"guyenne_explore.engine.{m.strip()}" for layer in order["layers"] for m in layer.split(":")}
    assert layered == children
    for name in engine.__all__:
        assert getattr(engine, name) is not None


def test_the_package_has_no_import_cycle_even_for_type_checking():
    """No module of the package reaches itself again through its imports, not even through one under
    ``TYPE_CHECKING``: the engine's rule modules below ``position`` are typed against ``state.State``, the start
    screen and the session files against ``widgets.workspace.Workspace`` rather than the explorer that holds them."""
    import grimp

    graph = grimp.build_graph("guyenne_explore", exclude_type_checking_imports=False)
    cycles = []
    for importer in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(importer):
            if graph.find_shortest_chain(importer=imported, imported=importer) is not None:
                cycles.append((importer, imported))
    assert not cycles, cycles


def test_analyse_says_what_engine_played_games_cost_before_it_plays_them():
    """The issue's command with a search side: the games and their time on one core come first on stderr, the
    JSON on stdout is the result alone; compiled games, a second's work, say nothing."""
    r = run("analyse", "--rules", "advanced", "--policies", "english=strong,french=search:20", "--samples", "4",
            "--seed", "1", "--workers", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 4
    # 4 games of search:20 (0.03 s each) against strong (0.1 s, the engine.s)
    assert "4 games played by the engine: under a second on one core (Ctrl-C stops)" in r.stderr
    quiet = run("analyse", "--rules", "advanced", "--policies", "english=strong,french=heuristic", "--samples", "40",
                "--json")
    assert "played by the engine" not in quiet.stderr and json.loads(quiet.stdout)["games"] == 40


@pytest.mark.parametrize("command", [
    ["depth", "--rules", "advanced", "--levels", "uniform,heuristic", "--games", "10", "--json"],
    ["skill", "--rules", "advanced", "--levels", "uniform,strong", "--games", "10", "--workers", "1", "--json"],
    ["analyse", "--rules", "advanced", "--policies", "english=strong,french=heuristic", "--samples", "10", "--json"],
])
def test_a_first_run_says_each_part_of_the_fast_path_it_compiles_before_its_cost_and_games(command, monkeypatch, capsys):
    """A first run (numba's cache empty) compiles for minutes before its first game: the command line says each
    part on stderr, first, as the panels do; once compiled it says nothing of it, and stdout stays the result."""
    from guyenne_explore.analysis.sampling import warm
    from guyenne_explore.cli import main

    compiled: list[str] = []

    def prepare(progress, games=warm.EVERY_GAME):  # as warm.prepare, without the minutes: each part said, then compiled
        steps = [step for step in warm.STEPS if step.serves in games]
        for i, step in enumerate(steps, 1):
            progress(step, i, len(steps))
            compiled.append(step.what)
        return 0.0

    monkeypatch.setattr(warm, "prepare", prepare)
    monkeypatch.setattr(warm, "needs_compiling", lambda games=warm.EVERY_GAME: not compiled)
    assert main(command) == 0
    first = capsys.readouterr()
    json.loads(first.out)  # the result alone
    said = [line for line in first.err.splitlines() if line.startswith("Preparing the fast simulator")]
    # the parts these levels' games need: the loop, the heuristic's tables and games, not the search's
    assert len(said) == 3 and "(1 of 3, first run only" in said[0]
    assert first.err.splitlines()[:len(said)] == said  # before the cost and the progress
    assert main(command) == 0
    assert "Preparing" not in capsys.readouterr().err and len(compiled) == 3
