"""Setup compiles what every analysis runs: one signature per entry point, whatever the rule set,
and a run that still has to compile says which part and which of how many."""

import pytest

from guyenne_explore.engine import Position
from guyenne_explore.analysis.compiled import heuristic_kernel as fh
from guyenne_explore.analysis.compiled.rollout import GAME_COLUMNS, _game, _games, batch_args
from guyenne_explore.analysis.policies.sides import compiled_sides
from guyenne_explore.analysis.sampling import warm
from guyenne_explore.engine.rules import Rules
from guyenne_explore.widgets import run_controls
from guyenne_explore.widgets.analysis_panel import AnalysisPanel

#: rule sets an analysis may meet: presets, the smallest and the longest tables (past the ten castles
#: of the engine's points table), both scorings, a ring, other hands
RULE_SETS = [Rules.preset(name) for name in ("base", "advanced", "classic2021")] + [
    Rules.preset("advanced", castles=20), Rules.preset("base", castles=11), Rules.preset("classic2021", castles=19),
    Rules.preset("advanced", castles=2), Rules.preset("base", adjacency="ring", castles=12),
    Rules.preset("advanced", hand_size=8)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_every_rule_set_calls_the_one_signature_setup_compiles(rules):
    # a second signature compiles again (a minute) in the middle of a run: past ten castles the empty
    # points table was writable where the engine's is read-only, and numba types the two apart
    p = Position.start(rules)
    assert warm.signature(batch_args(p, 3, 1)) == warm.signature(warm._uniform_args())
    assert fh.unsupported(p) is None
    for policies in (("heuristic", "heuristic"), ("heuristic", "uniform"), ("uniform", "heuristic")):
        assert warm.signature(batch_args(p, 3, 1, sides=compiled_sides(policies))) == warm.signature(warm._uniform_args())


def test_prepare_compiles_the_pending_parts_in_order_and_says_each(monkeypatch):
    ran, said = [], []
    steps = tuple(s._replace(run=lambda s=s: ran.append(s.what)) for s in warm.STEPS)
    monkeypatch.setattr(warm, "STEPS", steps)
    monkeypatch.setattr(warm, "step_ready", lambda step, exact=True: step is steps[0])
    analysis = [s for s in steps[1:] if s.serves != "training"]  # a training's recorded games: the install's alone
    assert warm.pending() == analysis and ran == []  # asking runs nothing
    assert warm.pending(warm.EVERY_STEP) == list(steps[1:]) and steps[-1].serves == "training"
    warm.prepare(lambda step, i, n: said.append((step.what, i, n)))
    assert ran == [s.what for s in analysis]
    assert said == [(step.what, i, len(analysis)) for i, step in enumerate(analysis, 1)]
    ran.clear()
    warm.prepare(games=warm.EVERY_STEP)  # the install's warming (and the launch scripts'): every step
    assert ran == [s.what for s in steps[1:]]


def test_a_run_that_has_to_compile_names_each_part_with_a_count(monkeypatch):
    steps = list(warm.STEPS[1:3])

    def prepare(progress):
        for i, step in enumerate(steps, 1):
            progress(step, i, len(steps))
        return 0.0

    monkeypatch.setattr(run_controls, "needs_compiling", lambda: True)
    monkeypatch.setattr(run_controls, "prepare", prepare)
    panel = AnalysisPanel(Position.start("base"))
    panel.method.value = "sample"
    panel.english_policy.value = "search"  # a search compiles kernels of its own: it waits for the compiling
    panel.search_budget.value, panel.games.value = 4, 2
    seen = []
    panel.controls.status.observe(lambda ch: seen.append(ch["new"]), names="value")
    panel.run()
    compiling = [s for s in seen if s.startswith("Preparing the fast simulator: compiling")]
    assert compiling == [
        "Preparing the fast simulator: compiling the heuristic&#x27;s tables (1 of 2, first run only, about 1 second)...",
        "Preparing the fast simulator: compiling the heuristic&#x27;s games (2 of 2, first run only, about 12 seconds)..."]
    assert seen[-1].startswith("Done")


def test_games_are_built_once_per_distinct_summary_and_keep_their_order():
    p = Position.start("advanced")
    from guyenne_explore.analysis.compiled.rollout import play_summaries

    out = play_summaries(p, 3000, 4)
    games = _games(out)
    assert games == [_game(r) for r in out[:, GAME_COLUMNS].tolist()]
    assert len({id(g) for g in games}) == len(set(games)) < len(games)


def test_uniform_and_heuristic_games_call_the_one_compiled_loop_with_one_signature():
    # one game loop for every policy: the uniform batches and those with a heuristic side pass the same
    # argument types, so setup compiles the loop once for both, and the heuristic's step is looked up by the uniform
    # games' arguments (its own build its tables by running compiled code)
    heuristic = batch_args(Position.start("advanced"), 2, 0, sides=warm._heuristic_sides())
    assert warm.signature(warm._uniform_args()) == warm.signature(heuristic)
    assert next(s for s in warm.STEPS if s.functions == warm._heuristic).args is warm._uniform_args


def test_the_page_warms_the_pools_workers_once_the_fast_path_is_compiled(monkeypatch):
    """A first run spread over the shared pool paid each worker's start and its loading of the compiled code (about
    4 s on two cores): the page's warm-up has every worker load it, once, and only when nothing is left to compile
    (a worker would otherwise compile it too)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from guyenne_explore.analysis import workers
    from guyenne_explore.render import plots
    from guyenne_explore.widgets import plot_view

    loaded, done = [], threading.Event()
    monkeypatch.setattr(warm, "load_compiled", lambda: loaded.append(threading.get_ident()))
    monkeypatch.setattr(plots, "warm_up", lambda: None)
    monkeypatch.setattr(warm, "warm", lambda games: None)
    monkeypatch.setattr(workers, "local_cores", lambda: 2)
    pool = ThreadPoolExecutor(2)
    monkeypatch.setattr(workers, "local_pool", lambda: pool)
    real = warm.warm_workers

    def warm_workers(executor, workers):
        real(executor, workers)
        done.set()

    monkeypatch.setattr(warm, "warm_workers", warm_workers)
    # a server that asks for none (GUYENNE_WARM_UP=0: the browser tests' many pages) starts no warm-up
    # nor fetches plotly.js before its first figure
    monkeypatch.setenv("GUYENNE_WARM_UP", "0")
    monkeypatch.setattr(plot_view, "_warm_up_started", threading.Event())
    plot_view.start_warm_up()
    assert not [t for t in threading.enumerate() if t.name == "guyenne-warm-up"]
    assert not plot_view.PlotView().prefetch
    monkeypatch.delenv("GUYENNE_WARM_UP")
    assert plot_view.PlotView().prefetch
    for pending in (True, False):
        monkeypatch.setattr(warm, "needs_compiling", lambda pending=pending: pending)
        monkeypatch.setattr(plot_view, "_warm_up_started", threading.Event())
        plot_view.start_warm_up()
        plot_view.start_warm_up()  # once a process
        if pending:
            for thread in [t for t in threading.enumerate() if t.name == "guyenne-warm-up"]:
                thread.join(10)
            assert loaded == []
    assert done.wait(10) and len(loaded) == 2


def test_a_compiling_process_holds_the_lock_and_no_second_one_starts(monkeypatch, tmp_path):
    """The launch scripts compile in a process of their own while the server starts: a kernel sees it by its lock,
    starts no second compiling beside it, and its runs wait for it (or play by the engine)."""
    import subprocess
    import sys

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # a lock of its own, whatever else runs on the machine
    assert not warm.compiling_in_background()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from guyenne_explore.analysis.sampling import warm\n"
        "with warm.compiling_lock():\n    print('held', flush=True); sys.stdin.readline()")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert warm.compiling_in_background()
        started = []
        monkeypatch.setattr(warm.subprocess, "Popen", lambda *a, **k: started.append(a))
        warm.compile_in_background()
        assert started == []
    finally:
        holder.communicate("\n", timeout=30)
    assert not warm.compiling_in_background()


def test_a_run_waits_for_the_background_compiling_and_says_how_long_it_has_left(monkeypatch):
    """A run (here a search, which the engine does not answer meanwhile) started while the launch scripts' step
    compiles waits for it, saying so with the time left, rather than compiling the same parts beside it."""
    polls = iter([True, True, False])
    prepared = []
    monkeypatch.setattr(run_controls, "needs_compiling", lambda: True)
    monkeypatch.setattr(run_controls, "compiling_in_background", lambda: next(polls, False))
    monkeypatch.setattr(run_controls, "prepare", lambda progress: prepared.append(True) or 0.0)
    monkeypatch.setattr(run_controls.time, "sleep", lambda s: None)
    panel = AnalysisPanel(Position.start("base"))
    panel.method.value, panel.english_policy.value = "sample", "search"
    panel.search_budget.value, panel.games.value = 4, 2
    seen = []
    panel.controls.status.observe(lambda ch: seen.append(ch["new"]), names="value")
    panel.run()
    waiting = [s for s in seen if s.startswith("The fast simulator is compiling in the background (first run only): ")]
    assert waiting and " left... Analysing 1 rule set" in waiting[0]
    assert prepared == [True] and seen[-1].startswith("Done")


def test_a_run_of_uniform_games_neither_checks_nor_compiles_the_heuristics_parts(monkeypatch):
    """A command's start asked every part of the fast simulator whether it was compiled, and the heuristic's check alone
    built its tables (about 2 s of a 3 s uniform `analyse`): a run says which games it plays, and only their parts
    are checked and compiled."""
    def refuse():
        raise AssertionError("a part of the heuristic or the search was looked at for a run of uniform games")

    steps = (warm.STEPS[0],) + tuple(s._replace(functions=refuse, args=refuse, run=refuse) for s in warm.STEPS[1:])
    monkeypatch.setattr(warm, "STEPS", steps)
    uniform = frozenset({"uniform"})
    assert warm.needs_compiling(uniform) == (not warm.step_ready(steps[0]))
    warm.prepare(games=uniform)  # compiles the loop where it is not yet (nothing, once it is), never the others
    assert not warm.needs_compiling(uniform)
    with pytest.raises(AssertionError, match="uniform games"):
        warm.pending()  # a run that does not say what it plays checks every part


def test_a_file_said_to_never_run_the_simulator_fails_where_it_does(tmp_path):
    """scripts/test.sh runs tests/conftest.py WITHOUT_SIMULATOR while the simulator compiles: there a test that loads
    a compiled kernel fails and says to take its file out of the list (else it would compile beside the compiling)."""
    import os
    import pathlib
    import subprocess
    import sys

    root = pathlib.Path(__file__).resolve().parent.parent
    test = tmp_path / "test_runs_a_kernel.py"
    test.write_text("from guyenne_explore.analysis.sampling import warm\n\n\n"
                    "def test_it():\n    warm._run_tables()\n")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider",
               "--rootdir", str(tmp_path), str(test)]
    for guarded in ("1", "0"):
        env = dict(os.environ, GUYENNE_TESTS_WITHOUT_SIMULATOR=guarded, PYTHONPATH=str(root))
        run = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=300)
        said = "is a compiled kernel" in run.stdout and "WITHOUT_SIMULATOR" in run.stdout
        assert (run.returncode, said) == ((1, True) if guarded == "1" else (0, False)), run.stdout[-2000:]
