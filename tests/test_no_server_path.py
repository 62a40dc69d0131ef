"""No server path from a page: a level box takes ``strong@NAME`` of this session's weights, never a file.

``strong@/etc/hostname`` typed in How they play's levels or the depth section's ladder used to be opened
on the server (its first bytes parsed and quoted back, ``/dev/zero`` read until the kernel ran out of
memory).  Now the name is looked up among the weights uploaded through the page or trained here, and
anything else is refused in words without the file system being touched.  A weights file read anywhere
(the command line's ``strong@FILE`` too) is bounded: a device or a file too large is refused in words.
"""

import builtins
import json
import os
import pathlib

import pytest

from guyenne_explore.analysis.policies.weights import MAX_WEIGHTS_BYTES, WEIGHTS_DIR, read_model
from guyenne_explore.cli import main
from guyenne_explore.i18n import set_language
from guyenne_explore.engine.rules import Rules
from guyenne_explore.widgets.balance_panel import BalancePanel
from guyenne_explore.widgets.session_weights import SessionWeights
from guyenne_explore.widgets.forms import NumberField
from guyenne_explore.widgets.starts import before_deal
from guyenne_explore.widgets.style_view import StyleSection

PROBES = ("/etc/hostname", "/proc/self/environ", "/etc", "/nonexistent/x.json", "/dev/zero")
REFUSAL = "strong@NAME takes the name of weights trained or uploaded in this session"


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language(None)


@pytest.fixture
def untouched(monkeypatch):
    """Fails the test if anything opens, reads or even looks up one of :data:`PROBES` (or a path under them)."""
    def probed(path) -> bool:
        text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else ""
        return any(text == probe or text.startswith(probe + "/") for probe in PROBES)

    def guard(real):
        def checked(path, *args, **kwargs):
            assert not probed(path), f"the server's file {path} was touched"
            return real(path, *args, **kwargs)
        return checked

    for owner, name in ((builtins, "open"), (os, "open"), (os, "stat"), (os, "lstat"), (os, "scandir")):
        monkeypatch.setattr(owner, name, guard(getattr(owner, name)))
    for name in ("open", "read_text", "read_bytes", "stat", "exists", "is_file"):
        real = getattr(pathlib.Path, name)
        monkeypatch.setattr(pathlib.Path, name, lambda self, *a, _real=real, **k: guard(_real)(self, *a, **k))


def style_section(weights: SessionWeights) -> StyleSection:
    """How they play under the advanced rules, with ``weights`` as the session's."""
    return StyleSection(lambda: [("advanced", Rules.preset("advanced"))], NumberField("Seed", 0, 0, 999), weights)


@pytest.mark.parametrize("probe", PROBES)
def test_how_they_play_refuses_a_path_without_touching_it(probe, english, untouched):
    section = style_section(SessionWeights())
    section.levels_text.value = f"uniform,strong@{probe}"
    assert section.levels() is None and section.run_button.disabled
    said = section.levels_message.value
    assert REFUSAL in said and "none yet" in said
    assert probe not in said  # nothing of the server's file system is echoed
    assert section.controls.status.value == ""  # refused in words, not an unexpected error


@pytest.mark.parametrize("probe", PROBES)
def test_the_depth_ladder_refuses_a_path_without_touching_it(probe, english, untouched):
    panel = BalancePanel(before_deal("advanced"), weights=SessionWeights())
    panel.ladder.value = f"uniform,strong@{probe}"
    assert panel.levels() is None and panel.depth_button.disabled
    assert REFUSAL in panel.ladder_message.value and probe not in panel.ladder_message.value
    assert panel.depth_controls.status.value == ""


def upload(widget, name: str, data: bytes) -> None:
    """What the page's upload script sends: the file's name, its bytes as one buffer."""
    widget._on_msg(widget, {"type": "file", "name": name}, [data])


def test_uploaded_weights_play_by_name_and_the_results_name_no_server_file(english):
    weights = SessionWeights()
    section = style_section(weights)
    section.levels_text.value = "uniform,strong@mine"
    assert section.levels() is None and "none yet" in section.levels_message.value

    upload(section.weights_upload, "mine.json", (WEIGHTS_DIR / "advanced.json").read_bytes())
    assert "strong@mine" in section.weights_upload.message and weights.names == ["mine"]
    assert section.levels_message.value == "" and not section.run_button.disabled  # read again after the upload
    levels = section.levels()
    assert levels is not None and levels[0] == "uniform"
    kept = pathlib.Path(levels[1].removeprefix("strong@"))
    assert kept.name == "mine.json" and read_model(kept).weights == read_model(WEIGHTS_DIR / "advanced.json").weights

    section.games.value = 2
    section.run()
    assert "Done" in section.controls.status.value
    exported = b"".join(section.export_files("json").values()) + b"".join(section.export_files("csv").values())
    assert b"strong@mine" in exported and str(kept.parent).encode() not in exported


def test_an_upload_that_is_no_weights_file_is_refused_beside_the_button(english):
    weights = SessionWeights()
    panel = BalancePanel(before_deal("advanced"), weights=weights)
    upload(panel.weights_upload, "notes.json", b'{"weights": {"gain": 1}}')
    assert "notes.json" in panel.weights_upload.message and "retrain the model" in panel.weights_upload.message and weights.names == []
    upload(panel.weights_upload, "big.json", b" " * (MAX_WEIGHTS_BYTES + 1))
    assert "at most" in panel.weights_upload.message and weights.names == []
    panel.ladder.value = "uniform,strong@notes"
    assert panel.levels() is None and REFUSAL in panel.ladder_message.value


def test_reading_a_weights_file_is_bounded_even_from_the_command_line(tmp_path, capsys):
    good = json.loads((WEIGHTS_DIR / "advanced.json").read_text())
    padded = tmp_path / "padded.json"  # valid weights, but larger than any weights file: refused unread
    padded.write_text(json.dumps(good) + " " * MAX_WEIGHTS_BYTES)
    with pytest.raises(ValueError, match="is larger than"):
        read_model(padded)
    with pytest.raises(ValueError, match="not a regular file"):  # a device, as /dev/zero: never read
        read_model(pathlib.Path(os.devnull))
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 50_000)
    with pytest.raises(ValueError, match="nested.json"):  # a RecursionError before
        read_model(nested)
    for file, words in ((padded, "is larger than"), (os.devnull, "not a regular file")):
        assert main(["analyse", "--rules", "advanced", "--policies", f"strong@{file}", "--samples", "10"]) == 1
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err
