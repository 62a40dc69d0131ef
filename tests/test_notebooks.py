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


def test_jupyterlab_saves_the_project_notebooks_without_what_a_run_adds(tmp_path):
    """JupyterLab as scripts/explorer.sh starts it: an autosave after a run writes the notebook as git tracks it
    (no outputs, execution counts, widget state or kernel version), so `git status` shows no change after use."""
    import json
    import urllib.parse
    import urllib.request

    from .browser_app import ROOT, free_port, jupyter_lab

    (tmp_path / "notebooks").mkdir()
    tracked = (ROOT / "notebooks" / "explorer.ipynb").read_text()
    (tmp_path / "notebooks" / "explorer.ipynb").write_text(tracked)
    (tmp_path / "elsewhere.ipynb").write_text(tracked)
    run = json.loads(tracked)
    run["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    run["metadata"]["language_info"] = {"name": "python", "version": "3.11.7", "mimetype": "text/x-python"}
    for cell in run["cells"]:
        if cell["cell_type"] == "code":
            cell["execution_count"] = 3
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "ran\n"}]
            cell["metadata"] = {"execution": {"iopub.status.idle": "2026-11-29T00:00:00Z"}, "tags": ["kept"]}
    with jupyter_lab(free_port(9030, 9039), tmp_path / "lab.log", root=tmp_path) as url:
        token = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["token"][0]
        base = url.split("/lab/")[0]
        for path in ("notebooks/explorer.ipynb", "elsewhere.ipynb"):
            body = json.dumps({"type": "notebook", "format": "json", "content": run}).encode()
            request = urllib.request.Request(f"{base}/api/contents/{path}", data=body, method="PUT",
                                             headers={"Authorization": f"token {token}",
                                                      "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as answer:
                assert answer.status == 200
    saved = json.loads((tmp_path / "notebooks" / "explorer.ipynb").read_text())
    original = json.loads(tracked)
    assert saved["metadata"] == original["metadata"]
    assert [c["source"] for c in saved["cells"]] == [c["source"] for c in original["cells"]]
    code = [c for c in saved["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    assert all(c["metadata"] == {"tags": ["kept"]} for c in code)
    # a notebook of the designer's own, outside notebooks/, keeps everything it was saved with
    assert json.loads((tmp_path / "elsewhere.ipynb").read_text())["cells"][1]["outputs"]
