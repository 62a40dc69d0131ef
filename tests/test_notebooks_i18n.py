"""The teaching and rule-example notebooks run in French: their ``parameters`` cell set to ``LANG = "fr"``
(what papermill does), executed headless, and checked by a last cell that reads what they drew."""
import os
import pathlib

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: per notebook, a cell appended to check that what it showed is French
CHECKS = {
    "teaching.ipynb": """
assert game.play_button.description == "Jouer", game.play_button.description
assert "À vous de jouer" in game.prompt.value, game.prompt.value
assert "Mise en place" in game.lessons.value
assert game.explain.value == "", game.explain.value  # the learner opens on no refusal of a move never played
assert "n'ont pas HH en main" in game.position.why_illegal("0:HH")
""",
    "rule_examples.ipynb": """
svg = str(diagram(setup, caption=caption("setup"), lang=LANG))
assert "Mise en place\u00a0: six châteaux neutres" in svg and "pioche 16" in svg and "Anglais" in svg, svg[:400]
seat = str(seating_svg(team, caption=caption("seating"), lang=LANG))
assert "Mise en place pour 4 joueurs" in seat and "premier joueur" in seat
""",
}


def _parameters_cell(nb):
    cells = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(cells) == 1, "a notebook that runs in French has one cell tagged 'parameters'"
    assert cells[0].source.startswith('LANG = "en"'), cells[0].source
    return cells[0]


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_notebook_runs_in_french(name, monkeypatch):
    extra = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + (os.pathsep + extra if extra else ""))
    path = ROOT / "notebooks" / name
    nb = nbformat.read(path, as_version=4)
    _parameters_cell(nb).source = 'LANG = "fr"'
    nb.cells.append(nbformat.v4.new_code_cell(CHECKS[name]))
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=300,
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, errors
    shown = "".join(str(o.get("data", {}).get("image/svg+xml", "")) for c in nb.cells if c.cell_type == "code"
                    for o in c.get("outputs", []))
    if name == "rule_examples.ipynb":  # the figures the notebook displays are French
        assert "Exemple de décompte avec les règles 2022\u00a0: Anglais 5, Français 6" in shown
        assert "défausse" in shown and "deck " not in shown
