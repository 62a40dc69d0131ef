import json
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "positions"
LOCAL = ROOT / "tests" / "positions"


def positions_folder() -> pathlib.Path:
    """Where the check positions are: the shared ones when present beside the project, else the copies
    in tests/ (never an absolute folder, so the tests run wherever the project is)."""
    return SHARED if any(SHARED.glob("*.json")) else LOCAL


def position_path(name: str) -> pathlib.Path:
    """A check position's file by name (``base-endgame-3v3.json``), from :func:`positions_folder`."""
    return positions_folder() / name


def position_files():
    """The check positions (not their moves or expected answers); never none, so a test parametrised
    over them can not pass by collecting nothing."""
    files = sorted(f for f in positions_folder().glob("*.json") if not f.name.endswith((".moves.json", ".expected.json")))
    if not files:
        raise FileNotFoundError(f"no check positions in {positions_folder()}")
    return files


@pytest.fixture
def load():
    from guyenne_explore.engine import Position

    def _load(name: str):
        return Position.from_json(position_path(name).read_text())
    return _load


def read_json(path: pathlib.Path):
    return json.loads(path.read_text())


def uniform_step(p, rng):
    """One seeded uniform step from ``p``: a chance outcome drawn by its probability, or a legal move at random."""
    if p.is_chance:
        return p.apply_outcome(p.sample_outcome(rng))
    moves = list(p.legal_moves)
    return p.apply(moves[rng.randrange(len(moves))])


def as_from_a_terminal() -> None:
    """A child process's Ctrl-C as a terminal's shell starts a command: SIGINT at its default and not blocked,
    whatever this test worker inherited or set (a worker started in the background ignores SIGINT, and a
    command started from it would too)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@pytest.fixture(scope="session")
def _session_cache(tmp_path_factory):
    """The tests' own cache of trained weights and readings, shared by the session's tests as a user's is by their
    runs (a reading computed once is read again), never the user's."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def _own_user_folders(monkeypatch, tmp_path_factory, _session_cache):
    """Every test keeps played games in a folder of its own and trained weights and readings in the session's, never
    the user's: a game played in the app on this machine showed up in a test's list of stored games (and a weights
    file trained there would be offered to the panels under test)."""
    monkeypatch.setenv("GUYENNE_GAMES", str(tmp_path_factory.mktemp("games")))
    monkeypatch.setenv("GUYENNE_CACHE", str(_session_cache))


@pytest.fixture(scope="session")
def browser_app(tmp_path_factory, _session_cache):
    """The explorer's Voilà app and a headless Chromium, ``(url, browser)``, shared by every browser test of this
    worker that needs the app as a user launches it (a module that needs other settings starts its own): a server
    and a browser a module took 8 s to start and stop, twenty times a run.  Its kernels keep played games in a
    folder of its own and trained weights in the session's cache, never the user's (a server started before a
    test's own folders were set read the user's).  Skipped with the reason when Playwright, Voilà or chromium are
    missing (:func:`tests.browser_app.require`)."""
    from tests import browser_app as app

    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")  # each worker its own ports: two never race for one
    low = 9300 + 10 * (int(worker[2:]) if worker[2:].isdigit() else 0)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("GUYENNE_GAMES", str(tmp_path_factory.mktemp("app-games")))
        env.setenv("GUYENNE_CACHE", str(_session_cache))
        with app.served(app.free_port(low, low + 9), tmp_path_factory.mktemp("voila") / "voila.log") as served:
            yield served


#: files that take a minute or more, run first: ``--dist loadfile`` hands files to the workers in the order collected,
#: and these, last in the alphabet, ran alone at the end of a clean clone's run while the other worker idled
FIRST = ("test_train.py", "test_strong.py", "test_widgets.py", "test_natural.py", "test_notebooks.py", "test_export.py")


#: files that never run the compiled simulator, marked ``without_simulator``: ``scripts/test.sh`` runs them on the idle
#: core while a fresh clone's simulator compiles on the other (about 4 minutes, which every other file waits for).
#: Under GUYENNE_TESTS_WITHOUT_SIMULATOR=1 (that run) a compiled kernel loaded or compiled fails the test that asked
#: for it, so a file stays here only while it is true of it.  No file that builds the explorer or its analysis panel is
#: here: whether they run the simulator depends on whether it is compiled yet (the optimal panel's test in
#: test_solve.py ran it once the compiling had ended).
WITHOUT_SIMULATOR = ("test_bench_exploitability.py", "test_engine_hostile.py", "test_engine_predicates.py",
                     "test_enums.py", "test_exact_fast.py", "test_input_fuzz.py", "test_intervals.py",
                     "test_lessons.py", "test_numbers.py", "test_parameters.py", "test_playtest_records.py",
                     "test_policy_spec.py", "test_properties.py", "test_readme.py", "test_render.py",
                     "test_rulebook.py", "test_rules_cases.py", "test_rules_editor.py", "test_storyboard.py",
                     "test_team.py", "test_view_record.py", "test_view_value.py")


def pytest_configure(config):
    config.addinivalue_line("markers", "without_simulator: never runs the compiled simulator (tests/conftest.py)")
    if os.environ.get("GUYENNE_TESTS_WITHOUT_SIMULATOR") == "1":
        from numba.core import dispatcher

        def refuse(kernel, signature):
            raise AssertionError(f"{kernel.py_func.__qualname__} is a compiled kernel, and this file is listed in "
                                 "tests/conftest.py WITHOUT_SIMULATOR: take it out of the list")

        dispatcher.Dispatcher.compile = refuse


def pytest_collection_modifyitems(config, items):
    """The long files first (:data:`FIRST`), the rest in their order: the run's end is not one long file alone; and
    the files of :data:`WITHOUT_SIMULATOR` marked."""
    items.sort(key=lambda item: FIRST.index(item.path.name) if item.path.name in FIRST else len(FIRST))
    for item in items:
        if item.path.name in WITHOUT_SIMULATOR:
            item.add_marker(pytest.mark.without_simulator)
