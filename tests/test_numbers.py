"""One reading of numbers: every number a person types (a command-line option, a panel's box, a search's budget,
a balance target's end) is read by :mod:`guyenne_explore.numbers`, so any text is either the same number
everywhere or refused everywhere with the same words (only the field's name and its bounds differ)."""

from __future__ import annotations

from functools import partial

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from guyenne_explore import numbers
from guyenne_explore.analysis import PolicySpec
from guyenne_explore.analysis.studies.balance import TargetError, parse_targets
from guyenne_explore.analysis.studies.balance.targets import TARGET_BOUND
from guyenne_explore.analysis.policies.spec import MAX_ROLLOUTS
from guyenne_explore.cli.common import MAX_GAMES, Refused
from guyenne_explore.cli.parser import build_parser
from guyenne_explore.numbers import NumberError
from guyenne_explore.render.export import SCALES

FORM = "must be a whole number written with the digits 0-9"
DECIMAL_FORM = "must be a number written with the digits 0-9 and at most one decimal point or comma (0.45 or 0,45)"


@pytest.mark.parametrize("text,value", [
    ("10", 10), (" 10 ", 10), ("-3", -3), ("007", 7), ("0" * 60 + "5", 5),
])
def test_a_whole_number_is_ascii_digits_after_an_optional_minus(text, value):
    assert numbers.whole(text, "Games", -10, 10) == value


@pytest.mark.parametrize("text", ["１０", "٣", "²", "1_000", "1e3", "nan", "inf", "+5", "1.0", "1,0", "0x10", "- 1", "−1",
                                  "\x1b[31m1"])
def test_every_other_form_of_a_whole_number_is_refused_in_the_same_words(text):
    with pytest.raises(NumberError) as err:
        numbers.whole(text, "Games", 1, 100)
    assert str(err.value) == f"Games {FORM}, not {text.strip()!r}"
    assert (err.value.field, err.value.typed) == ("Games", text.strip())


@pytest.mark.parametrize("text,words", [
    ("-1", "Games must be at least 1, not -1"), ("0", "Games must be at least 1, not 0"),
    ("101", "Games must be at most 100, not 101"), ("999999999", "Games must be at most 100, not 999999999"),
    ("9" * 5000, "Games must be at most 100, not " + "9" * 17 + "..."),  # never converted: Python refuses 4,300 digits
    ("-" + "9" * 5000, "Games must be at least 1, not -" + "9" * 16 + "..."),
    ("", "Games is empty: type a whole number"), (" \t", "Games is empty: type a whole number"),
])
def test_a_whole_number_outside_its_bounds_names_the_bound(text, words):
    with pytest.raises(NumberError) as err:
        numbers.whole(text, "Games", 1, 100)
    assert str(err.value) == words


@pytest.mark.parametrize("text,value", [("0.45", 0.45), ("0,45", 0.45), (".5", 0.5), ("5.", 5.0), ("2", 2.0),
                                        ("-0,5", -0.5)])
def test_a_decimal_takes_a_point_or_a_lone_comma(text, value):
    assert numbers.decimal(text, "PNG scale", -8, 8) == value


@pytest.mark.parametrize("text", ["1e-9", "1E3", "nan", "inf", "-inf", "1,5,0", "1.5.0", "1,5.0", "１.５", "0.٥", "½",
                                  "1_0.5", ",", "."])
def test_every_other_form_of_a_decimal_is_refused_in_the_same_words(text):
    with pytest.raises(NumberError) as err:
        numbers.decimal(text, "PNG scale", 0.25, 8)
    assert str(err.value) == f"PNG scale {DECIMAL_FORM}, not {text!r}"


def test_a_decimal_outside_its_bounds_names_the_bound():
    with pytest.raises(NumberError, match=r"^PNG scale must be at least 0.25, not 0.000000001$"):
        numbers.decimal("0.000000001", "PNG scale", 0.25, 8)
    with pytest.raises(NumberError, match=r"^PNG scale must be at most 8, not 1{17}\.\.\.$"):
        numbers.decimal("1" * 400, "PNG scale", 0.25, 8)  # read as infinity: above any bound


# ---------------------------------------------------------------------- every entry point reads alike
def _answer(read, text):
    """What an entry point makes of ``text``: ("read", value) or ("refused", its words)."""
    try:
        return "read", read(text)
    except (NumberError, Refused, TargetError) as exc:
        return "refused", str(exc)


def _option(command, option):
    """A command-line option's reading, as the parser does it (``--option=TEXT``: a text may start with -)."""
    def read(text):
        args = build_parser().parse_args([*command, f"{option}={text}"])
        return getattr(args, option.lstrip("-"))
    return read


def _box(label, low, high, whole):
    """A panel's number box (:class:`~guyenne_explore.widgets.forms.NumberField`) typed into."""
    from guyenne_explore.widgets.forms import NumberField

    def read(text):
        field = NumberField(label, "x" * 40, low, high, whole=whole)  # longer than any text typed here
        field.box.value = text
        if field.problem is not None:
            raise NumberError(field.problem, label, text)
        return field.value
    return read


def _budget(text):
    return PolicySpec.parse(f"search:{text}").policy().simulations


def _target_end(text):
    (target,) = parse_targets([f"rounds={text}:"])
    return target.low


#: what a person may type: digits of every kind, signs, separators, exponents, words Python reads as numbers
TYPED = st.one_of(
    st.text(alphabet="0123456789-+.,_ eE\t" + "１٣۵²³½−", max_size=12),
    st.integers(-10**12, 10**12).map(str),
    st.floats().map(str),
    st.sampled_from(["nan", "inf", "-inf", "Infinity", "1e-9", "0x10", "1_000", "０"]),
    st.text(max_size=8),
)


@settings(max_examples=150, deadline=None)
@given(TYPED)
@example("--")  # argparse dropped it as an option's value: the command ran its default games
def test_every_entry_point_reads_a_whole_number_as_the_one_reader_does(text):
    """The option ``analyse --samples``, a panel's "Games" box and a search's budget (``search:N``): each answers
    what :func:`numbers.whole` answers for its field and bounds, so a text is the same number in all or refused
    by all, and a text refused for its form is refused with the same words after the field's name."""
    pytest.importorskip("ipywidgets")
    entries = [(_option(["analyse"], "--samples"), "--samples", 1, MAX_GAMES),
               (_box("Games", 1, MAX_GAMES, whole=True), "Games", 1, MAX_GAMES)]
    if text and not text.endswith("ms") and ":" not in text and "@" not in text:  # the text as a budget, all of it
        entries.append((_budget, f"the search budget in {f'search:{text}'!r}", 1, MAX_ROLLOUTS))
    answers = []
    for read, field, low, high in entries:
        answers.append(_answer(read, text))
        assert answers[-1] == _answer(partial(numbers.whole, field=field, low=low, high=high), text), field
    refused_for_its_form = {kind == "refused" and FORM in said for kind, said in answers}
    assert len(refused_for_its_form) == 1  # the form is accepted by every entry point, or by none


@settings(max_examples=150, deadline=None)
@given(TYPED)
def test_every_entry_point_reads_a_decimal_as_the_one_reader_does(text):
    """``diagram --scale``, the diagram export's "PNG scale" box and a balance target's end: each answers what
    :func:`numbers.decimal` answers for its field and bounds (a target's refusal names the target first)."""
    pytest.importorskip("ipywidgets")
    entries = [(_option(["diagram", "position.json", "-o", "out.svg"], "--scale"), "--scale", *SCALES, ""),
               (_box("PNG scale", *SCALES, whole=False), "PNG scale", *SCALES, "")]
    if text.strip() and ":" not in text:  # an end left empty is open, not a number
        entries.append((_target_end, "the low end", -TARGET_BOUND, TARGET_BOUND, f"--target {f'rounds={text}:'!r}: "))
    for read, field, low, high, before in entries:
        kind, said = _answer(partial(numbers.decimal, field=field, low=low, high=high), text)
        assert _answer(read, text) == (kind, before + said if kind == "refused" else said), field
