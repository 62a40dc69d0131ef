"""Guyenne as an OpenSpiel game, so that OpenSpiel's generic bots can play it as a yardstick.

A thin wrapper: each state holds an engine :class:`~guyenne_explore.engine.Position` and the
:class:`~guyenne_explore.engine.PublicRecord` both sides remember, and asks the engine for
everything (who plays, legal moves, chance outcomes with their exact probabilities, the result).
Nothing of the rules is restated here.

- **Actions.**  A stable integer per move of a rule set (:class:`ActionCodec`): a card multiset
  as a mixed-radix number over the side's card set (``count of kind k`` in radix
  ``card_set[k] + 1``), times the castle slot (none, or castle 0..n-1), then four actions for
  ``reveal``, ``concede``, ``first:0`` and ``first:1``.  The same action is the same move in
  every determinisation, which IS-MCTS needs (its tree is keyed by information state and
  action).
- **Chance.**  A draw is two chance nodes, english's draw then french's (the engine's
  :func:`~guyenne_explore.engine.side_draws`: the sides draw from their own decks, independently,
  so the pair's probability is the product): a chance action is the drawn multiset's index, and the
  position moves on once both are drawn.  Listing every pair at each draw (hundreds at the deal, each
  a ``Fraction``) was most of the bot's time.
- **Information.**  ``information_state_string(player)`` is the side's
  :class:`~guyenne_explore.engine.SideView` (for a team, the member to play, else its drawer)
  and the public record, written out field by field; ``resample_from_infostate`` deals the
  hidden cards with :func:`~guyenne_explore.engine.determinisation`, so IS-MCTS never sees them.
  This is the engine's model of what a side remembers (the record), not OpenSpiel's perfect
  recall of its own past moves: the record keeps what both sides saw; a side's own face-down
  cards of past rounds are not in it.
- **Returns.**  OpenSpiel's zero-sum convention: +1 for a win, 0 for a draw, -1 for a loss
  (``score = (return + 1) / 2`` gives the project's win 1 / draw 1/2 / loss 0).
- **Teams.**  A team side is one OpenSpiel player whose information state is the view of the
  member to play (its own hand, its partner's count).

Load it with ``pyspiel.load_game("python_guyenne", {"rules": "advanced"})`` (any preset name or
rules JSON, as ``guyenne-explore`` reads them) once this module is imported.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from guyenne_explore.engine import (KINDS, Cards, Draw, Move, Position, PublicRecord, Rules,  # noqa: E402
                                        SideView, determinise, side_draws)
from guyenne_explore.analysis.compiled import layout as kn  # noqa: E402
from guyenne_explore.analysis.compiled.rollout import summaries_if_played  # noqa: E402
from guyenne_explore.analysis.compiled.policy_codes import UNIFORM_SIDES  # noqa: E402
from guyenne_explore.engine.view import side_view  # noqa: E402

SHORT_NAME = "python_guyenne"
#: OpenSpiel's GameInfo holds C ints
_INT_MAX = 2**31 - 1
#: decisions one round can ask at most (team split and order for both sides, four placements,
#: a concede and a remove choice at each battle), for OpenSpiel's bound on a game's length
_DECISIONS_PER_ROUND = 12
#: OpenSpiel's IS-MCTS spends its first simulation creating the root node (no visit counted), and
#: its final policy asserts a visited root: two simulations at least
MIN_SIMULATIONS = 2


def read_rules(spec: str) -> Rules:
    """A preset name or a rules JSON object (text), as the command line reads them; RulesError
    (or ValueError for unreadable JSON) says what is wrong."""
    text = spec.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--rules: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
        return Rules.from_json(data)
    return Rules.from_json(text)


class ActionCodec:
    """The stable integer of every move and chance outcome of a rule set (see the module docstring)."""

    def __init__(self, rules: Rules):
        self.radix = [rules.card_set[k] + 1 for k in range(KINDS)]
        self.multisets = prod(self.radix)
        self.castles = rules.castles
        self._specials = (self.castles + 1) * self.multisets
        self.num_actions = self._specials + 4
        self.num_chance = self.multisets
        #: the index of each multiset met so far (chance points list hundreds of draws)
        self._indices: dict[Cards, int] = {}
        if self.num_actions > _INT_MAX or self.num_chance > _INT_MAX:
            raise ValueError(f"rules {rules}: {self.multisets} card multisets per side make too many actions "
                             "for OpenSpiel's integer actions; use fewer cards")

    def __deepcopy__(self, memo: dict[int, Any]) -> "ActionCodec":
        """One codec per game, shared by every clone of its states (its cache of indices included)."""
        return self

    def cards_index(self, cards: Cards) -> int:
        index = self._indices.get(cards)
        if index is None:
            index = self._indices[cards] = self._index(cards)
        return index

    def _index(self, cards: Cards) -> int:
        index = 0
        for k in reversed(range(KINDS)):
            if cards[k] >= self.radix[k]:
                raise ValueError(f"{cards} holds more cards of a kind than the rules' card set")
            index = index * self.radix[k] + cards[k]
        return index

    def cards_of(self, index: int) -> Cards:
        counts = []
        for r in self.radix:
            index, c = divmod(index, r)
            counts.append(c)
        return Cards(counts)

    def encode(self, move: Move) -> int:
        if move.concede is not None:
            return self._specials + int(move.concede)
        if move.first_member is not None:
            return self._specials + 2 + move.first_member
        slot = 0 if move.castle is None else move.castle + 1
        return slot * self.multisets + self.cards_index(move.cards)

    def decode(self, action: int) -> Move:
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is not one of this rule set's {self.num_actions} actions")
        if action >= self._specials:
            extra = action - self._specials
            return Move(concede=bool(extra)) if extra < 2 else Move(first_member=extra - 2)
        slot, index = divmod(action, self.multisets)
        return Move(cards=self.cards_of(index), castle=None if slot == 0 else slot - 1)

    def decode_drawn(self, action: int) -> Cards:
        """The multiset one side draws at a chance node."""
        if not 0 <= action < self.multisets:
            raise ValueError(f"chance action {action} is not one of this rule set's {self.multisets} draws")
        return self.cards_of(action)


def view_text(view: SideView) -> str:
    """Everything ``view`` shows and remembers, one field a line: an information state string.

    Two positions give the same text exactly when the side cannot tell them apart (its view and
    the shared record are equal); the opponent's hidden cards and the deck orders never appear.
    """
    o, r = view.opponent, view.record
    zones = ["/".join(sorted(z)) for z in r.hero_zones]
    rows = [
        f"side {view.side} member {view.member} at {view.to_play}",
        f"round {view.round} first {view.first} castles {[int(c) for c in view.castles]} x {view.x} y {view.y} battle {view.battle}",
        f"roles {view.roles(0)} {view.roles(1)}",
        f"hand {view.hand} partner {view.partner_hand_size} unseen {view.own_unseen} discard {view.discard}"
        f" removed {view.removed} exhaustions {view.exhaustions} placed {view.own_placed[0]} {view.own_placed[1]}",
        f"opponent placed {view.opponent_placed[0]} {view.opponent_placed[1]} sizes {view.opponent_placed_sizes}"
        f" hands {o.hand_sizes} deck {o.deck_size} discard {o.discard_size} removed {o.removed}"
        f" exhaustions {o.exhaustions}",
        f"record shown {r.shown_discard[0]} {r.shown_discard[1]} heroes {zones[0]} {zones[1]}"
        f" reshuffles {r.reshuffles[0]!r} {r.reshuffles[1]!r}",
    ]
    return "\n".join(rows)


def _game_type() -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Guyenne (guyenne_explore's engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"rules": "advanced"})


def _max_game_length(rules: Rules) -> int:
    """A bound on the actions of one game: each round places at least two cards of each side, and a
    side's cards go through its deck at most ``exhaustion_limit + 1`` times; two chance nodes a draw."""
    rounds = rules.card_set.size * (rules.exhaustion_limit + 1) // 2 + 1
    return rounds * (_DECISIONS_PER_ROUND + 2) + 2 * rules.pre_discard + 2


class GuyenneGame(pyspiel.Game):
    """Guyenne under one rule set (the ``rules`` parameter: a preset name or rules JSON)."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        self.rules = read_rules(str(params.get("rules", "advanced")))
        self.codec = ActionCodec(self.rules)
        info = pyspiel.GameInfo(num_distinct_actions=self.codec.num_actions,
                                max_chance_outcomes=self.codec.num_chance, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=_max_game_length(self.rules))
        super().__init__(_game_type(), info, {"rules": str(params.get("rules", "advanced"))})

    def new_initial_state(self) -> "GuyenneState":
        return GuyenneState(self)

    def state_at(self, position: Position, record: PublicRecord | None = None) -> "GuyenneState":
        """A state at ``position`` with the public ``record`` (None: what the position implies)."""
        if position.rules != self.rules:
            raise ValueError(f"a position under {position.rules}, not this game's {self.rules}")
        return GuyenneState(self, position, record)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ViewObserver":
        return ViewObserver(params)


@dataclass(frozen=True)
class _Now:
    """A state's position and record, and english's draw while french's is still to come.  OpenSpiel
    clones a Python state by deep-copying its attributes; all are immutable, so a clone shares them (a
    copy cost about 6 ms a clone)."""

    position: Position
    record: PublicRecord
    english_draw: Cards | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Now":
        return self


class GuyenneState(pyspiel.State):
    """An engine position and the public record; every rule is the engine's."""

    def __init__(self, game: GuyenneGame, position: Position | None = None, record: PublicRecord | None = None):
        super().__init__(game)
        self.codec = game.codec
        position = position if position is not None else Position.start(game.rules)
        self._now = _Now(position, record if record is not None else PublicRecord.assumed(position))

    @property
    def position(self) -> Position:
        return self._now.position

    @property
    def record(self) -> PublicRecord:
        return self._now.record

    def current_player(self) -> int:
        p = self.position
        if p.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if p.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        side = p.side_to_play
        assert side is not None
        return int(side)

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.position.side_to_play:
            return []
        return sorted(self.codec.encode(m) for m in self.position.legal_moves)

    @property
    def english_draw(self) -> Cards | None:
        """English's draw at this chance point once drawn (french's is the next chance node), else None."""
        return self._now.english_draw

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The draws of the side drawing now (english first, then french), with their probabilities."""
        draws = side_draws(self.position)[0 if self.english_draw is None else 1]
        return [(self.codec.cards_index(cards), float(pr)) for cards, pr in draws]

    def _apply_action(self, action: int) -> None:
        p = self.position
        if p.is_chance and self.english_draw is None:
            self._now = _Now(p, self.record, self.codec.decode_drawn(action))
            return
        if p.is_chance:
            move, q = None, p.apply_outcome(Draw(self.english_draw, self.codec.decode_drawn(action)))
        else:
            move = self.codec.decode(action)
            q = p.apply(move)
        self._now = _Now(q, self.record.after(p, q, move))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self.codec.decode_drawn(action))
        return self.codec.decode(action).text()

    def is_terminal(self) -> bool:
        return self.position.is_over

    def returns(self) -> list[float]:
        if not self.position.is_over:
            return [0.0, 0.0]
        winner = self.position.result().winner
        if winner == "draw":
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == "english" else [-1.0, 1.0]

    def view(self, player: int) -> SideView:
        """What ``player`` (a side) sees now, with the record."""
        return side_view(self.position, player, record=self.record)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> "GuyenneState":
        """A state ``player_id`` cannot tell from this one: its hidden cards dealt by ``determinise``
        from a generator seeded by ``probability_sampler`` (a callable giving floats in [0, 1))."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return GuyenneState(self.get_game(), determinise(self.view(player_id), rng), self.record)

    def __str__(self) -> str:
        return self.position.notation()


class ViewObserver:
    """OpenSpiel's observer: strings only (the information state is :func:`view_text`)."""

    def __init__(self, params: Any = None):
        if params:
            raise ValueError(f"the Guyenne observer takes no parameters, not {params}")
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: GuyenneState, player: int) -> None:
        """No tensor: the game provides strings only."""

    def string_from(self, state: GuyenneState, player: int) -> str:
        return view_text(state.view(player))


pyspiel.register_game(_game_type(), GuyenneGame)


def load(rules: str = "advanced") -> GuyenneGame:
    """The registered game under ``rules`` (a preset name or rules JSON text)."""
    return pyspiel.load_game(SHORT_NAME, {"rules": rules})


class CompiledRollouts(mcts.Evaluator):
    """OpenSpiel's random rollouts (``mcts.RandomRolloutEvaluator``: uniform moves, chance by its
    probabilities, to the end of the game) played by the project's compiled game loop, which plays the
    same uniform games thousands of times faster than the wrapper's Python states: the value of a leaf
    is the mean return of ``n_rollouts`` games, seeded from the bot's ``random_state``.  Where the
    compiled loop does not play (a draw half made, a stacked deck), OpenSpiel's
    own evaluator plays the rollouts; :attr:`fallbacks` counts those leaves."""

    def __init__(self, n_rollouts: int, random_state: np.random.RandomState):
        self.n_rollouts = n_rollouts
        self.random_state = random_state
        self.python = mcts.RandomRolloutEvaluator(n_rollouts, random_state)
        self.fallbacks = 0

    def evaluate(self, state: "GuyenneState") -> np.ndarray:
        rows = None
        if state.english_draw is None:
            seed = int(self.random_state.randint(2**31))
            rows = summaries_if_played(state.position, self.n_rollouts, seed, 0, UNIFORM_SIDES)
        if rows is None:
            self.fallbacks += 1
            return self.python.evaluate(state)
        won = rows[:, kn.OUT_WINNER]
        english = (np.sum(won == 0) - np.sum(won == 1)) / self.n_rollouts
        return np.array([english, -english])

    def prior(self, state: "GuyenneState") -> list[tuple[int, float]]:
        return self.python.prior(state)


class OpenSpielBot:
    """OpenSpiel's generic IS-MCTS bot (uniform random rollouts at the leaves) as a project policy.

    It is asked with a :class:`SideView` like every policy; it gives the bot a state dealt from that
    view (:func:`determinise`, with the view's record), whose information state is the view's, and the
    bot's search resamples its worlds from it as from any state.  ``simulations`` (at least
    :data:`MIN_SIMULATIONS`) each end in ``rollouts`` uniform random games, played by the compiled loop
    (:class:`CompiledRollouts`) unless ``compiled`` is False; every decision is seeded from the game's
    generator.
    """

    exact = False

    def __init__(self, game: GuyenneGame, simulations: int = 100, rollouts: int = 4, uct_c: float = 2.0,
                 compiled: bool = True):
        if simulations < MIN_SIMULATIONS or rollouts < 1:
            raise ValueError(f"the bot needs at least {MIN_SIMULATIONS} simulations and one rollout, not "
                             f"{simulations} x {rollouts}")
        self.game = game
        self.simulations = simulations
        self.rollouts = rollouts
        self.uct_c = uct_c
        self.compiled = compiled
        self.name = f"openspiel-ismcts:{simulations}x{rollouts}"

    def distribution(self, view: SideView) -> list[tuple[Move, Any]]:
        raise NotImplementedError("OpenSpiel's IS-MCTS samples; it has no exact move distribution")

    def choose(self, view: SideView, rng: random.Random) -> Move:
        seed = rng.getrandbits(32)
        state = self.game.state_at(determinise(view, random.Random(seed)), view.record)
        moves = state.legal_actions()
        if len(moves) == 1:
            return self.game.codec.decode(moves[0])
        random_state = np.random.RandomState(seed)
        evaluator = (CompiledRollouts(self.rollouts, random_state) if self.compiled
                     else mcts.RandomRolloutEvaluator(self.rollouts, random_state))
        bot = ismcts.ISMCTSBot(self.game, evaluator, self.uct_c, self.simulations, random_state=random_state)
        worlds = random.Random(seed + 1)
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, worlds.random))
        return self.game.codec.decode(int(bot.step(state)))
