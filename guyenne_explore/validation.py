"""Checks on a position: every problem named, and warnings for states real play cannot reach.

Problems make a position unusable (cards missing, a hand of 7, a decision
point that contradicts what is placed).  Warnings describe positions that are
playable but hypothetical, which designers build on purpose (RULES.md 10).
"""

from __future__ import annotations

from .cards import HERO, KINDS, SYMBOLS, Cards
from .moves import choice_for
from .position import (CONCEDE_CHOICE, DEAL, DRAW, NEUTRAL, OPEN_FIRST, OPEN_SECOND,
                       PLACEMENTS, POINTS, REMOVE_CHOICE, RESPOND_FIRST, RESPOND_SECOND,
                       SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT, BATTLES, Position)
from .rules import SIDES

START_OF_ROUND = (TEAM_SPLIT, TEAM_ORDER, OPEN_FIRST)


def _describe(cards: Cards) -> str:
    parts = []
    for k in range(KINDS - 1, -1, -1):
        if cards[k]:
            name = "hero" if k == HERO else f"{SYMBOLS[k]}"
            parts.append(f"{cards[k]} × {name}")
    return ", ".join(parts)


def conservation_problems(p: Position) -> list[str]:
    """Each side's cards, over every zone, must be exactly the rules' card set."""
    out = []
    expected = p.rules.card_set
    for side, name in enumerate(SIDES):
        have = p.cards_of(side)
        extra = Cards(max(0, a - b) for a, b in zip(have, expected))
        missing = Cards(max(0, b - a) for a, b in zip(have, expected))
        if extra.size or missing.size:
            msg = f"{name} holds {have.size} cards in all its zones; the rules give each side {expected.size}"
            if extra.size:
                msg += f"; too many: {_describe(extra)}"
            if missing.size:
                msg += f"; missing: {_describe(missing)}"
            out.append(msg)
    return out


def position_problems(p: Position) -> list[str]:
    """Every reason this position is not a valid game state, in plain words."""
    r = p.rules
    out: list[str] = []
    if p.to_play not in POINTS:
        return [f"unknown decision point {p.to_play!r}: one of {', '.join(POINTS)}"]
    if len(p.castles) != r.castles:
        out.append(f"there are {len(p.castles)} castles but the rules have {r.castles}")
    if p.round < 1:
        out.append(f"the round must be 1 or more, not {p.round}")
    for side, name in enumerate(SIDES):
        s = p.sides[side]
        if len(s.hands) != r.members[side]:
            want = "a team of two members" if r.members[side] == 2 else "a single player"
            out.append(f"{name} is {want} under these rules, but the position gives it {len(s.hands)} hand(s)")
        if s.hand.size > r.hand_size:
            out.append(f"{name} holds {s.hand.size} cards in hand; a hand holds at most {r.hand_size}")
        if not 0 <= s.exhaustions <= r.exhaustion_limit:
            out.append(f"{name} has exhausted its deck {s.exhaustions} times; it can be 0 to {r.exhaustion_limit}")
        if s.deck_order is not None and Cards.of(SYMBOLS[k] for k in s.deck_order) != s.deck:
            out.append(f"{name}'s stacked deck order does not match its deck")
        if s.is_team:
            if s.drawer not in (0, 1):
                out.append(f"{name}'s drawer must be member 0 or 1, not {s.drawer}")
            if s.order not in (None, 0, 1):
                out.append(f"{name}'s order must be member 0 or 1 (or not decided), not {s.order}")
        for battle in (0, 1):
            n = p.placed.at(side, battle).size
            if n > r.max_at_castle:
                out.append(f"{name} has {n} cards at castle {BATTLES[battle]}; at most {r.max_at_castle} may be placed at one castle")
    out += conservation_problems(p)
    out += _point_problems(p)
    if not out and not p.is_chance and not p.is_over:
        choice = choice_for(p)
        if choice is None or choice.count() == 0:
            who = SIDES[choice.side] if choice else "nobody"
            out.append(f"{who} has no legal move at {p.to_play}")
    return out


def _point_problems(p: Position) -> list[str]:
    out: list[str] = []
    point, pl, r = p.to_play, p.placed, p.rules
    F, S = p.first, 1 - p.first
    fn, sn = SIDES[F], SIDES[S]
    has = lambda side, b: pl.at(side, b).size > 0  # noqa: E731
    for c in (pl.x, pl.y):
        if c is not None and not 0 <= c < r.castles:
            out.append(f"placed castle {c} does not exist: castles are numbered 0 to {r.castles - 1}")
    if pl.x is not None and pl.x == pl.y:
        out.append("castles X and Y must differ: two castles are fought over each round")
    if point in (SETUP_DISCARD, DEAL, DRAW, *START_OF_ROUND) and not pl.empty:
        out.append(f"nothing can be placed at {point}, which comes before any placement this round")
    if point in (SETUP_DISCARD, DEAL):
        if p.round != 1 or any(c != NEUTRAL for c in p.castles):
            out.append(f"{point} happens only at the start of a game (round 1, every castle neutral)")
    if point == SETUP_DISCARD and not r.pre_discard:
        out.append("setup_discard happens only when the rules put cards in the discard at setup (expert)")
    if point in (TEAM_SPLIT, TEAM_ORDER):
        if not r.is_team:
            out.append(f"{point} happens only in the team variant")
    if point in START_OF_ROUND:
        for side, name in enumerate(SIDES):
            if p.sides[side].hand.size <= 1:
                out.append(f"the game is already over: {name} holds at most one card at the start of a round"
                           " (to_play should be 'end')")
        if p.castles and p.castles[0] != NEUTRAL and all(c == p.castles[0] for c in p.castles):
            out.append(f"the game is already over: {SIDES[p.castles[0]]} controls every castle (to_play should be 'end')")
        for side, name in enumerate(SIDES):
            s = p.sides[side]
            if s.is_team and point == OPEN_FIRST and s.order is None:
                out.append(f"{name} is a team that has not decided its order yet: the round starts with team_split")
    if point in PLACEMENTS or point in (CONCEDE_CHOICE, REMOVE_CHOICE):
        want_x = point != OPEN_FIRST
        want_y = point in (RESPOND_SECOND, CONCEDE_CHOICE, REMOVE_CHOICE)
        if want_x != (pl.x is not None):
            out.append(f"at {point} castle X is {'chosen' if want_x else 'not chosen yet'}"
                       f" (placed.X is {pl.x})")
        if want_y != (pl.y is not None):
            out.append(f"at {point} castle Y is {'chosen' if want_y else 'not chosen yet'}"
                       f" (placed.Y is {pl.y})")
        expected = {
            OPEN_FIRST: {(F, 0): False, (S, 0): False, (F, 1): False, (S, 1): False},
            RESPOND_FIRST: {(F, 0): True, (S, 0): False, (F, 1): False, (S, 1): False},
            OPEN_SECOND: {(F, 0): True, (S, 0): True, (F, 1): False, (S, 1): False},
            RESPOND_SECOND: {(F, 0): True, (S, 0): True, (F, 1): False, (S, 1): True},
        }.get(point)
        if expected:
            for (side, b), want in expected.items():
                if has(side, b) != want:
                    who = fn if side == F else sn
                    out.append(f"at {point} {who} {'should have' if want else 'cannot have'} cards at castle "
                               f"{BATTLES[b]} ({'first' if side == F else 'second'} player this round)")
        for side, name in enumerate(SIDES):
            s = p.sides[side]
            if s.is_team and s.order is None:
                out.append(f"{name} is a team placing cards, so its order must be decided")
    if point == CONCEDE_CHOICE:
        b = p.battle
        if b is None:
            out.append("concede_choice must say which castle (X or Y) is being resolved")
        elif pl.castle(b) is not None and p.castles[pl.castle(b)] == NEUTRAL:
            out.append("concede_choice happens only at a castle with a defender; this one is neutral")
    if point == REMOVE_CHOICE:
        out += _remove_choice_problems(p)
    return out


def _remove_choice_problems(p: Position) -> list[str]:
    from .flow import battle_winner

    b, pl = p.battle, p.placed
    if b is None:
        return ["remove_choice must say which castle (X or Y) and which side"]
    if p.rules.removal != "advanced":
        return ["remove_choice happens only under the advanced removal rule (advanced and expert)"]
    castle = pl.castle(b)
    if castle is None:
        return []
    winner = p.castles[castle]
    if winner == NEUTRAL:
        return [f"at remove_choice castle {BATTLES[b]} should show its winner, not neutral"]
    loser = 1 - winner
    lost = pl.at(loser, b)
    out = []
    if lost.size == 0:
        out.append(f"{SIDES[loser]} has no cards at castle {BATTLES[b]} to remove")
    elif lost[HERO]:
        out.append(f"{SIDES[loser]} placed its hero at castle {BATTLES[b]}, so it cannot have lost a neutral battle")
    elif battle_winner(NEUTRAL, *(pl.at(0, b), pl.at(1, b))) != winner:
        out.append(f"{SIDES[winner]} did not beat {SIDES[loser]} at castle {BATTLES[b]} with the cards placed")
    return out


def position_warnings(p: Position) -> list[str]:
    """Why a playable position could not arise in real play (RULES.md 10)."""
    out = []
    L = p.rules.exhaustion_limit
    for side, name in enumerate(SIDES):
        s = p.sides[side]
        if p.to_play in START_OF_ROUND and s.hand.size < p.rules.hand_size and s.deck.size > 0:
            out.append(f"{name} holds {s.hand.size} cards at the start of a round while its deck still has "
                       f"{s.deck.size}: in play it would have drawn up to {p.rules.hand_size}")
        if s.exhaustions >= L and s.deck.size > 0:
            out.append(f"{name} has exhausted its deck {s.exhaustions} times (the limit) yet its deck holds "
                       f"{s.deck.size} cards: in play the last exhaustion leaves the deck empty")
    if p.to_play == CONCEDE_CHOICE and not p.rules.concede_as_decision:
        out.append("concede_choice is a decision only with the option concede_as_decision; these rules resolve it")
    return out
