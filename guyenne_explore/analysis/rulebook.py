"""The living rulebook: its text with a rule set's own numbers, and every example replayed by the engine.

The words and the examples are data (:mod:`guyenne_explore.rulebook`); this module is the only place
they meet the engine.  An example's verdict (legal or not, who takes a castle, the score, how the game
ends...) is never written down as an answer to show: the engine computes it, under the rule set asked
for, from the example's position and steps, and the example's ``claims`` are what the tests hold that
computation to under every preset the example applies to.

Under a variant, each example is put under the variant's rules (:meth:`Position.under`;
where only the card counts or the hero differ, the example's ``filler`` zone gives or takes the
difference, since an example is a picture of one rule, not a game under way), replayed, and compared
with its replay under the preset the variant was made from: every example whose verdict changes, or
that cannot be set up any more, is one entry of the :class:`DiffEntry` list, in words.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import SIDES, Cards, Control, Draw, IllegalMove, Position, PositionError, Rules
from ..i18n import N_, castle_number, gettext, point_name, side_noun, side_title
from ..rulebook import SECTION_IDS, ExampleData, Paragraph, examples, sections
from .studies.variants import parameter_label, refused_changes, value_words

#: Per-side facts an example may claim, read from one side's zones (a team's hands count together).
_SIDE_FACTS: dict[str, Callable[[Any], Any]] = {
    "hand": lambda s: sum(h.size for h in s.hands),
    "deck": lambda s: s.deck.size,
    "discard": lambda s: s.discard.size,
    "exhaustions": lambda s: s.exhaustions,
    "removed": lambda s: "".join(s.removed.symbols()),
}
#: The facts in the order their words are written.
FACTS = ("legal", "moves", "control", "to_play", "first", "round", *_SIDE_FACTS, "score", "winner", "ending")


class ExampleError(ValueError):
    """An example that cannot be set up or replayed under some rules; the message says why, in words."""


@dataclass(frozen=True)
class Replay:
    """One example replayed under one rule set: the position its figure shows and the verdict the engine
    gives, or ``problem``: why it cannot be set up or replayed there (then ``figure`` and ``verdict`` are None)."""

    example: ExampleData
    rules: Rules
    figure: Position | None
    verdict: dict[str, Any] | None
    problem: str | None = None

    @property
    def holds(self) -> bool:
        """Whether the engine's verdict is the one the example's text claims."""
        return self.verdict == self.example.claims

    def words(self, lang: str | None = None) -> str:
        """The verdict in words, or why there is none."""
        if self.verdict is None:
            return gettext("cannot be set up: {reason}", lang).format(reason=self.problem)
        return verdict_words(self.verdict, lang)


@dataclass(frozen=True)
class DiffEntry:
    """An example whose verdict under the variant differs from its verdict under the preset."""

    section: str
    example: str
    before: Replay
    after: Replay

    def to_json(self, lang: str | None = None) -> dict[str, str]:
        return {"section": self.section, "example": self.example, "before": self.before.words(lang),
                "after": self.after.words(lang)}


@dataclass(frozen=True)
class RulebookSection:
    """A section of the rulebook under one rule set: its id, title and paragraphs in one language, its replays."""

    id: str
    title: str
    paragraphs: tuple[str, ...]
    replays: tuple[Replay, ...]

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "paragraphs": list(self.paragraphs),
                "examples": [{"id": r.example.id, "caption": caption(r.example, lang), "verdict": r.verdict,
                              "words": r.words(lang), "holds": r.holds} for r in self.replays]}


@dataclass(frozen=True)
class Rulebook:
    """The whole rulebook of a rule set in one language, and its diff against the preset it was made from."""

    rules: Rules
    lang: str
    sections: tuple[RulebookSection, ...]
    diff: tuple[DiffEntry, ...]

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules.to_json(), "lang": self.lang,
                "sections": [s.to_json(self.lang) for s in self.sections],
                "diff": [d.to_json(self.lang) for d in self.diff]}


# ---------------------------------------------------------------------- the text
def placeholders(rules: Rules, lang: str | None = None) -> dict[str, str]:
    """The values the text's placeholders name, from ``rules``: ``{hand_size}``, ``{castles}``, ``{L}``..."""
    drawn = rules.hand_size - int(rules.hero)
    counts = ", ".join(f"{n} × {v}" for v, n in sorted(rules.card_counts.items()))
    return {
        "hand_size": str(rules.hand_size), "castles": str(rules.castles), "max_at_castle": str(rules.max_at_castle),
        "L": str(rules.exhaustion_limit), "pre_discard": str(rules.pre_discard), "valued": str(rules.valued.size),
        "cards": str(rules.card_set.size), "drawn": str(drawn), "counts": counts,
        "deck": str(rules.card_set.size - rules.hand_size - rules.pre_discard),
        "split_max": str(rules.hand_size - 1), "sweep": "12", "rules": str(rules),
        "first": side_noun(rules.first_side, lang, capital=True),
    }


def _parameters(rules: Rules) -> dict[str, Any]:
    """What a paragraph's ``when`` may name: every parameter of ``rules``, and whether a side is a team or a
    setup discard is made."""
    return {**rules.describe(), "team": rules.is_team, "setup_discard": rules.pre_discard > 0}


def _holds(paragraph: Paragraph, parameters: dict[str, Any]) -> bool:
    """Whether a paragraph holds under these parameters (a list in ``when``: any of its values)."""
    return all(parameters.get(k) in (v if isinstance(v, list) else [v]) for k, v in paragraph.when.items())


def section_text(section_id: str, rules: Rules, lang: str) -> tuple[str, tuple[str, ...]]:
    """A section's title and the paragraphs that hold under ``rules``, with its numbers, in ``lang``."""
    text = next(s for s in sections() if s.id == _checked_section(section_id))
    parameters, values = _parameters(rules), placeholders(rules, lang)
    return text.title[lang], tuple(p.text[lang].format(**values) for p in text.paragraphs if _holds(p, parameters))


def _checked_section(section_id: str) -> str:
    if section_id not in SECTION_IDS:
        raise KeyError(gettext("no rulebook section {id}: the sections are {ids}").format(
            id=repr(section_id), ids=", ".join(SECTION_IDS)))
    return section_id


# ---------------------------------------------------------------------- finding examples
def example(example_id: str) -> ExampleData:
    """The example ``example_id``; KeyError naming the ids when there is none."""
    for e in examples():
        if e.id == example_id:
            return e
    raise KeyError(gettext("no rulebook example {id}").format(id=repr(example_id)))


def section_of(example_id: str) -> str:
    """The id of the section an example belongs to."""
    return example(example_id).section


def examples_of(section_id: str, preset: str | None = None) -> tuple[ExampleData, ...]:
    """A section's examples, those that apply to ``preset`` when one is named."""
    _checked_section(section_id)
    return tuple(e for e in examples() if e.section == section_id and (preset is None or preset in e.presets))


def caption(e: ExampleData, lang: str | None = None) -> str:
    """An example's caption in ``lang`` (default: the current language)."""
    from ..i18n import current_language

    return e.caption[lang or current_language()]


# ---------------------------------------------------------------------- replaying
def _sum(*piles: Sequence[str]) -> Cards:
    out = Cards()
    for pile in piles:
        out = out + Cards.of(pile)
    return out


def _refit(data: dict[str, Any], rules: Rules, filler: str) -> dict[str, Any]:
    """The example's JSON under ``rules`` with what an example may give up: each side's ``filler`` zone gives or
    takes what ``rules``' card set has more or less than the example's (the card counts, the hero), and castles
    are added neutral at the right or taken away from there (the castle count); ExampleError where the example
    needs what the rules take away."""
    out = {**data, "rules": rules.to_json(), "sides": {}}
    castles = data["castles"]
    used = [i for i in (data.get("placed", {}).get(b) for b in ("X", "Y")) if i is not None]
    gone = [i for i in range(rules.castles, len(castles)) if castles[i] != "neutral" or i in used]
    if gone:
        raise ExampleError(gettext("the example needs castle {number}, which these rules do not have").format(
            number=castle_number(gone[-1])))
    out["castles"] = castles[:rules.castles] + ["neutral"] * (rules.castles - len(castles))
    target = rules.card_set
    for name, side in data["sides"].items():
        hands = [m["hand"] for m in side["members"]] if "members" in side else [side["hand"]]
        placed = data.get("placed", {}).get(name, {})
        held = _sum(*hands, side["deck"], side["discard"], side["removed"], *placed.values())
        surplus = Cards(max(0, a - b) for a, b in zip(held, target))
        pile = Cards.of(side[filler])
        if not surplus.issubset(pile):
            lacking = Cards(max(0, a - b) for a, b in zip(surplus, pile))
            raise ExampleError(gettext("the example shows {side} cards these rules do not have: {cards}").format(
                side=side_title(name), cards=" ".join(lacking.symbols())))
        out["sides"][name] = {**side, filler: (pile - surplus + Cards(max(0, b - a) for a, b in zip(held, target))).symbols()}
    return out


#: What :func:`_refit` can give an example: a variant changing anything else (the players) cannot set it up.
_REFITTED = ("card_counts", "hero", "castles")


def _rules_for(e: ExampleData, rules: Rules) -> Rules:
    """The rules an example is replayed under: ``rules`` with the example's own options laid over them."""
    return rules.replace(**e.options) if e.options else rules


def setup(e: ExampleData, rules: Rules) -> Position:
    """The example's position under ``rules`` (its options laid over them); ExampleError saying why it cannot be."""
    try:
        rules = _rules_for(e, rules)
        if e.position is None:
            return Position.start(rules)
        own = Position.from_json(e.position)
        try:
            return own.under(rules)
        except PositionError:
            set_up = refused_changes(own, rules)  # what the table was set up with: refused first, alone
            if not set_up:
                raise
            refused = [c for c in set_up if c.parameter not in _REFITTED]
            if refused:
                raise ExampleError("; ".join(gettext("the example is set up with {parameter} {own}, not {new}").format(
                    parameter=parameter_label(c.parameter), own=value_words(c.own), new=value_words(c.new))
                    for c in refused)) from None
            return Position.from_json(_refit(own.to_json(), rules, e.filler))
    except ValueError as exc:  # the loader's PositionError, a RulesError of the options, a CardError of a pile
        raise ExampleError(str(exc)) from None


def _step(p: Position, step: Any) -> Position:
    """One step of an example: a move as its notation, ``{"draw": {"english": "22", "french": "3"}}`` or
    ``{"sample": seed}`` (the chance outcome a seeded generator draws: a deal, a draw after a reshuffle)."""
    try:
        if isinstance(step, str):
            return p.apply(step)
        if "draw" in step:
            return p.apply_outcome(Draw(*(Cards.parse(step["draw"][side]) for side in SIDES)))
        return p.apply_outcome(p.sample_outcome(random.Random(step["sample"])))
    except IllegalMove as exc:
        raise ExampleError(gettext("{step} cannot be played: {reason}").format(step=_step_text(step), reason=exc)) from None


def _step_text(step: Any) -> str:
    if isinstance(step, str):
        return step
    if "draw" in step:
        return gettext("the draw English {english}, French {french}").format(**step["draw"])
    return gettext("the chance outcome")


def _verdict(e: ExampleData, shown: Position, end: Position) -> dict[str, Any]:
    """The engine's answer to each question the example's claims ask, at the figure (``legal``, ``moves``) or
    after the example's ``then`` steps (the rest)."""
    out: dict[str, Any] = {}
    for key, claim in e.claims.items():
        if key == "legal":
            out[key] = e.probe is not None and shown.why_illegal(e.probe) is None
        elif key == "moves":
            out[key] = len(shown.legal_moves)
        elif key == "control":
            out[key] = {i: Control(end.castles[int(i)]).name.lower() if int(i) < len(end.castles) else None for i in claim}
        elif key == "to_play":
            out[key] = str(end.to_play)
        elif key == "first":
            out[key] = SIDES[end.first]
        elif key == "round":
            out[key] = end.round
        elif key in _SIDE_FACTS:
            out[key] = {side: _SIDE_FACTS[key](end.sides[SIDES.index(side)]) for side in claim}
        elif key in ("score", "winner", "ending"):
            result = end.result()
            out[key] = ({"english": result.english, "french": result.french} if key == "score" else result.winner
                        if key == "winner" else result.ending.reason if result.ending else None)
        else:
            raise KeyError(f"example {e.id}: unknown claim {key!r}")
    return out


def replay(e: ExampleData, rules: Rules) -> Replay:
    """``e`` under ``rules``: its figure and its verdict, computed by the engine, or why it cannot be set up."""
    try:
        shown = setup(e, rules)
        for step in e.steps:
            shown = _step(shown, step)
        end = shown
        for step in e.then:
            end = _step(end, step)
    except ExampleError as exc:
        return Replay(e, rules, None, None, str(exc))
    return Replay(e, rules, shown, _verdict(e, shown, end))


# ---------------------------------------------------------------------- the verdict in words
_FACT_WORDS = {
    "moves": N_("{count} legal moves"), "to_play": N_("next: {point}"), "first": N_("{side} hold the first-player card"),
    "round": N_("round {round}"), "hand": N_("cards in hand: {sides}"), "deck": N_("cards in deck: {sides}"),
    "discard": N_("cards in discard: {sides}"), "exhaustions": N_("exhaustions: {sides}"),
    "removed": N_("removed for good: {sides}"), "score": N_("score: {sides}"),
}
_ENDINGS = {"sweep": N_("the game ends: one side controls every castle"),
            "exhausted": N_("the game ends: a side has exhausted its deck for the last time"),
            "out_of_cards": N_("the game ends: a side has no card left to play on"),
            None: N_("the game goes on")}


def _fact_words(key: str, value: Any, lang: str | None) -> str:
    if key == "legal":
        return gettext("legal", lang) if value else gettext("illegal", lang)
    if key == "control":
        return "; ".join(gettext("castle {number}: {control}", lang).format(
            number=castle_number(int(i)), control=side_title(c, lang) if c else gettext("no such castle", lang))
            for i, c in value.items())
    if key == "winner":
        return gettext("a draw", lang) if value == "draw" else gettext("{side} win", lang).format(
            side=side_noun(value, lang))
    if key == "ending":
        return gettext(_ENDINGS[value], lang)
    if isinstance(value, dict):
        none = gettext("none", lang)
        sides = ", ".join(f"{side_title(s, lang)} {v if v != '' else none}" for s, v in value.items())
        return gettext(_FACT_WORDS[key], lang).format(sides=sides)
    return gettext(_FACT_WORDS[key], lang).format(count=value, point=point_name(str(value), lang),
                                                  side=side_noun(str(value), lang), round=value)


def verdict_words(verdict: dict[str, Any], lang: str | None = None) -> str:
    """A verdict as one line of words (``castle 1: English; the game goes on``), its facts in :data:`FACTS` order."""
    return "; ".join(_fact_words(k, verdict[k], lang) for k in FACTS if k in verdict)


# ---------------------------------------------------------------------- the whole rulebook
def applies(e: ExampleData, rules: Rules) -> bool:
    """Whether an example belongs in the rulebook of ``rules`` (its preset is one the example declares)."""
    return rules.preset_name in e.presets


def build_rulebook(rules: Rules, lang: str) -> Rulebook:
    """The rulebook of ``rules`` in ``lang``: every section's text with the rules' numbers, every example that
    applies replayed under them, and the diff against the preset the rules were made from (empty for a preset)."""
    preset = Rules.preset(rules.preset_name)
    built, diff = [], []
    for section_id in SECTION_IDS:
        title, paragraphs = section_text(section_id, rules, lang)
        replays = []
        for e in examples_of(section_id, rules.preset_name):
            after = replay(e, rules)
            replays.append(after)
            if rules != preset:
                before = replay(e, preset)
                if (before.verdict, before.problem) != (after.verdict, after.problem):
                    diff.append(DiffEntry(section_id, e.id, before, after))
        built.append(RulebookSection(section_id, title, paragraphs, tuple(replays)))
    return Rulebook(rules, lang, tuple(built), tuple(diff))


__all__ = ["DiffEntry", "ExampleError", "FACTS", "Replay", "Rulebook", "RulebookSection", "SECTION_IDS", "applies",
           "build_rulebook", "caption", "example", "examples_of", "placeholders", "replay", "section_of", "section_text",
           "setup", "verdict_words"]
