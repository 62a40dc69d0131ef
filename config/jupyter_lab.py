"""JupyterLab settings of the explorer (``scripts/explorer.sh`` passes ``--config=config/jupyter_lab.py``).

The project's notebooks are tracked by git and kept without outputs: a designer who runs the explorer
and lets JupyterLab autosave must not find ``git status`` showing them modified.  Every save of a
notebook under ``notebooks/`` goes through :func:`clean_notebook`, which drops what a run adds (outputs,
execution counts, widget state, the kernel's language details) and keeps what an author writes (the
cells' sources, their tags, the kernel's name).
"""

from typing import Any

#: the notebook metadata an author writes; the rest (widgets, language_info's version...) a run adds
KEPT_METADATA = ("kernelspec",)
#: the cell metadata an author writes; the rest (execution times, scrolling, collapsing) a run adds
KEPT_CELL_METADATA = ("tags", "editable", "deletable")


def clean_notebook(model: dict[str, Any], path: str, contents_manager: Any = None, **_: Any) -> None:
    """A pre-save hook: a notebook under ``notebooks/`` is written as the project tracks it."""
    if model.get("type") != "notebook" or not path.lstrip("/").startswith("notebooks/"):
        return
    nb = model.get("content")
    if not isinstance(nb, dict):
        return
    meta = nb.get("metadata", {})
    language = meta.get("language_info", {}).get("name")
    nb["metadata"] = {key: meta[key] for key in KEPT_METADATA if key in meta}
    if language:
        nb["metadata"]["language_info"] = {"name": language}
    for cell in nb.get("cells", []):
        cell["metadata"] = {key: value for key, value in cell.get("metadata", {}).items() if key in KEPT_CELL_METADATA}
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None


c = get_config()  # noqa: F821  (traitlets provides it to config files)
c.FileContentsManager.pre_save_hook = clean_notebook
