"""A mixture of learned models: its compiled and Python twins are one policy (a member drawn at each decision), its
distribution is the odds-weighted mean of its members', the search reads it exactly, and a mixture file round-trips
and refuses bad odds and members in words."""

import json
import random
from fractions import Fraction

import pytest

from guyenne_explore.analysis import PolicySpec
from guyenne_explore.analysis.compiled import policy_codes as sides
from guyenne_explore.analysis.compiled.rollout import traced
from guyenne_explore.analysis.playtest.people import tempered
from guyenne_explore.analysis.policies import weights as files
from guyenne_explore.analysis.policies.discard import with_discard
from guyenne_explore.analysis.policies.mixture import EXACT_MEMBERS, MAX_MEMBERS, SHARE, Mixture, mixed
from guyenne_explore.analysis.policies.strong import Strong
from guyenne_explore.analysis.policies.team_split import with_team_split
from guyenne_explore.cli import main
from guyenne_explore.analysis.exact.distribution import exact_distribution
from guyenne_explore.engine import UNIFORM, Position, Rules, weights_fingerprint
from guyenne_explore.engine.game_loop import play
from guyenne_explore.engine.position import PLACEMENTS
from tests.conftest import uniform_step
from tests.replaying import replay_trace
from tests.test_network import NET, network
from tests.test_search_fast import _placements, compiled_move_weights

def _uncounted(model: tuple[float, ...]) -> tuple[float, ...]:
    """``model`` with its weights of ``counted`` 0 (linear and network): the exact answers below enumerate every
    position their play reaches, so their members play as they did before it was added (12 s on two cores; with the
    networks of another draw, 213 s); ``tests/test_strong.py`` and ``tests/test_network.py`` check its reading."""
    out, n, k = list(model), len(sides.FEATURES), sides.FEATURES.index("counted")
    units = int(out[n])
    out[k] = 0.0
    for j in range(units):
        out[n + 1 + k * units + j] = 0.0
    return tuple(out)


OTHER = _uncounted(network(4, 77, scale=0.8))
#: two members of different sizes and decisions: one with its own discard and split, one with the heuristic's
MIX = Mixture((with_team_split(with_discard(_uncounted(NET), (-0.3, -0.4, 0.25)), (-0.4, -0.6, 0.3, 0.8)), OTHER),
              (2, 1))


class Twin:
    """A mixture's Python twin for a replay: each member's weights at a decision a member is drawn for (the
    compiled trace says the pick, not the member), and which members matched each decision."""

    def __init__(self, strong: Strong):
        self.strong, self.matched = strong, []

    def each_weights(self, view):
        mix = self.strong.played(view.rules)
        if not self.strong.draws(view):
            return [self.strong.weights(view)]
        return [self.strong.member_weights(view, m) for m in mix.members]


@pytest.mark.parametrize("rules", ["advanced", "expert", "team3"])
def test_the_compiled_mixture_draws_a_member_a_decision_as_the_python_mixture(rules):
    start, strong = Position.start(Rules.preset(rules)), Strong(mixture=MIX)
    twin = Twin(strong)
    for index in range(3):
        rows, kinds, out = traced(start, 5, index, (strong.compiled(), strong.compiled()))
        replay_trace(start, rows, kinds, out, lambda side: twin)
    # each member alone explains some decisions: the loop draws both, not one for the game
    only = [m[0] for m in twin.matched if len(m) == 1]
    assert len(twin.matched) > 40 and {0, 1} <= set(only)


class EveryMember(Twin):
    """A twin whose every decision lists each member's weights (a decision no member draws for, each the same)."""

    def each_weights(self, view):
        listed = super().each_weights(view)
        return listed * len(MIX.members) if len(listed) == 1 else listed


def _members_of_each_game(twin: Twin, sides: list[int]) -> list[set[int]]:
    """For each side of a replayed game, the members that explain every one of its decisions."""
    out = []
    for side in (0, 1):
        each = [set(m) for m, s in zip(twin.matched, sides) if s == side]
        out.append(set.intersection(*each) if each else {0, 1})
    return out


@pytest.mark.parametrize("rules", ["advanced", "expert", "team3"])
def test_a_mixture_drawn_once_a_game_plays_one_member_the_whole_game_in_both_twins(rules):
    start, strong = Position.start(Rules.preset(rules)), Strong(mixture=MIX._replace(per_game=True))
    assert sides.params((strong.compiled(), strong.compiled()))[:, :, 0].tolist() == [[-2, -1], [-2, -1]]
    alone = set()
    for index in range(8):
        twin = EveryMember(strong)
        rows, kinds, out = traced(start, 5, index, (strong.compiled(), strong.compiled()))
        checked = replay_trace(start, rows, kinds, out, lambda side, twin=twin: twin)
        for members in _members_of_each_game(twin, checked):
            assert members, "no member explains every decision of a side's game"
            if len(members) == 1:
                alone |= members
    assert alone == {0, 1}  # over the games, each member plays some
    # the Python game loop draws the member once (begin_game) and that member makes every decision
    chosen = [strong.begin_game(start.rules, random.Random(seed)) for seed in range(400)]
    assert {c.model for c in chosen} == set(MIX.members)
    assert 0.58 < sum(c.model == MIX.members[0] for c in chosen) / 400 < 0.75  # odds 2:1
    # the engine's game loop: every placement of a side's game is decided by one member's model
    for seed in range(3):
        assert _models_of_each_side(start, strong, seed) in ({0: {m}, 1: {n}} for m in MIX.members for n in MIX.members)


def _models_of_each_side(start: Position, strong: Strong, seed: int) -> dict[int, set]:
    """The models that decided each side's placements in the engine's game ``seed`` of ``strong`` against itself."""
    used: dict[int, set] = {0: set(), 1: set()}
    original = Strong.member_weights

    def recorded(self, view, model, featured=None):
        if view.to_play in PLACEMENTS:
            used[view.side].add(model)
        return original(self, view, model, featured)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Strong, "member_weights", recorded)
        play(start, random.Random(seed), (strong, strong))
    return used


def test_the_engines_loop_mixes_a_mixture_drawn_at_each_decision_within_a_game():
    start, strong = Position.start(Rules.preset("advanced")), Strong(mixture=MIX)
    assert any(len(models) == 2 for models in _models_of_each_side(start, strong, 0).values())


def test_a_mixture_drawn_at_each_decision_mixes_its_members_within_a_game():
    start, strong = Position.start(Rules.preset("advanced")), Strong(mixture=MIX)
    assert strong.begin_game(start.rules, random.Random(1)) is strong
    mixed = 0
    for index in range(4):
        twin = EveryMember(strong)
        rows, kinds, out = traced(start, 5, index, (strong.compiled(), strong.compiled()))
        mixed += sum(not members for members in _members_of_each_game(
            twin, replay_trace(start, rows, kinds, out, lambda side, twin=twin: twin)))
    assert mixed  # some side's game needs both members


def test_an_exact_answer_under_a_mixture_drawn_once_a_game_is_the_odds_weighted_sum_of_its_members():
    p = _endgame()
    per_game = Strong(mixture=MIX._replace(per_game=True))
    one, two = (Strong(m) for m in MIX.members)
    told: list[int] = []
    dist, states = exact_distribution(p, (per_game, UNIFORM), progress=told.append)
    assert told and told == sorted(told) and told[-1] <= states  # one count over both members' solves
    first, _ = exact_distribution(p, (one, UNIFORM))
    second, _ = exact_distribution(p, (two, UNIFORM))
    expected = {o: Fraction(2, 3) * first.get(o, 0) + Fraction(1, 3) * second.get(o, 0) for o in {*first, *second}}
    assert dist == {o: q for o, q in expected.items() if q}
    assert dist != exact_distribution(p, (Strong(mixture=MIX), UNIFORM))[0]  # drawn at each decision: another answer


def test_the_exact_cost_counts_a_solve_for_each_pair_of_members(tmp_path):
    from guyenne_explore.analysis.planning import estimate_exact_cost

    p = _endgame()
    for per_game in (False, True):
        files.write_mixture(tmp_path / f"{per_game}.json", [files.Model(m, {}, "advanced") for m in MIX.members],
                            (2, 1), {}, "advanced", per_game=per_game)
    mean, drawn = (f"strong@{tmp_path / f'{per_game}.json'}" for per_game in (False, True))
    # the probes follow the same mean distribution either way; drawn once a game, each pair of members is one solve
    states, seconds = estimate_exact_cost(p, (mean, "uniform"), pilot=False)
    assert estimate_exact_cost(p, (drawn, "uniform"), pilot=False) == (2 * states, 2 * seconds)
    states, seconds = estimate_exact_cost(p, (mean, mean), pilot=False)
    assert estimate_exact_cost(p, (drawn, drawn), pilot=False) == (4 * states, 4 * seconds)


def _endgame() -> Position:
    """A seeded advanced position a few rounds from its end, where the two members play differently."""
    for seed in range(100):
        rng, p = random.Random(seed), Position.start(Rules.preset("advanced", exhaustion_limit=1))
        while not p.is_over:
            if p.to_play == "open_first" and all(s.hand.size + s.deck.size <= 5 for s in p.sides):
                return p
            p = uniform_step(p, rng)
    raise AssertionError("no seed reaches a short endgame")


def test_a_policy_that_is_no_mixture_plays_the_games_it_played_before():
    # a lone model draws no member: its games are those of its compiled row alone (no random number spent)
    start = Position.start(Rules.preset("advanced"))
    alone = Strong(NET).compiled()
    assert alone.members == () and sides.params((alone, alone)).shape[1] == 1
    twin = Strong(NET)
    rows, kinds, out = traced(start, 9, 0, (alone, alone))
    assert len(replay_trace(start, rows, kinds, out, lambda side: twin)) > 10


@pytest.mark.parametrize("preset", ["advanced", "team3"])
def test_a_mixtures_distribution_is_the_odds_weighted_mean_of_its_members(preset):
    strong = Strong(mixture=MIX)
    members = [Strong(m) for m in MIX.members]
    for p in _placements(preset, 3, 8):
        view = p.view(p.side_to_play)
        mixed = dict(strong.distribution(view))
        mean: dict = {}
        for odds, member in zip(MIX.odds, members):
            for move, q in member.distribution(view):
                mean[move] = mean.get(move, 0) + Fraction(odds, sum(MIX.odds)) * q
        assert mixed == {m: q for m, q in mean.items() if q}
        # ranked by the odds-weighted mean of the members' scores
        scores = [dict(member.scored(view)) for member in members]
        best = strong.ranked(view)[0]
        assert best == max(view.legal_moves, key=lambda m: sum(o * s[m] for o, s in zip(MIX.odds, scores)))


@pytest.mark.parametrize("preset, many", [("advanced", False), ("team", False), ("advanced", True), ("team3", True)])
def test_the_searchs_compiled_weights_of_a_mixture_are_the_python_mixtures(preset, many):
    # (``many``: more members than the exact mean holds, each member's distribution rounded to SHARE parts)
    strong = Strong(mixture=MANY if many else MIX)
    for p in _placements(preset, 6, 6):
        view = p.view(p.side_to_play)
        moves, wts, scores = compiled_move_weights(p, strong)
        assert {m: w for m, w in zip(moves, wts) if w > 0} == dict(strong.weights(view))
        python = dict(strong.scored(view))
        assert all(python[m] == s for m, s in zip(moves, scores))


#: a population's Nash mixture of more members than the exact mean holds, drawn once a game
MANY = Mixture(tuple(network(4, 300 + j, scale=0.6) for j in range(MAX_MEMBERS)), tuple(range(1, MAX_MEMBERS + 1)),
               per_game=True)


def test_the_mean_of_more_members_than_the_exact_one_holds_is_within_its_rounding():
    rng = random.Random(5)
    for count in (EXACT_MEMBERS + 1, MAX_MEMBERS):
        weighted = [[(m, rng.randint(0, 1000)) for m in range(40)] for _ in range(count)]
        odds = [rng.randint(1, 1000) for _ in range(count)]
        got = dict(mixed(weighted, odds))
        total = sum(got.values())
        for m in range(40):
            exact = sum(Fraction(o * dict(w)[m], sum(x for _, x in w)) for o, w in zip(odds, weighted)) / sum(odds)
            assert abs(Fraction(got.get(m, 0), total) - exact) <= Fraction(count, SHARE)
        assert total < 2 ** 63


def test_a_mixture_file_round_trips_and_plays_its_members(tmp_path):
    one, two = files.Model(MIX.members[0], {"seed": 1}, "expert"), files.Model(OTHER, {"seed": 2}, "expert")
    path = tmp_path / "mix.json"
    files.write_mixture(path, [one, two], (2, 1), {"formed": "test"}, "expert")
    model = files.read_model(path)
    assert model.played() == MIX and model.weights == MIX.members[0] and model.trained == {"formed": "test"}
    data = json.loads(path.read_text())
    assert [m["trained"] for m in data["mixture"]["members"]] == [{"seed": 1}, {"seed": 2}]
    strong = Strong(file=path)
    assert strong.played(None) == MIX and len(strong.compiled().members) == 2
    # a record names what played: a mixture's fingerprint is not its first member's; a lone model's is its own
    assert weights_fingerprint(MIX.flat()) != weights_fingerprint(MIX.members[0])
    assert Mixture.alone(NET).flat() == NET


@pytest.mark.parametrize("change, words", [
    (lambda d: d["mixture"].update(odds=[1]), "2 whole numbers"),
    (lambda d: d["mixture"].update(odds=[1, 0]), "from 1 to 1000, not 0"),
    (lambda d: d["mixture"].update(odds=[1, 1.5]), "not 1.5"),
    (lambda d: d["mixture"].update(odds=[True, 1]), "not True"),
    (lambda d: d["mixture"].update(members=d["mixture"]["members"] * (MAX_MEMBERS // 2 + 1),
                                   odds=[1] * (MAX_MEMBERS + 2)), f"1 to {MAX_MEMBERS} members"),
    (lambda d: d["mixture"]["members"][1]["weights"].update(gain="x"), "member 2"),
    (lambda d: d["mixture"]["members"].__setitem__(0, {"mixture": {}}), "member 1: a member of a mixture is one model"),
    (lambda d: d.update(mixture=[]), "'mixture' must be an object"),
    (lambda d: d["mixture"].update(drawn="round"), "'drawn' is 'decision' or 'game', not 'round'"),
])
def test_a_bad_mixture_is_refused_naming_the_member_or_the_odds(tmp_path, change, words):
    path = tmp_path / "mix.json"
    files.write_mixture(path, [files.Model(NET, {}, ""), files.Model(OTHER, {}, "")], (1, 1), {}, "")
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=words):
        files.read_model(path)


def test_a_tempered_level_keeps_its_models():
    # a playtest's temperature changes only the temperature: strong-linear stays the linear policy, a mixture stays
    # whole (the tempered policy had played the package's network for strong-linear)
    rules = Rules.preset("advanced")
    linear = tempered("strong-linear", 2.0)
    assert linear.model_for(rules) == files.shipped(files.preset_file(rules, linear=True))
    assert linear.temperature == 2 * Strong().temperature
    mixed = Strong(mixture=MIX).tempered(0.5)
    assert mixed.played(rules) == MIX and mixed.temperature == Strong().temperature / 2


def test_a_mixture_draws_by_its_odds():
    # the member a draw's number picks: the odds' shares, in order (as the compiled loop's member_row)
    mix = Mixture((NET, OTHER, NET), (1, 3, 2))
    assert [mix.member(i) for i in range(6)] == [0, 1, 1, 1, 2, 2]
    with pytest.raises(ValueError):
        mix.member(6)


def test_the_mix_command_writes_a_mixture_that_strong_at_file_plays(tmp_path, capsys):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    files.write_model(one, NET, {"command": "a"}, "advanced")
    files.write_model(two, OTHER, {"command": "b"}, "advanced")
    out = tmp_path / "mix.json"
    assert main(["mix", str(one), str(two), "--odds", "3,1", "--out", str(out)]) == 0
    assert "2 members, odds 3:1" in capsys.readouterr().out
    policy = PolicySpec.parse(f"strong@{out}").policy()
    assert policy.played(Rules.preset("advanced")) == Mixture((NET, OTHER), (3, 1))
    data = json.loads(out.read_text())
    assert data["trained"]["command"] == f"guyenne-explore mix {one} {two} --odds 3,1 --out {out}"
    assert data["trained_for"] == "advanced" and data["mixture"]["members"][1]["trained"] == {"command": "b"}


def test_the_mix_commands_help_says_how_many_members_a_mixture_holds(capsys):
    from guyenne_explore.cli.parser import MOST_MEMBERS
    assert MOST_MEMBERS == MAX_MEMBERS  # the light parser's copy
    assert main(["mix", "--help"]) == 0
    assert f"(2 to {MAX_MEMBERS})" in " ".join(capsys.readouterr().out.split())


def test_the_exploit_runs_cost_counts_each_member_the_model_reading_responders_read(tmp_path):
    """The responders built on strong's model work out every member's distribution of a mixture: the time said before
    an exploit run grows with the members for those alone, by their measured share a member."""
    from guyenne_explore.analysis.studies import exploit as study
    one, three = tmp_path / "one.json", tmp_path / "three.json"
    files.write_model(one, NET, {}, "advanced")
    files.write_mixture(three, [files.Model(m, {}, "advanced") for m in (NET, OTHER, NET)], (1, 1, 1), {}, "advanced",
                        per_game=True)
    start = Position.start(Rules.preset("advanced"))
    assert study.model_members(start, f"strong@{one}") == 1 and study.model_members(start, f"strong@{three}") == 3
    assert study.model_members(start, "heuristic") == 1
    assert study.model_members(start, f"strong@{tmp_path / 'missing.json'}") == 1  # the run's own check refuses it
    games = 10
    grown = study.exploit_seconds(start, f"strong@{three}", games) - study.exploit_seconds(start, f"strong@{one}", games)
    assert grown == pytest.approx(games * sum(study.RESPONDER_SECONDS[name] * share * 2
                                              for name, share in study.MEMBER_SHARE.items()))
    assert set(study.MEMBER_SHARE) == set(study.ON_MODEL)


def test_the_mix_command_writes_a_mixture_drawn_once_a_game(tmp_path, capsys):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    files.write_model(one, NET, {"command": "a"}, "advanced")
    files.write_model(two, OTHER, {"command": "b"}, "advanced")
    out = tmp_path / "mix.json"
    assert main(["mix", str(one), str(two), "--odds", "3,1", "--drawn", "game", "--out", str(out)]) == 0
    assert "a member drawn once a game" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["mixture"]["drawn"] == "game"
    assert data["trained"]["command"] == f"guyenne-explore mix {one} {two} --odds 3,1 --drawn game --out {out}"
    played = PolicySpec.parse(f"strong@{out}").policy().played(Rules.preset("advanced"))
    assert played == Mixture((NET, OTHER), (3, 1), per_game=True)
    # another policy than the one drawn at each decision: another fingerprint
    assert weights_fingerprint(played.flat()) != weights_fingerprint(played._replace(per_game=False).flat())
    assert main(["mix", str(one), str(two), "--drawn", "round", "--out", str(out)]) == 2


@pytest.mark.parametrize("args, words", [
    (["--odds", "1,x"], "--odds: whole numbers"),
    (["--odds", "1,2,3"], "--odds: a mixture's odds must be 2 whole numbers"),
    (["--odds", "0,1"], "--odds: a member's odds must be a whole number from 1 to 1000, not 0"),
    (["MIXED"], "a member of a mixture is one model"),
    (["EXPERT"], "was trained for expert"),
    (["MISSING"], "missing.json"),
])
def test_the_mix_command_refuses_bad_input_naming_it(tmp_path, capsys, args, words):
    one, two, expert = tmp_path / "one.json", tmp_path / "two.json", tmp_path / "expert.json"
    files.write_model(one, NET, {}, "advanced")
    files.write_model(two, OTHER, {}, "advanced")
    files.write_model(expert, OTHER, {}, "expert")
    mixed = tmp_path / "mixed.json"
    files.write_mixture(mixed, [files.Model(NET, {}, "advanced"), files.Model(OTHER, {}, "advanced")], (1, 1), {},
                        "advanced")
    named = {"MIXED": str(mixed), "EXPERT": str(expert), "MISSING": str(tmp_path / "missing.json")}
    extra = [named[a] for a in args if a in named]
    options = [a for a in args if a not in named]
    assert main(["mix", str(one), str(two), *extra, *options, "--out", str(tmp_path / "out.json")]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not (tmp_path / "out.json").exists()
