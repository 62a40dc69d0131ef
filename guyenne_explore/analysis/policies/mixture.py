"""A mixture of learned models: one member drawn by its whole-number odds at each decision, so that the policy plays
the odds-weighted mean of its members' distributions, or once a game, so that one member plays the whole game.

Why: each network picks one style from a situation's features, and a best response trained against it learns that
style (issue 47).  Advanced's shipped network opens big and answers with one card; a network trained against its
exploiters opens small and answers big; each plays the style that beats the other's exploiter.  Played together,
a trained best response must beat both styles at once: it took 0.71 from the two at odds 3:1 against 0.94 from the
network alone.  But a member drawn per decision mixes one style's openings with the other's answers: the mixture
beat ``strong-linear`` by 0.62 (0.71 alone) and the model exploiter, a search on its own model, took 0.79 from it
(0.58).  Two members of one style mix well: expert's shipped ``strong`` is its robust network and that network
improved by three iterations of its own search (``improve``), at even odds.  The improved network alone gave the model
exploiter 0.458 but a best response 0.841; the mixture gives them 0.509 and 0.709 (the network alone: 0.559 and 0.718)
and beats ``strong-linear`` by 0.697 (0.707).  ``benchmarks/bench_network.py --network MIX.json`` and
``bench_exploit.py --levels strong@MIX.json`` measure a mixture.  A weights file holds a mixture as its members, each
with its odds (:mod:`.weights`).

Drawn once a game (``per_game``; a file's ``"drawn": "game"``, ``guyenne-explore mix --drawn game``), a mixture is
the mixed strategy that a population's meta-game solves for (policy-space response oracles, Lanctot et al. 2017;
``benchmarks/bench_population.py``): each member plays whole games in its own style, so no game mixes one style's
openings with another's answers, and a response must face every style at its odds (that benchmark's figures).  The
compiled loop draws the member after the deal, one random number of the odds' total a side (``game_members``); the
engine's game loop asks :meth:`.strong.Strong.begin_game` for it before the first event, and the play panel from the
game's seed; an exact enumeration sums over the members at their odds (``game_members``).  Asked at a single decision
(``distribution``), such a mixture is the odds-weighted mean of its members: what an opponent who has seen none of its
games knows of it.  The search's model of it and its likelihoods of the hands it may hold, the model exploiter's model
and the playtest's reading of people's moves against it all read that mean; a belief over the members from the side's
own past decisions would be exact, but a side's view does not keep its past hands.

Both twins draw the same way: the compiled loop (``compiled.loop.member_row``) draws a member with one random number
of the odds' total before the member's own pick, as :meth:`.strong.Strong.choose` does; the exact distribution
(:func:`mixed`) is what the search's compiled twin (``compiled.search_kernel.move_weights``) works out.  That mean is
exact in whole numbers for up to three members; a population's equilibrium spreads over five to seven, so a mixture
holds up to :data:`MAX_MEMBERS`, and for more than three the mean rounds each member's distribution to 2^40 parts
first (``compiled.policy_codes.SHARE``): within 2^-41 of the exact mean, which 64-bit products of the members' totals
could no longer hold.  The members' own play and an exact enumeration over a mixture drawn once a game stay exact.
"""

from __future__ import annotations

import math
from typing import Hashable, NamedTuple, Sequence, TypeVar

from ...i18n import gettext
from ..compiled.policy_codes import EXACT_MEMBERS, SHARE

#: the most members a mixture holds: a population's Nash equilibrium spreads over five to seven of its members
#: (``benchmarks/bench_population.py``), and a mixture drawn once a game plays them all
MAX_MEMBERS = 8

M = TypeVar("M", bound=Hashable)


class Mixture(NamedTuple):
    """A policy's models (each a weights row, :mod:`.strong`'s layout) with their whole-number odds; one member of
    odds 1 is the model alone."""

    members: tuple[tuple[float, ...], ...]
    odds: tuple[int, ...]
    #: the member is drawn once a game (after the deal) and plays the whole game, not drawn at each decision
    per_game: bool = False

    @classmethod
    def alone(cls, model: Sequence[float]) -> Mixture:
        """The mixture of one model: the model itself."""
        return cls((tuple(model),), (1,))

    @property
    def single(self) -> bool:
        """Whether one member plays every decision (no draw)."""
        return len(self.members) == 1

    def flat(self) -> tuple[float, ...]:
        """The numbers that identify the mixture (its fingerprint's): the one member's model, else each member's
        odds (negative: drawn once a game) and length then its model."""
        if self.single:
            return self.members[0]
        sign = -1.0 if self.per_game else 1.0
        return tuple(x for odds, m in zip(self.odds, self.members) for x in (sign * odds, float(len(m)), *m))

    def member(self, index: int) -> int:
        """The member whose share of the odds holds ``index`` (0 <= index < the odds' total), in order: how both
        twins turn the draw's random number into a member."""
        for j, odds in enumerate(self.odds):
            if index < odds:
                return j
            index -= odds
        raise ValueError("the index is beyond the odds' total")


def checked_odds(odds: object, members: int, where: str) -> tuple[int, ...]:
    """``odds`` as whole numbers from 1, one a member; a ValueError names ``where`` and the problem."""
    if not 1 <= members <= MAX_MEMBERS:
        raise ValueError(gettext("{where}: a mixture holds 1 to {most} members, not {count}").format(
            where=where, most=MAX_MEMBERS, count=members))
    if not isinstance(odds, (list, tuple)) or len(odds) != members:
        raise ValueError(gettext("{where}: a mixture's odds must be {count} whole numbers, one a member").format(
            where=where, count=members))
    out = []
    for o in odds:
        if isinstance(o, bool) or not isinstance(o, (int, float)) or not math.isfinite(o) or o != int(o) \
                or not 1 <= o <= 1000:
            raise ValueError(gettext("{where}: a member's odds must be a whole number from 1 to 1000, not "
                                     "{value}").format(where=where, value=repr(o)))
        out.append(int(o))
    return tuple(out)


def mixed(weighted: Sequence[Sequence[tuple[M, int]]], odds: Sequence[int]) -> list[tuple[M, int]]:
    """The whole-number weights of the odds-weighted mean of the members' distributions (``weighted[j]``: member
    j's moves with their weights): a move weighs ``sum_j odds_j w_j prod_{i != j} T_i`` (``T`` a member's total),
    exactly, for at most :data:`EXACT_MEMBERS` members; for more, ``sum_j odds_j round(w_j SHARE / T_j)``, each
    member's distribution in :data:`SHARE` parts (halves rounded up), as ``compiled.search_kernel.move_weights``
    sums it; the moves in the order they first appear, those of weight 0 left out."""
    totals = [sum(w for _, w in member) for member in weighted]
    out: dict[M, int] = {}
    for j, member in enumerate(weighted):
        if len(weighted) <= EXACT_MEMBERS:
            scale = odds[j] * math.prod(t for i, t in enumerate(totals) if i != j)
            parts = [(move, w * scale) for move, w in member]
        else:
            parts = [(move, odds[j] * shared(w, totals[j])) for move, w in member]
        for move, w in parts:
            out[move] = out.get(move, 0) + w
    return [(m, w) for m, w in out.items() if w > 0]


def shared(weight: int, total: int) -> int:
    """``weight``'s share of ``total`` in :data:`SHARE` whole parts, halves rounded up (the compiled twin's
    ``search_kernel._shared``)."""
    return (2 * weight * SHARE + total) // (2 * total)


def mixed_scores(scored: Sequence[Sequence[tuple[M, float]]], odds: Sequence[int]) -> list[tuple[M, float]]:
    """Each move's odds-weighted mean of its members' scores (``scored[j]``: member j's, every member scoring the
    same moves in the same order), summed in the members' order from 0.0 as the compiled twin sums it: what ranks
    a mixture's moves that no member gives weight."""
    total = float(sum(odds))
    out = []
    for i, (move, _) in enumerate(scored[0]):
        s = 0.0
        for j, member in enumerate(scored):
            s = s + odds[j] * member[i][1]
        out.append((move, s / total))
    return out
