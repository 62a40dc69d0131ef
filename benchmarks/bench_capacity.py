"""Whether a richer model would learn more of its search's choices than strong's own does.

    .venv/bin/python benchmarks/bench_capacity.py --rules classic2021 --games 600 --workers 2 --models linear,network,cards
    .venv/bin/python benchmarks/bench_capacity.py --rules classic2021 --games 600 --target step --tau 0.02

It plays the improvement's self-play (``analysis.policies.improvement.self_play``: at each placement the compiled
search values strong's likeliest moves over the same rollouts), keeps 70% of the games' decisions to fit and 30% to
test.  Every model is a residual added to the start model's score (the network strong plays under the rules, or
``--start FILE``; :func:`~guyenne_explore.analysis.policies.improvement.scores`), all 0 at first, so each starts
exactly where strong plays, its inputs standardised:

- **linear**: a linear score over strong's features (as the improvement fits a linear model);
- **by point**: one such score for each placement point (open first, respond first, open second, respond second);
- **quadratic**: strong's features and every product of two of them;
- **read**: strong's features plus how often strong's placements like this one held their castle in 3,000
  games of its self-play (by point, the opponent's count there, the size, the total or the hero, the
  castle's control), and that chance times the stake: strong's bets read by its own play, as the
  search reads them with its deals;
- **new**: strong's features plus six candidate features (:data:`NEW_FEATURES`): at an opening, the
  opponent's answer capacity (its hand, less the card it keeps for the second castle; strong's chance
  assumes two cards), the hand a move leaves, the size late in the game;
- **value**: strong's features plus the castle's stake over the rest of the game rather than at the table's final
  scoring: how often a side went on to win from the table with the castle won, less from the table with it lost,
  in 3,000 games of strong's self-play (each table read mirrored and with the sides swapped, pulled towards the
  tables of the same lead in castles), and that times the chance;
- **network**: :data:`UNITS` rectified units over strong's features;
- **cards**: :data:`UNITS` units over strong's features and the raw view (:data:`VIEW_INPUTS`): the side's hand, the
  set, the hand it leaves and the opponent's hidden cards kind by kind, the castle, the table of castles, the
  placement point, the counts and sizes, without strong's summaries of them.

Two targets: ``--target value`` fits the improvement's plain objective, the expected value of the softmax under the
search's values; ``--target step`` the cross-entropy from a search step's policy, proportional to ``start ** alpha
* exp(Q / tau)`` (``--alpha``, ``--tau``), as the improvement's regularised fit does.  Printed for each: the test
decisions' mean expected value under the fitted softmax, beside the start's and the mean of each decision's best
candidate value (an upper bound that the rollouts' noise inflates: the best of several noisy means; the noise-free
gain of the search's pick is ``bench_regret.py``'s), the same on the fitted decisions, and how often the model's
top move is the search's best candidate.  Printed, never asserted.

Measured here from classic2021's shipped network (2026-11-30, ``--games 600 --workers 2``: 17,513 decisions to fit,
7,400 to test; each line about 5 minutes of self-play, then 10 s for the linear residual, 2 to 4 minutes for each
network), the test decisions' expected value (the start: 0.5091; the best candidate, noise-inflated: 0.6609; the
start's top move is the search's best at 0.224 of them):

==========================  ======  =======  ======
target                      linear  network  cards
==========================  ======  =======  ======
value                       0.5086  0.5088   0.5090
step, alpha 0, tau 0.02     0.4552  0.4673   0.4722
step, alpha 1, tau 0.004    0.5090  0.5098   0.5091
==========================  ======  =======  ======

On the fitted decisions the networks gain at most 0.006 (``cards``, the last target: 0.5133 against the start's
0.5076), and none of it holds on the test decisions.  The value target hardly moves a start that is nearly sure of
its moves (the gradient of its expected value vanishes there: ``tests/test_bench_capacity.py`` shows it on a toy);
the greedy step (alpha 0) does move it, towards the search's noisy picks, and loses 0.037 to 0.054 a placement: the
raw cards do a little better than strong's features (0.4722 against 0.4673) and the features better than a linear
score, but no model learns where the search's pick is the better one.  Yet that pick, valued again on other rollouts,
wins 0.093 a placement more than the start (``bench_regret.py``).  So what one ply of search on strong's play finds
is not learnt from thousands of its placements by a small model of the side's view, strong's summaries or the raw
cards alike; a policy that plays it needs far more data (the network is fitted on hundreds of games, AlphaZero's on
millions of positions) or the search itself.

Before the shipped networks (2026-11-27, from the linear weights, the value target, ``--games 300``) the linear
residual models gained at most 0.0024 at test: advanced 0.5201 (start), 0.5210 (linear), 0.5203 (by point),
0.5201 (quadratic), 0.5225 (read), 0.5208 (new), 0.5209 (value), best candidate 0.6416; classic2021 0.5066,
0.5058, 0.5075, 0.5100, 0.5074, 0.5053, 0.5057, 0.6436.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.cli.common import rules_arg  # noqa: E402
from guyenne_explore.analysis.policies.improvement import Decision, Recorder, recorded_game, scores  # noqa: E402
from guyenne_explore.analysis.policies.heuristic import TEMPERATURE, Facts, battle_terms, facts  # noqa: E402
from guyenne_explore.analysis.compiled.policy_codes import FEATURES  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong, edge  # noqa: E402
from guyenne_explore.analysis.policies.train import default_start  # noqa: E402
from guyenne_explore.analysis.policies.weights import read_model  # noqa: E402
from guyenne_explore.engine import (ENGLISH, FRENCH, HERO, NEUTRAL, OPEN_FIRST, OPEN_SECOND, PLACEMENTS, Hooks, Move,  # noqa: E402
                                        Position, Rules, SYMBOLS, SideView, battle_of, play, side_score)
from pools import stopping_pool  # noqa: E402

Stacked = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
#: the rectified units of the two network models (``network``, ``cards``)
UNITS = 32
#: the pull of a residual's numbers towards 0 (its inputs standardised)
PULL = 1e-4
#: the fit's most L-BFGS steps
STEPS = 300


def stack(rows: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> Stacked:
    """Decisions' rows one above the other: a model's inputs, the start model's scores over the temperature, the
    values, each decision's first row, each row's decision."""
    x = np.concatenate([r for r, _, _ in rows])
    base = np.concatenate([b for _, b, _ in rows])
    values = np.concatenate([v for _, _, v in rows])
    sizes = [len(v) for _, _, v in rows]
    return x, base, values, np.cumsum([0] + sizes[:-1]), np.repeat(np.arange(len(rows)), sizes)


def softmax(s: Stacked, z: np.ndarray) -> np.ndarray:
    """Each row's probability under the softmax of the logits ``z`` within its decision."""
    _, _, _, firsts, of = s
    e = np.exp(z - np.maximum.reduceat(z, firsts)[of])
    return e / np.add.reduceat(e, firsts)[of]


def expected(s: Stacked, z: np.ndarray) -> np.ndarray:
    """Each decision's expected value under the softmax of ``z``."""
    return np.add.reduceat(softmax(s, z) * s[2], s[3])


class Residual:
    """A score added to the start model's: ``a . x`` plus, with ``units``, ``v . max(0, U x + b)``, over a model's
    inputs ``x`` standardised by the fitted decisions' mean and spread; all 0 at first, so a model starts exactly
    where the start model plays."""

    def __init__(self, width: int, units: int, mean: np.ndarray, spread: np.ndarray, seed: int = 0) -> None:
        self.width, self.units, self.mean, self.spread = width, units, mean, spread
        rng = np.random.default_rng(seed)  # the units' input weights start apart (with v at 0, still no change)
        self.theta = np.concatenate([np.zeros(width), rng.normal(0, width ** -0.5, width * units), np.zeros(2 * units)])

    def parts(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        w, u = self.width, self.units
        return theta[:w], theta[w:w + w * u].reshape(w, u), theta[w + w * u:w + w * u + u], theta[w + w * u + u:]

    def logits(self, s: Stacked, theta: np.ndarray | None = None) -> np.ndarray:
        a, inputs, biases, outputs = self.parts(self.theta if theta is None else theta)
        x = (s[0] - self.mean) / self.spread
        return s[1] + (x @ a + np.maximum(x @ inputs + biases, 0.0) @ outputs) / TEMPERATURE

    def fit(self, s: Stacked, target: np.ndarray | None) -> None:
        """The numbers that maximise the decisions' mean expected value (``target`` None: the improvement's plain
        fit), or that minimise the cross-entropy from ``target``'s probabilities (a step's policy), less
        :data:`PULL` times their squares."""
        from scipy.optimize import minimize

        x = (s[0] - self.mean) / self.spread
        values, firsts, of = s[2], s[3], s[4]
        count = len(firsts)

        def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
            a, inputs, biases, outputs = self.parts(theta)
            hidden = x @ inputs + biases
            active = np.maximum(hidden, 0.0)
            z = s[1] + (x @ a + active @ outputs) / TEMPERATURE
            p = softmax(s, z)
            if target is None:
                ev = np.add.reduceat(p * values, firsts)
                value, by_score = -float(ev.sum()) / count, -(p * (values - ev[of])) / TEMPERATURE / count
            else:
                top = np.maximum.reduceat(z, firsts)[of]
                log_p = z - top - np.log(np.add.reduceat(np.exp(z - top), firsts))[of]
                value, by_score = -float((target * log_p).sum()) / count, (p - target) / TEMPERATURE / count
            by_unit = np.outer(by_score, outputs) * (hidden > 0)
            grad = np.concatenate([x.T @ by_score, (x.T @ by_unit).ravel(), by_unit.sum(axis=0), active.T @ by_score])
            return value + PULL * float(theta @ theta), grad + 2 * PULL * theta

        self.theta = minimize(loss, self.theta, jac=True, method="L-BFGS-B", options={"maxiter": STEPS}).x


def step_policy(s: Stacked, alpha: float, tau: float) -> np.ndarray:
    """Each row's probability under a search step's policy, proportional to ``start ** alpha * exp(Q / tau)``."""
    return softmax(s, alpha * s[1] + s[2] / tau)


def agreement(s: Stacked, z: np.ndarray) -> float:
    """How often the top move of the logits ``z`` is (one of) the search's best candidates."""
    values, firsts = s[2], s[3]
    ends = list(firsts[1:]) + [len(z)]
    return float(np.mean([values[a + np.argmax(z[a:b])] == values[a:b].max() for a, b in zip(firsts, ends)]))


#: the candidate new features (:func:`candidates`): the opponent's answer capacity at an opening, the hand a
#: move leaves, the move's size late in the game
NEW_FEATURES = ("stake if it can answer with one card", "chance against its largest answer up to two cards",
                "stake times that chance", "size times its answer capacity", "hand left", "size times cards spent")
#: self-play games of strong whose battles give the table of :func:`read_table`
TABLE_GAMES = 3000
#: the table's pull of a (placement, cards) cell towards its (point, count, size, hero) row, in battles
TABLE_PRIOR = 5


def candidates(view: SideView, move: Move, known: Facts) -> tuple[float, ...]:
    """:data:`NEW_FEATURES` of a placement: at an opening, the opponent's answer is at most its hand (less the
    card it keeps for the second castle at X), which strong's chance does not read (it assumes two cards): the
    chance is strong's own, its edge taken against that many cards (:func:`.strong.edge`) instead of two."""
    opening = view.to_play in (OPEN_FIRST, OPEN_SECOND)
    battle, stake, p, rel, _loss = battle_terms(view, move, known)
    left = sum(view.opponent.hand_sizes)
    cap = (max(1, left - 1) if view.to_play == OPEN_FIRST else left) if opening else 0
    cards = move.cards
    if opening and not cards[HERO] and cap == 1:
        theirs = known.opponent_placed_sizes
        sizes = (1 if battle == 0 else theirs[0], 1 if battle == 1 else theirs[1])
        p *= _logistic(edge(cards, battle, rel, known._replace(opponent_placed_sizes=sizes))) / _logistic(
            edge(cards, battle, rel, known))
    one = 1.0 if opening and cap == 1 else 0.0
    return (one * stake, p if opening else 0.0, stake * p if opening else 0.0, cards.size * cap / 5.0,
            (view.hand.size - cards.size) / 6.0, cards.size * (1 - known.unspent[view.side] / 22.0))


def _logistic(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def _castle(view: SideView, move: Move) -> int:
    """The castle of a placement: an opening's own, else the round's X or Y."""
    battle = battle_of(view.to_play)
    assert battle is not None
    castle = move.castle if move.castle is not None else (view.x, view.y)[battle]
    assert castle is not None
    return castle


Key = tuple[str, int, int, int, int]


def battle_key(view: SideView, move: Move) -> Key:
    """A placement as the table reads it: its point, the opponent's count there (0 at an opening), its size, its
    total (99 with the hero) and the castle's control (0 neutral, 1 the side's, 2 the other's)."""
    battle = battle_of(view.to_play)
    assert battle is not None
    control = view.castles[_castle(view, move)]
    rel = 0 if control == NEUTRAL else 1 if control == view.side else 2
    count = 0 if view.to_play in (OPEN_FIRST, OPEN_SECOND) else view.opponent_placed_sizes[battle]
    return (view.to_play, count, move.cards.size, 99 if move.cards[HERO] else move.cards.total, rel)


class _Battles(Hooks):
    """Each placement's key and whether its side held the castle after the round (a neutral tie: 1/2)."""

    def __init__(self) -> None:
        self.pending: list[tuple[int, int, int, Key]] = []
        self.rows: list[tuple[Key, float]] = []

    def _settle(self, p: Position, over: bool = False) -> None:
        for entry in [e for e in self.pending if over or p.round > e[0]]:
            _round, side, castle, key = entry
            held = p.castles[castle]
            self.rows.append((key, 1.0 if held == side else 0.5 if key[4] == 0 and held == NEUTRAL else 0.0))
            self.pending.remove(entry)

    def decision(self, p: Position, side: int, move: Move) -> None:
        self._settle(p)
        if p.to_play in PLACEMENTS:
            view = p.view(side)
            self.pending.append((p.round, side, _castle(view, move), battle_key(view, move)))

    def chance(self, p: Position, draw: Any) -> None:
        self._settle(p)

    def end(self, p: Position) -> None:
        self._settle(p, True)


def battles(rules: Any, game: int) -> list[tuple[Key, float]]:
    """Strong's self-play game ``game``: each placement's key and outcome."""
    watch, strong = _Battles(), Strong()
    play(Position.start(Rules.from_json(rules)), random.Random(f"table:{game}"), (strong, strong), hooks=(watch,),
         check_moves=False)
    return watch.rows


def pulled_shares(rows: Iterable[tuple[Any, float]], coarser: Callable[[Any], Any]) -> Callable[[Any], float]:
    """Each key's mean outcome in ``rows``, pulled by :data:`TABLE_PRIOR` rows towards that of its coarser key
    (``coarser``), itself pulled by two rows towards 1/2."""
    fine: dict[Any, list[float]] = defaultdict(lambda: [0.0, 0.0])
    coarse: dict[Any, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for key, outcome in rows:
        for cells, k in ((fine, key), (coarse, coarser(key))):
            cells[k][0] += outcome
            cells[k][1] += 1

    def share(key: Any) -> float:
        won, n = coarse.get(coarser(key), (0.0, 0.0))
        prior = (won + 1) / (n + 2)
        won, n = fine.get(key, (0.0, 0.0))
        return (won + TABLE_PRIOR * prior) / (n + TABLE_PRIOR)
    return share


def read_table(rows: Sequence[tuple[Key, float]]) -> Callable[[Key], float]:
    """How often strong's placements like this one held their castle in its self-play: strong read by its own
    play (the search's reading of bets, as a table), each cell pulled towards its coarser row."""
    return pulled_shares(rows, lambda key: (key[0], key[1], key[2], key[3] == 99))


Table = tuple[int, ...]


class _Tables(Hooks):
    """The table of castles at each round's first decision and at the end, each with english's outcome."""

    def __init__(self) -> None:
        self.seen: list[Table] = []
        self.rows: list[tuple[Table, float]] = []
        self.round = -1

    def decision(self, p: Position, side: int, move: Move) -> None:
        if p.round != self.round:
            self.round = p.round
            self.seen.append(tuple(p.castles))

    def end(self, p: Position) -> None:
        outcome = side_score(p.result().winner, ENGLISH)
        self.rows = [(t, outcome) for t in self.seen + [tuple(p.castles)]]


def tables(rules: Any, game: int) -> list[tuple[Table, float]]:
    """Strong's self-play game ``game``: each round's table of castles and english's outcome."""
    watch, strong = _Tables(), Strong()
    play(Position.start(Rules.from_json(rules)), random.Random(f"value:{game}"), (strong, strong), hooks=(watch,),
         check_moves=False)
    return watch.rows


def value_table(rows: Sequence[tuple[Table, float]]) -> Callable[[Table, int], float]:
    """How often a side went on to win from a table of castles in strong's self-play (each table also read
    mirrored and with the sides swapped), each table pulled towards the tables of the same lead in castles."""
    swap = {ENGLISH: FRENCH, FRENCH: ENGLISH, NEUTRAL: NEUTRAL}
    seen = [(t, w) for table, won in rows
            for t, w in ((table, won), (table[::-1], won), (tuple(swap[c] for c in table), 1 - won),
                         (tuple(swap[c] for c in table[::-1]), 1 - won))]
    english = pulled_shares(seen, lambda t: t.count(ENGLISH) - t.count(FRENCH))
    return lambda table, side: english(table) if side == ENGLISH else 1 - english(table)


#: the raw view of a placement that the ``cards`` model reads (:func:`view_inputs`), a number each: for each kind of
#: card (2 to 5 and the hero), the side's hand, the set placed, the hand it leaves and the opponent's cards out of
#: sight (:attr:`~guyenne_explore.engine.SideView.opponent_hidden`, the record's shown discard taken out); the
#: castle (one of six); the table of castles (1 the side's, -1 the opponent's, 0 neutral); the placement point (one
#: of four); then the castle's control, the opponent's count at this battle and at the other, its hand and deck,
#: the side's deck, the round, the set's size and total
VIEW_INPUTS = (tuple(f"{what} {kind}" for what in ("hand", "set", "left", "hidden") for kind in SYMBOLS)
               + tuple(f"castle {c + 1}" for c in range(6)) + tuple(f"table {c + 1}" for c in range(6))
               + PLACEMENTS + ("control", "their count here", "their count there", "their hand", "their deck",
                               "deck", "round", "size", "total"))


def view_inputs(view: SideView, move: Move) -> tuple[float, ...]:
    """:data:`VIEW_INPUTS` of a placement: what the side may see, raw, without strong's features' summaries (its
    chance to win the battle, the worth of the cards): whether a model over the cards themselves learns more of the
    search's choices."""
    battle = battle_of(view.to_play)
    assert battle is not None
    castle = _castle(view, move)
    hand, cards = tuple(view.hand), tuple(move.cards)
    table = [1.0 if c == view.side else -1.0 if c == 1 - view.side else 0.0 for c in view.castles]
    return (hand + cards + tuple(h - c for h, c in zip(hand, cards)) + tuple(view.opponent_hidden)
            + tuple(1.0 if c == castle else 0.0 for c in range(6)) + tuple((table + [0.0] * 6)[:6])
            + tuple(1.0 if view.to_play == p else 0.0 for p in PLACEMENTS)
            + (table[castle], view.opponent_placed_sizes[battle], view.opponent_placed_sizes[1 - battle],
               sum(view.opponent.hand_sizes), view.opponent.deck_size, view.deck_size, view.round, move.cards.size,
               move.cards.total))


class _Described(Recorder):
    """The improvement's recorder (the same decisions and values), which also keeps each legal placement's
    :func:`candidates`, :func:`battle_key`, tables of castles if won or lost and :func:`view_inputs`."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.more: list[tuple[np.ndarray, list[Key], list[tuple[Table, Table, int]], np.ndarray]] = []

    def _record(self, view: SideView) -> None:
        kept = len(self.decisions)
        super()._record(view)
        if len(self.decisions) > kept:
            known = facts(view)
            moves = list(view.legal_moves)
            self.more.append((np.array([candidates(view, m, known) for m in moves]), [battle_key(view, m) for m in moves],
                              [_if_won_or_lost(view, m) for m in moves],
                              np.array([view_inputs(view, m) for m in moves], np.float64)))


def _if_won_or_lost(view: SideView, move: Move) -> tuple[Table, Table, int]:
    """The table of castles if the side wins the placement's castle, if it loses it, and the side."""
    c, t = _castle(view, move), tuple(view.castles)
    return t[:c] + (view.side,) + t[c + 1:], t[:c] + (1 - view.side,) + t[c + 1:], view.side


class Described(NamedTuple):
    """A decision of the improvement's self-play with what the models read beyond strong's features."""

    decision: Decision
    more: np.ndarray
    keys: list[Key]
    places: list[tuple[Table, Table, int]]
    raw: np.ndarray


def described_play(rules: Any, weights: Sequence[float], seed: int, game: int) -> list[Described]:
    """``analysis.policies.improvement.self_play``'s game ``game`` of iteration 0 (the same decisions and values), each
    decision with its placements' candidate features, table keys, tables of castles if won or lost and raw view."""
    recorder = recorded_game(rules, weights, seed, 0, game, recorder=_Described)
    assert isinstance(recorder, _Described)
    return [Described(d, *more) for d, more in zip(recorder.decisions, recorder.more)]


Model = tuple[Callable[[Described], np.ndarray], int]


def models(table: Callable[[Key], float], value: Callable[[Table, int], float]) -> dict[str, Model]:
    """Each model: its inputs from a decision and its rectified units (0: a linear residual)."""
    n = len(FEATURES)

    def by_point(row: Described) -> np.ndarray:
        d = row.decision
        out = np.zeros((len(d.values), 4 * n))
        k = PLACEMENTS.index(d.point)
        out[:, k * n:(k + 1) * n] = d.features
        return out

    def quadratic(row: Described) -> np.ndarray:
        f = row.decision.features
        pairs = np.triu_indices(n)
        return np.hstack([f, (f[:, :, None] * f[:, None, :])[:, pairs[0], pairs[1]]])

    def read(row: Described) -> np.ndarray:
        f = row.decision.features
        p = np.array([table(k) for k in row.keys])
        return np.hstack([f, p[:, None], (p * f[:, FEATURES.index("stake")])[:, None]])

    def future(row: Described) -> np.ndarray:
        f = row.decision.features
        g = np.array([value(won, side) - value(lost, side) for won, lost, side in row.places])
        return np.hstack([f, g[:, None], (f[:, FEATURES.index("chance")] * g)[:, None]])

    return {"linear": (lambda row: row.decision.features, 0), "by point": (by_point, 0), "quadratic": (quadratic, 0),
            "read": (read, 0), "new": (lambda row: np.hstack([row.decision.features, row.more]), 0),
            "value": (future, 0), "network": (lambda row: row.decision.features, UNITS),
            "cards": (lambda row: np.hstack([row.decision.features, row.raw]), UNITS)}


def _unmade(*_: Any) -> float:
    """A table no model asked for: reading it is a slip."""
    raise AssertionError("this table was not made: no model asked for it")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="advanced", help="a preset name or rules JSON")
    ap.add_argument("--games", type=int, default=300, help="self-play games")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", help="a weights file to start from, a mixture's first member (default: the one strong plays "
                                    "under the rules)")
    ap.add_argument("--models", help="only these models, comma-separated")
    ap.add_argument("--target", choices=("value", "step"), default="value",
                    help="value: the expected value, as the improvement's plain fit; step: the cross-entropy from a "
                         "search step's policy, start ** alpha * exp(Q / tau)")
    ap.add_argument("--alpha", type=float, default=0.0, help="the step's weight of the start's policy")
    ap.add_argument("--tau", type=float, default=0.02, help="the step's temperature over the search's values")
    ap.add_argument("--table-games", type=int, default=TABLE_GAMES, help="self-play games of the read table")
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    w0 = read_model(Path(args.start)).weights if args.start else default_start(rules)
    known = list(models(_unmade, _unmade))
    names = known if args.models is None else [n.strip() for n in args.models.split(",")]
    if unknown := [n for n in names if n not in known]:
        ap.error(f"--models: no model {', '.join(unknown)}; the models are {', '.join(known)}")
    with stopping_pool(args.workers) as pool:
        jobs = [rules.to_json()] * args.table_games, range(args.table_games)
        table = read_table([r for g in pool.map(battles, *jobs) for r in g]) if "read" in names else None
        value = value_table([r for g in pool.map(tables, *jobs) for r in g]) if "value" in names else None
        games = list(pool.map(described_play, [rules.to_json()] * args.games, [tuple(w0)] * args.games,
                              [args.seed] * args.games, range(args.games)))
    chosen = models(table or _unmade, value or _unmade)
    cut = int(len(games) * 0.7)
    fitted, tested = [d for g in games[:cut] for d in g], [d for g in games[cut:] for d in g]
    print(f"{args.rules}: {len(fitted)} decisions to fit ({cut} games), {len(tested)} to test; target "
          + ("the expected value" if args.target == "value" else f"a step's policy, alpha {args.alpha}, tau {args.tau}"))

    # the start's logits of each decision, worked out once for every model
    starts = [[scores(w0, d.decision.features) / TEMPERATURE for d in part] for part in (fitted, tested)]

    def stacked(rows_of: Callable[[Described], np.ndarray], part: list[Described], logits: list[np.ndarray]) -> Stacked:
        return stack([(rows_of(d), z, d.decision.values) for d, z in zip(part, logits)])

    for name in names:
        rows_of, units = chosen[name]
        fitting, testing = stacked(rows_of, fitted, starts[0]), stacked(rows_of, tested, starts[1])
        mean, spread = fitting[0].mean(0), fitting[0].std(0)
        spread[spread < 1e-6] = 1.0  # an input (nearly) the same in every row stays as it is
        model = Residual(fitting[0].shape[1], units, mean, spread)
        t = time.perf_counter()
        model.fit(fitting, None if args.target == "value" else step_policy(fitting, args.alpha, args.tau))
        best = float(np.maximum.reduceat(testing[2], testing[3]).mean())
        print(f"  {name:>9}: test value {expected(testing, model.logits(testing)).mean():.4f} (the start "
              f"{expected(testing, testing[1]).mean():.4f}, best candidate {best:.4f}); fitted "
              f"{expected(fitting, model.logits(fitting)).mean():.4f} (the start {expected(fitting, fitting[1]).mean():.4f}); "
              f"top move the search's best "
              f"{agreement(testing, model.logits(testing)):.3f} (the start {agreement(testing, testing[1]):.3f}); "
              f"{time.perf_counter() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
