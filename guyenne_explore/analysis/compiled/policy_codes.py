"""What the compiled game loop needs of each side's policy: a policy code and that policy's numbers.

The loop (:mod:`.loop`) decides for side ``s`` by the code ``codes[s]``; a code's decision functions
read the side's row of the per-side parameters (``params[s]``, laid out per code below) and, for a
policy that scores moves, the card tables of :mod:`.heuristic` built from that policy's own worth of
a card and of a removal.  The numbers come from the policy's side
(:meth:`~guyenne_explore.analysis.policies.heuristic.Heuristic.compiled`), so the Python policy and
the compiled one keep one source of them; this module imports no numba, so building them is light.

Adding a policy: a code here (with the layout of its numbers), a decision function per decision
point (placement, removal) in :mod:`.heuristic` or a module beside it, and one branch for the code at
each decision point of :func:`.loop.play`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple, Sequence

import numpy as np

if TYPE_CHECKING:
    from ...engine import Cards, Rules

#: the policy codes: uniformly random legal moves; the heuristic's scored softmax with bluffs; the
#: learned policy's softmax over a linear score of each move's features (:mod:`.strong`); a counter-policy of the
#: gauntlet (:mod:`.counter_kernel`): one idea at the placements, the heuristic's move wherever it has none
UNIFORM, HEURISTIC, STRONG, COUNTER = 0, 1, 2, 3
#: a counter-policy's row: the heuristic's numbers, then its idea's code at :data:`P_IDEA`, one of :data:`IDEAS`
#: (``policies.counters``' names, each the compiled twin of that counter)
IDEAS = ("reader", "bluffer", "folder", "caller", "tell-reader")
I_READER, I_BLUFFER, I_FOLDER, I_CALLER, I_TELL_READER = range(len(IDEAS))
#: the tell reader's most face-down cards read as a hero bet, one more at the castle worth most to the opponent (both
#: twins read it here: ``policies.counters.TellReader``, ``compiled.counter_kernel``)
TELL_SUSPECT = 2
#: the heuristic's numbers, as its row of the per-side parameters
(P_TEMPERATURE, P_RESOLUTION, P_SPEND, P_REMOVAL, P_WIN_WEIGHT, P_HERO_USE, P_BLUFF_NUM,
 P_BLUFF_DEN) = range(8)
N_HEURISTIC = 8
P_IDEA = N_HEURISTIC
#: the learned policy's features of a placement (its row: the heuristic's numbers, of which it reads
#: the temperature, resolution, win weight and hero use, then one weight per feature in this order).
#: Adding one: a name here (at the end, and in ``policies.weights.ADDED``, so that older files read it as 0), its value in
#: ``compiled.strong_kernel.choose_placement`` and in ``policies.strong.features`` (the tests hold them
#: equal), then new weights.
FEATURES = ("gain", "stake", "chance", "spent", "removal", "size", "hero", "share", "lone", "hidden", "answer",
            "hero_safe", "own", "theirs", "edge", "late", "keep", "keep_hero", "big", "risk", "gap", "hero_set",
            "counted")
(F_GAIN, F_STAKE, F_CHANCE, F_SPENT, F_REMOVAL, F_SIZE, F_HERO, F_SHARE, F_LONE, F_HIDDEN, F_ANSWER,
 F_HERO_SAFE, F_OWN, F_THEIRS, F_EDGE, F_LATE, F_KEEP, F_KEEP_HERO, F_BIG, F_RISK, F_GAP,
 F_HERO_SET, F_COUNTED) = range(len(FEATURES))
#: :data:`F_COUNTED`, at an answer: the exact chance that the set wins the battle against the opponent's face-down cards
#: there, every set of that many of its cards out of sight (its hands, deck, face-down discard and face-down placed
#: cards: ``SideView.opponent_hidden``, what the record shows into its discard taken out) counted as equally likely:
#: the record's posterior of those cards before the opponent's play is read (where :data:`F_CHANCE` guesses from the
#: pool's mean and spread, and a hero's use).  0 at an opening, where nothing of the opponent's lies there yet
#: the fewest cards of a set in which :data:`F_HERO_SET` counts the hero as hidden: without a feature of its
#: own, a set's extra cards only add their cost to the hero's score, so a policy's sets of three or more
#: never hold its hero, a tell of its hand (issue 47)
HERO_SET = 3
#: the order in which a move's score ``w . phi`` is summed, by both twins (floats are not associative):
#: the features of the card set alone, then those of the castle's class (neutral, own, the other's)
#: with the set, then those of the castle's stake; each group in this order from 0.0, then
#: ``(cards + class) + stake``.  So the compiled policy works out each group once per set, class or
#: castle, not once a move (an opening scores every set at every castle).
SCORE_GROUPS = ((F_SPENT, F_SIZE, F_HERO, F_SHARE, F_LONE, F_HIDDEN, F_ANSWER, F_HERO_SAFE, F_LATE, F_KEEP,
                 F_KEEP_HERO, F_BIG, F_GAP, F_HERO_SET),
                (F_CHANCE, F_REMOVAL, F_OWN, F_THEIRS, F_EDGE, F_COUNTED),
                (F_GAIN, F_STAKE, F_RISK))
G_CARDS, G_CLASS, G_STAKE = SCORE_GROUPS
#: where the learned policy's network starts in its row, after the weights: its number of hidden units H (0, or
#: a row that ends before it: the linear policy), then its input weights a feature at a time (feature k's weight
#: into unit j at ``k * H + j``; the compiled loop copies them unit by unit once a decision), H biases and H output
#: weights.  A move's score is ``w . phi + sum_j v_j max(0, b_j + U_j . phi)``: the linear score (so a network
#: whose output weights are 0 plays exactly the linear policy it starts from) plus a small network over the
#: same features, which can weigh them together (the hero with the set's size, the stake with the chance).
#: Both twins sum a unit's inputs by the groups of :data:`SCORE_GROUPS`, as :func:`.policies.network.network_term`
#: does, so the compiled loop works out the set's and the class's parts once, not once a move.
NETWORK_AT = N_HEURISTIC + len(FEATURES)
#: the most hidden units a network may have (the compiled loop's scratch holds each unit's inputs by set and class)
MAX_HIDDEN = 16
#: the learned policy's features of a setup discard (RULES.md 2, expert's ``pre_discard``), each from the rules' worth
#: of a card (``policies.heuristic.card_worth``), so they hold under every variant: ``worth``, the worth of the cards
#: discarded (the heuristic's score is minus it: set the weakest aside); ``weakest``, the cards of the deck's weakest
#: valued kind discarded (its cheap bluffs, a lone weak card or the hero hidden with one, need one kept); ``kinds``,
#: the valued kinds the deck keeps (a spread of values answers more totals).  Their weights follow the network in
#: the row (:data:`NETWORK_AT`: a linear model with a discard writes its H as 0 there): their count D (0, or a row
#: that ends before it: the heuristic's discard), then one weight a feature in this order.  A discard's score is
#: ``d . phi``, summed in this order from 0.0, drawn by the heuristic's whole-number softmax (``policies.discard``,
#: ``compiled.heuristic_kernel.choose_discard``).
DISCARD_FEATURES = ("worth", "weakest", "kinds")
D_WORTH, D_WEAKEST, D_KINDS = range(len(DISCARD_FEATURES))
#: the heuristic's discard as the learned discard's weights (minus the worth): what a model without its own plays,
#: and where training starts the discard's weights
HEURISTIC_DISCARD = (-1.0, 0.0, 0.0)
#: the learned policy's features of a team's split (RULES.md 8, ``team_split``: the giver gives ``given`` of the
#: ``held`` cards it holds to its partner, who holds ``partner``): ``alone``, |(held - given) - given|, how unevenly the
#: giver's own cards are shared (the heuristic's score is minus it: both members must place); ``team``,
#: |(held - given) - (partner + given)|, how unevenly the team's two hands hold cards after the split (the heuristic
#: ignores the partner's own cards, which it keeps from round to round); ``worth``, the rules' worth of the cards given
#: (``policies.heuristic.worth``: the heuristic keeps the stronger, minus a hundredth of it; giving them may serve the
#: partner better); ``hero``, 1 where the hero is given (the member who holds it decides where it plays).  Sizes
#: alone of the partner's hand: the giver may not see its partner's cards (RULES.md 8).  Their weights follow the
#: discard's in the row (:func:`split_start`: a model with a split but no discard writes its D as 0, a linear model
#: its H as 0 before it): their count S (0, or a row that ends before it: the heuristic's split), then one weight a
#: feature in this order.  A split's score is ``s . phi``, summed in this order from 0.0, drawn by the heuristic's
#: whole-number softmax (``policies.team_split``, ``compiled.heuristic_kernel.choose_split``).
SPLIT_FEATURES = ("alone", "team", "worth", "hero")
S_ALONE, S_TEAM, S_WORTH, S_HERO = range(len(SPLIT_FEATURES))
#: the heuristic's split as the learned split's weights (minus the evenness, a hundredth of the worth): what a model
#: without its own plays, exactly, and where training starts the split's weights
HEURISTIC_SPLIT = (-1.0, 0.0, -0.01, 0.0)


def network_size(hidden: int) -> int:
    """The numbers of a network of ``hidden`` units in a row (its H, then U, b and v)."""
    return 1 + hidden * (len(FEATURES) + 2)


def discard_start(hidden: int) -> int:
    """Where a model's discard starts (its count D) after its linear weights and a network of ``hidden`` units (the
    H of 0 a linear model with a discard writes): in the model, and after :data:`N_HEURISTIC` in the row."""
    return len(FEATURES) + network_size(hidden)


def split_start(hidden: int, discards: int) -> int:
    """Where a model's split starts (its count S) after a network of ``hidden`` units and ``discards`` discard weights
    (the D of 0 a model with a split but no discard writes): in the model, and after :data:`N_HEURISTIC` in the row."""
    return discard_start(hidden) + 1 + discards


def decision_parts(model: Sequence[float]) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """A model's placement part (its linear weights, then a network's numbers if it has one), its discard's weights
    and its split's (each empty where the model plays the heuristic's): the one reading of the row's tail, after the
    network, that :func:`decision_model` writes."""
    n = len(FEATURES)
    if len(model) <= n:
        return tuple(model), (), ()
    units = int(model[n])
    at = discard_start(units)
    placing = tuple(model[:at]) if units else tuple(model[:n])
    if len(model) <= at:
        return placing, (), ()
    discards = int(model[at])
    at_split = split_start(units, discards)
    discard = tuple(model[at + 1:at_split])
    return placing, discard, tuple(model[at_split + 1:]) if len(model) > at_split else ()


def decision_model(placing: Sequence[float], discard: Sequence[float], split: Sequence[float]) -> tuple[float, ...]:
    """The model of a placement part, discard weights and split weights (:func:`decision_parts`' inverse): the
    shortest row that holds them (a linear model's H and a discard's D written as 0 only where something follows)."""
    out = tuple(float(w) for w in placing)
    if not discard and not split:
        return out
    if len(out) == len(FEATURES):  # a linear model: its H of 0 before the discard
        out += (0.0,)
    out += (float(len(discard)),) + tuple(float(w) for w in discard)
    return out + ((float(len(split)),) + tuple(float(w) for w in split) if split else ())


class SidePolicy(NamedTuple):
    """One side's policy as the compiled loop plays it."""

    code: int
    #: the policy's numbers in its code's layout (the side's row of the loop's parameters)
    params: tuple[float, ...] = ()
    #: for a policy that scores moves: a card kind's worth under the rules, and the worth the rules
    #: remove from cards english placed at a castle of a control when english wins or loses the battle
    card_worth: Callable[[Rules, int], float] | None = None
    removal_loss: Callable[[Rules, int, Cards, bool], float] | None = None
    #: a mixture's members (:mod:`..policies.mixture`): each member's whole-number odds and row, one member drawn
    #: by its odds at each of the side's decisions, or once a game (``per_game``; ``params`` is then the first
    #: member's row); empty: ``params`` alone
    members: tuple[tuple[int, tuple[float, ...]], ...] = ()
    #: the mixture draws its member once a game, after the deal, not at each decision (``params`` holds its odds
    #: negative: :func:`.loop.member_row`)
    per_game: bool = False

    @property
    def scores(self) -> bool:
        """Whether the policy scores moves (and so needs the card tables of :mod:`.heuristic`)."""
        return self.code != UNIFORM


UNIFORM_SIDE = SidePolicy(UNIFORM)
UNIFORM_SIDES = (UNIFORM_SIDE, UNIFORM_SIDE)


def codes(sides: tuple[SidePolicy, SidePolicy]) -> np.ndarray:
    """The loop's policy codes of both sides."""
    return np.array([s.code for s in sides], np.int64)


def params(sides: tuple[SidePolicy, SidePolicy]) -> np.ndarray:
    """The loop's per-side parameters: ``[s, m]`` holds member ``m`` of side ``s``'s policy, its whole-number odds
    then its numbers (zeros after them; a policy that is no mixture is its one member, of odds 1; a side with
    fewer members than the other has rows of odds 0; a mixture drawn once a game has its odds negative), one shape
    for both so that every pair of policies calls the one compiled version (:func:`.loop.member_row` reads them)."""
    rows = [s.members or ((1, s.params),) for s in sides]
    members = max(len(r) for r in rows)
    width = max(1, *(len(row) for r in rows for _odds, row in r))
    out = np.zeros((2, members, 1 + width), np.float64)
    for i, r in enumerate(rows):
        for m, (odds, row) in enumerate(r):
            out[i, m, 0] = -odds if sides[i].per_game and len(r) > 1 else odds
            out[i, m, 1:1 + len(row)] = row
    return out


#: the most members whose mean distribution is exact in whole numbers: its weights multiply the members' totals (each
#: at most the softmax's resolution times the moves), and three keep that product within 64 bits; a mixture of more
#: rounds each member's distribution to :data:`SHARE` parts first (``policies.mixture.mixed``)
EXACT_MEMBERS = 3
#: the whole-number parts a member's distribution is rounded to in the mean of more than :data:`EXACT_MEMBERS`: a
#: move's share is within 2^-41 of its member's, and ``policies.mixture.MAX_MEMBERS`` times the odds (at most 1000)
#: times ``SHARE`` stays within 64 bits
SHARE = 2 ** 40
