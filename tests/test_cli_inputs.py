"""Command-line input that once reached an internal error (exit 3) or hung: each is now exit 0, or exit 1
with a one-line message naming the problem (a number an option cannot take too, in the one reader's words;
exit 2 only for what argparse itself refuses: an unknown option, a missing value, a choice not offered)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guyenne_explore.engine import Position
from guyenne_explore.cli import main
from guyenne_explore.cli.common import EXIT_INVALID, EXIT_OK, Refused, policy_pair, rules_list
from guyenne_explore.engine.problems import ProblemsError
from guyenne_explore.engine.record import play_game

from .conftest import position_files, position_path


def warned_position() -> dict:
    """A valid position real play cannot reach: the English start a round with 4 cards while their deck
    holds 9 (``warning.short_hand``), written as JSON."""
    side = {"hand": list("H53222"), "deck": list("222222222"), "discard": list("3334445"), "removed": [],
            "exhaustions": 1}
    short = {**side, "hand": list("H532"), "discard": list("333444522")}
    return {"rules": "base", "castles": ["neutral"] * 6, "round": 5, "first": "english", "to_play": "open_first",
            "sides": {"english": short, "french": side}}


def test_the_warned_position_is_valid_with_a_warning():
    assert [w.code for w in Position.from_json(warned_position()).warnings()] == ["warning.short_hand"]


def _analyse_json(path, capsys) -> dict:
    code = main(["analyse", str(path), "--samples", "20", "--seed", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    return json.loads(out)


@pytest.mark.parametrize("path", position_files(), ids=lambda p: p.stem)
def test_analyse_json_on_every_check_position(path, capsys):
    """``analyse --json`` writes valid JSON on every check position, its warnings as ``check --json`` does."""
    data = _analyse_json(path, capsys)
    assert data["games"] == 20 and abs(sum(data["win"].values()) - 1) < 1e-9
    assert data["warnings"] == [w.to_json() for w in Position.from_json(path.read_text()).warnings()]


def test_analyse_json_carries_a_warned_positions_warnings(tmp_path, capsys):
    """A position that loads with a warning: the analysis' JSON carries it as data (code, field, message),
    as ``check --json`` does, instead of failing to serialise it."""
    path = tmp_path / "warned.json"
    path.write_text(json.dumps(warned_position()))
    data = _analyse_json(path, capsys)
    assert main(["check", "--json", str(path)]) == EXIT_OK
    assert data["warnings"] == json.loads(capsys.readouterr().out)["warnings"]
    (warning,) = data["warnings"]
    assert warning["code"] == "warning.short_hand" and warning["field"] == "sides.english.hand"
    assert "would have drawn up to 6" in warning["message"]


def _record(tmp_path, data, name="record.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def _good_record() -> dict:
    return play_game(Position.start("base"), 1).to_json()


def _one_line_refusal(capsys) -> str:
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err
    assert err.startswith("refused: ") and err.count("\n") == 1, err
    return err


def _event(i: int, **changes):
    data = _good_record()
    data["moves"][i].update(changes)
    return data


@pytest.mark.parametrize("record,words", [
    ({"start": Position.start("base").to_json(), "moves": {"0": "deal"}}, "moves: a list of events, not {'0': 'deal'}"),
    ({"start": Position.start("base").to_json(), "moves": "deal 53322"}, "moves: a list of events, not 'deal 53322'"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"start": {}, "moves": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ([1, 2], "a game record is an object with start and moves, not [1, 2]"),
    ({"moves": []}, "missing field 'start'"),
    (_event(0, english="H5"), "moves[0].english: the cards drawn as a list"),
    (_event(0, english=[{"card": 5}]), "moves[0].english: unknown card"),
    (_event(1, side={"a": 1}), "moves[1].side: english or french, not {'a': 1}"),
    (_event(1, castle="x"), "moves[1]: a move's castle is a small whole number, not 'x'"),
    (_event(1, to_play=[5]), "moves[1].to_play: the point of the game as text"),
    ({**_good_record(), "moves": [[[[1]]]]}, "moves[0]: an event is an object"),
], ids=["moves-dict", "moves-text", "deep", "deep-moves", "list", "no-start", "drawn-text", "drawn-object",
        "side", "castle", "to_play", "event-list"])
def test_storyboard_names_what_is_wrong_with_a_record(tmp_path, capsys, record, words):
    assert main(["storyboard", str(_record(tmp_path, record)), "-o", str(tmp_path / "out.zip")]) == EXIT_INVALID
    err = _one_line_refusal(capsys)
    assert "is not a game record" in err and words in err
    assert not (tmp_path / "out.zip").exists()


def test_storyboard_still_draws_a_good_record(tmp_path, capsys):
    assert main(["storyboard", str(_record(tmp_path, _good_record())), "-o", str(tmp_path / "out.zip")]) == EXIT_OK
    assert (tmp_path / "out.zip").stat().st_size > 0


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")
@pytest.mark.parametrize("command", [["check"], ["moves"], ["storyboard", "-o"]])
def test_a_named_pipe_is_refused_instead_of_waited_on(tmp_path, command):
    """Opening a FIFO with no writer blocks forever: the command refuses it before opening it.  (Run as a
    process: on a command that waits the test fails at the time-out instead of hanging the suite.)"""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    args = [command[0], str(fifo), *command[1:], *([str(tmp_path / "out.pdf")] if command[1:] else [])]
    r = subprocess.run([sys.executable, "-m", "guyenne_explore", *args], capture_output=True, text=True, timeout=120)
    assert r.returncode == EXIT_INVALID, r.stderr
    assert r.stderr == f"refused: {fifo} is not a regular file (a named pipe, a device or a folder): give a file, " \
                       "or - for standard input\n"


def test_a_folder_is_refused_by_name(tmp_path, capsys):
    assert main(["check", str(tmp_path)]) == EXIT_INVALID
    assert "is not a regular file" in _one_line_refusal(capsys)


@pytest.mark.parametrize("policies,words", [
    ("nope", "unknown level 'nope'"),
    ("uniform,search:0", "the search budget in 'search:0'"),
    ("heuristic, search:x", "the search budget in 'search:x'"),
])
def test_solve_names_an_unknown_policy(capsys, policies, words):
    endgame = str(position_path("base-endgame-3v3.json"))
    assert main(["solve", endgame, "--policies", policies]) == EXIT_INVALID
    assert words in _one_line_refusal(capsys)


@pytest.mark.parametrize("budget,words", [
    ("nan", "--budget must be a number written with the digits 0-9"), ("inf", "--budget must be a number written"),
    ("x", "--budget must be a number written"), ("-1", "--budget must be at least 0.1, not -1"),
    ("0", "--budget must be at least 0.1, not 0"),
])
def test_solve_budget_is_refused_in_the_readers_words(capsys, budget, words):
    """A budget of seconds the reader refuses is a refusal (exit 1) in its words, as a panel's box says it, not a
    usage error (exit 2): the option is known, its value is what is wrong."""
    assert main(["solve", str(position_path("base-endgame-3v3.json")), "--budget", budget]) == EXIT_INVALID
    assert words in _one_line_refusal(capsys)


_ENDGAME = str(position_path("base-endgame-3v3.json"))


@pytest.mark.parametrize("argv,words", [
    (["analyse", "--samples", "１０"], "--samples must be a whole number written with the digits 0-9, not '１０'"),
    (["analyse", "--samples", "1e3"], "--samples must be a whole number written with the digits 0-9, not '1e3'"),
    (["analyse", "--samples", "2", "--policies", "search:٣"],
     "the search budget in 'search:٣' must be a whole number written with the digits 0-9, not '٣'"),
    (["analyse", "--samples", "2", "--policies", "search:"], "the search budget in 'search:' is empty"),
    (["analyse", "--samples", "2", "--workers", "²"], "--workers must be a whole number written with the digits 0-9"),
    (["play", "--seed", "-1"], "--seed must be at least 0, not -1"),
    (["analyse", ""], "the position file name is empty: give a file, or - for standard input"),
    (["moves", " "], "the position file name is empty"),
    (["diagram", _ENDGAME, "-o", "out.svg", "--scale", "1e-9"], "--scale must be a number written with the digits 0-9"),
    (["diagram", _ENDGAME, "-o", "out.png", "--scale", "0.000000001"], "--scale must be at least 0.25, not 0.000000001"),
    (["diagram", _ENDGAME, "-o", "out.png", "--scale", "9"], "--scale must be at most 8, not 9"),
    (["balance", "--vary", "hand_size=2:999999999", "--target", "draws=:0.1"],
     "--vary 'hand_size=2:999999999': hand size must be at most 12, not 999999999"),
    (["balance", "--vary", "hand_size=5:7", "--target", "draws=:0.1", "--precision", "nan"],
     "--precision must be a number written with the digits 0-9"),
    (["train", "--rules", "base", "--minutes", "inf"], "--minutes must be a number written with the digits 0-9"),
])
def test_a_number_or_a_name_the_command_cannot_use_is_refused_in_words(tmp_path, monkeypatch, capsys, argv, words):
    """Issue 46: each once ran (a Unicode digit read as a number, an empty path as no position, a scale of
    1e-9), ran out of memory or was a usage error; each is now refused in one line (exit 1), before any work,
    in the words a panel's box says for the same text, and writes nothing."""
    monkeypatch.chdir(tmp_path)
    assert main(argv) == EXIT_INVALID
    assert words in _one_line_refusal(capsys)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("output", ["out.svg", "out.png", "out.pdf"])
@pytest.mark.parametrize("caption", ["\x1b[31mred\x1b[0m", "bell\x07", "nul\x00", "bytes \udcff"])
def test_a_caption_with_a_control_character_is_refused_for_every_format(tmp_path, capsys, output, caption):
    """One check of a caption (the diagram export's): an ANSI colour code was refused for a PDF by the XML
    parser but written into an SVG, which no viewer then opens."""
    out = tmp_path / output
    assert main(["diagram", _ENDGAME, "-o", str(out), "--caption", caption]) == EXIT_INVALID
    assert "the caption holds the control character" in _one_line_refusal(capsys)
    assert not out.exists()
    assert main(["diagram", _ENDGAME, "-o", str(out), "--caption", "tabs\tand\nnewlines are white space"]) == EXIT_OK


def _skill_json(capsys, *args) -> dict:
    code = main(["skill", *args, "--levels", "uniform", "--games", "10", "--workers", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    return json.loads(out)


def test_skill_reads_rules_json_as_every_command_does(capsys):
    """``skill --rules`` takes what ``play --rules`` takes, a comma inside rules JSON included."""
    rows = _skill_json(capsys, "--rules", '{"preset": "advanced"}')["rows"]
    assert {r["rules"] for r in rows} == {"advanced"}
    rows = _skill_json(capsys, "--rules", '{"preset": "advanced", "hand_size": 7}, base')["rows"]
    assert [r["rules"] for r in rows][::3] == ["advanced(hand_size=7)", "base"]


@pytest.mark.parametrize("args,words", [
    (["--rules", ""], "--rules names no rule set"),
    (["--rules", " , "], "--rules names no rule set"),
    (["--levels", ""], "--levels names no level"),
    (["--levels", ","], "--levels names no level"),
    (["--levels", "uniform,nope"], "unknown level 'nope'"),
    (["--workers", "-1"], "--workers must be at least 1, not -1"),
])
def test_skill_names_an_empty_or_bad_list(capsys, args, words):
    assert main(["skill", "--games", "10", *args]) == EXIT_INVALID
    assert words in _one_line_refusal(capsys)


@pytest.mark.parametrize("command", [["analyse", "--rules", "base", "--samples", "10"],
                                     ["skill", "--games", "10", "--levels", "uniform"]])
@pytest.mark.parametrize("above", [1, 10**30])
def test_a_workers_count_above_four_to_a_local_core_is_refused_before_any_process_starts(
        capsys, monkeypatch, command, above):
    from guyenne_explore.analysis import workers

    def no_pool(*_args, **_kwargs):
        raise AssertionError("a refused --workers must start no process")

    monkeypatch.setattr(workers, "process_pool", no_pool)
    high = 4 * (os.cpu_count() or 1)
    assert main([*command, "--workers", str(high + above)]) == EXIT_INVALID
    err = _one_line_refusal(capsys)
    assert f"--workers must be at most {high:,}, not " in err
    assert len(err) < 200  # a huge count is quoted by its start, not written out


def test_skill_names_bad_rules_json(capsys):
    assert main(["skill", "--games", "10", "--rules", 'base,{"preset": "advanced", "hand_size": 0}']) == EXIT_INVALID
    err = capsys.readouterr().err
    assert err.startswith("invalid rules:") and "hand_size" in err and "internal error" not in err


def test_analyse_names_a_scheduler_it_cannot_reach(capsys):
    assert main(["analyse", "--rules", "base", "--samples", "10", "--scheduler", "nope"]) == EXIT_INVALID
    assert "cannot reach the scheduler nope" in _one_line_refusal(capsys)


# What a user may type for a rules list or a pair of policies: the readers answer with rule sets and names,
# or with the errors the command line turns into exit 1 (never another exception).
_WORDS = st.sampled_from(["base", "advanced", "team", "nope", "uniform", "heuristic", "search", "search:0",
                          "search:20", "search:5ms", "english=", "french=", "none", "", " "])
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                         st.sampled_from(["preset", "castles", "hand_size", "scoring", "x"]), inner, max_size=3),
                     max_leaves=8)
_ARGUMENT = st.one_of(
    st.text(alphabet=",{}[]\":=\\ abehnrstu0129", max_size=30),
    st.lists(_WORDS, max_size=4).map(",".join),
    st.lists(_JSON.map(json.dumps) | _WORDS, min_size=1, max_size=3).map(",".join),
)


@settings(max_examples=300, deadline=None)
@given(_ARGUMENT)
def test_argument_readers_answer_or_name_the_problem(text):
    for reader in (rules_list, policy_pair):
        try:
            reader(text)
        except (Refused, ProblemsError):
            pass


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(_JSON, st.fixed_dictionaries({"start": st.just(Position.start("base").to_json()), "moves": _JSON})))
def test_storyboard_of_any_json_draws_it_or_names_the_problem(tmp_path, capsys, record):
    code = main(["storyboard", str(_record(tmp_path, record)), "-o", str(tmp_path / "out.zip")])
    if record != {"start": Position.start("base").to_json(), "moves": []}:  # the one record here that is a game's
        assert code == EXIT_INVALID
        _one_line_refusal(capsys)
    else:
        assert code == EXIT_OK


_FLAGS = ["--rules", "--seed", "--policies", "--budget", "--objective", "--scale", "--caption", "--player", "-o",
          "--record", "--json", "--hide-hands", "--winners", "--seating"]
_VALUES = ["base", '{"preset": "team"}', '{"preset": "base", "castles": 0}', "nope", "", "-1", "7", "1" * 30, "none",
           "search:0", "uniform,heuristic", "english=nope", "nan", "0.5", "score", "inf", "french", "x" * 500,
           "out.svg", "out.xyz", "out/"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(["check", "moves", "play", "diagram", "storyboard", "solve"]),
       position=st.sampled_from(["endgame", "folder", "missing", "record", "-"]),
       options=st.lists(st.tuples(st.sampled_from(_FLAGS), st.sampled_from(_VALUES)), max_size=3))
def test_any_command_line_of_these_words_ends_without_an_internal_error(tmp_path, capsys, monkeypatch, command,
                                                                         position, options):
    """Commands with positions, files and option values of every kind: done, refused or a usage error
    (exit 0, 1 or 2), never an internal error (3).  It runs in ``tmp_path``: a value such as ``inf`` given to
    ``--record`` or ``-o`` is a file name, written where the command runs."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("base"))
    record = tmp_path / "record.json"
    if not record.exists():
        record.write_text(json.dumps(_good_record()))
    where = {"endgame": str(position_path("base-endgame-3v3.json")), "folder": str(tmp_path),
             "missing": str(tmp_path / "missing.json"), "record": str(record), "-": "-"}[position]
    argv = [command, where]
    for flag, value in options:
        argv += [flag] if flag in ("--json", "--hide-hands", "--winners", "--seating") else \
            [flag, str(tmp_path / value) if value.startswith("out") else value]
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (0, 1, 2) and "internal error" not in err and "Traceback" not in err, (argv, code, err)
