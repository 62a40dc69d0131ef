"""The learned policy's network: the numbers after its linear weights, and the score term they add.

A model is one tuple of numbers: a weight for each feature of :data:`FEATURES` (the linear policy), then, for a
network, its number of hidden units ``H``, its input weights ``U`` a feature at a time (a file writes them as one
row a unit), ``H`` biases (``b``) and ``H`` output weights (``v``) -- the layout of the compiled loop's row after
:data:`~..compiled.policy_codes.NETWORK_AT`, so the Python twin and the compiled one read the same numbers.  A
move's score is ``w . phi + sum_j v_j max(0, b_j + U_j . phi)``: the linear score plus a network over the same
features, which weighs them together (the hero with the set's size and the opening, the stake with the chance),
what no weight of the linear score can do.  A network whose ``v`` is 0 plays its linear part exactly, so training
a network starts from the linear policy it refines.
"""

from __future__ import annotations

import math
from typing import Sequence

from ...i18n import gettext
from ..compiled.policy_codes import FEATURES, MAX_HIDDEN, SCORE_GROUPS, network_size

__all__ = ["hidden_units", "network_json", "network_tail", "network_term", "split"]

#: the features a network's row held before :data:`~..compiled.policy_codes.F_COUNTED` was added: a file written then
#: reads its input weights of it as 0, so it plays as it did (as :data:`.weights.ADDED` reads the linear weights)
LATEST = FEATURES.index("counted")


def hidden_units(model: Sequence[float]) -> int:
    """The network's hidden units of a model (0: the linear policy)."""
    return int(model[len(FEATURES)]) if len(model) > len(FEATURES) else 0


def split(model: Sequence[float]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """A model's linear weights and its network's numbers (``H``, then ``U``, ``b``, ``v``; empty for none: the
    discard's and team split's weights that may follow are :func:`..compiled.policy_codes.decision_parts`'s)."""
    n, units = len(FEATURES), hidden_units(model)
    return tuple(model[:n]), tuple(model[n:n + network_size(units)]) if units else ()


def network_term(net: Sequence[float], phi: Sequence[float]) -> float:
    """The network's part of a move's score, summed as the compiled twin sums it
    (:func:`..compiled.strong_kernel.network_term`): each unit's input is ``b_j + ((cards + control) + stake)``,
    the sums of ``U_jk phi_k`` over the groups of :data:`SCORE_GROUPS` (each in its order from 0.0, as the linear
    score groups them), then the units' outputs in order from 0.0."""
    if not net:
        return 0.0
    units, n = int(net[0]), len(FEATURES)
    b0 = 1 + units * n
    v0 = b0 + units
    out = 0.0
    for j in range(units):
        cards, control, stake = (_group(net, units, j, phi, group) for group in SCORE_GROUPS)
        a = net[b0 + j] + ((cards + control) + stake)
        if a > 0.0:  # a rectified unit (max(0, a)), as the compiled twin
            out = out + net[v0 + j] * a
    return out


def _group(net: Sequence[float], units: int, j: int, phi: Sequence[float], group: Sequence[int]) -> float:
    """Unit ``j``'s input from one group of features, in the group's order from 0.0 (input weights a feature at
    a time: feature k's weight into unit j at ``1 + k * units + j``)."""
    s = 0.0
    for k in group:
        s = s + net[1 + k * units + j] * phi[k]
    return s


def network_tail(units: object, inputs: object, biases: object, outputs: object, where: str) -> tuple[float, ...]:
    """The numbers of a network read from a weights file's ``network`` object (``hidden``, ``inputs``: one row of a
    weight a feature for each hidden unit, ``biases``, ``outputs``); a ValueError names ``where`` and the problem."""
    if isinstance(units, bool) or not isinstance(units, int) or not 1 <= units <= MAX_HIDDEN:
        raise ValueError(gettext("{where}: network.hidden must be a whole number of hidden units from 1 to {most}, "
                                 "not {value}").format(where=where, most=MAX_HIDDEN, value=repr(units)))
    rows = inputs if isinstance(inputs, list) else None
    if rows is not None and all(isinstance(r, list) and len(r) == LATEST for r in rows):
        rows = [r + [0.0] * (len(FEATURES) - LATEST) for r in rows]  # written before the latest feature: it reads 0
    if rows is None or len(rows) != units or any(not isinstance(r, list) or len(r) != len(FEATURES) for r in rows):
        raise ValueError(gettext("{where}: network.inputs must be {units} rows of {features} numbers, one a "
                                 "feature").format(where=where, units=units, features=len(FEATURES)))
    for name, values in (("biases", biases), ("outputs", outputs)):
        if not isinstance(values, list) or len(values) != units:
            raise ValueError(gettext("{where}: network.{name} must be a list of {units} numbers").format(
                where=where, name=name, units=units))
    assert isinstance(biases, list) and isinstance(outputs, list)  # checked just above
    flat = [rows[j][k] for k in range(len(FEATURES)) for j in range(units)] + biases + outputs  # a feature at a time
    for x in flat:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise ValueError(gettext("{where}: the network's numbers must be finite numbers, not {value}").format(
                where=where, value=repr(x)))
    out = (float(units), *map(float, flat))
    assert len(out) == network_size(units)
    return out


def network_json(net: Sequence[float]) -> dict[str, object]:
    """A network's numbers as a weights file writes them (what :func:`network_tail` reads)."""
    units, n = int(net[0]), len(FEATURES)
    u0, b0 = 1, 1 + units * n
    v0 = b0 + units
    return {"hidden": units, "inputs": [[net[u0 + k * units + j] for k in range(n)] for j in range(units)],
            "biases": list(net[b0:v0]), "outputs": list(net[v0:v0 + units])}
