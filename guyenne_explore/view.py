"""What one side knows of a position: its own cards, the other side's counts, the table, the record.

Policies decide from a :class:`SideView` only, so a policy cannot use the
opponent's hand, deck order or face-down cards; teaching panels show the same
view to a learner.  A team member sees its own hand and only the size of its
partner's.  The view is lazy: each fact is worked out when first asked for,
because exact analysis builds a view at every decision.

A position is a snapshot; what a player *remembers* is not in it.  The
:class:`PublicRecord` is that memory: the cards each side showed in battles and
where they went (its discard, until that discard is reshuffled; removed cards
are public anyway), face-down cards as counts, where each hero can be (it
starts in its side's hand), and what each side's last reshuffle put into its
deck (:class:`Reshuffle`).  We chose to keep the record beside the position,
folded from the game's history event by event (:meth:`PublicRecord.after`),
rather than inside :class:`~guyenne_explore.position.Position`: positions are
dictionary keys of exact enumeration, which merges positions reached by
different histories, and a record inside them would either split those merges
or be silently dropped by them.  This is OpenSpiel's information-state model:
a player's view is the position's public part, its own cards and the record.
A view built without a history (``position.view(side)``) gets
:meth:`PublicRecord.assumed`, what the position alone implies.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from .cards import EMPTY, Cards
from .moves import LegalMoves, Move, choice_for
from .state import CONCEDE_CHOICE, DRAW, END, PLACEMENTS, REMOVE_CHOICE
from .turn import acting_member, acting_side

if TYPE_CHECKING:  # pragma: no cover
    from .state import State
    from .rules import Rules
    from .state import Side


@dataclass(frozen=True)
class OpponentView:
    """The other side as seen across the table."""

    hand_sizes: tuple[int, ...]
    deck_size: int
    discard_size: int
    removed: Cards
    exhaustions: int
    #: every card of the opponent not visible: hands, deck, discard and face-down placed cards
    unseen: Cards


def revealed(p: "State", battle: int, viewer: int) -> bool:
    """Whether the opponent's cards at a battle are face up for ``viewer``.

    They are once the battle is resolved, and the attacker's are at the
    defender's concede choice.
    """
    if p.placed.castle(battle) is None:
        return False
    if p.to_play == END:
        return True
    if p.to_play == REMOVE_CHOICE:
        return battle <= (p.battle or 0)
    if p.to_play == CONCEDE_CHOICE:
        if battle == p.battle:
            return p.castles[p.placed.castle(battle)] == viewer  # type: ignore[index]
        return battle < (p.battle or 0)
    return False


#: Where a hero can be while it is out of sight (:attr:`PublicRecord.hero_zones`): in its side's
#: hand (which includes the cards placed face down this round: they came from the hand), in its
#: deck, or among the face-down cards of its discard (conceded cards, the expert setup discard).
HAND, DECK, DISCARD = "hand", "deck", "discard"
_IN_HAND = frozenset({HAND})
_ANYWHERE = frozenset({HAND, DECK, DISCARD})


@dataclass(frozen=True)
class Reshuffle:
    """What the table knows of a side's last reshuffle (RULES.md 5.3), for the deals of :mod:`.determinise`.

    A reshuffle turns the discard into the new deck, so the cards shown into that discard
    (``known``) are from then on in the deck or among the cards drawn since (``drawn``: every
    draw since takes from that deck; counts are public because zone sizes are).  A known card
    out of the deck is therefore one of those ``drawn`` cards: in a hand, or played since.
    ``fresh[m]`` bounds how many cards of hand ``m`` were drawn since (a team's drawer draws,
    then gives cards of its choice to its partner, so both bounds move); ``removed`` is the
    side's removed zone at the reshuffle, so that cards removed since can be told apart (they
    may be known cards drawn and played, the earlier ones cannot).
    """

    known: Cards
    removed: Cards
    drawn: int
    fresh: tuple[int, ...]

    def after(self, before: "Side", after: "Side", drawer: int | None) -> "Reshuffle":
        """This fact once ``before`` became ``after`` with no reshuffle between: the cards the
        hand of ``drawer`` gained were drawn (None: no draw, a hand gained only what its
        partner gave, which holds at most as many drawn cards as the giver held)."""
        if before.hands == after.hands:  # most events: no hand changed
            return self
        fresh = list(self.fresh)
        drawn = self.drawn
        for m, (b, a) in enumerate(zip(before.hands, after.hands)):
            gained = a.size - b.size
            if gained > 0 and m == drawer:
                fresh[m] += gained
                drawn += gained
            elif gained > 0 and len(fresh) == 2:
                fresh[m] += min(gained, fresh[1 - m])
        fresh = [min(f, h.size) for f, h in zip(fresh, after.hands)]
        return Reshuffle(self.known, self.removed, drawn, tuple(fresh))


@dataclass(frozen=True)
class PublicRecord:
    """What both sides have seen and remember: the facts a position does not hold.

    ``shown_discard[s]`` is every card side ``s`` showed face up in a battle that now lies in
    its discard (until that discard is reshuffled into a deck, when sight of them is lost);
    the rest of the discard, ``discard.size - shown_discard[s].size`` cards, is face down.
    ``hero_zones[s]`` says where side ``s``'s hero may be whenever it is out of sight.
    ``reshuffles[s]`` is what the table knows of side ``s``'s last reshuffle (None before its
    first, and for a position without its history): the shown cards it put into the deck and
    how many cards were drawn since.  Only the last reshuffle is kept: the facts of an earlier
    one are forgotten at the next.  Both sides share one record: every fact in it was public.
    """

    shown_discard: tuple[Cards, Cards] = (EMPTY, EMPTY)
    hero_zones: tuple[frozenset[str], frozenset[str]] = (_IN_HAND, _IN_HAND)
    reshuffles: tuple[Reshuffle | None, Reshuffle | None] = (None, None)

    @classmethod
    def assumed(cls, p: "State") -> "PublicRecord":
        """What a position alone tells, for a view built without its history: in round 1 the
        heroes are still in hand or on the table (RULES.md 2; no castle is controlled yet, so no
        card can have been conceded), later nothing is remembered."""
        if p.round == 1:
            return cls()
        return cls(hero_zones=(_ANYWHERE, _ANYWHERE))

    def after(self, before: "State", after: "State", move: Move | None = None) -> "PublicRecord":
        """The record once ``move`` (None: a chance outcome) has taken ``before`` to ``after``.

        Only what the table shows is read: the cards placed this round once their battles are
        resolved (a conceding defender's excepted), the removed zones, zone sizes.
        """
        shown = list(self.shown_discard)
        zones = list(self.hero_zones)
        reshuffles = list(self.reshuffles)
        if move is None:  # the deal or the draws: a reshuffle loses sight of the discard
            for s in (0, 1):
                b, a = before.sides[s], after.sides[s]
                drawer = a.drawer if a.is_team else 0
                if b.discard.size and not a.discard.size:
                    # the whole deck was drawn first, then the rest from the reshuffled discard
                    since = max(0, a.hand.size - b.hand.size - b.deck.size)
                    reshuffles[s] = Reshuffle(shown[s], b.removed, since, tuple(
                        min(since, h.size) if m == drawer else 0 for m, h in enumerate(a.hands)))
                    if shown[s].has_hero or DISCARD in zones[s]:
                        zones[s] = (zones[s] - {DISCARD}) | {DECK}
                    shown[s] = EMPTY
                else:
                    fact = reshuffles[s]
                    reshuffles[s] = fact.after(b, a, drawer) if fact is not None else None
                if DECK in zones[s] and a.hand.size > b.hand.size:
                    zones[s] = zones[s] | {HAND}
            return PublicRecord((shown[0], shown[1]), (zones[0], zones[1]), (reshuffles[0], reshuffles[1]))
        acting = acting_side(before)
        assert acting is not None
        fact = reshuffles[acting]
        if fact is not None:  # a placement or a team's split: cards left a hand or changed hands
            reshuffles[acting] = fact.after(before.sides[acting], after.sides[acting], None)
        if move.concede and HAND in zones[acting]:  # the hero may be among the face-down cards
            zones[acting] = zones[acting] | {DISCARD}
        if after.to_play == DRAW:  # this move ended the round: the shown cards go to the discards
            for s in (0, 1):
                cards = before.placed.side_total(s)
                if s == acting and before.to_play in PLACEMENTS:
                    cards = cards + move.cards
                if s == acting and move.concede:
                    cards = cards - before.placed.at(s, before.battle or 0)
                cards = cards - (after.sides[s].removed - before.sides[s].removed)
                shown[s] = shown[s] + cards
        return PublicRecord((shown[0], shown[1]), (zones[0], zones[1]), (reshuffles[0], reshuffles[1]))

    def hero_may_be(self, side: int, zone: str) -> bool:
        """Whether ``side``'s hero, if out of sight, may be in ``zone`` (:data:`HAND`, ...)."""
        return zone in self.hero_zones[side]


def fold_record(positions: "list[State]", moves: "list[Move | None]") -> PublicRecord:
    """The record at the end of a history: ``positions[i + 1]`` follows ``positions[i]`` by
    ``moves[i]`` (None for a chance outcome)."""
    record = PublicRecord.assumed(positions[0])
    for before, after, move in zip(positions, positions[1:], moves):
        record = record.after(before, after, move)
    return record


class SideView:
    """One side's knowledge (and, for a team, one member's) of a position."""

    def __init__(self, position: "State", side: int, member: int | None = None,
                 record: PublicRecord | None = None):
        self._p = position
        self._record = record
        self.side = side
        acting = acting_side(position) == side
        s = position.sides[side]
        if member is None:
            member = acting_member(position) if acting else (s.drawer if s.is_team else 0)
        self.member = member
        self.to_act = acting

    # the table, public to both sides
    @property
    def rules(self) -> "Rules":
        return self._p.rules

    @property
    def castles(self) -> tuple[int, ...]:
        return self._p.castles

    @property
    def round(self) -> int:
        return self._p.round

    @property
    def first(self) -> int:
        return self._p.first

    @property
    def to_play(self) -> str:
        return self._p.to_play

    @property
    def x(self) -> int | None:
        return self._p.placed.x

    @property
    def y(self) -> int | None:
        return self._p.placed.y

    @property
    def battle(self) -> int | None:
        return self._p.battle

    def roles(self, side: int) -> tuple[int, int | None]:
        """A side's team drawer and decided order (public: both are said aloud at the table)."""
        s = self._p.sides[side]
        return (s.drawer, s.order)

    @cached_property
    def record(self) -> PublicRecord:
        """The public record: the one given with the history, else what the position implies."""
        return self._record if self._record is not None else PublicRecord.assumed(self._p)

    # own side
    @property
    def hand(self) -> Cards:
        return self._p.sides[self.side].hands[self.member]

    @property
    def partner_hand_size(self) -> int | None:
        s = self._p.sides[self.side]
        return s.hands[1 - self.member].size if s.is_team else None

    @property
    def own_unseen(self) -> Cards:
        """Own cards this member cannot see: the deck (as a multiset) and a team partner's hand."""
        s = self._p.sides[self.side]
        return s.deck + (s.hands[1 - self.member] if s.is_team else EMPTY)

    @property
    def deck_size(self) -> int:
        return self._p.sides[self.side].deck.size

    @property
    def discard(self) -> Cards:
        return self._p.sides[self.side].discard

    @property
    def removed(self) -> Cards:
        return self._p.sides[self.side].removed

    @property
    def exhaustions(self) -> int:
        return self._p.sides[self.side].exhaustions

    @property
    def own_placed(self) -> tuple[Cards, Cards]:
        pl = self._p.placed
        return (pl.at(self.side, 0), pl.at(self.side, 1))

    # the other side
    @property
    def opponent_placed(self) -> tuple[Cards | None, Cards | None]:
        """The opponent's cards at X and Y where face up, else None (backs only)."""
        pl, o = self._p.placed, 1 - self.side
        return tuple(pl.at(o, b) if revealed(self._p, b, self.side) else None for b in (0, 1))  # type: ignore[return-value]

    @property
    def opponent_placed_sizes(self) -> tuple[int, int]:
        pl, o = self._p.placed, 1 - self.side
        return (pl.at(o, 0).size, pl.at(o, 1).size)

    @cached_property
    def opponent(self) -> OpponentView:
        o = self._p.sides[1 - self.side]
        pl = self._p.placed
        face_down = sum((pl.at(1 - self.side, b) for b in (0, 1) if not revealed(self._p, b, self.side)), EMPTY)
        return OpponentView(hand_sizes=tuple(h.size for h in o.hands), deck_size=o.deck.size,
                            discard_size=o.discard.size, removed=o.removed, exhaustions=o.exhaustions,
                            unseen=o.hand + o.deck + o.discard + face_down)

    @cached_property
    def opponent_shown_discard(self) -> Cards:
        """The cards the opponent showed that lie in its discard, from the record; none when
        the record does not fit this position (a record given with another position)."""
        shown = self.record.shown_discard[1 - self.side]
        if shown.size > self.opponent.discard_size or not shown.issubset(self.opponent.unseen):
            return EMPTY
        return shown

    @property
    def opponent_face_down_discard(self) -> int:
        """How many cards of the opponent's discard were never shown (its conceded cards, the
        expert setup discard): a count, their values unseen."""
        return self.opponent.discard_size - self.opponent_shown_discard.size

    @cached_property
    def opponent_hidden(self) -> Cards:
        """The opponent's cards out of sight, the ones it showed into its discard taken out:
        what a determinisation deals over its hands, deck, face-down discard and face-down
        placed cards."""
        return self.opponent.unseen - self.opponent_shown_discard

    @cached_property
    def legal_moves(self) -> LegalMoves:
        """The moves this side may make now (none when it is not its turn)."""
        return LegalMoves(choice_for(self._p) if self.to_act else None)


def side_view(p: "State", side: int, member: int | None = None,
              record: PublicRecord | None = None) -> SideView:
    return SideView(p, side, member, record)
