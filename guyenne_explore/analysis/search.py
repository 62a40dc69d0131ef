"""A stronger policy: determinised Monte Carlo search over the hidden cards.

For each candidate move (the heuristic's best few), it deals the cards it
cannot see at random in a way consistent with its view (the opponent's hand,
deck, discard and face-down cards; its own deck order and a partner's hand),
plays the game out with the heuristic policy for both sides, and keeps the
move with the best mean score margin.  It only ever reads its own view.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..cards import Cards
from ..flow import apply_move
from ..moves import Move
from ..position import CONCEDE_CHOICE, Placed, Position, Side
from ..view import SideView
from .heuristic import Heuristic, score
from .policies import concede_move


def _deal(pool: Cards, sizes: list[int], rng: random.Random) -> list[Cards]:
    cards = list(pool.kinds())
    rng.shuffle(cards)
    out, start = [], 0
    for n in sizes:
        counts = [0] * 10
        for k in cards[start:start + n]:
            counts[k] += 1
        out.append(Cards(counts))
        start += n
    return out


def determinise(view: SideView, rng: random.Random) -> Position:
    """A full position consistent with everything the view shows."""
    me, other = view.side, 1 - view.side
    opp = view.opponent
    face_down = [view.opponent_placed_sizes[b] if view.opponent_placed[b] is None else 0 for b in (0, 1)]
    parts = _deal(opp.unseen, list(opp.hand_sizes) + [opp.deck_size] + face_down + [opp.discard_size], rng)
    nh = len(opp.hand_sizes)
    opp_hands, opp_deck = tuple(parts[:nh]), parts[nh]
    opp_placed = [view.opponent_placed[b] if view.opponent_placed[b] is not None else parts[nh + 1 + b]
                  for b in (0, 1)]
    opp_discard = parts[nh + 3]
    drawer, order = view.roles(other)
    opp_side = Side(opp_hands, opp_deck, opp_discard, opp.removed, opp.exhaustions, None, drawer, order)
    my_drawer, my_order = view.roles(me)
    if view.partner_hand_size is None:
        hands: tuple[Cards, ...] = (view.hand,)
        deck = view.own_unseen
    else:
        partner, deck = _deal(view.own_unseen, [view.partner_hand_size, view.deck_size], rng)
        hands = (view.hand, partner) if view.member == 0 else (partner, view.hand)
    my_side = Side(hands, deck, view.discard, view.removed, view.exhaustions, None, my_drawer, my_order)
    sides = (my_side, opp_side) if me == 0 else (opp_side, my_side)
    own = view.own_placed
    cards = ((own[0], own[1]), (opp_placed[0], opp_placed[1])) if me == 0 else \
        ((opp_placed[0], opp_placed[1]), (own[0], own[1]))
    placed = Placed(view.x, view.y, cards) if (view.x is not None or any(c.size for r in cards for c in r)) \
        else Placed()
    return Position(view.rules, view.castles, view.round, view.first, view.to_play, sides, placed, view.battle)


class MonteCarlo:
    """Determinised flat Monte Carlo search with a fixed rollout budget per decision."""

    exact = False

    def __init__(self, rollouts: int = 24, candidates: int = 6):
        self.rollouts = rollouts
        self.candidates = candidates
        self.name = "search"
        self._rollout_policy = Heuristic()

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        raise NotImplementedError("the search policy samples; it has no exact move distribution")

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play == CONCEDE_CHOICE:
            return concede_move(view)
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves[0]
        moves.sort(key=lambda m: -score(view, m))
        moves = moves[: self.candidates]
        sign = 1 if view.side == 0 else -1
        best, best_value = moves[0], float("-inf")
        for move in moves:
            total = 0.0
            for _ in range(max(1, self.rollouts // len(moves))):
                p = apply_move(determinise(view, rng), move, checked=False)
                while not p.is_over:
                    if p.is_chance:
                        p = p.apply_outcome(p.sample_outcome(rng))
                    else:
                        s = p.side_to_play
                        p = apply_move(p, self._rollout_policy.choose(p.view(s), rng), checked=False)  # type: ignore[arg-type]
                r = p.result()
                total += sign * (r.english - r.french) + (0.5 * sign if r.winner == "english" else
                                                          -0.5 * sign if r.winner == "french" else 0)
            if total > best_value:
                best, best_value = move, total
        return best
