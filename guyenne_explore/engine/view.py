"""What one side knows of a position: its own cards, the other side's counts, the table, the record.

Policies decide from a :class:`SideView` only, so a policy cannot use the
opponent's hand, deck order or face-down cards; teaching panels show the same
view to a learner.  A team member sees its own hand and only the size of its
partner's, and its partner's face-down cards of the round only once the battle shows them (RULES.md 8:
members may not tell each other their cards).  The view is a frozen value holding only those facts, copied out of
the position when it is built: it keeps no reference to the position, so a
policy cannot reach through it to what the side does not see.

A position is a snapshot; what a player *remembers* is not in it.  The
:class:`PublicRecord` is that memory: the cards each side showed in battles and
where they went (its discard, until that discard is reshuffled; removed cards
are public anyway), face-down cards as counts, where each hero can be (it
starts in its side's hand), and what each side's last reshuffle put into its
deck (:class:`Reshuffle`).  We chose to keep the record beside the position,
folded from the game's history event by event (:meth:`PublicRecord.after`),
rather than inside :class:`~guyenne_explore.engine.position.Position`: positions are
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
from .moves import Choice, LegalMoves, Move, choice_for
from .state import CONCEDE_CHOICE, DRAW, END, PLACEMENTS, REMOVE_CHOICE
from .turn import acting_member, acting_side, member_battle

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Rules
    from .state import Side, State


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
        return _ASSUMED_ROUND_1 if p.round == 1 else _ASSUMED_LATER

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


_ASSUMED_ROUND_1 = PublicRecord()
_ASSUMED_LATER = PublicRecord(hero_zones=(_ANYWHERE, _ANYWHERE))


def fold_record(positions: "list[State]", moves: "list[Move | None]") -> PublicRecord:
    """The record at the end of a history: ``positions[i + 1]`` follows ``positions[i]`` by
    ``moves[i]`` (None for a chance outcome)."""
    record = PublicRecord.assumed(positions[0])
    for before, after, move in zip(positions, positions[1:], moves):
        record = record.after(before, after, move)
    return record


@dataclass(frozen=True)
class SideView:
    """One side's knowledge (and, for a team, one member's) of a position, as a value.

    It holds only what the side may see, copied out of the position when the view is built
    (:func:`side_view`): no reference to the position, so a policy cannot reach through it to the
    opponent's hand, deck order or face-down cards, and two positions this side cannot tell apart
    give equal views (equal hashes too: a search may key its tree by them).
    """

    side: int
    member: int
    #: whether this side decides now
    to_act: bool
    # the table, public to both sides
    rules: Rules
    castles: tuple[int, ...]
    round: int
    first: int
    to_play: str
    x: int | None
    y: int | None
    battle: int | None
    #: each side's team drawer and decided order (public: both are said aloud at the table)
    sides_roles: tuple[tuple[int, int | None], tuple[int, int | None]]
    #: the public record: the one given with the history, else what the position implies
    record: PublicRecord
    # own side
    hand: Cards
    partner_hand_size: int | None
    #: own cards this member cannot see: the deck (as a multiset), a team partner's hand and the
    #: cards its partner placed face down this round
    own_unseen: Cards
    deck_size: int
    discard: Cards
    removed: Cards
    exhaustions: int
    #: the side's cards at X and Y that this member sees: a team partner's stay out until the battle
    #: shows them (they are counted in :attr:`partner_face_down`)
    own_placed: tuple[Cards, Cards]
    #: how many cards a team partner placed face down at X and at Y, unseen by this member (their
    #: backs are on the table); (0, 0) for a side alone
    partner_face_down: tuple[int, int]
    # the other side
    #: the opponent's cards at X and Y where face up, else None (backs only)
    opponent_placed: tuple[Cards | None, Cards | None]
    opponent_placed_sizes: tuple[int, int]
    opponent: OpponentView
    #: what this side may do now, built from what it knows (None when it is not its turn, or not this
    #: member's: a team member does not see the choice, and so the hand, of its partner)
    choice: Choice | None

    def roles(self, side: int) -> tuple[int, int | None]:
        """A side's team drawer and decided order."""
        return self.sides_roles[side]

    @property
    def unspent(self) -> tuple[int, int]:
        """Each side's unspent cards (english, french) as the scoring's tie-break counts them (a side's
        hands and deck, a team's two hands together): sizes, public to both sides."""
        mine = self.hand.size + (self.partner_hand_size or 0) + self.deck_size
        theirs = sum(self.opponent.hand_sizes) + self.opponent.deck_size
        return (mine, theirs) if self.side == 0 else (theirs, mine)

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
        return LegalMoves(self.choice)


def _partner_battle(p: "State", side: int, member: int) -> int | None:
    """The battle (0: X, 1: Y) where ``member``'s partner places this round, once the team's order is
    decided: the side's first member (its ``order``) takes the first placement, at X (RULES.md 8)."""
    order = p.sides[side].order
    return None if order is None else member_battle(order, 1 - member)


def side_view(p: "State", side: int, member: int | None = None,
              record: PublicRecord | None = None) -> SideView:
    """What ``side`` (``member`` of a team; by default the member deciding now, else the drawer)
    sees of ``p``, with the public record of its history (None: what the position implies).

    Built at every decision of an exact analysis, so its fields are filled in directly, as
    :func:`~guyenne_explore.engine.state.evolve` does, rather than through the frozen ``__init__``."""
    acting = acting_side(p) == side
    own, other = p.sides[side], p.sides[1 - side]
    team = len(own.hands) == 2
    if member is None:
        member = acting_member(p) if acting else (own.drawer if team else 0)
    pl, o = p.placed, 1 - side
    at_x, at_y = pl.cards[o]
    placed, down, unseen_own = pl.cards[side], (0, 0), own.deck
    if team:
        unseen_own = own.deck + own.hands[1 - member]
        b = _partner_battle(p, side, member)
        # the partner's cards are face up once they would be for the opponent (revealed() of the other side)
        if b is not None and placed[b].size and not revealed(p, b, o):
            down = (placed[b].size, 0) if b == 0 else (0, placed[b].size)
            unseen_own = unseen_own + placed[b]
            placed = (EMPTY, placed[1]) if b == 0 else (placed[0], EMPTY)
    shown_x, shown_y = revealed(p, 0, side), revealed(p, 1, side)
    unseen = other.hand + other.deck + other.discard
    if not shown_x:
        unseen = unseen + at_x
    if not shown_y:
        unseen = unseen + at_y
    opponent = OpponentView(tuple([h.size for h in other.hands]), other.deck.size, other.discard.size,
                            other.removed, other.exhaustions, unseen)
    view = object.__new__(SideView)
    view.__dict__.update(
        side=side, member=member, to_act=acting, rules=p.rules, castles=p.castles, round=p.round, first=p.first,
        to_play=p.to_play, x=pl.x, y=pl.y, battle=p.battle,
        sides_roles=((p.sides[0].drawer, p.sides[0].order), (p.sides[1].drawer, p.sides[1].order)),
        record=record if record is not None else PublicRecord.assumed(p),
        hand=own.hands[member], partner_hand_size=own.hands[1 - member].size if team else None,
        own_unseen=unseen_own, deck_size=own.deck.size,
        discard=own.discard, removed=own.removed, exhaustions=own.exhaustions, own_placed=placed,
        partner_face_down=down,
        opponent_placed=(at_x if shown_x else None, at_y if shown_y else None),
        opponent_placed_sizes=(at_x.size, at_y.size), opponent=opponent,
        choice=choice_for(p) if acting and member == acting_member(p) else None)
    return view
