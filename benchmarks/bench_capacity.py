"""Whether a richer model over strong's features would learn more from its search than the linear one does.

    .venv/bin/python benchmarks/bench_capacity.py --rules advanced --games 300 --workers 2

It plays the improvement's self-play (``analysis.policies.improvement.self_play``: at each placement the compiled
search values strong's likeliest moves over the same rollouts), keeps 70% of the games' decisions to fit
and 30% to test, and fits, as the improvement does (the expected value of strong's softmax under the
search's values), six models from the shipped weights:

- **linear**: ``w . phi``, strong's own form;
- **by point**: one weight vector for each placement point (open first, respond first, open second,
  respond second), four times the weights;
- **quadratic**: ``w . phi`` plus every product of two standardised features (231 more weights, an L2
  pull towards zero);
- **read**: ``w . phi`` plus how often strong's placements like this one held their castle in 3,000
  games of its self-play (by point, the opponent's count there, the size, the total or the hero, the
  castle's control), and that chance times the stake: strong's bets read by its own play, as the
  search reads them with its deals;
- **new**: ``w . phi`` plus six candidate features (:data:`NEW_FEATURES`): at an opening, the
  opponent's answer capacity (its hand, less the card it keeps for the second castle; strong's chance
  assumes two cards), the hand a move leaves, the size late in the game;
- **value**: ``w . phi`` plus the castle's stake over the rest of the game rather than at the table's
  final scoring: how often a side went on to win from the table with the castle won, less from the
  table with it lost, in 3,000 games of strong's self-play (each table read mirrored and with the sides
  swapped, pulled towards the tables of the same lead in castles), and that times the chance: where a
  castle stands in the line, which the final scoring of the table now does not weigh.

Printed for each: the test decisions' mean expected value under the fitted softmax, beside the shipped
weights' and the mean of each decision's best candidate value (an upper bound that the rollouts' noise
inflates: the best of several noisy means), and how often the model's top move is the search's best
candidate.  Printed, never asserted.  Measured here on two cores (``--games 300``, 2026-11-27, about
7 minutes a rule set), test values:

============  =======  ======  ========  =========  ======  ======  ======  ==============
rules         shipped  linear  by point  quadratic  read    new     value   best candidate
============  =======  ======  ========  =========  ======  ======  ======  ==============
advanced      0.5201   0.5210  0.5203    0.5201     0.5225  0.5208  0.5209  0.6416
classic2021   0.5066   0.5058  0.5075    0.5100     0.5074  0.5053  0.5057  0.6436
============  =======  ======  ========  =========  ======  ======  ======  ==============

(An earlier run, on the weights before the last improvements: advanced 0.5201, 0.5204, 0.5206, 0.5213;
classic2021 0.5016, 0.5017, 0.5025, 0.5020.)  No model gains more than 0.005 of a game's value a
placement over the linear one, which is about what the split of the games moves them: what the search
finds at a placement is not a function of these features, of strong's own reading of bets, of the
opponent's answer capacity or of where a castle stands in the line (the value column: 2026-11-27, the
same command, the other columns as before) that more weights would learn from this many rollouts.  The
search's edge is in the deal it plays out, which a model of the view would have to carry much more of.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guyenne_explore.cli.common import rules_arg  # noqa: E402
from guyenne_explore.analysis.policies.improvement import Decision, Recorder, recorded_game  # noqa: E402
from guyenne_explore.analysis.policies.heuristic import TEMPERATURE, Facts, battle_terms, facts  # noqa: E402
from guyenne_explore.analysis.compiled.policy_codes import FEATURES  # noqa: E402
from guyenne_explore.analysis.policies.strong import Strong, edge  # noqa: E402
from guyenne_explore.analysis.policies.train import default_start  # noqa: E402
from guyenne_explore.engine import (ENGLISH, FRENCH, HERO, NEUTRAL, OPEN_FIRST, OPEN_SECOND, PLACEMENTS, Hooks, Move,  # noqa: E402
                                        Position, Rules, SideView, battle_of, play, side_score)
from pools import stopping_pool  # noqa: E402

Stacked = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def stack(rows: Sequence[tuple[np.ndarray, np.ndarray]]) -> Stacked:
    """Decisions' rows one above the other: features, values, each decision's first row, each row's decision."""
    phi = np.concatenate([f for f, _ in rows])
    values = np.concatenate([v for _, v in rows])
    sizes = [len(v) for _, v in rows]
    return phi, values, np.cumsum([0] + sizes[:-1]), np.repeat(np.arange(len(rows)), sizes)


def expected(s: Stacked, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each decision's expected value under the softmax of ``w``, and each row's probability."""
    phi, values, firsts, of = s
    z = phi @ w / TEMPERATURE
    e = np.exp(z - np.maximum.reduceat(z, firsts)[of])
    p = e / np.add.reduceat(e, firsts)[of]
    return np.add.reduceat(p * values, firsts), p


def fit(s: Stacked, start: np.ndarray, pull: np.ndarray) -> np.ndarray:
    """The weights of the best mean expected value, less ``pull . (w - start)^2`` (the improvement's fit)."""
    from scipy.optimize import minimize

    phi, values, _, of = s

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        ev, p = expected(s, w)
        grad = -(phi.T @ (p * (values - ev[of]))) / TEMPERATURE / len(ev)
        d = w - start
        return -float(ev.mean()) + float(pull @ (d * d)), grad + 2 * pull * d

    return minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 500}).x


def agreement(s: Stacked, w: np.ndarray) -> float:
    """How often the top move of ``w`` is (one of) the search's best candidates."""
    phi, values, firsts, _ = s
    z = phi @ w
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
        sizes = tuple(1 if b == battle else n for b, n in enumerate(known.opponent_placed_sizes))
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


class _Described(Recorder):
    """The improvement's recorder (the same decisions and values), which also keeps each legal placement's
    :func:`candidates` and :func:`battle_key`."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.more: list[tuple[np.ndarray, list[Key], list[tuple[Table, Table, int]]]] = []

    def _record(self, view: SideView) -> None:
        kept = len(self.decisions)
        super()._record(view)
        if len(self.decisions) > kept:
            known = facts(view)
            moves = list(view.legal_moves)
            self.more.append((np.array([candidates(view, m, known) for m in moves]), [battle_key(view, m) for m in moves],
                              [_if_won_or_lost(view, m) for m in moves]))


def _if_won_or_lost(view: SideView, move: Move) -> tuple[Table, Table, int]:
    """The table of castles if the side wins the placement's castle, if it loses it, and the side."""
    c, t = _castle(view, move), tuple(view.castles)
    return t[:c] + (view.side,) + t[c + 1:], t[:c] + (1 - view.side,) + t[c + 1:], view.side


Described = tuple[Decision, np.ndarray, list[Key], list[tuple[Table, Table, int]]]


def described_play(rules: Any, weights: Sequence[float], seed: int, game: int) -> list[Described]:
    """``analysis.policies.improvement.self_play``'s game ``game`` of iteration 0 (the same decisions and values), each
    decision with its placements' candidate features, table keys and tables of castles if won or lost."""
    recorder = recorded_game(rules, weights, seed, 0, game, recorder=_Described)
    assert isinstance(recorder, _Described)
    return [(d, more, keys, places) for d, (more, keys, places) in zip(recorder.decisions, recorder.more)]


Model = tuple[Callable[[Described], np.ndarray], np.ndarray, np.ndarray]


def models(w0: np.ndarray, mean: np.ndarray, spread: np.ndarray, table: Callable[[Key], float],
           value: Callable[[Table, int], float]) -> dict[str, Model]:
    """Each model: its rows from a decision, its start (where it plays as the shipped weights) and its pull."""
    n = len(w0)
    pairs = np.triu_indices(n)
    scale = max(float(np.abs(w0).mean()), 1.0)

    def by_point(row: Described) -> np.ndarray:
        d = row[0]
        out = np.zeros((len(d.values), 4 * n))
        k = PLACEMENTS.index(d.point)
        out[:, k * n:(k + 1) * n] = d.features
        return out

    def quadratic(row: Described) -> np.ndarray:
        d = row[0]
        z = (d.features - mean) / spread
        return np.hstack([d.features, (z[:, :, None] * z[:, None, :])[:, pairs[0], pairs[1]]])

    def read(row: Described) -> np.ndarray:
        d, _more, keys, _places = row
        p = np.array([table(k) for k in keys])
        return np.hstack([d.features, p[:, None], (p * d.features[:, FEATURES.index("stake")])[:, None]])

    def future(row: Described) -> np.ndarray:
        d, places = row[0], row[3]
        f = np.array([value(won, side) - value(lost, side) for won, lost, side in places])
        p = d.features[:, FEATURES.index("chance")]
        return np.hstack([d.features, f[:, None], (p * f)[:, None]])

    q, k = len(pairs[0]), len(NEW_FEATURES)
    near = np.full(n, 1e-3 / scale ** 2)
    return {"linear": (lambda row: row[0].features, w0, near),
            "by point": (by_point, np.tile(w0, 4), np.full(4 * n, 1e-3 / scale ** 2)),
            "quadratic": (quadratic, np.concatenate([w0, np.zeros(q)]), np.concatenate([near, np.full(q, 1e-3)])),
            "read": (read, np.concatenate([w0, np.zeros(2)]), np.full(n + 2, 1e-3 / scale ** 2)),
            "new": (lambda row: np.hstack([row[0].features, row[1]]), np.concatenate([w0, np.zeros(k)]),
                    np.full(n + k, 1e-3 / scale ** 2)),
            "value": (future, np.concatenate([w0, np.zeros(2)]), np.full(n + 2, 1e-3 / scale ** 2))}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="advanced", help="a preset name or rules JSON")
    ap.add_argument("--games", type=int, default=300, help="self-play games")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--table-games", type=int, default=TABLE_GAMES, help="self-play games of the read table")
    args = ap.parse_args(argv)
    rules = rules_arg(args.rules)
    w0 = np.array(default_start(rules))
    with stopping_pool(args.workers) as pool:
        table = read_table([row for game in pool.map(battles, [rules.to_json()] * args.table_games,
                                                              range(args.table_games))
                            for row in game])
        value = value_table([row for game in pool.map(tables, [rules.to_json()] * args.table_games,
                                                              range(args.table_games)) for row in game])
        games = list(pool.map(described_play, [rules.to_json()] * args.games, [tuple(w0)] * args.games,
                              [args.seed] * args.games, range(args.games)))
    cut = int(len(games) * 0.7)
    train_games, test_games = [d for g in games[:cut] for d in g], [d for g in games[cut:] for d in g]
    every = np.concatenate([d.features for d, *_ in train_games])
    mean, spread = every.mean(0), every.std(0) + 1e-9
    print(f"{args.rules}: {len(train_games)} decisions to fit ({cut} games), {len(test_games)} to test")
    for name, (rows, start, pull) in models(w0, mean, spread, table, value).items():
        fitting = stack([(rows(d), d[0].values) for d in train_games])
        testing = stack([(rows(d), d[0].values) for d in test_games])
        w = fit(fitting, start, pull)
        shipped = expected(testing, start)[0].mean()
        best = float(np.mean([d.values.max() for d, *_ in test_games]))
        print(f"  {name:>9}: test value {expected(testing, w)[0].mean():.4f} (shipped weights {shipped:.4f}, "
              f"best candidate {best:.4f}); fit {expected(fitting, w)[0].mean():.4f}; top move the search's best "
              f"{agreement(testing, w):.3f} (shipped {agreement(testing, start):.3f})")


if __name__ == "__main__":
    main()
