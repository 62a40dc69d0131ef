"""Moves, the legal-move view and the reasons a move is illegal.

Every decision point offers a :class:`Choice`: the cards the deciding side (or
team member) may choose from and the constraints on them.  The legal moves are
the distinct multisets (and castles) that meet the constraints, so two moves
that differ only by which of two equal cards is played are one move.  The
same :class:`Choice` answers "is this legal?" with a sentence that names the
rule, so the move list, the panels and the command line never disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator

from .cards import EMPTY, HERO, SYMBOLS, CardError, Cards, count_sub_multisets, value_of
from ..i18n import N_
from ..i18n import gettext as _
from ..i18n import current_language, point_name, side_noun, side_title
from .problems import shown
from .rules import SIDES, Rules
from .state import (BATTLES, CONCEDE_CHOICE, OPEN_FIRST, OPEN_SECOND, REMOVE_CHOICE,
                    RESPOND_FIRST, RESPOND_SECOND, SETUP_DISCARD, TEAM_ORDER, TEAM_SPLIT)
from .turn import acting_member, acting_side, battle_of

if TYPE_CHECKING:  # pragma: no cover
    from .state import State


class IllegalMove(ValueError):
    """A move that breaks a rule; the message says which."""


@dataclass(frozen=True)
class Move:
    """One decision: cards (and a castle when opening), a first member, or reveal/concede."""

    cards: Cards = EMPTY
    castle: int | None = None
    first_member: int | None = None
    concede: bool | None = None

    def text(self, first: int = 0) -> str:
        """Compact text: ``3:H52`` (open at castle 3), ``H52``, ``first:1``, ``reveal``, ``concede``.  ``first``:
        the number written for castle 0: the notation's files count castles from 0 (RULES.md 10); what a person
        reads and types in the explorer counts them from 1, as the table and the rulebook (``i18n.FIRST_CASTLE``)."""
        if self.concede is not None:
            return "concede" if self.concede else "reveal"
        if self.first_member is not None:
            return f"first:{self.first_member}"
        if self.castle is not None:
            return f"{self.castle + first}:{self.cards}"
        return str(self.cards)

    def __str__(self) -> str:
        return self.text()

    def to_json(self) -> dict[str, Any]:
        if self.concede is not None:
            return {"concede": self.concede}
        if self.first_member is not None:
            return {"first_member": self.first_member}
        out: dict[str, Any] = {}
        if self.castle is not None:
            out["castle"] = self.castle
        out["cards"] = self.cards.symbols()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Move":
        if not isinstance(data, dict):
            raise IllegalMove(_("a move is an object like {example}, not {value}").format(
                example="{'castle': 3, 'cards': ['H', '5']}", value=shown(data)))
        castle, member, concede = data.get("castle"), data.get("first_member"), data.get("concede")
        for name, value in (("castle", castle), ("first_member", member)):
            if value is not None and (type(value) is not int or not 0 <= value < 1000):
                raise IllegalMove(_("a move's {name} is a small whole number, not {value}").format(name=name, value=shown(value)))
        if concede is not None and not isinstance(concede, bool):
            raise IllegalMove(_("a move's concede is true or false, not {value}").format(value=shown(concede)))
        cards = data.get("cards", [])
        if not isinstance(cards, list):
            raise IllegalMove(_("a move's cards are a list like {example}, not {value}").format(
                example="['H', '5']", value=shown(cards)))
        try:
            return cls(cards=Cards.of(cards), castle=castle, first_member=member, concede=concede)
        except CardError as exc:
            raise IllegalMove(str(exc)) from None


@dataclass(frozen=True)
class Choice:
    """What a decision allows: the source of the cards and the constraints on them.

    Built from what the deciding side knows, so a side's view can list its own
    legal moves without seeing anything hidden.
    """

    point: str
    side: int
    member: int = 0
    source: Cards = EMPTY
    min_cards: int = 1
    max_cards: int = 0
    reserve: int = 0
    castles: tuple[int, ...] = ()
    first_castle: int | None = None
    members: tuple[int, ...] = ()
    giver_is_drawer: bool = True
    battle: int | None = None
    n_castles: int = 6
    source_name: str = "hand"

    # --------------------------------------------------------------- listing
    def moves(self) -> Iterator[Move]:
        if self.point == TEAM_ORDER:
            for m in self.members:
                yield Move(first_member=m)
            return
        if self.point == CONCEDE_CHOICE:
            yield Move(concede=False)
            yield Move(concede=True)
            return
        if self.point == REMOVE_CHOICE:
            for cards in self.source.sub_multisets(1):
                if self._remove_problem(cards) is None:
                    yield Move(cards=cards)
            return
        sets = self.card_sets()
        if self.castles:
            for c in self.castles:
                for cards in sets:
                    yield Move(cards=cards, castle=c)
        else:
            for cards in sets:
                yield Move(cards=cards)

    def _most_cards(self) -> int:
        """The most cards a move may take: ``max_cards``, less the ``reserve`` kept back for later."""
        return min(self.max_cards, self.source.size - self.reserve)

    def card_sets(self) -> list[Cards]:
        """The distinct multisets of cards a placement, discard or split allows (RULES.md 2, 3 and 8:
        ``min_cards`` to ``max_cards`` from the source, ``reserve`` kept back), castles aside."""
        return list(self.source.sub_multisets(self.min_cards, self._most_cards()))

    def count(self) -> int:
        """Number of legal moves, counted without listing them when possible."""
        if self.point in (TEAM_ORDER, CONCEDE_CHOICE, REMOVE_CHOICE):
            return sum(1 for _ in self.moves())
        n = count_sub_multisets(self.source, self.min_cards, self._most_cards())
        return n * len(self.castles) if self.castles else n

    # --------------------------------------------------------------- why not
    def why_not(self, move: Move, first: int = 0) -> str | None:
        """None for a legal move, else the rule it breaks in plain words, castles named as counted from ``first``
        (:meth:`Move.text`)."""
        who = side_title(SIDES[self.side]) if current_language() == "en" else side_noun(SIDES[self.side])
        if not _well_formed(move):
            return _("not a move: {value}").format(value=shown(move))
        if self.point == TEAM_ORDER:
            if move.first_member is None:
                return _("at team_order the move names the member who places first, like 'first:0'")
            if move.first_member not in self.members:
                return _("a team has members 0 and 1; there is no member {member}").format(member=move.first_member)
            if _more_than(move, "first_member"):
                return _("at team_order the move only names the member who places first, like 'first:0':"
                         " no castle, cards or concession")
            return None
        if self.point == CONCEDE_CHOICE:
            if move.concede is None:
                return _("at concede_choice the defender either reveals its cards ('reveal') or concedes ('concede')")
            if _more_than(move, "concede"):
                return _("at concede_choice the move is only 'reveal' or 'concede': no castle, cards or member")
            return None
        if move.concede is not None or move.first_member is not None:
            return (_("at {point} the move is a set of cards, with a castle, like '3:H52'") if self.castles
                    else _("at {point} the move is a set of cards")).format(point=point_name(self.point))
        if self.castles:
            if move.castle is None:
                return _("at {point} the move names a castle, like '{example}'").format(
                    point=point_name(self.point), example=Move(move.cards, self.castles[0]).text(first))
            if not 0 <= move.castle < self.n_castles:
                return _("there is no castle {castle}: castles are numbered {first} to {high}").format(
                    castle=move.castle + first, first=first, high=self.n_castles - 1 + first)
            if move.castle == self.first_castle:
                return _("the second castle of a round must differ from the first (castle {castle}):"
                         " two castles are fought over each round").format(castle=self.first_castle + first)
        elif move.castle is not None:
            return _("at {point} no castle is chosen: the castle is already set; type the cards alone, like "
                     "'{example}'").format(point=point_name(self.point), example=move.cards)
        cards = move.cards
        if self.point == REMOVE_CHOICE:
            if not cards.issubset(self.source):
                return _("{who} can only remove cards it placed at castle {battle} ({cards})").format(
                    who=who, battle=BATTLES[self.battle or 0], cards=self.source)
            return self._remove_problem(cards)
        if self.point == SETUP_DISCARD and cards[HERO]:
            return _("the hero can never be put in the discard at setup")
        if not cards.issubset(self.source):
            return _(_NOT_HELD[self.source_name]).format(who=who, cards=cards, source=self.source)
        if self.point == SETUP_DISCARD:
            if cards.size != self.min_cards:
                return _("the expert setup puts exactly {count} valued cards in the discard, not {size}").format(
                    count=self.min_cards, size=cards.size)
            return None
        if self.point == TEAM_SPLIT:
            if not self.giver_is_drawer:
                if cards.size != 1:
                    return _("the drawer holds no card: its partner gives it exactly one card")
                return None
            if cards.size == 0:
                return _("the drawer must give its partner at least one card")
            if self.source.size - cards.size < 1:
                return _("the drawer must keep at least one card in hand")
            if cards.size > self.max_cards:
                return _("the drawer gives at most {count} cards").format(count=self.max_cards)
            return None
        # placements
        if cards.size == 0:
            return _("a side must place at least one card at each of its two castles this round")
        if self.source.size - cards.size < self.reserve:
            return _("a side must keep one card for its second castle this round")
        if cards.size > self.max_cards:
            return _("at most {count} cards may be placed at one castle").format(count=self.max_cards)
        return None

    def _remove_problem(self, cards: Cards) -> str | None:
        strongest = self.source.strongest()
        if cards.size == 0:
            return _("the loser of a neutral castle must remove at least one card")
        if cards.size == 1:
            if cards.strongest() != strongest and strongest is not None:
                return _("a single removed card must be the strongest placed ({card});"
                         " otherwise remove several cards adding up to at least its value").format(card=SYMBOLS[strongest])
            return None
        need = 100 if strongest == HERO else value_of(strongest)  # type: ignore[arg-type]
        if cards.total < need:
            return _("several removed cards must add up to at least the strongest card placed ({card}):"
                     " {cards} make {total}").format(card=SYMBOLS[strongest], cards=" ".join(cards.symbols()),  # type: ignore[index]
                                                     total=cards.total)
        return None


def _well_formed(move: object) -> bool:
    """Whether ``move`` is a Move of the types a listed move has (cards as whole counts, a castle and a
    member as ints, a concession as a bool): ``Move(concede="yes")`` or ``Move(castle=True)`` would
    otherwise pass the rules' checks as some listed move and be applied as one no point lists."""
    return (isinstance(move, Move) and isinstance(move.cards, Cards) and all(type(n) is int for n in move.cards)
            and all(v is None or type(v) is int for v in (move.castle, move.first_member))
            and (move.concede is None or type(move.concede) is bool))


def _more_than(move: Move, kept: str) -> bool:
    """Whether ``move`` says more than its one field ``kept``: a move is exactly one of the listed ones,
    so a castle or cards given with a member (or with a concession) make a move no point lists."""
    given = {"cards": move.cards.size > 0, "castle": move.castle is not None,
             "first_member": move.first_member is not None, "concede": move.concede is not None}
    return any(v for k, v in given.items() if k != kept)


#: "does not hold" by the zone a choice takes its cards from (``Choice.source_name``).
_NOT_HELD = {"hand": N_("{who} does not hold {cards} in its hand ({source})"),
             "deck's valued cards": N_("{who} does not hold {cards} in its deck's valued cards ({source})"),
             "placed cards": N_("{who} does not hold {cards} in its placed cards ({source})")}


class LegalMoves:
    """The legal moves at a position: lazy, sized, iterable, with membership."""

    def __init__(self, choice: Choice | None):
        self.choice = choice
        self._count: int | None = None

    def __iter__(self) -> Iterator[Move]:
        return self.choice.moves() if self.choice else iter(())

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.choice.count() if self.choice else 0
        return self._count

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self.choice is not None and self.choice.why_not(move) is None

    def __repr__(self) -> str:
        shown = [m.text() for _, m in zip(range(8), self)]
        more = ", ..." if len(self) > 8 else ""
        return f"<LegalMoves ({len(self)}): {', '.join(shown)}{more}>"


# ---------------------------------------------------------------------- glue
def choice_for(position: "State") -> Choice | None:
    """The Choice of the side that decides now (None at chance points and the end)."""

    side = acting_side(position)
    if side is None:
        return None
    rules = position.rules
    member = acting_member(position)
    s = position.sides[side]
    point = position.to_play
    n = rules.castles
    if point == SETUP_DISCARD:  # valued cards only: the hero never goes to the discard (it may sit in a built deck)
        return Choice(point, side, 0, s.deck.add_kind(HERO, -s.deck[HERO]),
                      rules.pre_discard, rules.pre_discard, n_castles=n, source_name="deck's valued cards")
    if point == TEAM_SPLIT:
        giver_is_drawer = member == s.drawer
        hand = s.hands[member]
        return Choice(point, side, member, hand, 1, 1 if not giver_is_drawer else hand.size - 1,
                      giver_is_drawer=giver_is_drawer, n_castles=n)
    if point == TEAM_ORDER:
        return Choice(point, side, member, members=(0, 1), n_castles=n)
    if point == CONCEDE_CHOICE:
        return Choice(point, side, member, battle=position.battle, n_castles=n)
    if point == REMOVE_CHOICE:
        battle = position.battle or 0
        return Choice(point, side, member, position.placed.at(side, battle), battle=battle,
                      n_castles=n, source_name="placed cards")
    first_castle = position.placed.x if point == OPEN_SECOND else None
    return placement_choice(point, side, s.hands[member], rules, member=member, team=s.is_team,
                            first_castle=first_castle)


def placement_choice(point: str, side: int, hand: Cards, rules: "Rules", *, member: int = 0, team: bool = False,
                     first_castle: int | None = None) -> Choice:
    """The Choice of a placement (RULES.md 3 and 8): 1 to ``max_at_castle`` cards from ``hand``, a
    lone side keeping one card back at X for Y, a castle to choose when opening (Y differs from
    ``first_castle``, X's castle).  The endgame solvers take their placement limits from it."""
    reserve = 1 if point in (OPEN_FIRST, RESPOND_FIRST) and not team else 0
    castles: tuple[int, ...] = ()
    if point == OPEN_FIRST:
        castles = tuple(range(rules.castles))
    elif point == OPEN_SECOND:
        castles = tuple(c for c in range(rules.castles) if c != first_castle)
    return Choice(point, side, member, hand, 1, rules.max_at_castle, reserve, castles, first_castle,
                  battle=battle_of(point), n_castles=rules.castles)


def legal_moves(position: "State") -> LegalMoves:
    return LegalMoves(choice_for(position))


def parse_move(position: "State", text: str, first: int = 0) -> Move:
    """Read a move typed for this position's decision point; a clear IllegalMove if unreadable.  ``first``: the
    number typed for castle 0 (:meth:`Move.text`); a castle typed outside ``first`` to ``first + castles - 1`` is
    refused here, in the numbers typed, where :meth:`Choice.why_not` would name its index."""
    if not isinstance(text, str) or len(text) > 200:
        raise IllegalMove(_("a move is a short text like '3:H52', not {value}").format(value=shown(text)))
    t = text.strip().lower()
    point = position.to_play
    if position.is_chance or position.is_over:
        raise IllegalMove(_no_move_reason(position))
    if point == CONCEDE_CHOICE:
        if t in ("reveal", "concede"):
            return Move(concede=(t == "concede"))
        raise IllegalMove(_("at concede_choice type 'reveal' or 'concede'"))
    if point == TEAM_ORDER:
        m = re.fullmatch(r"(?:first\s*[:=]?\s*)?(\d)", t)
        if not m:
            raise IllegalMove(_("at team_order type the member who places first: 'first:0' or 'first:1'"))
        return Move(first_member=int(m.group(1)))
    if t in ("reveal", "concede"):  # the placeholder's example: say where it is a move, not "unknown card 'r'"
        raise IllegalMove(_("'{move}' is a move only at a battle whose loser may reveal or concede; here the move "
                            "is cards").format(move=t))
    castle = None
    m = re.fullmatch(r"(?:c(?:astle)?\s*)?([0-9]+)\s*:\s*(.*)", t, flags=re.ASCII | re.DOTALL)
    if m:
        high = first + position.rules.castles - 1
        if len(m.group(1)) > 6 or not first <= int(m.group(1)) <= high:
            raise IllegalMove(_("there is no castle {value}: castles are numbered {first} to {high}").format(
                value=int(m.group(1)) if len(m.group(1)) <= 6 else shown(m.group(1)), first=first, high=high))
        castle, t = int(m.group(1)) - first, m.group(2)
        if point in (RESPOND_FIRST, RESPOND_SECOND, REMOVE_CHOICE):
            battle = position.battle if point == REMOVE_CHOICE else battle_of(point)
            if battle is not None and castle == position.placed.castle(battle):
                castle = None  # the castle already set, typed too ("6:3" at the answer at castle 6): its cards alone
    # exactly a move: card symbols (spaces between them allowed), or '-' for none; anything else, even a
    # separator the card reader of files skips, is named rather than dropped, so a move is played as typed
    junk = re.search(r"[^h0-9\s]", t, flags=re.ASCII) if t.strip() != "-" else None
    if junk is not None:
        raise IllegalMove(_("cannot read {value}: {char} is not part of a move; a move is its cards, like H52, "
                            "after its castle and a colon where a castle is chosen, like 3:H52").format(
            value=shown(text), char=shown(junk.group())))
    try:
        return Move(cards=Cards.parse(t), castle=castle)
    except CardError as exc:
        raise IllegalMove(_("cannot read {value}: {reason}").format(value=shown(text), reason=exc)) from None


def _no_move_reason(position: "State") -> str:
    if position.is_over:
        return _("the game is over: no move can be made")
    return _("this is a chance point ({point}): apply a chance outcome, not a move").format(
        point=point_name(position.to_play))


def why_illegal(position: "State", move: Move | str, first: int = 0) -> str | None:
    """None for a legal move, else the rule it breaks in plain words; a text is read with castles counted from
    ``first`` (:func:`parse_move`), and the words name castles in the same numbers."""
    if position.is_chance or position.is_over:
        return _no_move_reason(position)
    if isinstance(move, str):
        try:
            move = parse_move(position, move, first)
        except IllegalMove as exc:
            return str(exc)
    choice = choice_for(position)
    assert choice is not None
    return choice.why_not(move, first)


__all__ = ["Move", "Choice", "LegalMoves", "IllegalMove", "legal_moves", "why_illegal", "parse_move",
           "count_sub_multisets"]
