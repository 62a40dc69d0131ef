import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "positions"
LOCAL = ROOT / "tests" / "positions"


def position_files():
    """The check positions: the shared ones when present beside the project, else the copies in tests/."""
    folder = SHARED if SHARED.is_dir() else LOCAL
    return sorted(f for f in folder.glob("*.json") if not f.name.endswith((".moves.json", ".expected.json")))


@pytest.fixture
def load():
    from guyenne_explore import Position

    def _load(name: str):
        folder = SHARED if SHARED.is_dir() else LOCAL
        return Position.from_json((folder / name).read_text())
    return _load


def read_json(path: pathlib.Path):
    return json.loads(path.read_text())
