"""A level's name is read in one place, :class:`PolicySpec`: its canonical text reads back to the same value, every
name a level does not have is refused in words naming the text and the problem, and which levels compile is its
answer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guyenne_explore.analysis import POLICIES, PolicySpec
from guyenne_explore.analysis.policies.counters import COUNTERS
from guyenne_explore.analysis.policies.spec import MAX_MILLISECONDS, MAX_ROLLOUTS
from guyenne_explore.numbers import NumberError

#: the texts a weights file or a session's weights name may be (anything but empty)
WEIGHTS = st.text(min_size=1, max_size=20)

SPECS = st.one_of(
    st.sampled_from([*POLICIES, *COUNTERS]).map(PolicySpec),
    st.integers(1, MAX_ROLLOUTS).map(lambda n: PolicySpec("search", rollouts=n)),
    st.integers(1, MAX_MILLISECONDS).map(lambda n: PolicySpec("search", milliseconds=n)),
    st.builds(PolicySpec, st.sampled_from(["strong", "persona"]), weights=WEIGHTS),
)


@settings(max_examples=300, deadline=None)
@given(SPECS)
def test_a_specs_canonical_text_reads_back_to_the_same_spec(spec):
    assert PolicySpec.parse(str(spec)) == spec


@pytest.mark.parametrize("text, spec", [
    ("uniform", PolicySpec("uniform")),
    ("search", PolicySpec("search")),
    ("search:200", PolicySpec("search", rollouts=200)),
    ("search: 0200", PolicySpec("search", rollouts=200)),
    ("search:250ms", PolicySpec("search", milliseconds=250)),
    ("strong@w.json", PolicySpec("strong", weights="w.json")),
    ("strong@a:b@c", PolicySpec("strong", weights="a:b@c")),
    ("persona@mine", PolicySpec("persona", weights="mine")),
    ("model-reader", PolicySpec("model-reader")),
])
def test_each_form_of_a_level_reads_as_its_parts(text, spec):
    assert PolicySpec.parse(text) == spec


@pytest.mark.parametrize("text, words", [
    ("nope", "unknown level 'nope': choose one of uniform, heuristic, strong-linear, strong, search (the search with a"),
    ("persona", "unknown level 'persona'"),
    ("uniform:3", "unknown level 'uniform:3'"),
    ("search@x", "unknown level 'search@x'"),
    ("Uniform", "unknown level 'Uniform'"),
    (" uniform", "unknown level ' uniform'"),
    ("", "unknown level ''"),
    ("strong@", "'strong@': give the weights file after the at sign, strong@FILE"),
    ("persona@", "'persona@': give the weights file after the at sign, persona@FILE"),
    ("search:", "the search budget in 'search:' is empty: type a whole number"),
    ("search:ms", "the search budget in 'search:ms' is empty: type a whole number"),
    ("search:0", "the search budget in 'search:0' must be at least 1, not 0"),
    ("search:x", "the search budget in 'search:x' must be a whole number written with the digits 0-9, not 'x'"),
    ("search:1e3", "the search budget in 'search:1e3' must be a whole number written with the digits 0-9, not '1e3'"),
    ("search:٣", "the search budget in 'search:٣' must be a whole number written with the digits 0-9, not '٣'"),
    (f"search:{MAX_ROLLOUTS + 1}", f"the search budget in 'search:{MAX_ROLLOUTS + 1}' must be at most 1,000,000"),
    (f"search:{MAX_MILLISECONDS + 1}ms", "must be at most 600,000"),
])
def test_a_bad_level_is_refused_in_words_naming_the_text_and_the_problem(text, words):
    with pytest.raises(ValueError) as refused:
        PolicySpec.parse(text)
    assert words in str(refused.value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=16))
def test_any_text_is_a_level_or_refused_in_words_that_quote_it(text):
    try:
        spec = PolicySpec.parse(text)
    except NumberError as exc:  # a budget's form or bound: the field names the text
        assert repr(text) in exc.field
    except ValueError as exc:
        assert str(exc).startswith((f"unknown level {text!r}", f"{text!r}: give the weights file"))
    else:
        assert PolicySpec.parse(str(spec)) == spec


@pytest.mark.parametrize("text, compiles", [
    ("uniform", True), ("heuristic", True), ("strong", True), ("strong-linear", True), ("strong@w.json", True),
    ("persona@w.json", True),
    ("search", False), ("search:20", False), ("reader", True), ("tell-reader", True), ("strong-lookahead", False),
    ("exploiter", False),
])
def test_which_levels_compile_is_the_specs_answer(text, compiles):
    from guyenne_explore.analysis.planning import engine_plays

    assert PolicySpec.parse(text).compiles is compiles
    assert engine_plays([text, "uniform"]) is not compiles


@pytest.mark.parametrize("kwargs", [
    {"kind": "expert"}, {"kind": "uniform", "rollouts": 5}, {"kind": "search", "rollouts": 5, "milliseconds": 5},
    {"kind": "persona"}, {"kind": "heuristic", "weights": "w.json"}, {"kind": "strong", "weights": ""},
])
def test_a_spec_no_text_names_cannot_be_built(kwargs):
    with pytest.raises(ValueError):
        PolicySpec(**kwargs)


def test_a_spec_builds_its_policy_with_its_budget():
    from guyenne_explore.analysis.policies.search import ISMCTS

    search = PolicySpec.parse("search:250ms").policy()
    assert isinstance(search, ISMCTS) and search.milliseconds == 250
    assert PolicySpec.parse("search:20").policy().simulations == 20
    assert type(PolicySpec.parse("reader").policy()) is COUNTERS["reader"]
    with pytest.raises(ValueError, match="'strong@no-such-file.json': "):
        PolicySpec.parse("strong@no-such-file.json").policy()


@pytest.mark.parametrize("text", ["uniform", "heuristic", "strong-linear", "strong", "search", "search:9", "reader", "exploiter"])
def test_a_levels_exactness_is_its_policys_without_building_it(text):
    assert PolicySpec.parse(text).exact == PolicySpec.parse(text).policy().exact


def test_a_weighted_levels_exactness_opens_no_file(tmp_path):
    assert PolicySpec.parse(f"strong@{tmp_path / 'not-there.json'}").exact  # strong's moves have exact probabilities
