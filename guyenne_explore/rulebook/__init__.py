"""The rulebook as data: its text in English and French, section by section, and the examples bound to each section.

The words live in ``text.json`` (the project's own, following RULES.md), the examples in ``examples.json``
(positions as the engine's loader reads them, the moves or chance outcomes they show, the verdict the text
claims and a caption in both languages).  Nothing here computes: the analysis replays each example through
the engine (:mod:`guyenne_explore.analysis.rulebook`), the render layer draws it.  This module imports only
the standard library, so the data can be read by every layer without pulling the engine in.

A paragraph may hold only under some rules (``when``: ``{"removal": "advanced"}``, ``{"hero": false}``...,
read against the rule set's parameters) and names the variant's numbers by placeholders (``{hand_size}``),
which the analysis fills from the rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
#: The sections in the rulebook's order; other modules (puzzles, lessons) name sections by these ids.
SECTION_IDS = ("setup", "round", "placements", "battles", "removals", "drawing", "end", "variants", "team")
LANGS = ("en", "fr")


@dataclass(frozen=True)
class Paragraph:
    """One paragraph, in each language, and the rules under which it holds (empty: always)."""

    text: dict[str, str]
    when: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SectionText:
    """A section's id, its title in each language and its paragraphs."""

    id: str
    title: dict[str, str]
    paragraphs: tuple[Paragraph, ...]


@dataclass(frozen=True)
class ExampleData:
    """An example as written in ``examples.json``; see that file's ``about`` for each key."""

    id: str
    section: str
    presets: tuple[str, ...]
    caption: dict[str, str]
    claims: dict[str, Any]
    position: dict[str, Any] | None = None
    steps: tuple[Any, ...] = ()
    then: tuple[Any, ...] = ()
    probe: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    filler: str = "discard"
    figure: dict[str, Any] = field(default_factory=dict)


@lru_cache(maxsize=1)
def sections() -> tuple[SectionText, ...]:
    """Every section's text, in :data:`SECTION_IDS` order (``text.json``)."""
    data = json.loads((HERE / "text.json").read_text(encoding="utf-8"))
    by_id = {s["id"]: SectionText(s["id"], dict(s["title"]),
                                  tuple(Paragraph({lang: p[lang] for lang in LANGS}, dict(p.get("when", {})))
                                        for p in s["paragraphs"]))
             for s in data["sections"]}
    return tuple(by_id[i] for i in SECTION_IDS)


@lru_cache(maxsize=1)
def examples() -> tuple[ExampleData, ...]:
    """Every example, in the file's order (``examples.json``)."""
    data = json.loads((HERE / "examples.json").read_text(encoding="utf-8"))
    return tuple(ExampleData(id=e["id"], section=e["section"], presets=tuple(e["presets"]), caption=dict(e["caption"]),
                             claims=dict(e["claims"]), position=e.get("position"), steps=tuple(e.get("steps", ())),
                             then=tuple(e.get("then", ())), probe=e.get("probe"), options=dict(e.get("options", {})),
                             filler=e.get("filler", "discard"), figure=dict(e.get("figure", {})))
                 for e in data["examples"])


__all__ = ["LANGS", "SECTION_IDS", "ExampleData", "Paragraph", "SectionText", "examples", "sections"]
