"""Problems as values: what is wrong with an input, where, and the words that say it.

A loader does not return English sentences; it returns :class:`Problem` values
(a stable ``code``, the ``field`` path it concerns such as ``sides.english.hand``
or ``rules.hand_size``, and the parameters of the message).  The builder places
each problem beside its field by the path, the command line prints the field
first, JSON output carries the code, and the sentence is rendered from the
catalogue below, so rewording a message never moves it and a translation is a
second catalogue (the model is python-chess's ``Board.status()``).

This module is a leaf: the cards, the rules and the loaders all use it.
"""

from __future__ import annotations

import re
import reprlib
from dataclasses import dataclass
from typing import Any

from ..i18n import N_, capitalised, current_language, gettext, side_noun

#: Message templates by code; the parameters are those of the Problem.
MESSAGES: dict[str, str] = {
    # reading text and JSON
    "input.too_large": N_("the input holds {size} characters; at most {limit} are read"),
    "input.not_text": N_("the input must be text (JSON or notation), not {kind}"),
    "input.not_utf8": N_("the input is not UTF-8 text ({detail})"),
    "input.unreadable_file": N_("cannot read {path}: {reason}"),
    "input.not_path": N_("a position file is named by its path, as text, not {value}"),
    "json.invalid": N_("not valid JSON: {detail}"),
    "json.too_deep": N_("the JSON nests too deeply to be a position"),
    "json.not_object": N_("a position is a JSON object, not {kind}"),
    "json.unknown_field": N_("unknown field {key}"),
    "json.not_kept": N_("{key} says nothing the other fields do not, so a saved position leaves it out: leave it"
                        " out too"),
    "json.missing": N_("{key} is missing: {hint}"),
    "notation.fields": N_("a position notation has at least 7 fields separated by spaces, not {count}:"
                       " RULES CASTLES ROUND FIRST TO_PLAY ENGLISH FRENCH [PLACED]"),
    "notation.unreadable": N_("cannot read the notation: {detail}"),
    "notation.spacing": N_("the fields of a notation are separated by single spaces, with no other space, tab or"
                           " line break"),
    "notation.form": N_("{value} is written {form} in the notation: a position is read only as it is written, so that"
                        " it saves as it was read"),
    # values of fields
    "value.not_whole": N_("{label} must be a whole number, not {value}"),
    "value.too_small": N_("{label} must be at least {low}{why}, not {value}"),
    "value.too_large": N_("{label} must be at most {high}{why}, not {value}"),
    "value.not_bool": N_("{label} must be true or false, not {value}"),
    "value.choice": N_("{label} must be one of {choices}, not {value}"),
    "value.not_object": N_("{label} must be an object like {example}, not {value}"),
    "value.not_list": N_("{label} must be a list like {example}, not {value}"),
    "cards.unknown": N_("unknown card {value}: a card is H (the hero) or a value 1-9"),
    "cards.symbol": N_("a card is written \"H\" (the hero) or \"1\" to \"9\", not {value}"),
    # rules
    "rules.unknown_preset": N_("unknown rules preset {value}: choose one of {choices}"),
    "rules.unknown_parameter": N_("unknown rules parameter {key}"),
    "rules.not_a_field": N_("{key} cannot be set: it is the preset's name; say \"preset\" to pick another"),
    "rules.hero_in_counts": N_("card_counts lists valued cards only; the hero is the separate 'hero' parameter"),
    "rules.no_valued_cards": N_("card_counts leaves a side without any valued card"),
    "rules.too_many_cards": N_("a side may hold at most {high} valued cards in all, not {value}"),
    "rules.pre_discard_exceeds": N_("pre_discard {value} is more than the {size} valued cards of a side"),
    "rules.cannot_deal": N_("a hand of {hand} cannot be dealt: a side has {size} cards{discarded}"),
    "rules.too_many_draws": N_("a side's draw could give {count} different sets of cards (up to a hand of {hand} "
                               "from these card counts); at most {high} keep the chance points within memory"),
    "rules.members": N_("members must give 1 or 2 players per side, not {value}"),
    "rules.set_up": N_("{label} cannot change in a game under way, set up with {own}: a new game can have {new}"),
    # positions
    "position.castle_count": N_("there are {count} castles but the rules have {castles}"),
    "position.castle_control": N_("castle {index} is {value}: it must be neutral, english or french"),
    "position.round": N_("the round must be 1 or more, not {value}"),
    "position.round_too_large": N_("the round must be at most {high}: no game lasts that long, not {value}"),
    "position.round_draw_too_large": N_("a draw at round {value} would start round {next}, past the last round a"
                                        " position may have ({high})"),
    "position.unknown_point": N_("to_play is {value}: it must be one of {choices}"),
    "position.members": N_("{side} are {want} under these rules, but the position gives them hands: {count}"),
    "position.team_hand": N_("sides.{name}.hand must be the members' hands together"),
    "position.unknown_side": N_("sides has an unknown side {value}"),
    "position.missing_side": N_("sides.{name} is missing or not an object"),
    "position.hand_size": N_("{side} hold {count} cards in hand; a hand holds at most {high}"),
    "position.exhaustions": N_("{side} have exhausted their deck {value} times; it can be 0 to {high}"),
    "position.stacked_order": N_("the stacked deck order of {side} does not match their deck"),
    "position.drawer": N_("the drawer of {side} must be member 0 or 1, not {value}"),
    "position.order": N_("the order of {side} must be member 0 or 1 (or not decided), not {value}"),
    "position.solo_member_field": N_("{side} are a single player: {key} is only for a team"),
    "position.max_at_castle": N_("{side} have {count} cards at castle {battle}; at most {high} may be placed "
                              "at one castle"),
    "position.conservation": N_("{side} hold {count} cards in all their zones; the rules give each side "
                             "{expected}{details}"),
    "position.cannot_place": N_("{who} cannot place this round: cards in hand: {count}; castles still to place at: {need}"),
    "position.no_legal_move": N_("{side} have no legal move at {point}"),
    "placed.no_castle": N_("placed castle {value} does not exist: castles are numbered 0 to {high}"),
    "placed.same_castle": N_("castles X and Y must differ: two castles are fought over each round"),
    "placed.cards_without_castle": N_("{side} have cards at castle {battle} but castle {battle} is not chosen"),
    "placed.before_placement": N_("nothing can be placed at {point}, which comes before any placement this round"),
    "placed.castle_chosen": N_("at {point} castle {battle} is {state} (placed.{battle} is {value})"),
    "placed.cards_expected": N_("at {point} {side} {want} cards at castle {battle} ({order} player this round)"),
    "placed.duplicate": N_("castle {battle} is given twice"),
    "point.start_only": N_("{point} happens only at the start of a game (round 1, every castle neutral)"),
    "point.not_over": N_("the game is not over: no side controls every castle and each side holds two or more "
                      "cards in hand (to_play cannot be 'end')"),
    "point.setup_discard": N_("setup_discard happens only when the rules put cards in the discard at setup "
                           "(expert)"),
    "point.no_team_to_decide": N_("{point} is a team's decision before its order is set, but every team here has "
                                  "decided its order"),
    "point.team_only": N_("{point} happens only in the team variant"),
    "point.game_over_hand": N_("the game is already over: {side} hold at most one card at the start of a round"
                            " (to_play should be 'end')"),
    "point.game_over_sweep": N_("the game is already over: {side} control every castle (to_play should be "
                             "'end')"),
    "point.order_undecided": N_("{side} are a team that has not decided its order yet: the round starts with "
                             "team_split"),
    "point.order_needed": N_("{side} are a team placing cards, so their order must be decided"),
    "point.battle_missing": N_("at {point} the position must say which battle: \"{point}\": "
                            "{{\"castle\": \"X\" or \"Y\"}}"),
    "point.battle_not_here": N_("{key} is given but to_play is {point}"),
    "point.battle_only_at": N_("a battle (@X or @Y) is named only at concede_choice and remove_choice, "
                            "not at {point}"),
    "point.concede_neutral": N_("concede_choice happens only at a castle with a defender; this one is neutral"),
    "point.remove_rule": N_("remove_choice happens only under the advanced removal rule (advanced and expert)"),
    "point.remove_neutral": N_("at remove_choice castle {battle} should show its winner, not neutral"),
    "point.remove_nothing": N_("{side} have no cards at castle {battle} to remove"),
    "point.remove_hero": N_("{side} placed their hero at castle {battle}, so they cannot have lost a neutral battle"),
    "point.remove_not_beaten": N_("{winner} did not beat {side} at castle {battle} with the cards placed"),
    "point.remove_side": N_("remove_choice names {value}, but the loser at castle {battle} (now {winner}) is "
                         "{side}"),
    # warnings
    "warning.short_hand": N_("{side} hold {count} cards at the start of a round while their deck still has "
                          "{deck}: in play they would have drawn up to {high}"),
    "warning.exhausted_deck": N_("{side} have exhausted their deck {value} times (the limit) yet their deck holds "
                              "{deck} cards: in play the last exhaustion leaves the deck empty"),
    "warning.concede_option": N_("concede_choice is a decision only with the option concede_as_decision; "
                              "these rules resolve it"),
    # a sentence made elsewhere (a form's own reading of a box), carried with its field
    "plain": N_("{detail}"),
}


@dataclass(frozen=True, repr=False)
class Problem:
    """One thing wrong with an input: a stable ``code``, the ``field`` path, the message parameters.

    ``str(problem)`` (or ``message``) is the sentence; ``to_json()`` carries all three.
    Parameters are plain text and numbers, so a Problem is hashable and safe to
    print whatever the input held.
    """

    code: str
    field: str = ""
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def message(self) -> str:
        """The sentence in the current language (:mod:`guyenne_explore.i18n`)."""
        return self.render()

    def render(self, lang: str | None = None) -> str:
        """The sentence in ``lang`` (``en``/``fr``; default the current language): the catalogue's
        translation of the template, with the parameters that are words (a side, a phrase made by a
        loader) translated too; what the input held (``value``, ``key``) is shown as written."""
        lang = lang or current_language()
        params = {k: v if k in _INPUT else _param_text(k, v, lang) for k, v in self.params}
        text = gettext(MESSAGES[self.code], lang).format(**params)
        # English messages keep the catalogue's lower case (they follow a field or a "✗"); a French sentence opens
        # with a capital unless it opens with a field or key (``sides.english.hand``, ``remove_choice``)
        return text if lang == "en" or _IDENTIFIER.match(text) else capitalised(text)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:  # readable in a notebook's printed list
        return f"<Problem {self.code} at {self.field or '(input)'}: {self.message}>"

    @property
    def section(self) -> str:
        """The first part of the field path (``rules``, ``sides``, ``placed``, ``to_play``...)."""
        return self.field.split(".", 1)[0].split("[", 1)[0]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "field": self.field, "message": self.message, "params": dict(self.params)}


def problem(code: str, field: str = "", **params: Any) -> Problem:
    """A Problem; ``value`` and ``key`` (what the input held) are always shown as written, safely
    (quoted text, huge numbers by their size); other parameters only when not plain."""
    if code not in MESSAGES:
        raise KeyError(f"no message for problem code {code!r}")
    return Problem(code, field, tuple((k, shown(v) if k in _INPUT or not _plain(v) else v)
                                      for k, v in params.items()))


_INPUT = ("value", "key")
_IDENTIFIER = re.compile(r"[a-z]+[._]\w")

#: Words and phrases that loaders pass as parameters (``want``, ``state``, ``why``...), translated with
#: the sentence; a phrase with a number is matched by its pattern, whose parts are translated in turn.
PHRASES = (N_("should have"), N_("cannot have"), N_("first"), N_("second"), N_("chosen"), N_("not chosen yet"),
           N_("a team of two members"), N_("a single player"), N_("hero"), N_("the number of castles"),
           N_("the hand size"), N_("the exhaustion limit L"), N_("a side of members"),
           N_(" (two are fought over each round)"), N_(" (a side places at two castles)"),
           N_(" (the moves of a hand grow as 2 to its size)"), N_(" (each exhaustion adds a cycle through the deck)"),
           N_('a list like ["neutral", "english", ...], one per castle'),
           N_("the number of the round, 1 for the first"), N_('an object {"english": {...}, "french": {...}}'))
_PATTERNS = (
    (re.compile(r"(?P<side>english|french)'s member (?P<member>\d+)"), N_("member {member} of {side}")),
    (re.compile(r" of which (?P<count>\d+) go to the discard at setup"), N_(" of which {count} go to the discard at setup")),
    (re.compile(r"the count of (?P<value>\d+)s"), N_("the count of {value}s")),
    (re.compile(r"; too many: (?P<cards>[^;]+)(?P<rest>(;.*)?)"), N_("; too many: {cards}{rest}")),
    (re.compile(r"; missing: (?P<cards>[^;]+)"), N_("; missing: {cards}")),
    (re.compile(r"(?P<count>\d+) × hero(?P<rest>.*)"), N_("{count} × hero{rest}")),
    (re.compile(r"a number of about (?P<count>\d+) digits"), N_("a number of about {count} digits")),
    (re.compile(r"the decision point: one of (?P<choices>.*)"), N_("the decision point: one of {choices}")),
)


def _param_text(key: str, value: Any, lang: str) -> Any:
    """A parameter in ``lang``: a side's name, a known phrase, or a phrase matching a pattern."""
    if not isinstance(value, str) or not value:
        return value
    if key in ("side", "winner", "who") and value in ("english", "french", "nobody"):
        return side_noun(value, lang)
    if value in PHRASES:
        return gettext(value, lang)
    for pattern, template in _PATTERNS:
        m = pattern.fullmatch(value)
        if m:
            parts = {k: _param_text("side" if k == "side" else "part", v or "", lang) for k, v in m.groupdict().items()}
            return gettext(template, lang).format(**parts)
    return value


def _plain(v: Any) -> bool:
    if isinstance(v, bool) or v is None:
        return True
    if isinstance(v, int):
        return v.bit_length() <= 64
    return isinstance(v, str) and len(v) <= 200


_repr = reprlib.Repr()
_repr.maxlevel = 2
_repr.maxstring = 40
_repr.maxother = 40
_repr.maxlist = _repr.maxtuple = _repr.maxdict = _repr.maxset = 6


def shown(value: Any) -> str:
    """A short, safe rendering of any input value for a message (huge numbers and deep nesting included)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 64:
            return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37]) + "..."
    if isinstance(value, float):
        return repr(value)
    try:
        return _repr.repr(value)
    except Exception:  # a value whose own repr fails: say what it is instead
        return f"a {type(value).__name__}"


def as_problem(item: Problem | str, field: str = "") -> Problem:
    """A Problem as is, or a sentence made elsewhere carried as one (code ``plain``)."""
    return item if isinstance(item, Problem) else problem("plain", field, detail=str(item))


class ProblemsError(ValueError):
    """Base of the errors that carry a list of problems (``problems``) and warnings."""

    def __init__(self, problems: list[Problem], warnings: list[Problem] | None = None):
        self.problems = [as_problem(p) for p in problems]
        self.warnings = [as_problem(w) for w in warnings or []]
        super().__init__(self.describe())

    def describe(self) -> str:
        return "; ".join(str(p) for p in self.problems)

    def lines(self) -> list[str]:
        """One line per problem, field first (what the command line prints)."""
        return [f"{p.field}: {p}" if p.field else str(p) for p in self.problems]

    def to_json(self) -> dict[str, Any]:
        return {"problems": [p.to_json() for p in self.problems],
                "warnings": [w.to_json() for w in self.warnings]}
