"""Cancelling a long analysis: the exception, and how a game in progress learns it must stop.

A run is cancelled by its caller (a panel's Cancel, Ctrl-C, a progress callback
returning False).  Between two games that is easy; but one game of a search
takes seconds (a long variant, tens of seconds), so a run that only looked
between games would go on long after Cancel.  Every game the engine plays for a
run therefore asks a :class:`StopSignal` before each decision
(:class:`Stoppable` wraps the policies), in this process or in a worker's, and
stops within a decision of the request.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction
from typing import Callable, Protocol, runtime_checkable

from ..engine import Move, Policy, Rules, SideView, begin_game, game_members


class Cancelled(Exception):
    """Raised inside an analysis when its caller asked to stop."""


class StopSignal(Protocol):
    """What a game in progress asks before each decision: has its run been cancelled?"""

    def is_set(self) -> bool: ...


class Throttled:
    """Asks ``ask()`` at most once every ``every`` seconds (a cluster's flag costs a round trip)."""

    def __init__(self, ask: Callable[[], bool], every: float = 0.25) -> None:
        self.ask, self.every = ask, every
        self._last = -every  # the first question is asked at once: a share queued behind a cancel stops at once
        self._set = False

    def is_set(self) -> bool:
        now = time.monotonic()
        if not self._set and now - self._last >= self.every:
            self._last = now
            self._set = bool(self.ask())
        return self._set


@runtime_checkable
class Thinking(Protocol):
    """A policy whose one decision can take seconds (a search): it raises :class:`Cancelled` as soon as
    its ``stop`` signal is set, between two of its simulations."""

    stop: StopSignal | None


class Stoppable:
    """A policy that raises :class:`Cancelled` at its next decision once ``signal`` is set.

    It chooses exactly as the policy it wraps (same moves, same random draws), so a run
    that is not cancelled plays the games it would have played without it.
    """

    def __init__(self, policy: Policy, signal: StopSignal) -> None:
        self.policy, self.signal = policy, signal
        self.name, self.exact = policy.name, policy.exact
        if isinstance(policy, Thinking):  # a decision of seconds: it asks the signal while it thinks
            policy.stop = signal

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        return self.policy.distribution(view)

    def begin_game(self, rules: Rules, rng: random.Random) -> Policy:
        """What the wrapped policy plays a game with (a mixture drawn once a game draws here), still stoppable."""
        begun = begin_game(self.policy, rules, rng)
        return self if begun is self.policy else Stoppable(begun, self.signal)

    def game_members(self, rules: Rules) -> list[tuple[Fraction, Policy]]:
        """What the wrapped policy may play a game with, each with its probability, still stoppable (an exact
        enumeration sums over them)."""
        return [(share, self if member is self.policy else Stoppable(member, self.signal))
                for share, member in game_members(self.policy, rules)]

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if self.signal.is_set():
            raise Cancelled()
        return self.policy.choose(view, rng)
