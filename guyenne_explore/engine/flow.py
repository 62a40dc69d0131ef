"""The course of a game: what a move does, battles, the end of a round (who decides: :mod:`.turn`).

This module is the one place where a move changes a position (RULES.md
sections 2-5 and 8).  Battles resolve automatically as soon as the four
placements are made, pausing only at the decisions the rules leave to a side
(``remove_choice``, and ``concede_choice`` when the rules ask for it).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .cards import EMPTY, HERO, Cards
from .drawing import NotDrawable, draw_side, sample_outcome
from ..i18n import gettext as _
from ..i18n import point_name, side_noun
from .moves import IllegalMove, Move, parse_move, why_illegal
from .problems import shown
from .rules import SIDES, Rules
from .scoring import cannot_play_on, sweeper
from .state import (CONCEDE_CHOICE, DEAL, DRAW, END, ENGLISH, FRENCH, NEUTRAL, NOTHING_PLACED, OPEN_FIRST, OPEN_SECOND,
                    REMOVE_CHOICE, RESPOND_FIRST, RESPOND_SECOND, SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT, Draw, Side,
                    PositionT, evolve, new_position, replace_side)
from .turn import acting_member, acting_side, battle_of

if TYPE_CHECKING:  # pragma: no cover
    from .state import State

__all__ = ["acting_member", "acting_side", "battle_of", "apply_move", "apply_draw", "sample_draw", "battle_winner",
           "defence_holds", "defender_at", "resolve_battle", "start_position"]

_NEXT_PLACEMENT = {OPEN_FIRST: RESPOND_FIRST, RESPOND_FIRST: OPEN_SECOND, OPEN_SECOND: RESPOND_SECOND}


# ---------------------------------------------------------------------- start
def start_position(rules: Rules) -> State:
    """A new game: heroes in hand (member 1 for a team), decks of the valued cards, before the deal."""
    hero = Cards().add_kind(HERO, 1) if rules.hero else EMPTY
    sides = tuple(
        Side(hands=(hero, EMPTY) if rules.team(i) else (hero,), deck=rules.valued) for i in (ENGLISH, FRENCH)
    )
    first = SIDES.index(rules.first_side)
    to_play = SETUP_DISCARD if rules.pre_discard else DEAL
    return new_position(rules, (NEUTRAL,) * rules.castles, 1, first, to_play, sides)  # type: ignore[arg-type]


def _start_of_round_point(p: State) -> str:
    """The first decision of a round: the team decisions (first player's team first), then open_first."""
    for side in (p.first, 1 - p.first):
        s = p.sides[side]
        if s.is_team and s.order is None:
            return TEAM_ORDER if s.hands[s.drawer].size == 1 else TEAM_SPLIT
    return OPEN_FIRST


# ---------------------------------------------------------------------- moves
def apply_move(p: PositionT, move: Move | str, checked: bool = True) -> PositionT:
    """The position after ``move``; ``checked=False`` skips the legality check for moves
    taken from ``legal_moves`` (the analysis' hot path)."""
    if isinstance(move, str):
        move = parse_move(p, move)
    if checked:
        reason = why_illegal(p, move)
        if reason is not None:
            raise IllegalMove(reason)
    side = acting_side(p)
    assert side is not None
    member = acting_member(p)
    s = p.sides[side]
    point = p.to_play

    if point == SETUP_DISCARD:
        s = evolve(s, deck=s.deck - move.cards, discard=s.discard + move.cards,
                   deck_order=_stack_without(s.deck_order, move.cards))
        p = evolve(p, sides=replace_side(p, side, s))
        if p.sides[1 - side].discard.size < p.rules.pre_discard and side == p.first:
            return p
        return evolve(p, to_play=DEAL)
    if point == TEAM_SPLIT:
        giver, taker = member, 1 - member
        s = s.with_hand(giver, s.hands[giver] - move.cards).with_hand(taker, s.hands[taker] + move.cards)
        return evolve(p, sides=replace_side(p, side, s), to_play=TEAM_ORDER)
    if point == TEAM_ORDER:
        p = evolve(p, sides=replace_side(p, side, evolve(s, order=move.first_member)))
        return evolve(p, to_play=_start_of_round_point(p))
    if point == CONCEDE_CHOICE:
        return _finish_battle(p, p.battle or 0, conceded=bool(move.concede))
    if point == REMOVE_CHOICE:
        battle = p.battle or 0
        placed = p.placed.put(side, battle, p.placed.at(side, battle) - move.cards)
        s = evolve(s, removed=s.removed + move.cards)
        p = evolve(p, sides=replace_side(p, side, s), placed=placed, battle=None, to_play=OPEN_FIRST)
        return _after_battle(p, battle)

    # placements
    placing = battle_of(point)
    assert placing is not None
    battle = placing
    s = s.with_hand(member, s.hands[member] - move.cards)
    placed = p.placed.put(side, battle, move.cards)
    if point == OPEN_FIRST:
        placed = evolve(placed, x=move.castle)
    elif point == OPEN_SECOND:
        placed = evolve(placed, y=move.castle)
    if point == RESPOND_SECOND:
        return resolve_battle(evolve(p, sides=replace_side(p, side, s), placed=placed), 0)
    return evolve(p, sides=replace_side(p, side, s), placed=placed, to_play=_NEXT_PLACEMENT[point])


def _stack_without(order: tuple[int, ...] | None, gone: Cards) -> tuple[int, ...] | None:
    """A stacked deck's order (top card first) once the expert setup's discards ``gone`` leave it
    (RULES.md 2), None for a shuffled deck.  A move names cards, not copies: the copies of each kind
    nearest the bottom go, so the top of the stack, the cards the deal draws, stays as it was stacked
    wherever the deck holds other copies; the cards left keep their order."""
    if order is None:
        return None
    left = list(order)
    for kind in gone.kinds():
        del left[len(left) - 1 - left[::-1].index(kind)]
    return tuple(left) or None


# ---------------------------------------------------------------------- battles
def battle_winner(control: int, english: Cards, french: Cards) -> int | None:
    """Who wins a battle with the defender revealing: a side, or None for a tie (RULES.md section 4).

    A tie at a controlled castle leaves it with its defender; at a neutral one it stays neutral.
    """
    he, hf = english[HERO] > 0, french[HERO] > 0
    if he and hf:
        return None
    if he or hf:
        return ENGLISH if he else FRENCH
    se, sf = english.total, french.total
    if se == sf:
        return None
    return ENGLISH if se > sf else FRENCH


def resolve_battle(p: PositionT, battle: int) -> PositionT:
    """Resolve battle X (0) or Y (1), pausing for the defender when conceding is a decision."""
    castle = p.placed.castle(battle)
    assert castle is not None
    if p.castles[castle] != NEUTRAL and p.rules.concede_as_decision:
        return evolve(p, to_play=CONCEDE_CHOICE, battle=battle)
    return _finish_battle(p, battle, conceded=False)


def _finish_battle(p: PositionT, battle: int, conceded: bool) -> PositionT:
    castle = p.placed.castle(battle)
    assert castle is not None
    control = p.castles[castle]
    cards = (p.placed.at(ENGLISH, battle), p.placed.at(FRENCH, battle))
    if conceded:
        winner: int | None = 1 - control
    else:
        winner = battle_winner(control, *cards)
    new_control = control if winner is None else winner
    castles = p.castles[:castle] + (new_control,) + p.castles[castle + 1:]
    sides = list(p.sides)
    placed = p.placed
    if conceded:  # the defender discards its cards face down
        d = sides[control]
        sides[control] = evolve(d, discard=d.discard + cards[control])
        placed = placed.put(control, battle, EMPTY)
    removal = p.rules.removal
    if control != NEUTRAL:
        attacker = 1 - control
        if removal == "advanced" or (removal == "classic2021" and new_control == attacker):
            strongest = cards[attacker].strongest()
            if strongest is not None:
                gone = Cards().add_kind(strongest, 1)
                a = sides[attacker]
                sides[attacker] = evolve(a, removed=a.removed + gone)
                placed = placed.put(attacker, battle, cards[attacker] - gone)
    p = evolve(p, castles=castles, sides=(sides[0], sides[1]), placed=placed, battle=None)
    if control == NEUTRAL and winner is not None and removal == "advanced":
        return evolve(p, to_play=REMOVE_CHOICE, battle=battle)
    return _after_battle(p, battle)


def _after_battle(p: PositionT, battle: int) -> PositionT:
    return resolve_battle(p, 1) if battle == 0 else _end_of_round(p)


def _end_of_round(p: PositionT) -> PositionT:
    """RULES.md section 5 steps 1-2: the all-six end, else placed cards to the discards and the draw."""
    if sweeper(p.castles) is not None:
        return evolve(p, to_play=END, battle=None)
    sides = tuple(
        evolve(s, discard=s.discard + p.placed.side_total(i)) for i, s in enumerate(p.sides)
    )
    return evolve(p, sides=sides, placed=NOTHING_PLACED, battle=None, to_play=DRAW)


# ---------------------------------------------------------------------- chance
def _require_chance(p: State) -> None:
    """Refuse a chance outcome where none happens, as an illegal move is refused: with the reason."""
    if not p.is_chance:
        raise IllegalMove(_("no draw happens at {point}: chance outcomes apply at the deal and between rounds").format(
            point=point_name(p.to_play)))


def sample_draw(p: State, rng: random.Random) -> Draw:
    """A chance outcome drawn with its probability from ``rng``; IllegalMove where no draw happens."""
    _require_chance(p)
    return sample_outcome(p, rng)


def apply_draw(p: PositionT, outcome: Draw) -> PositionT:
    """Steps 3-5 of the end of a round (or the deal): draw, the end check, the next round.

    ``outcome`` must be one of the listed chance outcomes: anything else is an IllegalMove
    that says why, never a half-drawn position."""
    _require_chance(p)
    if not (isinstance(outcome, Draw) and isinstance(outcome.english, Cards) and isinstance(outcome.french, Cards)):
        raise IllegalMove(_("a chance outcome is a Draw of the cards each side draws, one of chance_outcomes(),"
                            " not {value}").format(value=shown(outcome)))
    new_round = p.to_play == DRAW
    sides = []
    for i, s in enumerate(p.sides):
        if s.is_team and new_round:
            s = evolve(s, drawer=1 - s.drawer)
        try:
            sides.append(draw_side(s, outcome[i], p.rules))
        except NotDrawable:
            raise IllegalMove(_("{side} cannot draw {cards} here: it is not one of the chance outcomes of this"
                                " point").format(side=side_noun(SIDES[i]), cards=outcome[i] or "-")) from None
    p = evolve(p, sides=(sides[0], sides[1]))
    if cannot_play_on((sides[0].hand.size, sides[1].hand.size)):
        return evolve(p, to_play=END)
    if new_round:
        p = evolve(p, round=p.round + 1, first=1 - p.first)
    return evolve(p, to_play=_start_of_round_point(p))


def defence_holds(defender: int, english: Cards, french: Cards) -> bool:
    """Whether a defence holds when revealed: the built-in concede rule reveals then, else concedes."""
    return battle_winner(defender, english, french) in (None, defender)


def defender_at(p: State, battle: int) -> int | None:
    """The side defending the castle of a battle this round (None when both attack a neutral castle).

    Roles follow control at the start of the round.  A battle pending a
    ``remove_choice`` was neutral (only neutral battles call for one); an
    already resolved battle shows its new control, the best the position knows.
    """
    castle = p.placed.castle(battle)
    if castle is None or (p.to_play == REMOVE_CHOICE and battle == p.battle):
        return None
    control = p.castles[castle]
    return None if control == NEUTRAL else control
