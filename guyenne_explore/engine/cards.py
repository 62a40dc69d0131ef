"""Action cards and multisets of them.

A hand, a deck, a discard or a move is a *multiset*: cards of equal value are
interchangeable, so the engine never distinguishes two 2s.  A multiset is a
:class:`Cards` value: an immutable count vector over a fixed set of kinds
(values 1 to 9 and the hero), so that every rules variant shares one type and a
compiled fast simulator can follow the same layout.
"""

from __future__ import annotations

from itertools import product
from operator import add, sub
from typing import Iterable, Iterator

from ..i18n import gettext as _
from .problems import shown

#: Kind indexes 0..8 hold the valued cards 1..9; index 9 is the hero.
HERO = 9
KINDS = 10
#: Text symbol of each kind, as the rulebook prints it.
SYMBOLS = tuple(str(v) for v in range(1, 10)) + ("H",)
_SYMBOL_INDEX = {s: i for i, s in enumerate(SYMBOLS)}


class CardError(ValueError):
    """A card or a card list that cannot be read."""


def kind_of(symbol: str | int) -> int:
    """The kind index of a card written as ``"H"``, ``"5"`` or ``5``.

    Anything else (another type, a huge number, a long text) is a CardError whose
    message shows the input safely, so a loader can name it and go on."""
    if isinstance(symbol, int) and not isinstance(symbol, bool) and 1 <= symbol <= 9:
        return symbol - 1
    text = symbol.strip().upper() if isinstance(symbol, str) and len(symbol) <= 8 else None
    if text not in _SYMBOL_INDEX:
        raise CardError(_("unknown card {value}: a card is H (the hero) or a value 1-9").format(value=shown(symbol)))
    return _SYMBOL_INDEX[text]


def value_of(kind: int) -> int:
    """Face value of a valued card kind (the hero has no value: it overrides sums)."""
    return kind + 1


class Cards(tuple):
    """An immutable multiset of cards, stored as counts per kind.

    ``Cards.parse("H 5 2 2")`` and ``Cards.of(["H", "5", "2", "2"])`` build one;
    ``str()`` writes it strongest first (``"H522"``), the order the rulebook uses.
    """

    __slots__ = ()

    def __new__(cls, counts: Iterable[int] = ()) -> "Cards":
        counts = tuple(counts)
        if len(counts) == KINDS and min(counts) >= 0:
            return tuple.__new__(cls, counts)
        if len(counts) < KINDS:
            counts = counts + (0,) * (KINDS - len(counts))
        if len(counts) != KINDS or any(c < 0 for c in counts):
            raise CardError(_("a card multiset needs {count} non-negative counts, got {value}").format(
                count=KINDS, value=repr(counts)))
        return super().__new__(cls, counts)

    # construction -------------------------------------------------------
    @classmethod
    def of(cls, symbols: Iterable[str | int]) -> "Cards":
        """From a list of card symbols such as ``["H", "5", "2"]``."""
        counts = [0] * KINDS
        for s in symbols:
            counts[kind_of(s)] += 1
        return cls(counts)

    @classmethod
    def parse(cls, text: str) -> "Cards":
        """From text such as ``"H522"``, ``"H 5 2 2"`` or ``"-"`` (empty)."""
        if not isinstance(text, str):
            raise CardError(_("cards are written as text like \"H522\", not {value}").format(value=shown(text)))
        text = text.strip()
        if text in ("", "-"):
            return EMPTY
        return cls.of(ch for ch in text if not ch.isspace() and ch not in ",+")

    @classmethod
    def from_values(cls, values: dict[int, int], hero: int = 0) -> "Cards":
        """From ``{value: count}`` plus a number of heroes."""
        counts = [0] * KINDS
        for v, n in values.items():
            counts[kind_of(v)] = n
        counts[HERO] = hero
        return cls(counts)

    # reading ------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of cards."""
        return sum(self)

    @property
    def has_hero(self) -> bool:
        return self[HERO] > 0

    @property
    def total(self) -> int:
        """Sum of the valued cards (the hero counts 0: it overrides, it does not add)."""
        return sum((k + 1) * self[k] for k in range(HERO))

    def strongest(self) -> int | None:
        """Kind of the strongest card (hero first), or None when empty."""
        if self[HERO]:
            return HERO
        for k in range(HERO - 1, -1, -1):
            if self[k]:
                return k
        return None

    def symbols(self) -> list[str]:
        """Card symbols strongest first, e.g. ``["H", "5", "2", "2"]``."""
        out: list[str] = []
        for k in range(KINDS - 1, -1, -1):
            out.extend([SYMBOLS[k]] * self[k])
        return out

    def kinds(self) -> Iterator[int]:
        """Each card's kind, one per card, weakest first."""
        for k in range(KINDS):
            for _copy in range(self[k]):
                yield k

    # arithmetic ---------------------------------------------------------
    def __add__(self, other: "Cards") -> "Cards":  # type: ignore[override]
        return _make(tuple(map(add, self, other)))

    def __sub__(self, other: "Cards") -> "Cards":
        out = tuple(map(sub, self, other))
        if min(out) < 0:
            raise CardError(_("cannot take {cards} from {source}").format(cards=other, source=self))
        return _make(out)

    def issubset(self, other: "Cards") -> bool:
        """Sub-multiset test (tuple comparison operators keep their tuple meaning)."""
        return all(a <= b for a, b in zip(self, other))

    def add_kind(self, kind: int, n: int = 1) -> "Cards":
        counts = list(self)
        counts[kind] += n
        return Cards(counts)

    def sub_multisets(self, min_size: int = 0, max_size: int | None = None) -> Iterator["Cards"]:
        """Every distinct sub-multiset with a size in [min_size, max_size]."""
        top = self.size if max_size is None else max_size
        present = [k for k in range(KINDS) if self[k]]
        for choice in product(*(range(self[k] + 1) for k in present)):
            n = sum(choice)
            if min_size <= n <= top:
                counts = [0] * KINDS
                for k, c in zip(present, choice):
                    counts[k] = c
                yield _make(tuple(counts))

    def __str__(self) -> str:
        return "".join(self.symbols()) or "-"

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"


def count_sub_multisets(source: Cards, lo: int, hi: int) -> int:
    """Distinct sub-multisets of ``source`` with a size in [lo, hi] (a small DP, no listing)."""
    if hi < lo:
        return 0
    ways = [1] + [0] * hi
    for n in source:
        if not n:
            continue
        new = [0] * (hi + 1)
        for size, w in enumerate(ways):
            if w:
                for take in range(min(n, hi - size) + 1):
                    new[size + take] += w
        ways = new
    return sum(ways[lo:hi + 1])


def _make(counts: tuple[int, ...]) -> Cards:
    """Build from counts already known to be valid (the engine's hot path)."""
    return tuple.__new__(Cards, counts)


EMPTY = Cards()
