"""Exact requests that would outgrow the machine's memory are refused with a plain sentence.

An endgame right after the last reshuffle (no side can reshuffle again, but many cards are left in
the decks) has far too many pairs of side states for the forward passes: the request must be refused
before the arrays are allocated, forced or not, in fractions and in floats, and never as a
``MemoryError`` from inside numpy (or a machine out of memory)."""

from __future__ import annotations

import json

import pytest

from guyenne_explore import Position, Rules
from guyenne_explore.analysis.api import ExactOutOfReach, analyse
from guyenne_explore.analysis.fast.endgame import frozen
from guyenne_explore.analysis.limits import check_memory, plain_bytes
from guyenne_explore.cli import main
from guyenne_explore.record import play_game


def _endgame_with_full_decks() -> Position:
    rules = Rules.preset("base")
    for q in play_game(Position.start(rules), 0).positions():
        if q.to_play == "open_first" and all(frozen(s, rules) for s in q.sides) \
                and sum(s.deck.size for s in q.sides) >= 12:
            return q
    raise AssertionError("seed 0 no longer reaches such an endgame: pick another seed")


@pytest.mark.parametrize("arithmetic", ["fraction", "float"])
@pytest.mark.parametrize("force", [False, True])
def test_an_endgame_with_full_decks_is_refused_for_memory(arithmetic: str, force: bool) -> None:
    p = _endgame_with_full_decks()
    with pytest.raises(ExactOutOfReach) as caught:
        analyse(p, method="exact", arithmetic=arithmetic, force=force)
    assert "of memory" in str(caught.value) and not caught.value.forceable


def test_auto_samples_such_an_endgame() -> None:
    result = analyse(_endgame_with_full_decks(), games=200, seed=1)
    assert not result.exact and result.games == 200


def test_the_command_line_refuses_it_in_one_line(tmp_path, capsys) -> None:
    path = tmp_path / "endgame.json"
    path.write_text(json.dumps(_endgame_with_full_decks().to_json()))
    assert main(["analyse", str(path), "--exact", "--force"]) == 1
    err = capsys.readouterr().err
    assert "of memory" in err and "Traceback" not in err and "--force" not in err


def test_check_memory_names_the_size() -> None:
    check_memory((1000, 1000))  # 8 MB: fine
    with pytest.raises(ExactOutOfReach, match="about 7.5 GiB"):
        check_memory((1000, 1000, 1000))
    assert plain_bytes(3 * 2**20) == "about 3.0 MiB"
