"""The check positions: legal-move counts and exact uniform results computed independently from RULES.md."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from guyenne_explore.engine import Position
from guyenne_explore.analysis.api import analyse

from .conftest import position_files, read_json

FILES = position_files()
#: exact enumerations taking more than a few seconds without the endgame solver (plain engine)
ENGINE_SLOW = {"advanced-endgame-4v4", "base-live-decks", "expert-third-cycle"}


def _name(f):
    return f.name[:-len(".json")]


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_move_counts(path):
    p = Position.from_json(path.read_text())
    expected = read_json(path.with_name(_name(path) + ".moves.json"))
    assert p.to_play == expected["to_play"]
    assert len(p.legal_moves) == expected["count"] == len(list(p.legal_moves))


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_cli_moves_json(path):
    out = subprocess.run([sys.executable, "-m", "guyenne_explore", "moves", str(path), "--json"],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    expected = read_json(path.with_name(_name(path) + ".moves.json"))
    assert data["count"] == expected["count"] == len(data["moves"])
    assert data["to_play"] == expected["to_play"]


def _check_exact(path, fast=True):
    p = Position.from_json(path.read_text())
    expected = read_json(path.with_name(_name(path) + ".expected.json"))
    got = analyse(p, method="exact", force=True, fast=fast).to_json()
    want = {(o["english"], o["french"], o["winner"]): Fraction(o["p_exact"]) for o in expected["outcomes"]}
    have = {(o["english"], o["french"], o["winner"]): Fraction(o["p_exact"]) for o in got["outcomes"]}
    assert have == want
    assert got["rounds_exact"] == expected["rounds_exact"]
    assert got["win_exact"] == expected["win_exact"]
    assert sum(have.values()) == 1


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_exact_results(path):
    """Through the analysis as a user runs it (the endgame solver where it applies)."""
    _check_exact(path)


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_exact_results_in_floats(path):
    """Endgames summed in float64 (the "auto" analysis of the panels) agree to 1e-12."""
    p = Position.from_json(path.read_text())
    expected = read_json(path.with_name(_name(path) + ".expected.json"))
    got = analyse(p, method="exact", force=True, arithmetic="float").to_json()
    want = {(o["english"], o["french"], o["winner"]): Fraction(o["p_exact"]) for o in expected["outcomes"]}
    have = {(o["english"], o["french"], o["winner"]): o["p"] for o in got["outcomes"]}
    assert set(have) == set(want)
    assert all(abs(have[k] - float(q)) < 1e-12 for k, q in want.items())
    rounds = {k: float(Fraction(v)) for k, v in expected["rounds_exact"].items()}
    assert set(got["rounds"]) == set(rounds)
    assert all(abs(got["rounds"][k] - q) < 1e-12 for k, q in rounds.items())


@pytest.mark.parametrize("path", [f for f in FILES if _name(f) not in ENGINE_SLOW], ids=_name)
def test_exact_results_plain_engine(path):
    """The plain enumeration on the engine alone agrees too."""
    _check_exact(path, fast=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", [f for f in FILES if _name(f) in ENGINE_SLOW], ids=_name)
def test_exact_results_plain_engine_slow(path):
    _check_exact(path, fast=False)


def test_sampled_agrees_with_exact():
    path = next(f for f in FILES if _name(f) == "base-endgame-3v3")
    p = Position.from_json(path.read_text())
    exact = analyse(p, method="exact").win
    sampled = analyse(p, method="sample", games=3000, seed=11)
    intervals = sampled.win_interval()
    for w in ("english", "french", "draw"):
        lo, hi = intervals[w]
        assert lo <= float(exact[w]) <= hi, (w, float(exact[w]), intervals[w])
    again = analyse(p, method="sample", games=3000, seed=11)
    assert again.samples == sampled.samples  # deterministic for a seed


def test_exact_out_of_reach_is_said():
    from guyenne_explore.analysis.api import ExactOutOfReach

    with pytest.raises(ExactOutOfReach, match="sample instead"):
        analyse(Position.start("advanced"), method="exact")
    r = subprocess.run([sys.executable, "-m", "guyenne_explore", "analyse", "--rules", "base", "--exact"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "out of reach" in r.stderr and "Traceback" not in r.stderr


def test_auto_picks_exact_for_a_small_endgame():
    path = next(f for f in FILES if _name(f) == "base-endgame-3v3")
    assert analyse(Position.from_json(path.read_text())).exact
