"""Endgames under optimal play: the equilibrium of an open-hand endgame and how far a policy is from it.

Once neither side can draw again (both decks empty, no reshuffle left) a careful
player knows both hands: what remains is a finite two-player zero-sum game
whose only hidden information is the face-down placements of the current round.
After each round everything is public again, so the game is solved backward
over round starts, memoised on what still matters: castles, both hands and who
opens (the discard and the removed cards are out of the game for good, the
round number changes nothing, and a round start and its mirror image castle
i <-> n-1-i have the same value).

Each round is a small imperfect-information game (see :mod:`.optimal_round`),
solved as a sequence-form linear program with scipy's HiGHS
(:mod:`.optimal_lp`).  Why an LP and not CFR+: the LP is exact to the solver's
tolerance (about 1e-9 here) where CFR+ only converges, with an error that must be
measured; each round start is solved once, the rounds below it being already
solved; and the LPs are small (a few thousand variables for hands of 4 cards), so
HiGHS solves them in milliseconds and thousands of small ones in one stacked
call.  CFR+ stays useful as the independent check (OpenSpiel, in the tests).

Objectives: ``"win"``, the probability to win with a draw counting half, or
``"score"``, the expected score difference english minus french.  Values are
given for english; the zero-sum game makes french's the complement.

A best response to a fixed policy (:class:`BestResponse`) is a one-player
problem on the same rounds: the policy's move distributions, read from its own
:class:`~guyenne_explore.engine.view.SideView` only, fix one side's plan, and the other
side picks its best move at each of its information sets, backward.

A move's loss at a decision (:meth:`OptimalSolver.move_values`) is measured the same way, one round deep: each
legal move's value against the other side's equilibrium mix, the side playing its best at its later placements
of the round; the best move's value minus the played move's is the loss (0 for a move the equilibrium plays).
"""

from __future__ import annotations

import random
import time
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, TypedDict

import numpy as np

from ...engine import (ENGLISH, FRENCH, OPEN_FIRST, OPEN_SECOND, PLACEMENTS, RESPOND_FIRST, RESPOND_SECOND, SIDES,
                          Cards, Move, Position, Rules, Side, cannot_reshuffle_again, side_score, table_result)
from ...i18n import (N_, FIRST_CASTLE, capitalised, current_language, gettext, ngettext, plain_number, plain_percent, point_name,
                     side_noun, translator)
from .lp import Layout, RoundSolution, solve_batch
from .round import RoundModel, StateKey, build_round, canonical, round_start, subgame
from ..policies import Policy

OBJECTIVES = ("win", "score")
#: what a value is the value of (kept in English in the data, translated where it is shown)
ROUND_START = N_("the round start")
SUBGAME = N_("the subgame after the opening at castle X (its castle and number of cards are public)")
#: leaf-payoff non-zeros stacked into one HiGHS call
BATCH_NONZEROS = 300_000


def why_not_solvable(p: Position) -> str | None:
    """None when :class:`OptimalSolver` applies to ``p``, else the reason in one line."""
    rules = p.rules
    if rules.is_team:
        return gettext("the optimal-play solver covers two solo sides: in the team game partners hide their hands "
                       "from each other, so the endgame is not an open-hand game")
    if p.is_over:
        return gettext("the game is over: there is nothing left to play")
    if rules.concede_as_decision:
        return gettext("the optimal-play solver plays battles with the built-in reveal/concede rule; "
                       "turn the concede_as_decision option off to solve this position")
    for i, s in enumerate(p.sides):
        if s.deck.size or not cannot_reshuffle_again(s, rules):
            return gettext("{side} can still draw (cards in the deck: {deck}; exhaustions: {exhaustions} of {limit}): "
                           "after a draw the hands are not known to both sides; the solver starts once no side can "
                           "draw again").format(side=side_noun(SIDES[i]),
                                           deck=s.deck.size, exhaustions=s.exhaustions, limit=rules.exhaustion_limit)
    if p.to_play not in PLACEMENTS:
        return gettext("solve from a placement decision ({start} starts a round), not from {point}").format(
            start=point_name(OPEN_FIRST), point=point_name(p.to_play))
    return None


def round_key(p: Position) -> StateKey:
    """The round start a placement position belongs to: placed cards go back to the hands."""
    hands = tuple(p.sides[i].hand + p.placed.side_total(i) for i in (ENGLISH, FRENCH))
    return (p.castles, p.first, hands[0], hands[1])


def english_payoff(result: Any, objective: str) -> float:
    if objective == "score":
        return float(result.english - result.french)
    return side_score(result.winner, ENGLISH)


@dataclass
class SolveStats:
    """What was solved: round starts, leaves, LP sizes, HiGHS calls and time."""

    states: int = 0
    leaves: int = 0
    variables: int = 0
    constraints: int = 0
    nonzeros: int = 0
    largest_variables: int = 0
    largest_constraints: int = 0
    largest_nonzeros: int = 0
    lp_calls: int = 0
    subgames_solved: int = 0
    saddle: int = 0
    pruned: int = 0
    build_seconds: float = 0.0
    lp_seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


class OptimalSolver:
    """Equilibrium values and strategies of open-hand endgames for one rule set and objective."""

    def __init__(self, rules: Rules, objective: str = "win", progress: Callable[[int], None] | None = None):
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be win or score, not {objective!r}")
        self.rules = rules
        self.objective = objective
        self.progress = progress
        self.models: dict[StateKey, RoundModel] = {}
        self.subs: dict[StateKey, list[Subgame]] = {}
        self.values: dict[StateKey, float] = {}
        self.stats = SolveStats()
        self._end_values: dict[tuple, float] = {}

    # ------------------------------------------------------------------ values
    def end_value(self, target: tuple) -> float:
        """English payoff of a final table ``("end", castles, unspent english, unspent french)``."""
        v = self._end_values.get(target)
        if v is None:
            _, castles, ue, uf = target
            v = english_payoff(table_result(castles, ue, uf, self.rules), self.objective)
            self._end_values[target] = v
        return v

    def place_values(self, m: RoundModel, values: Callable[[StateKey], float]) -> np.ndarray:
        """English value of every place a round leads to: final tables scored by the engine (cached
        per table and hand sizes), next round starts from ``values``."""
        out = np.empty(len(m.terminal))
        first = m.first
        ends = np.nonzero(m.terminal)[0]
        if len(ends):
            sf = np.array([r.size for r in m.f_rems])[m.place_f[ends]]
            ss = np.array([r.size for r in m.s_rems])[m.place_s[ends]]
            se, sfr = (sf, ss) if first == ENGLISH else (ss, sf)
            base = int(max(se.max(), sfr.max())) + 1
            code = (m.place_table[ends] * base + se) * base + sfr
            uniq, inv = np.unique(code, return_inverse=True)
            vals = np.array([self.end_value(("end", m.tables[c // (base * base)], (c // base) % base, c % base))
                             for c in uniq.tolist()])
            out[ends] = vals[inv]
        for u, key in m.next_states():
            out[u] = values(key)
        return out

    def value_of(self, key: StateKey) -> float:
        """English value of a round start (solving it and everything below it if needed)."""
        canon, _ = canonical(key)
        if canon not in self.values:
            self._solve_from(canon)
        return self.values[canon]

    def model(self, key: StateKey) -> RoundModel:
        m = self.models.get(key)
        if m is None:
            t = time.perf_counter()
            m = self.models[key] = build_round(self.rules, key)
            self.stats.build_seconds += time.perf_counter() - t
        return m

    def _solve_from(self, root: StateKey) -> None:
        # every round start below the root, each once (mirror images merged)
        todo, seen = [root], {root}
        while todo:
            key = todo.pop()
            if self.progress and len(self.models) % 1000 == 0:
                self.progress(len(self.values))
            for _, target in self.model(key).next_states():
                c = canonical(target)[0]
                if c not in seen and c not in self.values:
                    seen.add(c)
                    todo.append(c)
        # each side places at least two cards a round: children always hold fewer cards
        order = sorted(seen, key=lambda k: k[2].size + k[3].size)
        batch: list[StateKey] = []
        weight = 0
        level = None
        for key in order:
            lvl = key[2].size + key[3].size
            if batch and (lvl != level or weight >= BATCH_NONZEROS):
                self._solve_batch(batch)
                batch, weight = [], 0
            level = lvl
            batch.append(key)
            weight += self.model(key).leaves
        if batch:
            self._solve_batch(batch)

    def _payoff(self, key: StateKey) -> np.ndarray:
        """F's payoff of every leaf of a round start, from the values below it."""
        m = self.models[key]
        vals = self.place_values(m, lambda k: self.values[canonical(k)[0]])
        sign = 1.0 if key[1] == ENGLISH else -1.0
        return sign * vals[m.child]

    def _subgames(self, key: StateKey, payoff: np.ndarray) -> list[Subgame]:
        """The subgames after F's public choice (X, number of cards), with bounds from pure plans.

        ``low``: what F surely gets by fixing ``a`` and answering at Y with the ``d`` that is best
        against the worst of S's plans it cannot tell apart (same Y, same counts |b| and |c|);
        ``high``: what S's best fixed plan (b, Y, c) concedes to an F that knows it.  The value
        lies between; equal, it is a saddle point and needs no LP."""
        m = self.models[key]
        n = m.n
        by_x = payoff.reshape(n, n - 1, *payoff.shape[1:])   # blocks run X by X, Y within
        lm = np.array([m.answers[b].size * 64 + c.size for b, c in zip(m.s_b.tolist(), m.s_c)])
        order = np.argsort(lm, kind="stable")
        lm_starts = np.flatnonzero(np.r_[True, np.diff(lm[order]) != 0])
        a_starts = np.flatnonzero(np.r_[True, np.diff(m.f_a) != 0])   # F's plans run a by a
        worst = np.minimum.reduceat(by_x[..., order], lm_starts, axis=3)        # [X, Y, fp, lm]
        guaranteed = np.maximum.reduceat(worst, a_starts, axis=2).min(axis=(1, 3))   # [X, a]
        open_size = np.array([a.size for a in m.opens])
        sizes = open_size[m.f_a]
        out: list[Subgame] = []
        for size in sorted(set(sizes.tolist())):
            low = guaranteed[:, open_size[m.f_a[a_starts]] == size].max(axis=1)
            high = by_x[:, :, sizes == size, :].max(axis=2).min(axis=(1, 2))
            out.extend(Subgame(x, size, float(low[x]), float(high[x])) for x in range(n))
        return out

    def _solve_batch(self, keys: list[StateKey]) -> None:
        """Solve round starts subgame by subgame: a subgame needs an LP only when it has no saddle point
        and could still beat what F surely gets elsewhere.  First each state's most promising
        subgame, then the others that can still beat it (a win often ends the search there)."""
        st = self.stats
        payoffs = {}
        for key in keys:
            payoff = payoffs[key] = self._payoff(key)
            subs = self.subs[key] = self._subgames(key, payoff)
            for sg in subs:
                if sg.high - sg.low <= 1e-12:
                    sg.value = sg.low
                    st.saddle += 1
        first = []
        for key in keys:
            open_ = [sg for sg in self.subs[key] if sg.value is None]
            if open_:
                first.append((key, max(open_, key=lambda g: (g.high, g.low))))
        self._solve_subgames(first, payoffs)
        rest = []
        for key in keys:
            floor = max(max(sg.low for sg in self.subs[key]),
                        max((sg.value for sg in self.subs[key] if sg.value is not None), default=-np.inf))
            for sg in self.subs[key]:
                if sg.value is None:
                    if sg.high <= floor:
                        st.pruned += 1  # worth at most what another subgame surely gives F
                    else:
                        rest.append((key, sg))
        self._solve_subgames(rest, payoffs)
        for key in keys:
            best = max(sg.value for sg in self.subs[key] if sg.value is not None)
            self.values[key] = best if key[1] == ENGLISH else -best
            st.states += 1
            st.leaves += self.models[key].leaves
        if self.progress:
            self.progress(len(self.values))

    def _solve_subgames(self, todo: list[tuple[StateKey, "Subgame"]], payoffs: dict) -> None:
        if not todo:
            return
        st = self.stats
        items = [(Layout(subgame(self.models[key], sg.x, sg.size), self._signature(key, sg.size)),
                  self._sub_payoff(key, sg, payoffs[key])) for key, sg in todo]
        t = time.perf_counter()
        sols = solve_batch(items)
        st.lp_seconds += time.perf_counter() - t
        st.lp_calls += 1
        for (_, sg), sol in zip(todo, sols):
            lay = sol.layout
            sg.value, sg.solution = sol.value, sol
            st.subgames_solved += 1
            st.variables += lay.variables
            st.constraints += lay.nS + lay.nE
            st.nonzeros += lay.nonzeros
            if lay.variables > st.largest_variables:
                st.largest_variables, st.largest_constraints = lay.variables, lay.nS + lay.nE
                st.largest_nonzeros = lay.nonzeros

    def _signature(self, key: StateKey, size: int) -> tuple:
        """What a subgame's LP structure depends on: the rules, castles count, hands, card count."""
        castles, first, he, hf = key
        hands = (he, hf) if first == ENGLISH else (hf, he)
        return (self.rules, len(castles), hands, size)

    def _sub_payoff(self, key: StateKey, sg: Subgame, payoff: np.ndarray | None = None) -> np.ndarray:
        m = self.models[key]
        payoff = self._payoff(key) if payoff is None else payoff
        blocks = [k for k, (bx, _) in enumerate(m.blocks) if bx == sg.x]
        fps = np.nonzero(np.array([m.opens[a].size == sg.size for a in m.f_a.tolist()]))[0]
        return payoff[blocks][:, fps, :]

    def _solved(self, key: StateKey, sg: Subgame) -> RoundSolution:
        """A subgame's LP solution, solving it now if it was skipped (a saddle point, or never F's best)."""
        if sg.solution is None:
            lay = Layout(subgame(self.models[key], sg.x, sg.size))
            sg.solution = solve_batch([(lay, self._sub_payoff(key, sg))])[0]
            if sg.value is None:
                sg.value = sg.solution.value
        return sg.solution

    def subgame_value(self, key: StateKey, x: int | None, size: int) -> float:
        """English value of the subgame after F opens castle ``x`` with ``size`` cards."""
        self.value_of(key)
        canon, mirrored = canonical(key)
        assert x is not None
        x = len(key[0]) - 1 - x if mirrored else x
        sg = next(g for g in self.subs[canon] if g.x == x and g.size == size)
        self._solved(canon, sg)
        value = sg.value
        assert value is not None  # _solved gave it one
        return value if key[1] == ENGLISH else -value

    # ------------------------------------------------------------------ strategies
    def strategy(self, p: Position, public: tuple[int, int] | None = None) -> tuple[list[tuple[Move, float]], bool]:
        """The equilibrium's mixed move at a placement decision of a solvable position.

        At ``open_first``, ``public`` (castle X, number of cards) asks for F's mix within that public
        choice's subgame rather than within the best one (how F hides its cards once it has chosen so).

        Returns the moves with their probabilities, and whether this decision is reached with a
        positive probability under the equilibrium of its subgame (after F's public choice of X
        and of the number of cards).  The answers of S are those of the subgame's equilibrium even
        where F would not go (where F would rather open elsewhere).  A ``remove_choice`` needs no
        strategy: in an endgame every removal leads to the same state.
        """
        canon, sg, flip = self._located(p, public)
        sol = self._solved(canon, sg)
        lay = sol.layout
        m = lay.model
        if p.to_play == OPEN_FIRST:
            return _normalised([(Move(cards, castle=flip(sg.x)), float(sol.x[lay.f_open_seq(0, a)]))
                                for a, cards in enumerate(m.opens)], 1.0)
        pl = p.placed
        f, s = p.first, 1 - p.first
        if p.to_play == RESPOND_FIRST:
            return _normalised([(Move(cards), float(sol.y[lay.s_answer_seq(0, 0, b)]))
                                for b, cards in enumerate(m.answers)], 1.0)
        b = m.answers.index(pl.at(s, 0))
        if p.to_play == OPEN_SECOND:
            out = [(Move(m.s_c[sp], castle=flip(y)), float(sol.y[lay.s_term_seq(block, 0, int(sp))]))
                   for block, (_, y) in enumerate(m.blocks) for sp in np.nonzero(m.s_b == b)[0]]
            return _normalised(out, float(sol.y[lay.s_answer_seq(0, 0, b)]))
        a = m.opens.index(pl.at(f, 0))
        block = m.blocks.index((flip(pl.x), flip(pl.y)))
        lm = lay.lm_pairs.index((pl.at(s, 0).size, pl.at(s, 1).size))
        out = [(Move(m.f_d[fp]), float(sol.x[lay.f_term_seq(block, int(fp), lm)])) for fp in np.nonzero(m.f_a == a)[0]]
        return _normalised(out, float(sol.x[lay.f_open_seq(0, a)]))

    def _located(self, p: Position, public: tuple[int | None, int] | None = None
                 ) -> tuple[StateKey, "Subgame", Callable[[int | None], int]]:
        """The subgame a placement decision lies in: its round start as solved (the mirror image or not), the
        subgame (the best one at ``open_first`` unless ``public`` names one) and the castle index of the solved
        round for a castle of ``p``."""
        reason = why_not_solvable(p)
        if reason:
            raise ValueError(reason)
        key = round_key(p)
        self.value_of(key)
        canon, mirrored = canonical(key)
        n = len(canon[0])

        def flip(c: int | None) -> int:
            assert c is not None
            return n - 1 - c if mirrored else c

        subs = self.subs[canon]
        if p.to_play == OPEN_FIRST and public is None:
            return canon, max(subs, key=lambda g: -np.inf if g.value is None else g.value), flip
        x, size = (p.placed.x, p.placed.at(p.first, 0).size) if public is None else public
        return canon, next(g for g in subs if g.x == flip(x) and g.size == size), flip

    # ------------------------------------------------------------------ the value of each move
    def move_values(self, p: Position) -> list[tuple[Move, float]] | None:
        """The value of each legal move at a placement decision, for the side to play, against the other side's
        equilibrium: what the side gets by playing the move and its best at its later placements of the round, the
        other side playing its equilibrium mix of the subgame the decision lies in (the subgame of each opening at
        ``open_first``), the rounds after worth their equilibrium values.

        A move's loss is the best move's value minus its own, both against the same mix.  The other side's hidden
        placements are weighed by the probabilities its mix gives them: that mix is the only belief an equilibrium
        gives.  A move the equilibrium plays is worth the best (an equilibrium is a best response to the other
        side's), so its loss is 0.  None at a ``respond_second`` that the second player's mix never leads to (an
        opening it never makes): there is no belief to weigh its placements by.
        """
        values: list[tuple[Move, float]] | None
        if p.to_play == OPEN_FIRST:
            values = self._opening_values(p)
        else:
            canon, sg, flip = self._located(p)
            sol = self._solved(canon, sg)
            payoff = self._sub_payoff(canon, sg)
            if p.to_play == RESPOND_SECOND:
                values = _answer_values(p, sol, payoff, flip)
            else:
                values = _second_player_values(p, sol, payoff, flip)
        side = p.side_to_play
        assert side is not None  # a placement decision: _located checked it
        if values is None:
            return None
        sign = 1.0 if p.first == ENGLISH else -1.0
        return [(mv, self.side_value(sign * v, side)) for mv, v in values]

    def _opening_values(self, p: Position) -> list[tuple[Move, float]]:
        """F's payoff of each opening (X, a): the best answers at Y against S's mix in the subgame of (X, |a|)."""
        out = []
        subgames: dict[tuple[int | None, int], dict[Cards, float]] = {}
        for mv in p.legal_moves:
            public = (mv.castle, mv.cards.size)
            if public not in subgames:
                canon, sg, _ = self._located(p, public)
                sol = self._solved(canon, sg)
                values = _best_plans(sol, self._sub_payoff(canon, sg))
                subgames[public] = dict(zip(sol.layout.model.opens, values.tolist()))
            out.append((mv, subgames[public][mv.cards]))
        return out

    def side_value(self, english: float, side: int) -> float:
        """A value for english, as ``side`` counts it (the objective's complement for french)."""
        if side == ENGLISH:
            return english
        return 1.0 - english if self.objective == "win" else -english


@dataclass
class Subgame:
    """F's public choice of castle X and of a number of cards, and what is known of its value for F:
    bounds from pure plans (``low`` <= value <= ``high``), the value once known, the LP solution."""

    x: int
    size: int
    low: float
    high: float
    value: float | None = None
    solution: RoundSolution | None = None


def _normalised(moves: list[tuple[Move, float]], parent: float) -> tuple[list[tuple[Move, float]], bool]:
    total = sum(w for _, w in moves)
    if parent <= 1e-9 or total <= 1e-9:
        return [], False
    return sorted(((mv, w / total) for mv, w in moves if w / total > 1e-9), key=lambda t: -t[1]), True


def _best_plans(sol: RoundSolution, payoff: np.ndarray) -> np.ndarray:
    """F's payoff of each opening set ``a`` of a subgame, F answering at Y with its best ``d`` against S's mix at
    each of its information sets (X, a, Y, |b|, |c|): what S's mix concedes to each ``a``."""
    lay = sol.layout
    m = lay.model
    blocks = np.arange(lay.nblocks)[:, None]
    s_mix = sol.y[lay.s_term_seq(blocks, np.zeros_like(blocks), np.arange(lay.nSP)[None, :])]   # [block, sp]
    by_lm = np.eye(lay.nLM)[lay.lm_of_sp]                                # [sp, lm]
    weighed = (s_mix[:, None, :] * payoff) @ by_lm                        # [block, fp, lm]
    return np.array([weighed[:, m.f_a == a, :].max(axis=1).sum() for a in range(lay.nA)])


def _second_player_values(p: Position, sol: RoundSolution, payoff: np.ndarray,
                          flip: Callable[[int | None], int]) -> list[tuple[Move, float]]:
    """F's payoff of each of S's moves: at ``respond_first`` each answer ``b`` with S's best opening (Y, c) after
    it, at ``open_second`` each opening (Y, c); against F's mix of plans (a, d) in the subgame."""
    lay = sol.layout
    m = lay.model
    f_mix = sol.x[lay.f_term_seq(np.arange(lay.nblocks)[:, None, None], np.arange(lay.nFP)[None, :, None],
                                 lay.lm_of_sp[None, None, :])]           # [block, fp, sp]
    conceded = (f_mix * payoff).sum(axis=1)                                # [block, sp]
    if p.to_play == RESPOND_FIRST:
        return [(mv, float(conceded[:, m.s_b == m.answers.index(mv.cards)].min())) for mv in p.legal_moves]
    b = m.answers.index(p.placed.at(1 - p.first, 0))
    out = []
    for mv in p.legal_moves:
        sp = next(j for j in np.nonzero(m.s_b == b)[0].tolist() if m.s_c[j] == mv.cards)
        out.append((mv, float(conceded[m.blocks.index((flip(p.placed.x), flip(mv.castle))), sp])))
    return out


def _answer_values(p: Position, sol: RoundSolution, payoff: np.ndarray,
                   flip: Callable[[int | None], int]) -> list[tuple[Move, float]] | None:
    """F's payoff of each answer ``d`` at Y, against S's plans (b, c) that fit what F sees (|b|, Y, |c|), weighed
    by S's mix; None where S's mix never plays so."""
    lay = sol.layout
    m = lay.model
    pl = p.placed
    s = 1 - p.first
    block = m.blocks.index((flip(pl.x), flip(pl.y)))
    fits = lay.lm_of_sp == lay.lm_pairs.index((pl.at(s, 0).size, pl.at(s, 1).size))
    sps = np.nonzero(fits)[0]
    weights = sol.y[lay.s_term_seq(np.full_like(sps, block), np.zeros_like(sps), sps)]
    if weights.sum() <= 1e-9:
        return None
    a = m.opens.index(pl.at(p.first, 0))
    fps = {m.f_d[fp]: fp for fp in np.nonzero(m.f_a == a)[0].tolist()}
    return [(mv, float(payoff[block, fps[mv.cards], fits] @ weights / weights.sum())) for mv in p.legal_moves]


# ---------------------------------------------------------------------- best responses
class BudgetExceeded(RuntimeError):
    """A best response ran past its time budget."""


class BestResponse:
    """The best a side can do against a fixed policy on the other side, round by round.

    ``policy`` plays ``policy_side``; its moves come from :meth:`Policy.distribution` on
    its own view, or, for a sampling policy (``exact`` False), from ``samples`` seeded calls
    of :meth:`Policy.choose` at each decision (one call: the seeded policy as it plays).

    The policy sees the table as it would in the game from ``root`` (a round start): each side's
    removed cards and exhaustions as there, and in its discard the root's discard plus every card
    spent since (whether a card spent since was removed or discarded changes nothing for the
    rest of the game, and the solver does not track it); the round number stays the root's.
    """

    def __init__(self, solver: OptimalSolver, policy: Policy, policy_side: int, samples: int = 1,
                 seed: int = 0, deadline: float | None = None, root: Position | None = None):
        self.root = root
        self.solver = solver
        self.rules = solver.rules
        self.policy = policy
        self.side = policy_side
        self.samples = samples
        self.seed = seed
        self.deadline = deadline
        self.values: dict[StateKey, float] = {}
        self.models: dict[StateKey, RoundModel] = {}
        self.policy_calls = 0

    def value_of(self, key: StateKey) -> float:
        """English value when the other side best-responds to the policy from this round start."""
        v = self.values.get(key)
        if v is None:
            v = self.values[key] = self._value(key)
        return v

    def _distribution(self, p: Position) -> list[tuple[Move, float]]:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExceeded("the best response ran past its time budget")
        self.policy_calls += 1
        view = p.view(self.side)
        if self.policy.exact:
            return [(mv, float(w)) for mv, w in self.policy.distribution(view)]
        rng = random.Random(zlib.crc32(f"{self.seed}:{p.notation()}".encode()))
        counts: dict[Move, int] = defaultdict(int)
        for _ in range(self.samples):
            counts[self.policy.choose(view, rng)] += 1
        return [(mv, c / self.samples) for mv, c in counts.items()]

    def _start(self, key: StateKey) -> Position:
        """The round start the policy is shown (see the class docstring)."""
        if self.root is None:
            return round_start(self.rules, key)
        root = self.root
        sides = []
        for i, hand in ((ENGLISH, key[2]), (FRENCH, key[3])):
            s = root.sides[i]
            spent = s.hand + root.placed.side_total(i) - hand
            sides.append(Side(hands=(hand,), discard=s.discard + spent, removed=s.removed,
                              exhaustions=s.exhaustions))
        return Position(self.rules, key[0], root.round, key[1], OPEN_FIRST, (sides[0], sides[1]))

    def _model(self, key: StateKey) -> RoundModel:
        m = self.models.get(key)
        if m is None:
            m = self.models[key] = build_round(self.rules, key)
        return m

    def _value(self, key: StateKey) -> float:
        m = self._model(key)
        lay = Layout(m)
        first = key[1]
        start = self._start(key)
        br_is_english = self.side != ENGLISH
        best = np.max if br_is_english else np.min
        nb = len(m.blocks)
        block_of = {xy: k for k, xy in enumerate(m.blocks)}
        if self.side == first:
            # the policy is F: its plan over (block, fp, lm)
            plan = np.zeros((nb, lay.nFP, lay.nLM))
            opens = self._distribution(start)
            for mv, w in opens:
                a = m.opens.index(mv.cards)
                after_a = start.apply(mv)
                for k, (x, y) in enumerate(m.blocks):
                    if x != mv.castle:
                        continue
                    for lm in range(lay.nLM):
                        sp = int(np.nonzero(lay.lm_of_sp == lm)[0][0])
                        q = after_a.apply(Move(m.answers[m.s_b[sp]])).apply(Move(m.s_c[sp], castle=y))
                        for mv2, w2 in self._distribution(q):
                            fp = next(i for i in np.nonzero(m.f_a == a)[0] if m.f_d[i] == mv2.cards)
                            plan[k, fp, lm] += w * w2
            reach = plan[:, :, lay.lm_of_sp] > 0          # [block, fp, sp]
            payoff = self._payoffs(m, reach)
            u = plan[:, :, lay.lm_of_sp] * payoff
            total = 0.0
            for x in range(m.n):
                for kk in range(lay.K):
                    fps = lay.kk_of_fp == kk
                    per_b = []
                    for b in range(lay.nB):
                        sps = m.s_b == b
                        options = [u[block_of[(x, y)]][fps][:, sps].sum(axis=0) for y in range(m.n) if y != x]
                        per_b.append(best(np.concatenate(options)))
                    total += best(np.array(per_b))
            return float(total)
        # the policy is S: its plan over (block, kk, sp)
        plan = np.zeros((nb, lay.K, lay.nSP))
        for x in range(m.n):
            for kk, size in enumerate(lay.k_sizes):
                a = next(i for i, c in enumerate(m.opens) if c.size == size)
                q = start.apply(Move(m.opens[a], castle=x))
                for mv, w in self._distribution(q):
                    b = m.answers.index(mv.cards)
                    for mv2, w2 in self._distribution(q.apply(mv)):
                        sp = int(next(i for i in np.nonzero(m.s_b == b)[0] if m.s_c[i] == mv2.cards))
                        assert mv2.castle is not None  # S's opening names its castle
                        plan[block_of[(x, mv2.castle)], kk, sp] += w * w2
        splan = plan[:, lay.kk_of_fp, :]                   # [block, fp, sp]
        payoff = self._payoffs(m, splan > 0)
        u = splan * payoff
        f_best = best  # the best responder is F here
        totals = []
        for x in range(m.n):
            for a in range(lay.nA):
                fps = m.f_a == a
                v = 0.0
                for y in range(m.n):
                    if y == x:
                        continue
                    k = block_of[(x, y)]
                    for lm in range(lay.nLM):
                        sps = lay.lm_of_sp == lm
                        v += f_best(u[k][fps][:, sps].sum(axis=1))
                totals.append(v)
        return float(f_best(np.array(totals)))

    def _payoffs(self, m: RoundModel, reach: np.ndarray) -> np.ndarray:
        """English payoff of each leaf the policy can reach (0 elsewhere: weighted by 0 anyway)."""
        needed = set(np.unique(m.child[reach]).tolist())
        vals = self.solver.place_values(m, lambda k: 0.0)
        for u, key in m.next_states():
            vals[u] = self.value_of(key) if u in needed else 0.0
        return vals[m.child]


# ---------------------------------------------------------------------- the whole answer
@dataclass
class Exploitability:
    """How much a best response to a policy gets, for the best responder, beside the equilibrium."""

    policy: str
    policy_side: str
    responder_value: float | None
    equilibrium_value: float
    policy_calls: int = 0
    seconds: float = 0.0
    note: str = ""

    @property
    def gap(self) -> float | None:
        return None if self.responder_value is None else self.responder_value - self.equilibrium_value

    def to_json(self) -> dict[str, Any]:
        return {"policy": self.policy, "policy_side": self.policy_side, "responder_value": self.responder_value,
                "equilibrium_value": self.equilibrium_value, "exploitability": self.gap,
                "policy_calls": self.policy_calls, "seconds": round(self.seconds, 3), "note": self.note}


class StrategyRow(TypedDict):
    """One move of an equilibrium answer and its probability."""

    move: str
    p: float


class Answer(TypedDict):
    """The other side's equilibrium answer to an opening of ``cards`` cards at ``castle`` (a session reads it back
    checked against these types: :func:`..results.from_saved`)."""

    castle: int
    cards: int
    strategy: list[StrategyRow]


@dataclass
class OptimalResult:
    """The value of an endgame, the opening mix of each side and the size of what was solved."""

    objective: str
    value: float                                  # for english
    to_play: str
    side_to_play: str
    moves: list[tuple[Move, float]]               # the equilibrium mix at this decision
    answers: list[Answer] = field(default_factory=list)   # S's mix per (X, |a|) F plays
    stats: SolveStats = field(default_factory=SolveStats)
    seconds: float = 0.0
    exploitability: list[Exploitability] = field(default_factory=list)
    #: what the value is the value of: the round start, or the subgame of a later decision
    scope: str = ROUND_START

    def side_value(self, side: int) -> float:
        if side == ENGLISH:
            return self.value
        return 1.0 - self.value if self.objective == "win" else -self.value

    def to_json(self) -> dict[str, Any]:
        return {"objective": self.objective, "value": {"english": self.side_value(ENGLISH),
                                                        "french": self.side_value(FRENCH)},
                "value_of": self.scope, "to_play": self.to_play, "side": self.side_to_play,
                "strategy": [{"move": mv.text(), "p": w} for mv, w in self.moves],
                "answers": self.answers, "size": self.stats.to_json(), "seconds": round(self.seconds, 3),
                "exploitability": [e.to_json() for e in self.exploitability]}


def solve_position(p: Position, objective: str = "win", solver: OptimalSolver | None = None) -> OptimalResult:
    """Solve an open-hand endgame from ``p`` (see :func:`why_not_solvable`)."""
    reason = why_not_solvable(p)
    if reason:
        raise ValueError(reason)
    t = time.perf_counter()
    solver = solver or OptimalSolver(p.rules, objective)
    key = round_key(p)
    value = solver.value_of(key)
    scope = ROUND_START
    if p.to_play != OPEN_FIRST:
        # X and the number of cards at X are public: the value of what follows is its subgame's
        value = solver.subgame_value(key, p.placed.x, p.placed.at(p.first, 0).size)
        scope = SUBGAME
    moves, _ = solver.strategy(p)
    answers: list[Answer] = []
    if p.to_play == OPEN_FIRST:
        seen = set()
        for mv, _ in moves:
            ident = (mv.castle, mv.cards.size)
            if ident in seen:
                continue
            seen.add(ident)
            reply, reached = solver.strategy(p.apply(mv))
            if reached and mv.castle is not None:  # an opening is at a castle
                answers.append({"castle": mv.castle, "cards": mv.cards.size,
                                "strategy": [{"move": r.text(), "p": q} for r, q in reply]})
    side = p.side_to_play
    return OptimalResult(objective, value, p.to_play, SIDES[side] if side is not None else "",
                         moves, answers, solver.stats, time.perf_counter() - t, scope=scope)


def exploitability(p: Position, policies: dict[str, Policy], solver: OptimalSolver,
                   budget_seconds: float = 60.0, samples: int = 1, seed: int = 0) -> list[Exploitability]:
    """For each policy and side: what a best response to it gets, beside the equilibrium value."""
    key = round_key(p)
    if p.to_play != OPEN_FIRST:
        raise ValueError("exploitability is measured from a round start (open_first)")
    eq = solver.value_of(key)
    out = []
    for name, policy in policies.items():
        for side in (ENGLISH, FRENCH):
            responder = 1 - side
            t = time.perf_counter()
            br = BestResponse(solver, policy, side, samples, seed, t + budget_seconds, root=p)
            eq_side = eq if responder == ENGLISH else (1 - eq if solver.objective == "win" else -eq)
            try:
                v = br.value_of(key)
                resp = v if responder == ENGLISH else (1 - v if solver.objective == "win" else -v)
                note = "" if policy.exact else ngettext(
                    "sampled policy: {count} seeded move a decision", "sampled policy: {count} seeded moves a decision",
                    samples).format(count=samples)
            except BudgetExceeded:
                resp, note = None, gettext("not finished within {seconds} s").format(seconds=f"{budget_seconds:g}")
            out.append(Exploitability(name, SIDES[side], resp, eq_side, br.policy_calls,
                                      time.perf_counter() - t, note))
    return out


def describe(result: OptimalResult, lang: str | None = None) -> str:
    """The result in a teacher's words: the right opening mix and what each policy loses against
    a side that knows how it plays; in ``lang`` (default: the current language)."""
    lang = lang or current_language()
    tr = translator(lang)
    _ = tr.gettext

    def side(name: str) -> str:  # as the game names the sides: "the English", "les Anglais"
        return side_noun(name, lang)

    def policy(name: str) -> str:
        return _(name) if name in ("uniform", "heuristic", "strong", "search") else name

    scale = 100.0 if result.objective == "win" else 1.0
    mix = [f"{mv.text(FIRST_CASTLE)} {_times(w, lang)}" for mv, w in result.moves[:4]]
    if len(result.moves) > 4:
        others = len(result.moves) - 4
        mix.append(tr.ngettext("{count} other move otherwise", "{count} other moves otherwise", others).format(
            count=others))
    shown = (plain_percent(result.side_value(ENGLISH), lang, decimals=1) if result.objective == "win"
             else plain_number(result.value, 2, lang, signed=True))
    value = _("{value} for {side}").format(value=shown, side=side("english"))
    what = _("this endgame") if result.scope == ROUND_START else _(result.scope)
    parts = [_("Under optimal play {what} is worth {value}.").format(what=what, value=value),
             _("At {point} the right move for {side} is {mix} (castle:cards).").format(
                 point=point_name(result.to_play, lang), side=side(result.side_to_play),
                 mix=tr.pgettext("list of moves", "; ").join(mix))]  # French: a no-break space before ";"
    for e in result.exploitability:
        if e.gap is None:
            parts.append(_("The best response to {side} playing {policy} was not finished ({note}).").format(
                policy=policy(e.policy), side=side(e.policy_side), note=e.note))
            continue
        loss = max(e.gap, 0.0) * scale
        if loss < 0.05:
            sentence = _("{side} playing {policy} lose nothing against a side that knows how they play.")
        elif result.objective == "win":
            sentence = _("{side} playing {policy} lose {loss} points of win chance against a side that knows how "
                         "they play.")
        else:
            sentence = _("{side} playing {policy} lose {loss} points of score difference against a side that knows "
                         "how they play.")
        parts.append(capitalised(sentence.format(policy=policy(e.policy), side=side(e.policy_side),
                                                 loss=plain_number(loss, 1, lang))))
    return " ".join(parts)


def _times(w: float, lang: str | None = None) -> str:
    tr = translator(lang)
    _ = tr.gettext
    if w > 1 - 1e-9:
        return _("always")
    for den in range(2, 11):
        num = round(w * den)
        if 0 < num < den and abs(num / den - w) < 1e-6:
            return tr.ngettext("{num} time in {den}", "{num} times in {den}", num).format(num=num, den=den)
    return _("{percent} of the time").format(percent=plain_percent(w, lang))
