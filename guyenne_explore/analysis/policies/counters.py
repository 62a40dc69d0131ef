"""Counter-policies: simple exploiters that test whether a skilled policy can be read or bullied.

Each plays one idea and leaves every other decision to the heuristic, so what
it measures is that idea alone.  The benchmarks' gauntlet plays every real
policy against them: a policy that gives its hand away by its bet sizes loses
to :class:`BetReader`; one that folds to a lone face-down card loses to
:class:`Bluffer`; one that spends too much to win castles loses to :class:`Folder`
on the unspent-cards tie-break; one that folds small openings and gives way to big ones loses to
:class:`CallerBully`; one whose bet sizes, hero timing or castle choice tell its hand loses to
:class:`TellReader`.  Four search: :class:`Lookahead` weighs its deals by how likely the opponent's
placements of the round were under each (modelled as the heuristic); :class:`ModelReader` weighs them
by the learned policy's own model (its features and weights), so that it reads the learned policy's
bets as that policy makes them; :class:`ModelExploiter` reads them so too and also plays the learned
policy in its rollouts, on both sides, so that it best-responds to that policy's future play;
:class:`StrongLookahead`, its control, is the same search on the learned policy's own play that does not
know its opponent's model (the heuristic's, as :class:`Lookahead`'s).  The three that know the learned
policy's model take the :class:`~.strong.Strong` they model (``model``; default: the package's weights).
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Callable, Collection

from ...engine import (EMPTY, HERO, KINDS, OPEN_FIRST, OPEN_SECOND, PLACEMENTS, RESPOND_FIRST, RESPOND_SECOND, Cards, Move,
                          Position, PublicRecord, Rules, SideView, battle_of, member_battle, side_score, side_view,
                          value_of)
from ...engine import determinise
from ..compiled import layout as kn
from ..compiled.policy_codes import COUNTER, IDEAS, TELL_SUSPECT, SidePolicy
from .heuristic import Heuristic, castle_stake
from .strong import Strong


def _keeps_stronger(m: Move) -> tuple[int, ...]:
    """The last part of every measure by which a counter picks a set: of two sets equal by it, the one that keeps the
    stronger cards (fewer of the strongest kind, then of the next), so that the compiled twin
    (:mod:`..compiled.counter_kernel`), whose sets come in another order, picks the same."""
    return tuple(m.cards[k] for k in reversed(range(KINDS)))


def _cheapest(m: Move) -> tuple[int, ...]:
    """The cheapest set first: without the hero, the lowest total, the fewest cards."""
    return (m.cards[HERO], m.cards.total, m.cards.size, *_keeps_stronger(m))


def _lowest(m: Move) -> tuple[int, ...]:
    """Of the sets that beat a total, the lowest total first, then the fewest cards."""
    return (m.cards.total, m.cards.size, *_keeps_stronger(m))


def _weakest(hand: Cards) -> int | None:
    return next((k for k in range(HERO) if hand[k]), None)


def _best_castle(view: SideView, moves: list[Move]) -> int:
    castles = sorted({m.castle for m in moves if m.castle is not None})
    unspent = view.unspent
    return max(castles, key=lambda c: castle_stake(view.castles, c, view.side, view.rules, unspent))


def _weakest_cards(view: SideView, moves: list[Move], n: int, castle: int | None) -> Move | None:
    """The legal move placing ``n`` copies of the weakest card (at ``castle`` when opening), if any."""
    weakest = _weakest(view.hand)
    if weakest is None:
        return None
    target = Cards().add_kind(weakest, n)
    return next((m for m in moves if m.cards == target and m.castle == castle), None)


class _Counter:
    """Plays :meth:`_idea` where it has one, else the heuristic's move."""

    name = "counter"
    exact = False

    def __init__(self) -> None:
        self._fallback = Heuristic()

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        raise NotImplementedError(f"the {self.name} counter-policy samples; it has no exact move distribution")

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play in (OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND, RESPOND_SECOND):
            move = self._idea(view, list(view.legal_moves))
            if move is not None:
                return move
        return self._fallback.choose(view, rng)


class _Idea(_Counter):
    """A counter whose idea reads the table alone, compiled into the game loop (:mod:`..compiled.counter_kernel`):
    it plays its games there, and training meets it in its league."""

    def weights(self, view: SideView) -> list[tuple[Move, int]]:
        """Its move weights: its idea's move alone where it has one, else the heuristic's (what the compiled twin
        traces, and the tests hold it to)."""
        if view.to_play in PLACEMENTS:
            move = self._idea(view, list(view.legal_moves))
            if move is not None:
                return [(move, 1)]
        return self._fallback.weights(view)

    def compiled(self, rules: Rules | None = None) -> SidePolicy:
        """This counter as the compiled game loop plays it: the heuristic's numbers, then its idea's code."""
        heuristic = self._fallback.compiled(rules)
        return heuristic._replace(code=COUNTER, params=(*heuristic.params, float(IDEAS.index(self.name))))


class BetReader(_Idea):
    """Reads bet sizes: a lone face-down card is a hero (answer with the weakest card), three or
    more are weak cards (answer with the cheapest set that beats that many weakest cards); it
    opens with three weakest cards (``2 2 2``) at the castle worth most to it."""

    name = "reader"

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:
        point = view.to_play
        if point in (OPEN_FIRST, OPEN_SECOND):
            return _weakest_cards(view, moves, 3, _best_castle(view, moves))
        battle = battle_of(point)
        assert battle is not None
        count = view.opponent_placed_sizes[battle]
        weakest = _weakest(view.rules.valued)
        if count == 1:
            return min(moves, key=_cheapest)
        if count >= 3 and weakest is not None:
            need = value_of(weakest) * count  # the total of that many weakest cards, to beat
            beating = [m for m in moves if not m.cards[HERO] and m.cards.total > need]
            if beating:
                return min(beating, key=_lowest)
            return min(moves, key=_cheapest)
        return None


class Bluffer(_Idea):
    """Opens with one weakest card, the size of a lone hero, at the castle worth most to it."""

    name = "bluffer"

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:
        if view.to_play in (OPEN_FIRST, OPEN_SECOND):
            return _weakest_cards(view, moves, 1, _best_castle(view, moves))
        return None


class Folder(_Idea):
    """Never fights: every placement is one weakest card (it keeps its cards for the tie-break)."""

    name = "folder"

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:
        castle = _best_castle(view, moves) if view.to_play in (OPEN_FIRST, OPEN_SECOND) else None
        return _weakest_cards(view, moves, 1, castle) or min((m for m in moves if m.castle == castle),
                                                             key=lambda m: (m.cards.size, m.cards.total, *_keeps_stronger(m)))


class CallerBully(_Idea):
    """Calls small openings and bullies with many cards: it answers an opening of one or two face-down
    cards with the cheapest set (no hero) that beats that many of the opponent's strongest unseen
    valued cards, and opens with its three or four strongest valued cards (four when it keeps a card
    for the second castle all the same) at the castle worth most to it."""

    name = "caller"

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:
        point = view.to_play
        if point in (OPEN_FIRST, OPEN_SECOND):
            castle = _best_castle(view, moves)
            valued = sorted((k for k in view.hand.kinds() if k != HERO), reverse=True)
            reserve = 1 if point == OPEN_FIRST else 0
            n = 4 if len(valued) >= 4 and view.hand.size - 4 >= reserve else 3
            if len(valued) < n:
                return None
            bully = Cards()
            for k in valued[:n]:
                bully = bully.add_kind(k)
            return next((m for m in moves if m.cards == bully and m.castle == castle), None)
        battle = battle_of(point)
        assert battle is not None
        count = view.opponent_placed_sizes[battle]
        unseen = [k for k in view.opponent.unseen.kinds() if k != HERO]
        if not 0 < count <= 2 or not unseen:
            return None
        need = value_of(max(unseen)) * count
        calling = [m for m in moves if not m.cards[HERO] and m.cards.total > need]
        return min(calling, key=_lowest) if calling else None


#: the share of a deal's weight that does not depend on the opponent's placements (see :meth:`Lookahead._likelihood`)
SMOOTHING = 0.02


def _before(q: Position, side: int, point: str) -> Position:
    """The position of deal ``q`` when ``side`` made its placement ``point`` of this round: the cards
    placed since (``side``'s at that point and everything later) back in their hands."""
    order = (OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND, RESPOND_SECOND)
    first = q.first
    cards = [[q.placed.at(s, b) for b in range(2)] for s in range(2)]
    sides = list(q.sides)
    for later in order[order.index(point):order.index(q.to_play)]:
        who = first if later in (OPEN_FIRST, RESPOND_SECOND) else 1 - first
        b = 0 if later in (OPEN_FIRST, RESPOND_FIRST) else 1
        s = sides[who]
        member = member_battle(s.order or 0, b) if s.is_team else 0  # (the team's member who placed there)
        sides[who] = replace(s, hands=tuple(h + cards[who][b] if i == member else h for i, h in enumerate(s.hands)))
        cards[who][b] = EMPTY
    placed = replace(q.placed, y=None if point in (OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND) else q.placed.y,
                     x=None if point == OPEN_FIRST else q.placed.x,
                     cards=((cards[0][0], cards[0][1]), (cards[1][0], cards[1][1])))
    return replace(q, to_play=point, sides=(sides[0], sides[1]), placed=placed)


class Lookahead(_Counter):
    """A one-ply lookahead whose deals are weighted by how likely the opponent's placements of the
    round were under each: ``deals`` deals of the hidden cards (:func:`~guyenne_explore.engine.determinisation.determinise`),
    each weighed by the probability that the opponent's model (:meth:`_model`), holding that deal's
    cards, placed as many cards as it did (where it did, for an opening); each of the heuristic's
    ``candidates`` likeliest moves is then scored by ``rollouts`` compiled games from the deal after it
    (the opponent playing its model, this side the heuristic), and the best weighted mean is played.
    Rules the compiled loop does not play fall back to the heuristic."""

    name = "lookahead"

    def __init__(self, deals: int = 4, candidates: int = 4, rollouts: int = 8) -> None:
        super().__init__()
        self.deals, self.candidates, self.rollouts = deals, candidates, rollouts
        self._likely: dict[tuple[Position, int, PublicRecord], float] = {}
        self._seed = 0

    def _model(self, rules: Rules) -> tuple[Callable[[SideView], list[tuple[Move, int]]], SidePolicy]:
        """The opponent's model: its move weights from a view, and its compiled side for the rollouts under ``rules``."""
        return self._fallback.weights, self._fallback.compiled()

    def _own(self, rules: Rules) -> tuple[Callable[[SideView], list[tuple[Move, int]]], SidePolicy]:
        """This side's own play: its candidates' weights from a view, and its compiled side for the rollouts."""
        return self._fallback.weights, self._fallback.compiled()

    def _reading(self, rules: Rules) -> Callable[[SideView], list[tuple[Move, int]]]:
        """The model by which the opponent's placements weigh the deals: its move weights from a view."""
        return self._model(rules)[0]

    def _likelihood(self, q: Position, side: int, record: PublicRecord) -> float:
        """How likely ``side``'s placements of this round in deal ``q`` were under :meth:`_reading`'s model, from
        its views with the game's public ``record`` (the same all round: a round's placements show nothing)."""
        weights = self._reading(q.rules)
        order = (OPEN_FIRST, RESPOND_FIRST, OPEN_SECOND, RESPOND_SECOND)
        out = 1.0
        for point in order[:order.index(q.to_play)]:
            if (q.first if point in (OPEN_FIRST, RESPOND_SECOND) else 1 - q.first) != side:
                continue
            b = 0 if point in (OPEN_FIRST, RESPOND_FIRST) else 1
            pre = _before(q, side, point)
            key = (pre, b, record)
            if key not in self._likely:
                placed, castle = q.placed.at(side, b), q.placed.castle(b)
                weighted = weights(side_view(pre, side, record=record))
                total = sum(w for _, w in weighted)
                same = sum(w for m, w in weighted
                           if m.cards.size == placed.size and (m.castle is None or m.castle == castle))
                # mixed with a little of every size: a deal the model rules out (a near-deterministic
                # model does so for most) still counts a little, so no decision is left without deals
                self._likely[key] = SMOOTHING + (1 - SMOOTHING) * same / total
            out *= self._likely[key]
        return out

    def choose(self, view: SideView, rng: random.Random) -> Move:
        self._seed = rng.randrange(1 << 30)  # the deals' and rollouts' stream, from the game's
        return super().choose(view, rng)

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:
        from ..compiled.rollout import summaries_if_played

        rng = random.Random(self._seed)
        own, mine = self._own(view.rules)
        ranked: list[Move] = []  # its own likeliest moves first, then the heuristic's (a near-deterministic model offers one)
        for weights in (own, self._fallback.weights):
            for m, _ in sorted(weights(view), key=lambda mw: -mw[1]):
                if len(ranked) < self.candidates and m not in ranked:
                    ranked.append(m)
        if len(ranked) < 2:
            return ranked[0] if ranked else None
        _, theirs = self._model(view.rules)
        sides = (mine, theirs) if view.side == 0 else (theirs, mine)
        value = [0.0] * len(ranked)
        for _ in range(self.deals):
            q = determinise(view, rng)
            w = self._likelihood(q, 1 - view.side, view.record)
            seed = rng.randrange(1 << 30)
            for i, m in enumerate(ranked):
                after = q.apply(m)
                if after.is_over:
                    v = side_score(after.result().winner, view.side)
                else:
                    out = summaries_if_played(after, self.rollouts, seed, 0, sides, view.record.after(q, after, m))
                    if out is None:
                        return None
                    won = out[:, kn.OUT_WINNER]
                    v = float(kn.side_scores(won, view.side).sum()) / self.rollouts
                value[i] += w * v
        return ranked[max(range(len(ranked)), key=lambda i: value[i])]


class _OnStrong(Lookahead):
    """A lookahead built on the learned policy ``model`` (a :class:`~.strong.Strong`; by default the
    package's weights, and a benchmark of other weights passes a policy that plays them)."""

    def __init__(self, deals: int = 4, candidates: int = 4, rollouts: int = 8, model: Strong | None = None) -> None:
        super().__init__(deals, candidates, rollouts)
        self._strong = model if model is not None else Strong()

    def _strong_side(self, rules: Rules) -> tuple[Callable[[SideView], list[tuple[Move, int]]], SidePolicy]:
        """The learned policy's move weights from a view, and its compiled side under ``rules`` (the
        weights it plays there)."""
        return self._strong.weights, self._strong.compiled(rules)


class ModelExploiter(_OnStrong):
    """Written to exploit the learned policy: :class:`Lookahead` with the learned policy's own model
    (its features and shipped weights) as the opponent's, so that it reads the learned policy's bets
    by that policy's exact move distribution from what that policy saw, and best-responds to its
    next move: its candidates are the learned policy's likeliest moves in its own seat, and the
    rollouts play the learned policy on both sides, so it is that policy plus one ply of search
    against it."""

    name = "exploiter"

    def __init__(self, deals: int = 4, candidates: int = 4, rollouts: int = 8, model: Strong | None = None,
                 points: Collection[str] = PLACEMENTS) -> None:
        """``points``: the placement points at which it searches; at the others it plays the learned policy's
        move (so that a benchmark tells where its edge is)."""
        super().__init__(deals, candidates, rollouts, model)
        self.points = frozenset(points)

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play in PLACEMENTS and view.to_play not in self.points:
            return self._strong.choose(view, rng)
        return super().choose(view, rng)

    def _model(self, rules: Rules) -> tuple[Callable[[SideView], list[tuple[Move, int]]], SidePolicy]:
        return self._strong_side(rules)

    def _own(self, rules: Rules) -> tuple[Callable[[SideView], list[tuple[Move, int]]], SidePolicy]:
        return self._model(rules)  # its candidates and later moves are the learned policy's own: a best response on top


class ModelReader(_OnStrong):
    """Reads the learned policy's bets by that policy's own model, and nothing more: :class:`Lookahead`
    whose deals are weighed by the learned policy's exact move distribution (its features and shipped
    weights), its candidates and rollouts the heuristic's.  Beside :class:`ModelExploiter` (the same
    reading plus rollouts that play the learned policy exactly), it tells what knowing the model's
    bets is worth apart from what a search over its future play is worth."""

    name = "model-reader"

    def _reading(self, rules: Rules) -> Callable[[SideView], list[tuple[Move, int]]]:
        return self._strong.weights


class StrongLookahead(_OnStrong):
    """The model exploiter's control: the learned policy plus one ply of search that does not know its
    opponent's model.  Its candidates and its own play in the rollouts are the learned policy's (``model``),
    as :class:`ModelExploiter`'s are, but it reads the opponent's bets and plays the opponent in its
    rollouts as the heuristic, as :class:`Lookahead` does.  Beside the exploiter it tells how much of the
    exploiter's edge is the search itself and how much is knowing the opponent's future play."""

    name = "strong-lookahead"

    def _own(self, rules: Rules) -> tuple[Callable[[SideView], list[tuple[Move, int]]], SidePolicy]:
        return self._strong_side(rules)


class TellReader(_Idea):
    """Reads the opponent's tells as a player across the table reads them, from its view and the public record
    alone: its hero's timing, its bet sizes and its choice of castle.

    - Hero timing: the record says when the opponent's hero cannot be on the table (shown in its discard, not yet
      reshuffled, or removed): every bet is then valued cards.
    - Bet sizes: while the hero may be there, a bet of at most :data:`SUSPECT` face-down cards is read as the hero
      and answered with the cheapest card (nothing is spent fighting it); a bigger one as valued cards (a policy
      that never hides its hero in a set gives that away).
    - Castle choice: a bet at the castle worth most to the opponent (its stake by the engine's scoring) is read as
      the hero up to one card more (a player commits its hero where it matters most).

    Valued cards are answered by the cheapest set without the hero whose total beats that many of the opponent's
    unseen valued cards at their mean (a defender's tie holds); where none does and the opponent's hero cannot be
    there, by its own hero alone (a sure win).  Its openings and every other decision are the heuristic's."""

    name = "tell-reader"
    #: the most face-down cards read as a hero bet (one more at the castle worth most to the opponent)
    SUSPECT = TELL_SUSPECT

    def _idea(self, view: SideView, moves: list[Move]) -> Move | None:
        battle = battle_of(view.to_play)
        count = view.opponent_placed_sizes[battle] if battle is not None else 0
        if view.to_play in (OPEN_FIRST, OPEN_SECOND) or battle is None or not count:
            return None
        castle = (view.x, view.y)[battle]
        assert castle is not None
        hidden = view.opponent_hidden
        cheapest = min(moves, key=_cheapest)
        hero_there = hidden[HERO] > 0
        if hero_there and count <= self.SUSPECT + (castle == self._their_best(view)):
            return cheapest
        valued = [value_of(k) for k in hidden.kinds() if k != HERO]
        mean = sum(valued) / len(valued) if valued else 0.0
        defending = view.castles[castle] == view.side
        need = count * mean
        beating = [m for m in moves if not m.cards[HERO] and (m.cards.total >= need if defending else m.cards.total > need)]
        if beating:
            return min(beating, key=_lowest)
        hero = next((m for m in moves if m.cards[HERO] and m.cards.size == 1), None)
        return hero if hero is not None and not hero_there else cheapest

    @staticmethod
    def _their_best(view: SideView) -> int:
        """The castle worth most to the opponent (its stake by the engine's scoring)."""
        o, unspent = 1 - view.side, view.unspent
        return max(range(len(view.castles)), key=lambda c: castle_stake(view.castles, c, o, view.rules, unspent))


#: the counter-policies by name: the five whose ideas read the table alone compile (:data:`IDEAS`), the four that
#: search are played by the engine
COUNTERS = {"reader": BetReader, "bluffer": Bluffer, "folder": Folder, "caller": CallerBully,
            "lookahead": Lookahead, "model-reader": ModelReader,
            "exploiter": ModelExploiter, "strong-lookahead": StrongLookahead, "tell-reader": TellReader}
