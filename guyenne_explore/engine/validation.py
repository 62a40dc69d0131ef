"""Checks on a position: every problem named, and warnings for states real play cannot reach.

Problems make a position unusable (cards missing, a hand of 7, a decision
point that contradicts what is placed).  Warnings describe positions that are
playable but hypothetical, which designers build on purpose (RULES.md 10).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import HERO, KINDS, SYMBOLS, Cards
from .moves import choice_for
from .flow import battle_winner
from .state import (BATTLES, CONCEDE_CHOICE, DEAL, DRAW, END, NEUTRAL, OPEN_FIRST, OPEN_SECOND, PLACEMENTS,
                    POINTS, REMOVE_CHOICE, RESPOND_FIRST, RESPOND_SECOND, SETUP_DISCARD, TEAM_ORDER,
                    TEAM_SPLIT)
from .problems import Problem, problem
from .rules import SIDES
from .scoring import cannot_play_on, sweeper
from .turn import acting_side

if TYPE_CHECKING:  # pragma: no cover
    from .state import State

START_OF_ROUND = (TEAM_SPLIT, TEAM_ORDER, OPEN_FIRST)
#: The highest round a position may claim: no game under the rules' bounds lasts that long,
#: and a bound keeps every number of a position small enough to write and read back.
MAX_ROUND = 1000


def _describe(cards: Cards) -> str:
    parts = []
    for k in range(KINDS - 1, -1, -1):
        if cards[k]:
            name = "hero" if k == HERO else f"{SYMBOLS[k]}"
            parts.append(f"{cards[k]} × {name}")
    return ", ".join(parts)


def conservation_problems(p: State) -> list[Problem]:
    """Each side's cards, over every zone, must be exactly the rules' card set."""
    out = []
    expected = p.rules.card_set
    for side, name in enumerate(SIDES):
        have = p.cards_of(side)
        extra = Cards(max(0, a - b) for a, b in zip(have, expected))
        missing = Cards(max(0, b - a) for a, b in zip(have, expected))
        if extra.size or missing.size:
            details = (f"; too many: {_describe(extra)}" if extra.size else "") + (
                f"; missing: {_describe(missing)}" if missing.size else "")
            out.append(problem("position.conservation", f"sides.{name}", side=name, count=have.size,
                               expected=expected.size, details=details))
    return out


def position_problems(p: State) -> list[Problem]:
    """Every reason this position is not a valid game state, each naming its field.

    Total over any position the loaders can build: it never raises, whatever the
    values (castle numbers out of range, a side with no hand...)."""
    r = p.rules
    out: list[Problem] = []
    if p.to_play not in POINTS:
        return [problem("position.unknown_point", "to_play", value=p.to_play, choices=", ".join(POINTS))]
    if len(p.castles) != r.castles:
        out.append(problem("position.castle_count", "castles", count=len(p.castles), castles=r.castles))
    if p.round < 1:
        out.append(problem("position.round", "round", value=p.round))
    elif p.round > MAX_ROUND:
        out.append(problem("position.round_too_large", "round", high=MAX_ROUND, value=p.round))
    elif p.round == MAX_ROUND and p.to_play == DRAW:  # the draw starts the next round, past the bound
        out.append(problem("position.round_draw_too_large", "round", high=MAX_ROUND, next=MAX_ROUND + 1,
                           value=p.round))
    for side, name in enumerate(SIDES):
        s = p.sides[side]
        if len(s.hands) != r.members[side]:
            want = "a team of two members" if r.members[side] == 2 else "a single player"
            out.append(problem("position.members", f"sides.{name}.members", side=name, want=want,
                               count=len(s.hands)))
            if not s.hands:
                return out
        if s.hand.size > r.hand_size:
            out.append(problem("position.hand_size", f"sides.{name}.hand", side=name, count=s.hand.size,
                               high=r.hand_size))
        if not 0 <= s.exhaustions <= r.exhaustion_limit:
            out.append(problem("position.exhaustions", f"sides.{name}.exhaustions", side=name,
                               value=s.exhaustions, high=r.exhaustion_limit))
        if s.deck_order is not None and Cards.of(SYMBOLS[k] for k in s.deck_order) != s.deck:
            out.append(problem("position.stacked_order", f"sides.{name}.deck", side=name))
        if s.is_team:
            if s.drawer not in (0, 1):
                out.append(problem("position.drawer", f"sides.{name}.drawer", side=name, value=s.drawer))
            if s.order not in (None, 0, 1):
                out.append(problem("position.order", f"sides.{name}.order", side=name, value=s.order))
        else:  # written only for a team: a solo side that carries them could not be saved as read
            if s.drawer != 0:
                out.append(problem("position.solo_member_field", f"sides.{name}.drawer", side=name, key="drawer"))
            if s.order is not None:
                out.append(problem("position.solo_member_field", f"sides.{name}.order", side=name, key="order"))
        for battle in (0, 1):
            n = p.placed.at(side, battle).size
            if n > r.max_at_castle:
                out.append(problem("position.max_at_castle", f"placed.{name}.{BATTLES[battle]}", side=name,
                                   count=n, battle=BATTLES[battle], high=r.max_at_castle))
    out += conservation_problems(p)
    out += _point_problems(p)
    if not out and not p.is_chance and not p.is_over:
        choice = choice_for(p)
        if choice is None or choice.count() == 0:
            out.append(problem("position.no_legal_move", "to_play",
                               side=SIDES[choice.side] if choice else "nobody", point=p.to_play))
    return out


def _castle_of(p: State, battle: int) -> int | None:
    """The castle index of a battle when it names an existing castle, else None."""
    c = p.placed.castle(battle)
    return c if c is not None and 0 <= c < len(p.castles) else None


def _point_problems(p: State) -> list[Problem]:
    out: list[Problem] = []
    point, pl, r = p.to_play, p.placed, p.rules
    F, S = p.first, 1 - p.first
    has = lambda side, b: pl.at(side, b).size > 0  # noqa: E731
    for b, c in enumerate((pl.x, pl.y)):
        if c is not None and not 0 <= c < r.castles:
            out.append(problem("placed.no_castle", f"placed.{BATTLES[b]}", value=c, high=r.castles - 1))
        if c is None:
            for side, name in enumerate(SIDES):
                if has(side, b):
                    out.append(problem("placed.cards_without_castle", f"placed.{name}.{BATTLES[b]}", side=name,
                                       battle=BATTLES[b]))
    if pl.x is not None and pl.x == pl.y:
        out.append(problem("placed.same_castle", "placed.Y"))
    if p.battle is not None and (point not in (CONCEDE_CHOICE, REMOVE_CHOICE) or p.battle not in (0, 1)):
        out.append(problem("point.battle_only_at", "to_play", point=point))
    if point in (SETUP_DISCARD, DEAL, DRAW, *START_OF_ROUND) and not pl.empty:
        out.append(problem("placed.before_placement", "placed", point=point))
    if point == END and (not p.castles or sweeper(p.castles) is None) and not cannot_play_on(
            (p.sides[0].hand.size, p.sides[1].hand.size)):
        out.append(problem("point.not_over", "to_play"))
    if point in (SETUP_DISCARD, DEAL):
        if p.round != 1 or any(c != NEUTRAL for c in p.castles):
            out.append(problem("point.start_only", "to_play", point=point))
    if point == SETUP_DISCARD and not r.pre_discard:
        out.append(problem("point.setup_discard", "to_play"))
    if point in (TEAM_SPLIT, TEAM_ORDER):
        if not r.is_team:
            out.append(problem("point.team_only", "to_play", point=point))
        elif not any(p.sides[side].is_team and p.sides[side].order is None for side in (0, 1)):
            out.append(problem("point.no_team_to_decide", "to_play", point=point))
    if point in START_OF_ROUND or point == DRAW:  # RULES.md 5.1: a sweep ends the game before the draw
        swept = sweeper(p.castles) if p.castles else None
        if swept is not None:
            out.append(problem("point.game_over_sweep", "to_play", side=SIDES[swept]))
    if point in START_OF_ROUND:  # RULES.md 5.4: a side left with at most one card after drawing ends the game
        for side in cannot_play_on((p.sides[0].hand.size, p.sides[1].hand.size)):
            out.append(problem("point.game_over_hand", "to_play", side=SIDES[side]))
        for side, name in enumerate(SIDES):
            s = p.sides[side]
            if s.is_team and point == OPEN_FIRST and s.order is None:
                out.append(problem("point.order_undecided", f"sides.{name}.order", side=name))
    if point in PLACEMENTS or point in (CONCEDE_CHOICE, REMOVE_CHOICE):
        want_x = point != OPEN_FIRST
        want_y = point in (RESPOND_SECOND, CONCEDE_CHOICE, REMOVE_CHOICE)
        for b, want, c in ((0, want_x, pl.x), (1, want_y, pl.y)):
            if want != (c is not None):
                out.append(problem("placed.castle_chosen", f"placed.{BATTLES[b]}", point=point, battle=BATTLES[b],
                                   state="chosen" if want else "not chosen yet", value=c))
        expected = {
            OPEN_FIRST: {(F, 0): False, (S, 0): False, (F, 1): False, (S, 1): False},
            RESPOND_FIRST: {(F, 0): True, (S, 0): False, (F, 1): False, (S, 1): False},
            OPEN_SECOND: {(F, 0): True, (S, 0): True, (F, 1): False, (S, 1): False},
            RESPOND_SECOND: {(F, 0): True, (S, 0): True, (F, 1): False, (S, 1): True},
        }.get(point)
        if point in (CONCEDE_CHOICE, REMOVE_CHOICE) and p.battle in (0, 1):
            # every side placed at each castle: a battle still to resolve holds both sides' cards (the pending
            # removal's own battle is checked by its loser and winner below; a resolved one may hold none)
            first_open = p.battle + 1 if point == REMOVE_CHOICE else p.battle
            expected = {(side, b): True for side in (F, S) for b in (0, 1) if b >= first_open}
        if expected:
            for (side, b), want in expected.items():
                if has(side, b) != want:
                    out.append(problem("placed.cards_expected", f"placed.{SIDES[side]}.{BATTLES[b]}", point=point,
                                       side=SIDES[side], want="should have" if want else "cannot have",
                                       battle=BATTLES[b], order="first" if side == F else "second"))
        for side, name in enumerate(SIDES):
            s = p.sides[side]
            if s.is_team and s.order is None:
                out.append(problem("point.order_needed", f"sides.{name}.order", side=name))
    if point in PLACEMENTS or point in (TEAM_SPLIT, TEAM_ORDER):
        out += _supply_problems(p)
    if point == CONCEDE_CHOICE:
        pending = p.battle
        castle = _castle_of(p, pending) if pending is not None and pending in (0, 1) else None
        if pending is None:
            out.append(problem("point.battle_missing", "concede_choice", point=point))
        elif castle is not None and p.castles[castle] == NEUTRAL:
            out.append(problem("point.concede_neutral", "concede_choice"))
    if point == REMOVE_CHOICE:
        out += _remove_choice_problems(p)
    return out


def _supply_problems(p: State) -> list[Problem]:
    """Each placement still to come this round needs a card to place (RULES.md 3 and 8): a side,
    or for a team the member who places at that castle (its first member at X, the other at Y),
    must hold one for each castle it has not placed at yet, else the round could not go on."""
    out: list[Problem] = []
    for side, name in enumerate(SIDES):
        s = p.sides[side]
        needed = [b for b in (0, 1) if p.placed.at(side, b).size == 0]
        if not s.is_team:
            if p.to_play in PLACEMENTS and p.to_play != OPEN_FIRST and s.hand.size < len(needed):  # at open_first:
                # a hand of one is the game's end, said by the start-of-round checks
                out.append(problem("position.cannot_place", f"sides.{name}.hand", who=name, count=s.hand.size,
                                   need=len(needed)))
            continue
        if s.order not in (0, 1):
            if p.to_play == TEAM_ORDER and side == acting_side(p):  # split done: both members place
                for m in (0, 1):
                    if s.hands[m].size == 0:
                        out.append(problem("position.cannot_place", f"sides.{name}.members[{m}].hand",
                                           who=f"{name}'s member {m}", count=0, need=1))
            continue
        for b in needed:
            m = s.order if b == 0 else 1 - s.order
            if s.hands[m].size == 0:
                out.append(problem("position.cannot_place", f"sides.{name}.members[{m}].hand",
                                   who=f"{name}'s member {m}", count=0, need=1))
    return out


def _remove_choice_problems(p: State) -> list[Problem]:
    b, pl = p.battle, p.placed
    if b is None:
        return [problem("point.battle_missing", "remove_choice", point=REMOVE_CHOICE)]
    if p.rules.removal != "advanced":
        return [problem("point.remove_rule", "to_play")]
    castle = _castle_of(p, b) if b in (0, 1) else None
    if castle is None:
        return []  # the castle is missing or out of range: said by the placed checks
    winner = p.castles[castle]
    battle = BATTLES[b]
    if winner == NEUTRAL:
        return [problem("point.remove_neutral", "remove_choice", battle=battle)]
    loser = 1 - winner
    lost = pl.at(loser, b)
    out = []
    if lost.size == 0:
        out.append(problem("point.remove_nothing", f"placed.{SIDES[loser]}.{battle}", side=SIDES[loser], battle=battle))
    elif lost[HERO]:
        out.append(problem("point.remove_hero", f"placed.{SIDES[loser]}.{battle}", side=SIDES[loser], battle=battle))
    elif battle_winner(NEUTRAL, *(pl.at(0, b), pl.at(1, b))) != winner:
        out.append(problem("point.remove_not_beaten", f"placed.{SIDES[loser]}.{battle}", winner=SIDES[winner],
                           side=SIDES[loser], battle=battle))
    return out


def position_warnings(p: State) -> list[Problem]:
    """Why a playable position could not arise in real play (RULES.md 10)."""
    out = []
    L = p.rules.exhaustion_limit
    for side, name in enumerate(SIDES):
        s = p.sides[side]
        if p.to_play in START_OF_ROUND and s.hand.size < p.rules.hand_size and s.deck.size > 0:
            out.append(problem("warning.short_hand", f"sides.{name}.hand", side=name, count=s.hand.size,
                               deck=s.deck.size, high=p.rules.hand_size))
        if s.exhaustions >= L and s.deck.size > 0:
            out.append(problem("warning.exhausted_deck", f"sides.{name}.deck", side=name, value=s.exhaustions,
                               deck=s.deck.size))
    if p.to_play == CONCEDE_CHOICE and not p.rules.concede_as_decision:
        out.append(problem("warning.concede_option", "to_play"))
    return out
