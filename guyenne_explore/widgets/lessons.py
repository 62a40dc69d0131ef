"""What the teaching game says about each rule, and how it notices that a rule has just applied.

The texts paraphrase RULES.md for a new player.  Noticing a rule means
comparing two positions the engine produced (a castle changed hands, a card
was removed, a deck was exhausted), never deciding anything the engine decides.
"""

from __future__ import annotations

from ..engine import HERO
from ..i18n import N_, castle_number, side_noun
from ..i18n import gettext as _
from ..engine import NEUTRAL, Position
from ..engine import SIDES

LESSONS: dict[str, tuple[str, str]] = {
    "setup": (N_("Setup"), N_("Each side has 22 cards: twelve 2s, four 3s, three 4s, two 5s and a hero (H). "
              "You start with your hero and 5 cards drawn from your shuffled deck: a hand of 6. "
              "Six castles stand in a line, all neutral.")),
    "open_first": (N_("Opening a round"), N_("Each round two castles are fought over. The side holding the "
                   "first-player card opens: it picks any castle (X) and places 1 to 5 cards there, face "
                   "down, keeping at least one card for the second castle.")),
    "respond_first": (N_("Answering"), N_("The other side must answer at castle X with at least one card, "
                      "also keeping one card for the second castle.")),
    "open_second": (N_("The second castle"), N_("The side that answered now picks another castle (Y) and places "
                    "cards there; it may use its whole hand now.")),
    "respond_second": (N_("The last placement"), N_("The first player answers at castle Y with at least one card. "
                       "Then both battles are revealed and resolved, X first.")),
    "remove_choice": (N_("Choosing what to remove"), N_("You lost a battle over a neutral castle under the advanced "
                      "rules: remove for good either your strongest card placed there, or two or more of "
                      "your cards there adding up to at least its value.")),
    "concede_choice": (N_("Conceding"), N_("The attacker has revealed. As defender you may reveal (a tie keeps "
                       "the castle yours) or concede, losing the castle without showing your cards.")),
    "setup_discard": (N_("Expert setup"), N_("Before the first deal each side chooses 5 valued cards to put "
                      "face down in its discard; they come back only when the deck is reshuffled.")),
    "team_split": (N_("Sharing the draw"), N_("The team's drawer gives 1 to 5 of its cards to its partner, "
                   "keeping at least one.")),
    "team_order": (N_("Who plays first"), N_("The team decides which member places first this round; each "
                   "member places at exactly one castle.")),
    "opponent_hidden": (N_("Face-down cards"), N_("You see how many cards the other side placed, not which: "
                        "cards are revealed only when the battle is resolved.")),
    "neutral_battle": (N_("A neutral castle"), N_("On a neutral castle both sides attack: the higher sum takes it, "
                       "a tie leaves it neutral.")),
    "defended": (N_("Attack and defence"), N_("On a controlled castle its owner defends: the attacker takes it "
                 "only with a strictly greater sum; a tie goes to the defender.")),
    "hero": (N_("The hero"), N_("A hero wins its battle whatever the sums, unless both heroes are there: "
             "then it is a tie.")),
    "removal": (N_("Cards removed for good"), N_("Some cards played leave the game for good (face up beside "
                "the castles). Under the advanced rules an attacker of a controlled castle removes its "
                "strongest card placed there, won or lost, and the loser of a neutral castle removes cards too.")),
    "draw": (N_("End of a round"), N_("Cards placed go to their side's discard (unless removed); each side "
             "draws back up to 6 cards, and the first-player card passes to the other side.")),
    "exhaustion": (N_("An exhausted deck"), N_("Drawing the last card of a deck exhausts it. When a card must "
                   "be drawn from an empty deck, the discard is shuffled into a new deck, but only while "
                   "the deck has been exhausted fewer than 2 times (3 in expert).")),
    "end": (N_("The end and the score"), N_("The game ends when a side holds every castle (12 points to 0), "
            "or when after drawing a side holds at most one card. A lone castle scores 1 point and a "
            "run of n adjacent castles scores 2n; equal scores go to the side with more cards left.")),
}


def noticed(before: Position, after: Position) -> list[str]:
    """The lessons whose rule shows in the step from ``before`` to ``after``."""
    out: list[str] = []
    if before.to_play == "respond_second":  # the last placement: both battles are fought now
        fought = [(b, before.placed.castle(b)) for b in (0, 1) if before.placed.castle(b) is not None]
        if any(before.placed.at(s, b)[HERO] for s in (0, 1) for b, _ in fought):
            out.append("hero")
        for _, c in fought:
            out.append("neutral_battle" if before.castles[c] == NEUTRAL else "defended")
    if any(after.sides[s].removed.size > before.sides[s].removed.size for s in (0, 1)):
        out.append("removal")
    if after.to_play == "draw":
        out.append("draw")
    if any(after.sides[s].exhaustions > before.sides[s].exhaustions for s in (0, 1)):
        out.append("exhaustion")
    if after.is_over:
        out.append("end")
    return list(dict.fromkeys(out))


def battle_line(revealed: Position, after: Position, battle: int) -> str | None:
    """A plain line saying what battle X (0) or Y (1) of a resolved round did, in the current language.

    ``revealed`` is the table with every card of the round put down (the cards each side
    showed, before any removal), ``after`` the table once the battle is resolved.  Castles
    are named 1 to n, as the rulebook numbers them (the notation's indexes count from 0).
    """
    c = revealed.placed.castle(battle)
    if c is None:
        return None
    if after.castles[c] == NEUTRAL:
        held = _("nobody (neutral)")
    else:
        held = side_noun(SIDES[after.castles[c]])  # "the English" / "les Anglais"
    return _("Castle {battle} ({castle}): English {english} against French {french}: now held by {side}.").format(
        battle="XY"[battle], castle=castle_number(c), english=revealed.placed.at(0, battle), french=revealed.placed.at(1, battle),
        side=held)


def lesson(key: str) -> tuple[str, str]:
    """A lesson's title and text in the current language."""
    title, text = LESSONS[key]
    return _(title), _(text)
