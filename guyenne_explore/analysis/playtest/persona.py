"""A "players like mine" level: ``strong``'s weights fitted to people's recorded placements.

``strong`` plays a softmax of ``w . phi / T`` over a placement's legal moves (:mod:`..policies.strong`, ``T`` its
temperature).  Its weights are fitted to the recorded placements by maximum likelihood, pulled towards the
weights it starts from (the package's for the records' rules) by an L2 penalty:

    minimise  - mean over decisions of log softmax(w . phi / T)[move played]  +  PULL * |w - w0|^2

with scipy's L-BFGS-B and the exact gradient.  :data:`PULL` keeps weights the records say little about near the
preset's (a feature that never varies among a decision's moves has no gradient but the pull's).  The weights are
written as a weights file (:mod:`..policies.weights`), played as the level ``persona@FILE``.  Removals, the setup
discard and team decisions stay the heuristic's, as in ``strong``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ...engine import GameRecord, battle_of
from ...i18n import gettext
from ..compiled.policy_codes import FEATURES
from ..policies import weights as files
from ..policies.heuristic import TEMPERATURE
from ..policies.strong import features, seen_facts
from .reading import PlaytestError, seat_at, seats_of, steps

#: the L2 pull towards the starting weights, per unit of mean log-likelihood a decision
PULL = 0.002


@dataclass(frozen=True)
class Persona:
    """Weights fitted to some players' placements, the weights they started from, and how well each fits."""

    weights: tuple[float, ...]
    start: tuple[float, ...]
    decisions: int
    games: int
    #: mean log-likelihood a decision of the fitted weights and of the starting ones
    fitted_likelihood: float
    start_likelihood: float
    trained_for: str

    def write(self, path: Path) -> None:
        """The weights file that ``persona@FILE`` plays."""
        files.write_model(path, self.weights, {"by": "guyenne-explore playtest persona", "games": self.games,
                                               "decisions": self.decisions, "pull": PULL,
                                               "log_likelihood": self.fitted_likelihood,
                                               "start_log_likelihood": self.start_likelihood}, self.trained_for)

    def to_json(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "games": self.games, "log_likelihood": self.fitted_likelihood,
                "start_log_likelihood": self.start_likelihood, "trained_for": self.trained_for,
                "weights": dict(zip(FEATURES, self.weights))}


def placements(records: Sequence[GameRecord], people_only: bool = True) -> list[tuple[np.ndarray, int]]:
    """Each recorded placement decision (by a person's seat where ``people_only``) as its moves' features (one
    row a legal move) and the row of the move played."""
    out = []
    for record in records:
        seats = seats_of(record)
        for step in steps(record):
            view = step.view
            if battle_of(view.to_play) is None:
                continue
            if people_only and not seat_at(seats, view.side, view.member).person:
                continue
            moves = list(view.legal_moves)
            known = seen_facts(view)
            out.append((np.array([features(view, m, known) for m in moves], np.float64), moves.index(step.move)))
    return out


@dataclass(frozen=True)
class _Stacked:
    """Every decision's move rows stacked (numpy works on one array): ``starts[i]`` is decision i's first row,
    ``chosen`` the rows of the moves played, ``owner`` each row's decision."""

    phi: np.ndarray
    starts: np.ndarray
    chosen: np.ndarray
    owner: np.ndarray

    @classmethod
    def of(cls, data: list[tuple[np.ndarray, int]]) -> "_Stacked":
        sizes = np.array([len(phi) for phi, _ in data], np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        chosen = starts + np.array([c for _, c in data], np.int64)
        return cls(np.vstack([phi for phi, _ in data]), starts, chosen, np.repeat(np.arange(len(data)), sizes))

    def log_probabilities(self, w: np.ndarray) -> np.ndarray:
        """Each move's log-probability under the softmax of ``w . phi / T`` within its decision (from the log of
        the sum, so a move far below the best keeps a finite log)."""
        z = self.phi @ w / TEMPERATURE
        z = z - np.maximum.reduceat(z, self.starts)[self.owner]
        return z - np.log(np.add.reduceat(np.exp(z), self.starts))[self.owner]

    def probabilities(self, w: np.ndarray) -> np.ndarray:
        """Each move's probability under the softmax of ``w . phi / T`` within its decision."""
        return np.exp(self.log_probabilities(w))


def _objective(w: np.ndarray, data: _Stacked, w0: np.ndarray, pull: float) -> tuple[float, np.ndarray]:
    """The penalised mean negative log-likelihood and its gradient."""
    log_p = data.log_probabilities(w)
    n = len(data.starts)
    expected = np.add.reduceat(np.exp(log_p)[:, None] * data.phi, data.starts)  # each decision's mean features
    grad = -(data.phi[data.chosen] - expected).sum(axis=0) / TEMPERATURE / n
    diff = w - w0
    return -float(log_p[data.chosen].sum()) / n + pull * float(diff @ diff), grad + 2 * pull * diff


def fit_persona(records: Sequence[GameRecord], people_only: bool = True, pull: float = PULL,
                start: Sequence[float] | None = None) -> Persona:
    """``strong``'s weights fitted to the records' placements (see the module's words); ``start``: the weights to
    start from and pull towards (default: the package's linear weights for the first record's rules, strong-linear's:
    a persona fits a linear score).  A PlaytestError where no
    placement was recorded."""
    from scipy.optimize import minimize

    data = placements(records, people_only)
    if not data:
        raise PlaytestError(gettext("no placement by a person in these records: nothing to fit"))
    rules = records[0].start.rules
    w0 = np.array(start if start is not None else files.shipped(files.preset_file(rules, linear=True)), np.float64)
    stacked = _Stacked.of(data)
    found = minimize(_objective, w0, args=(stacked, w0, pull), jac=True, method="L-BFGS-B")
    w = np.asarray(found.x, np.float64)
    return Persona(tuple(float(x) for x in w), tuple(float(x) for x in w0), len(data), len(records),
                   -_objective(w, stacked, w, 0.0)[0], -_objective(w0, stacked, w0, 0.0)[0],
                   files.preset_of(rules) or str(rules))
