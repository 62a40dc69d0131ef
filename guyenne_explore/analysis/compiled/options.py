"""The fast simulator's card choices, listed once per card set by the engine's own :class:`~guyenne_explore.engine.moves.Choice`.

A compiled game spends most of its time choosing: four placements a round and,
under the advanced removals, the loser's pick after a neutral battle.  Instead
of sampling sub-multisets by rejection, the kernel looks the choice up: every
multiset a hand (or a castle's placed cards) can be gets a code (its counts in
mixed radix), and for each code the table lists the engine's legal moves.  A
uniform choice is then one random index.  The legality is the engine's: the
lists come from ``Choice.moves()``, so the fast simulator applies no card rule of its
own here.

Card sets so large that the tables would not fit (:data:`MAX_CODES`) get no
tables, and the kernel samples by rejection as before.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import NamedTuple

import numpy as np

from ...engine import KINDS, OPEN_FIRST, OPEN_SECOND, REMOVE_CHOICE, Cards, Choice

#: table 0: a placement keeping one card back (at X); 1: a placement at Y; 2: a neutral loser's removal
AT_X, AT_Y, REMOVAL = 0, 1, 2
#: beyond this many multiset codes (or option rows) the kernel samples by rejection instead
MAX_CODES = 200_000
MAX_ROWS = 4_000_000


class OptionTables(NamedTuple):
    """``weights``: a multiset's code is ``counts @ weights``; the options of table t for code c are
    ``cards[offsets[t, c]:offsets[t, c + 1]]`` (counts per kind present).  Empty arrays: no tables."""

    weights: np.ndarray
    offsets: np.ndarray
    cards: np.ndarray


def no_tables(n_kinds: int) -> OptionTables:
    return OptionTables(np.zeros(n_kinds, np.int64), np.zeros((3, 0), np.int64), np.zeros((0, n_kinds), np.int64))


@lru_cache(maxsize=64)
def option_tables(kinds: tuple[int, ...], caps: tuple[int, ...], largest: int, max_at: int) -> OptionTables:
    """The tables for hands of at most ``largest`` cards holding at most ``caps[i]`` of kind ``kinds[i]``.

    ``caps`` should be what a hand can hold of each kind (the kind's count, at most ``largest``);
    a multiset beyond them has no code, and one of more than ``largest`` cards no options.
    """
    n_codes = 1
    for c in caps:
        n_codes *= c + 1
    if n_codes > MAX_CODES:
        return no_tables(len(kinds))
    weights = np.ones(len(kinds), np.int64)
    for i in range(1, len(kinds)):
        weights[i] = weights[i - 1] * (caps[i - 1] + 1)
    offsets = np.zeros((3, n_codes + 1), np.int64)
    rows: list[tuple[int, ...]] = []
    tables = ((AT_X, OPEN_FIRST, 1), (AT_Y, OPEN_SECOND, 0), (REMOVAL, REMOVE_CHOICE, 0))
    for t, point, reserve in tables:
        # codes in increasing order: itertools.product varies the last kind fastest, so reverse
        for code, rev in enumerate(product(*(range(c + 1) for c in reversed(caps)))):
            counts = rev[::-1]
            offsets[t, code] = len(rows)
            if len(rows) > MAX_ROWS:
                return no_tables(len(kinds))
            full = [0] * KINDS
            for k, n in zip(kinds, counts):
                full[k] = n
            source = Cards(full)
            if source.size > (max_at if point == REMOVE_CHOICE else largest):
                continue
            choice = Choice(point, 0, source=source, min_cards=1, max_cards=max_at, reserve=reserve)
            rows.extend(tuple(m.cards[k] for k in kinds) for m in choice.moves())
        offsets[t, n_codes] = len(rows)
    cards = np.array(rows, np.int64).reshape(len(rows), len(kinds))
    return OptionTables(weights, offsets, cards)
