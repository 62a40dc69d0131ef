"""The learned policy: a softmax over a learned score of each legal placement's features, from its own view.

The score is linear in the features, plus, for a model with a network (:mod:`.network`), a small rectified network
over the same features; ``strong-linear`` plays the package's linear weights alone.

Each legal placement gets the features of :data:`FEATURES` (the heuristic's ingredients, read from
the side's view and the engine's tables: the castle's stake by the engine's scoring, the guessed
chance to win the battle against the opponent's unseen cards, the worth of the cards spent and of
what the battle would remove, the move's size, the hero, the bluffing openings, the cards the
opponent placed where it answers, the castle's control, the cards' edge over the expected answer,
the share of the side's unspent cards spent; at a first battle, what the move keeps for the second,
its valued total and the hero; the size of an answer to a big bet of three or more cards; the stake
times the battle's uncertainty ``p (1 - p)``, a small nonlinearity; the move's size times the lead
in unspent cards, the tie-break; the hero in a set of :data:`HERO_SET` or more cards; at an answer, the exact
chance to win against the opponent's face-down cards there, every set of its hidden cards counted,
:func:`counted`) and the score
``w . phi``; the move is drawn by the heuristic's whole-number softmax, so the distribution is exact and the compiled twin
(:mod:`..compiled.strong_kernel`) picks the same move from one random number.  The expert setup discard is drawn the
same way from a learned score of a few features of each discard where the model has discard weights
(:mod:`.discard`; the compiled twin ``compiled.heuristic_kernel.choose_discard``), else it is the heuristic's, as
removals and the team's order are; a team's split likewise, from its own split weights where the model has them
(:mod:`.team_split`, the partner's hand counted by its size; ``compiled.heuristic_kernel.choose_split``).

The weights are data, learned by :mod:`.train` and shipped beside this module, one file a preset
(:mod:`.weights`): under rules equal to a preset the policy plays that preset's weights, under a
variant those of the preset it was made from (every feature is asked of the rules in force, so one model serves every variant),
or the weights of a file trained for the variant (``strong@FILE``).  Adding a feature: its name in
``compiled.policy_codes.FEATURES``, its value here (:func:`features`) and in ``compiled.strong_kernel.choose_placement``,
then train new weights files (a file names each weight by its feature: an unknown name is refused, a
missing one reads 0, so an older file plays as it did).

The opponent's hero is guessed from the public record (:func:`seen_facts`): a hero the record shows in the
opponent's discard is not counted as out of sight, where the heuristic, which keeps no memory, counts it.  So its
move depends on the game's history, not on the position alone: it says so (``remembers``), and an exact enumeration
carries the record along each path for it, as the game loop does.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from ...engine import (CONCEDE_CHOICE, ENGLISH, FRENCH, HERO, OPEN_FIRST, OPEN_SECOND, SETUP_DISCARD, TEAM_SPLIT,
                          Cards, Move, Rules, SideView, battle_of, concede_move, value_of)
from ..compiled.policy_codes import (DISCARD_FEATURES, FEATURES, HERO_SET, MAX_HIDDEN, N_HEURISTIC, P_HERO_USE,
                                     P_RESOLUTION, P_TEMPERATURE, P_WIN_WEIGHT, SCORE_GROUPS, SPLIT_FEATURES, STRONG,
                                     decision_parts, discard_start, split_start)
from ..compiled.policy_codes import SidePolicy
from . import discard, team_split
from . import weights as files
from .mixture import Mixture, checked_odds, mixed, mixed_scores
from .network import network_term, split
from .heuristic import (HERO_USE, RESOLUTION, TEMPERATURE, WIN_WEIGHT, Facts, Heuristic, battle_terms, card_worth,
                        facts, pick, removal_loss, worth)

#: the shipped model of rules that are no preset: its weights by feature name, and how it was trained
WEIGHTS_FILE = files.preset_file(None)
#: the level that plays the package's linear weights alone (the policy before its network)
LINEAR_NAME = "strong-linear"


def load_weights(path: Path = WEIGHTS_FILE) -> tuple[float, ...]:
    """The weights of a model file, by feature name (a ValueError names the file and the problem)."""
    return files.read_model(path).weights


def checked_weights(names: object, weights: object, where: str = "weights") -> tuple[float, ...]:
    """``weights`` as a tuple of finite floats: one per feature of :data:`FEATURES`, in its order, then a network's
    numbers if it has one (:mod:`.network`: its hidden units first, so the length says whether it is whole), then
    a discard's if it has one (:mod:`.discard`: their count first; a linear model's hidden units are 0 before it),
    then a team split's if it has one (:mod:`.team_split`: their count first; a discard's count 0 before it)."""
    if names is not None and list(names) != list(FEATURES):  # type: ignore[call-overload]
        raise ValueError(f"{where}: features {names!r} are not this policy's {list(FEATURES)!r} (retrain the model)")
    n = len(FEATURES)
    if not isinstance(weights, (list, tuple)) or len(weights) < n:
        raise ValueError(f"{where}: weights must be a list of {n} numbers, one per feature, then a network's")
    end = split_at = n
    if len(weights) > n:
        units = weights[n]
        if not isinstance(units, (int, float)) or units != int(units) or not 0 <= units <= MAX_HIDDEN \
                or len(weights) < discard_start(int(units)) or (units == 0 and len(weights) == n + 1):
            raise ValueError(f"{where}: a network's numbers must be its hidden units (1 to {MAX_HIDDEN}) then "
                             f"{len(FEATURES) + 2} numbers a unit")
        end = split_at = discard_start(int(units))
        if len(weights) > end:
            discards = weights[end]
            if discards not in (0, len(DISCARD_FEATURES)) or len(weights) < split_start(int(units), int(discards)) \
                    or (discards == 0 and len(weights) == end + 1):
                raise ValueError(f"{where}: a discard's numbers must be their count ({len(DISCARD_FEATURES)}) then "
                                 f"one weight a feature of {list(DISCARD_FEATURES)!r}")
            split_at = split_start(int(units), int(discards))
        if len(weights) > split_at and (weights[split_at] != len(SPLIT_FEATURES)
                                        or len(weights) != split_at + 1 + len(SPLIT_FEATURES)):
            raise ValueError(f"{where}: a team split's numbers must be their count ({len(SPLIT_FEATURES)}) then one "
                             f"weight a feature of {list(SPLIT_FEATURES)!r}")
    out = []
    for i, w in enumerate(weights):
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
            name = (FEATURES[i] if i < n else "the network" if i < end else "the discard" if i < split_at
                    else "the team split")
            raise ValueError(f"{where}: the weight of {name} must be a finite number, not {w!r}")
        out.append(float(w))
    return tuple(out)


def features(view: SideView, move: Move, known: Facts) -> tuple[float, ...]:
    """The features of a placement, in :data:`FEATURES`' order (as ``compiled.strong_kernel`` computes them);
    ``known``: the view's :func:`seen_facts`."""
    rules, point, me = view.rules, view.to_play, view.side
    battle, stake, p, rel, loss = battle_terms(view, move, known)
    cards = move.cards
    size = float(cards.size)
    hero = cards[HERO] > 0
    opening = point in (OPEN_FIRST, OPEN_SECOND)
    weakest = next((k for k in range(HERO) if view.hand[k]), None)
    lone = opening and weakest is not None and cards.size == 1 and cards[weakest] == 1
    hidden = opening and weakest is not None and cards.size == 2 and hero and cards[weakest] == 1
    answer = 0.0 if opening else size - known.opponent_placed_sizes[battle]
    return (stake * p, stake, p, worth(rules, cards), loss, size, 1.0 if hero else 0.0, size / view.hand.size,
            1.0 if lone else 0.0, 1.0 if hidden else 0.0, answer, 1.0 if hero and not known.pool[2] else 0.0,
            1.0 if rel == ENGLISH else 0.0, 1.0 if rel == FRENCH else 0.0, 0.0 if hero else edge(cards, battle, rel, known),
            size / known.unspent[me], (view.hand.total - cards.total) / 10.0 if battle == 0 else 0.0,
            1.0 if battle == 0 and view.hand[HERO] and not hero else 0.0,
            size if not opening and known.opponent_placed_sizes[battle] >= 3 else 0.0, stake * p * (1 - p),
            size * (known.unspent[me] - known.unspent[1 - me]) / 10.0,
            1.0 if hero and cards.size >= HERO_SET else 0.0,
            0.0 if opening else counted(view, cards, battle, rel == ENGLISH))


def counted(view: SideView, cards: Cards, battle: int, defends: bool) -> float:
    """The exact chance that ``cards`` win ``battle`` against the opponent's face-down cards there, every set of that
    many of its hidden cards (``SideView.opponent_hidden``: the record's posterior before its play is read) counted as
    equally likely; a tie holds where the side defends, two heroes tie.  :data:`..compiled.policy_codes.F_COUNTED`, as
    ``compiled.strong_kernel.counted_chance`` works it out: whole numbers of sets, one division."""
    m = view.opponent_placed_sizes[battle]
    by_total, hero_sets, all_sets = count_table(view.opponent_hidden, m)
    if not all_sets:
        return 0.0
    if cards[HERO]:
        return (all_sets - hero_sets + (hero_sets if defends else 0)) / all_sets
    total = cards.total
    return (sum(by_total[:total]) + (by_total[total] if defends and total < len(by_total) else 0)) / all_sets


@lru_cache(maxsize=1 << 12)
def count_table(hidden: Cards, m: int) -> tuple[tuple[int, ...], int, int]:
    """The sets of ``m`` of the ``hidden`` cards: those of valued cards alone by their total, those that hold the
    hero, and all of them (``math.comb``)."""
    ways = {(0, 0): 1}  # (cards, total): sets of valued cards
    for k in range(HERO):
        n = hidden[k]
        if not n:
            continue
        grown = dict(ways)
        for (c, t), w in ways.items():
            for j in range(1, min(n, m - c) + 1):
                key = (c + j, t + j * value_of(k))
                grown[key] = grown.get(key, 0) + math.comb(n, j) * w
        ways = grown
    top = max((t for c, t in ways if c == m), default=0)
    by_total = tuple(ways.get((m, t), 0) for t in range(top + 1))
    hero_sets = sum(math.comb(hidden[HERO], j) * sum(w for (c, _t), w in ways.items() if c == m - j)
                    for j in range(1, min(hidden[HERO], m) + 1))
    return by_total, hero_sets, math.comb(hidden.size, m)


def seen_facts(view: SideView) -> Facts:
    """The heuristic's :func:`~.heuristic.facts` of a view with the opponent's hero read from the public
    record: a hero the record shows face up in the opponent's discard cannot be played until that discard
    is reshuffled, so it is not counted as out of sight (the heuristic, which keeps no memory, counts
    it: that was strong's guess too, wrong at about half of its placements).  What :func:`features` reads."""
    known = facts(view)
    mean, spread, hero = known.pool
    return known._replace(pool=(mean, spread, hero and view.opponent_hidden[HERO] > 0))


def edge(cards: Cards, battle: int, rel: int, known: Facts) -> float:
    """How far the cards' total stands above the opponent's expected answer, in spreads (what
    :func:`.heuristic.win_chance` turns into a chance); ``rel``: the castle's control, ENGLISH for
    the side's own."""
    mean, spread, _hero = known.pool
    count = known.opponent_placed_sizes[battle] or 2
    adj = 0.5 if rel == ENGLISH else -0.5 if rel == FRENCH else 0.0
    return (cards.total - count * mean + adj) / (spread * math.sqrt(count))


def linear(w: Sequence[float], phi: Sequence[float]) -> float:
    """``w . phi`` summed as the compiled twin sums it (floats are not associative): each group of
    :data:`SCORE_GROUPS` from 0.0 in its order, then ``(cards + class) + stake``."""
    cards, control, stake = (_dot(w, phi, group) for group in SCORE_GROUPS)
    return (cards + control) + stake


def _dot(w: Sequence[float], phi: Sequence[float], group: Sequence[int]) -> float:
    s = 0.0
    for i in group:
        s = s + w[i] * phi[i]
    return s


class Strong:
    """The learned policy: the softmax of ``w . phi`` over placements, the heuristic elsewhere; a mixture of such
    models (:mod:`.mixture`) draws one member by its odds at each placement, setup discard and team split, or once a
    game (:meth:`begin_game`).

    The distribution is exact (fractions of whole-number weights) and :meth:`choose` draws from
    exactly that distribution with one ``randrange`` of its total (a mixture's member first, with one of its odds').
    """

    name = "strong"
    exact = True
    #: its hero estimate reads the public record (an opponent's hero shown in the discard is seen)
    remembers = True

    def __init__(self, weights: Sequence[float] | None = None, temperature: float = TEMPERATURE,
                 file: Path | None = None, linear: bool = False, mixture: Mixture | None = None):
        """``weights`` in :data:`FEATURES`' order (then a network's numbers), else the members of ``mixture``, else
        what ``file`` holds (a model or a mixture), else the package's for the rules of each position asked
        (:func:`.weights.preset_file`; ``linear``: the linear policy's files, the level ``strong-linear``)."""
        self.mixture: Mixture | None = (
            Mixture.alone(checked_weights(None, list(weights))) if weights is not None
            else Mixture(tuple(checked_weights(None, list(m), f"member {j + 1}") for j, m in enumerate(mixture.members)),
                         checked_odds(list(mixture.odds), len(mixture.members), "mixture"), bool(mixture.per_game))
            if mixture is not None else files.read_model(file).played() if file is not None else None)
        #: the model (a mixture's first member: where training starts), None for the package's
        self.model = self.mixture.members[0] if self.mixture is not None else None
        self.temperature = temperature
        self.linear = linear
        if linear and self.model is None:
            self.name = LINEAR_NAME
        self._rest = Heuristic(temperature=temperature)

    def tempered(self, factor: float) -> Strong:
        """This policy at ``factor`` times its temperature (its models and files kept)."""
        return Strong(temperature=self.temperature * factor, linear=self.linear, mixture=self.mixture)

    def played(self, rules: Rules | None) -> Mixture:
        """What is played under ``rules``: this policy's own, else the package's for those rules."""
        return self.mixture if self.mixture is not None else files.shipped_mixture(files.preset_file(rules, self.linear))

    def model_for(self, rules: Rules | None) -> tuple[float, ...]:
        """The weights played under ``rules`` (a mixture's first member's): this policy's own, else the package's."""
        return self.played(rules).members[0]

    def scored(self, view: SideView) -> list[tuple[Move, float]]:
        """Each legal placement with its score ``w . phi`` (at a placement only; a mixture's, the odds-weighted mean
        of its members' scores, :func:`.mixture.mixed_scores`)."""
        mix, featured = self.played(view.rules), self.featured(view)
        each = [self._scored(featured, model) for model in mix.members]
        return each[0] if mix.single else mixed_scores(each, mix.odds)

    @staticmethod
    def featured(view: SideView) -> list[tuple[Move, tuple[float, ...]]]:
        """Each legal placement with its features: the same for every member of a mixture, worked out once."""
        known = seen_facts(view)
        return [(m, features(view, m, known)) for m in view.legal_moves]

    @staticmethod
    def _scored(featured: list[tuple[Move, tuple[float, ...]]], model: tuple[float, ...]) -> list[tuple[Move, float]]:
        """Each placement of ``featured`` with its score by one ``model``."""
        linear_part, net = split(model)
        return [(m, linear(linear_part, phi) + network_term(net, phi)) for m, phi in featured]

    def discarded(self, view: SideView, weights: tuple[float, ...]) -> list[tuple[Move, float]]:
        """Each legal setup discard with its score ``d . phi`` by the discard ``weights`` (:mod:`.discard`)."""
        assert view.choice is not None  # the side deciding the discard sees its choice
        deck = view.choice.source
        return [(m, discard.discard_score(weights, discard.features(view.rules, deck, m.cards)))
                for m in view.legal_moves]

    def split(self, view: SideView, weights: tuple[float, ...]) -> list[tuple[Move, float]]:
        """Each legal team split with its score ``s . phi`` by the split ``weights`` (:mod:`.team_split`): the giver's
        own hand (``view.hand``, the partner's when it gives its empty drawer a card) and its partner's size."""
        held, partner = view.hand.size, view.partner_hand_size
        assert partner is not None  # a team's member sees its partner's hand size
        return [(m, team_split.split_score(weights, team_split.features(view.rules, held, partner, m.cards)))
                for m in view.legal_moves]

    def ranked(self, view: SideView) -> list[Move]:
        """The legal moves best first: by score at a placement (so that the moves a near-certain choice
        gives no weight are still in order), by weight elsewhere; ties in the engine's move order."""
        if battle_of(view.to_play) is None:
            return [m for m, _ in sorted(self.weights(view), key=lambda mw: -mw[1])]
        return [m for m, _ in sorted(self.scored(view), key=lambda ms: -ms[1])]

    @staticmethod
    def draws(view: SideView) -> bool:
        """Whether a mixture draws a member for this decision (a placement, a setup discard, a team split: the
        decisions a model has weights for; removals and a team's order are the heuristic's for every member)."""
        return battle_of(view.to_play) is not None or view.to_play in (SETUP_DISCARD, TEAM_SPLIT)

    def weights(self, view: SideView) -> list[tuple[Move, int]]:
        """Each legal move with its whole-number weight (the move's probability is its share; a mixture's, the
        odds-weighted mean of its members' distributions, :func:`.mixture.mixed`)."""
        mix = self.played(view.rules)
        if mix.single or not self.draws(view):
            return self.member_weights(view, mix.members[0])
        featured = self.featured(view) if battle_of(view.to_play) is not None else None
        return mixed([self.member_weights(view, model, featured) for model in mix.members], mix.odds)

    def member_weights(self, view: SideView, model: tuple[float, ...],
                       featured: list[tuple[Move, tuple[float, ...]]] | None = None) -> list[tuple[Move, int]]:
        """Each legal move with its whole-number weight by one ``model`` (a mixture's member; ``featured``: the
        placements' :meth:`featured`, when the caller has them)."""
        if battle_of(view.to_play) is None:  # its own discard and split where it has them, else the heuristic's
            _, own_discard, own_split = decision_parts(model)
            if view.to_play == SETUP_DISCARD and own_discard:
                scored = self.discarded(view, own_discard)
            elif view.to_play == TEAM_SPLIT and own_split:
                scored = self.split(view, own_split)
            else:  # removals, team orders, the decisions it has no weights for
                return self._rest.weights(view)
        else:
            scored = self._scored(featured if featured is not None else self.featured(view), model)
        moves, scores = [m for m, _ in scored], [s for _, s in scored]
        top = max(scores)
        soft = [math.floor(RESOLUTION * math.exp((s - top) / self.temperature) + 0.5) for s in scores]
        return [(m, w) for m, w in zip(moves, soft) if w > 0]

    def distribution(self, view: SideView) -> list[tuple[Move, Fraction]]:
        if view.to_play == CONCEDE_CHOICE:
            return [(concede_move(view), Fraction(1))]
        weighted = self.weights(view)
        total = sum(w for _, w in weighted)
        return [(m, Fraction(w, total)) for m, w in weighted]

    def choose(self, view: SideView, rng: random.Random) -> Move:
        if view.to_play == CONCEDE_CHOICE:
            return concede_move(view)
        mix = self.played(view.rules)
        if mix.single or not self.draws(view):
            weighted = self.member_weights(view, mix.members[0])
        else:  # a member first, by its odds (as the compiled loop's member_row), then its own pick
            weighted = self.member_weights(view, mix.members[mix.member(rng.randrange(sum(mix.odds)))])
        return pick(weighted, rng.randrange(sum(w for _, w in weighted)))

    def begin_game(self, rules: Rules, rng: random.Random) -> Strong:
        """The policy that plays a game under ``rules`` from its start: a mixture drawn once a game draws its member
        here (one ``randrange`` of its odds' total, as the compiled loop's ``game_members`` draws it after the deal)
        and that member plays every decision of the game; any other policy is itself and draws nothing.  Asked at a
        decision without it, such a mixture plays the odds-weighted mean of its members (what an opponent who has
        seen none of its games can know of it)."""
        mix = self.played(rules)
        if mix.single or not mix.per_game:
            return self
        return self._member(mix.members[mix.member(rng.randrange(sum(mix.odds)))])

    def game_members(self, rules: Rules) -> list[tuple[Fraction, Strong]]:
        """What plays a game under ``rules``, each with its probability: each member of a mixture drawn once a game
        by its share of the odds (an exact enumeration sums over them), else this policy alone."""
        mix = self.played(rules)
        if mix.single or not mix.per_game:
            return [(Fraction(1), self)]
        return [(Fraction(odds, sum(mix.odds)), self._member(m)) for odds, m in zip(mix.odds, mix.members)]

    def _member(self, model: tuple[float, ...]) -> Strong:
        """One member as a policy of its own, at this policy's temperature (a plain :class:`Strong`: a subclass that
        changes how moves are chosen must override this to keep its behaviour in the member)."""
        return Strong(temperature=self.temperature, linear=self.linear, mixture=Mixture.alone(model))

    def compiled(self, rules: Rules | None = None) -> SidePolicy:
        """This policy as the compiled game loop plays it under ``rules`` (None: rules that are no preset):
        the heuristic's numbers it reads (temperature, resolution, win weight, hero use) in their places,
        then its weights (a mixture's members each so, with their odds); the heuristic's worth of a card and of a
        removal (the same tables as the heuristic's, so the two can meet in one batch)."""
        numbers = [0.0] * N_HEURISTIC
        for i, value in ((P_TEMPERATURE, self.temperature), (P_RESOLUTION, RESOLUTION), (P_WIN_WEIGHT, WIN_WEIGHT),
                         (P_HERO_USE, HERO_USE)):
            numbers[i] = float(value)
        mix = self.played(rules)
        rows = tuple((odds, tuple(numbers) + model) for odds, model in zip(mix.odds, mix.members))
        return SidePolicy(STRONG, rows[0][1], card_worth, removal_loss, () if mix.single else rows,
                          mix.per_game and not mix.single)
