"""Exact analysis by the fast paths equals the plain enumerations, fraction for fraction.

- The exact forward pass (:mod:`.exact.forward_exact`, residues modulo primes) gives the
  endgame solver's fractions on random endgames of every 2-player preset and of variants,
  on the check positions, and when its first guess of the primes is too small.
- The merging recursion (:mod:`.exact_reference`) gives the same answers with and without
  merging, and the same as the engine's round-by-round enumeration, on small positions of
  every preset (teams, stacked decks, live decks); keys that drop information are pinned here.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import numpy as np
import pytest

from guyenne_explore.analysis.exact.distribution import exact_distribution
from guyenne_explore.analysis.exact.reference import Reference, merge_key
from guyenne_explore.analysis.exact import forward_exact as fx
from guyenne_explore.analysis.exact.endgame import Endgame, applies
from guyenne_explore.analysis.exact.forward import ForwardEndgame
from guyenne_explore.analysis.policies import Uniform
from guyenne_explore.engine import OPEN_FIRST, TEAM_SPLIT, Position, Rules, apply_legal

from .conftest import position_files

UNIFORM = ("uniform", "uniform")
VARIANTS = [Rules.preset(name) for name in ("base", "advanced", "expert", "classic2021")] + [
    Rules.preset("base", adjacency="ring"), Rules.preset("advanced", castles=5),
    Rules.preset("base", reshuffle="immediate"), Rules.preset("classic2021", hand_size=5)]
IDS = ["base", "advanced", "expert", "classic2021", "ring", "5castles", "immediate", "hand5"]


def late(rules: Rules, seed: int, unspent: int, point: str | None = None) -> Position:
    """A position of a seeded uniform game once both sides hold at most ``unspent`` cards in hands and decks."""
    rng = random.Random(seed)
    while True:
        p = Position.start(rules)
        while not p.is_over:
            if not p.is_chance and (point is None or p.to_play == point) and \
                    sum(s.hand.size + s.deck.size for s in p.sides) <= unspent:
                return p
            p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_legal(p, rng.choice(list(p.legal_moves)))


def endgames(rules: Rules, count: int, seed: int, unspent: int = 9) -> list[Position]:
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        p = late(rules, rng.randrange(10 ** 9), unspent, OPEN_FIRST)
        if applies(p, UNIFORM):
            found.append(p)
    return found


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_exact_forward_pass_equals_the_endgame_solver(rules):
    for p in endgames(rules, 3, seed=11):
        exact = fx.ExactForwardEndgame(p.rules).value(p)
        assert exact == Endgame(p.rules).value(p)
        assert sum(exact.values()) == 1


def test_exact_forward_pass_takes_more_primes_when_its_guess_is_short(monkeypatch):
    p = endgames(Rules.preset("advanced"), 1, seed=3, unspent=10)[0]
    monkeypatch.setattr(fx.ExactForwardEndgame, "_primes_needed", lambda self, p: 1)
    solver = fx.ExactForwardEndgame(p.rules)
    assert solver.value(p) == Endgame(p.rules).value(p)
    assert solver.prime_count > 1


def test_chinese_remainders_give_the_integers_back():
    primes = fx._primes()[:5]
    rng = random.Random(0)
    values = [rng.randrange(0, np.prod([float(q) for q in primes]).__int__()) for _ in range(50)] + [0, 1]
    residues = np.array([[v % q for v in values] for q in primes], np.int64)
    assert fx.crt(residues, primes) == values
    assert all(q < 2 ** fx.PRIME_BITS for q in primes) and len(set(primes)) == len(primes)


@pytest.mark.parametrize("castles,start", [(3, 0), (6, 0), (6, 100), (5, 7)])
def test_orbit_moves_are_the_castle_maps_summed_over_each_orbit(castles, start):
    """From every table of an orbit, the ordered pairs (X, Y) and the battles' outcomes there send the
    same count of tables into each orbit: the orbits' own map, which the forward passes run."""
    solver = fx.ExactForwardEndgame(Rules.preset("base", castles=castles))
    orbits = solver.orbits(start)
    assert orbits.of[start] == orbits.start and orbits.size.sum() == 3 ** castles
    assert len(orbits.size) < 3 ** castles
    digits, powers = solver.digits, solver.powers
    for ox, oy in itertools.product(range(3), repeat=2):  # english wins, french wins, tie
        counts = np.zeros((3 ** castles, len(orbits.size)), np.int64)
        for x, y in itertools.permutations(range(castles), 2):
            new = digits.copy()
            for c, o in ((x, ox), (y, oy)):
                if o != 2:
                    new[:, c] = 1 + o
            np.add.at(counts, (np.arange(3 ** castles), orbits.of[new @ powers]), 1)
        assert (counts == orbits.moves[3 * ox + oy][orbits.of]).all()


def _shared_endgames():
    for path in position_files():
        p = Position.from_json(path.read_text())
        if applies(p, UNIFORM):
            yield path


@pytest.mark.parametrize("path", list(_shared_endgames()), ids=lambda x: x.stem)
def test_exact_forward_pass_gives_the_check_positions(path):
    p = Position.from_json(path.read_text())
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    got: dict[tuple, Fraction] = {}
    for (e, f, w, _, _), q in fx.ExactForwardEndgame(p.rules).value(p).items():
        got[(e, f, w)] = got.get((e, f, w), 0) + q
    assert got == {(o["english"], o["french"], o["winner"]): Fraction(o["p_exact"]) for o in expected["outcomes"]}


def _stacked(p: Position, seed: int) -> Position:
    """The same position with the english deck stacked in a seeded order (an empty deck has no order to stack:
    the loader refuses ``"stacked": true`` there, as a field a save would drop)."""
    data = p.to_json()
    side = data["sides"]["english"]
    deck = list(side["deck"])
    assert deck, "a stacked deck holds cards"
    random.Random(seed).shuffle(deck)
    side["deck"], side["stacked"] = deck, True
    return Position.from_json(data)


def _small_positions():
    yield "team", late(Rules.preset("team"), 1, 9, TEAM_SPLIT)
    yield "team-open-first", late(Rules.preset("team", removal="advanced"), 2, 9, OPEN_FIRST)
    yield "team3", late(Rules.preset("team3"), 3, 8, TEAM_SPLIT)
    yield "base-live", late(Rules.preset("base"), 4, 9, OPEN_FIRST)
    yield "advanced-mid-round", late(Rules.preset("advanced"), 5, 8, "open_second")
    yield "classic-stacked", _stacked(late(Rules.preset("classic2021"), 37, 11, OPEN_FIRST), 6)
    yield "expert", late(Rules.preset("expert"), 7, 8, OPEN_FIRST)


@pytest.mark.parametrize("name,p", list(_small_positions()), ids=lambda x: x if isinstance(x, str) else "")
def test_merged_recursion_equals_unmerged_and_the_engine(name, p):
    merged, plain = Reference(), Reference(merge=False)
    dist = merged.distribution(p)
    assert dist == plain.distribution(p)
    assert merged.states <= plain.states
    old, _ = exact_distribution(p, (Uniform(), Uniform()), fast=False)
    assert dist == old
    fast, _ = exact_distribution(p, (Uniform(), Uniform()))
    assert fast == old
    if p.rules.is_team:  # no team endgame is summed in floats: the merged recursion answers in fractions
        assert exact_distribution(p, (Uniform(), Uniform()), floats=True)[0] == old
    assert sum(dist.values()) == 1


def _mirror(p: Position) -> Position:
    data = p.to_json()
    data["castles"] = data["castles"][::-1]
    return Position.from_json(data)


def test_mirror_images_and_swapped_members_share_a_key():
    p = late(Rules.preset("team"), 8, 10, TEAM_SPLIT)
    q = _mirror(p)
    data = q.to_json()
    for side in data["sides"].values():
        if "members" in side:
            side["members"] = side["members"][::-1]
            side["drawer"] = 1 - side["drawer"]
    swapped = Position.from_json(data)
    assert p.castles != q.castles
    assert merge_key(p) == merge_key(q) == merge_key(swapped)
    assert Reference(merge=False).distribution(p) == Reference(merge=False).distribution(swapped)


def test_settled_sides_drop_their_discards():
    p = endgames(Rules.preset("advanced"), 1, seed=9)[0]
    data = p.to_json()
    for side in data["sides"].values():
        side["discard"], side["removed"] = side["discard"] + side["removed"], []
    moved = Position.from_json(data)
    assert merge_key(p) == merge_key(moved)
    assert Reference(merge=False).distribution(p) == Reference(merge=False).distribution(moved)


def six_against_six() -> Position:
    """The issue's case: hands of six of distinct values, decks spent, every castle neutral
    (``benchmarks/bench_exact.py`` times it too)."""
    sides = {}
    for name, hand in (("english", "H54322"), ("french", "H54332")):
        rest = ["H", "5", "5", "4", "4", "4", "3", "3", "3", "3"] + ["2"] * 12
        for c in hand:
            rest.remove(c)
        sides[name] = {"hand": list(hand), "deck": [], "discard": rest, "removed": [], "exhaustions": 2}
    return Position.from_json({"rules": "base", "castles": ["neutral"] * 6, "round": 9, "first": "english",
                               "to_play": "open_first", "sides": sides})


@pytest.mark.slow
def test_six_against_six_with_empty_decks_in_fractions():
    p = six_against_six()
    exact = fx.ExactForwardEndgame(p.rules).value(p)
    assert exact == Endgame(p.rules).value(p)
    floats = ForwardEndgame(p.rules).value(p)
    assert max(abs(floats[k] - float(q)) for k, q in exact.items()) < 1e-12
