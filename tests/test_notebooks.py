"""Run every notebook in notebooks/ headless: each must execute without error."""
import os
import pathlib

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    # the kernel inherits the environment: make the package importable from the repository
    extra = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + (os.pathsep + extra if extra else ""))
    nb = nbformat.read(path, as_version=4)
    # No cell has a time limit (how long a cell takes depends on the machine's load, not on whether the notebook
    # works); the kernel gets a generous start.  The notebooks keep their cells cheap (seconds on an idle machine).
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=None, startup_timeout=600,
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, errors
    # a page shows widgets and figures, never a bare value such as the False of a refused move
    bare = [o["data"]["text/plain"] for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
            if o.get("output_type") == "execute_result" and set(o.get("data", {})) == {"text/plain"}]
    assert not bare, bare


def test_there_are_notebooks():
    names = {p.name for p in NOTEBOOKS}
    assert {"explorer.ipynb", "teaching.ipynb", "rule_examples.ipynb", "balance.ipynb"} <= names, names
