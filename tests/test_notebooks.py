"""The notebooks in notebooks/ run from top to bottom, and each ends by asserting what it claims.

They are stored without outputs (the repository holds the analysis, not one run of it) and are
executed here with nbclient on the ``python3`` kernel, from notebooks/ and with matplotlib's
Agg backend, so an executed notebook that shows a wrong answer fails the suite.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip(
    "nbformat", reason="nbformat is not installed (pip install -e '.[test]')"
)
nbclient = pytest.importorskip(
    "nbclient", reason="nbclient is not installed (pip install -e '.[test]')"
)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
BOOKS = sorted(NOTEBOOKS.glob("*.ipynb"))
KERNEL = "python3"
TIMEOUT = 120  # seconds per cell; each notebook takes a few seconds


def _kernel_missing() -> str | None:
    """Why the python3 kernel cannot be started here, or None when it can."""
    try:
        from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    except ImportError:
        return "jupyter_client is not installed"
    try:
        KernelSpecManager().get_kernel_spec(KERNEL)
    except NoSuchKernel:
        return f"no {KERNEL!r} Jupyter kernel (pip install ipykernel)"
    return None


def _read(path: Path) -> Any:
    return nbformat.read(path, as_version=4)


def test_there_are_the_four_notebooks_of_the_issue() -> None:
    names = {p.name for p in BOOKS}
    assert names >= {
        "01-tour.ipynb",
        "02-thirty-day-rule.ipynb",
        "03-runoff-request.ipynb",
        "04-dead-candidate-wins.ipynb",
    }


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_a_notebook_is_stored_without_outputs(path: Path) -> None:
    book = _read(path)
    nbformat.validate(book)
    for i, cell in enumerate(book.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {i} of {path.name} has outputs: clear them"
            assert cell.execution_count is None, f"cell {i} of {path.name} has an execution count"
    assert book.metadata.get("kernelspec", {}).get("name") == KERNEL


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_a_notebook_ends_by_asserting_its_claims(path: Path) -> None:
    code = [c for c in _read(path).cells if c.cell_type == "code"]
    assert code and "assert " in code[-1].source, f"{path.name}: the last cell must assert"


@pytest.mark.notebooks
@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_a_notebook_runs_and_its_claims_hold(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = _kernel_missing()
    if missing is not None:
        pytest.skip(f"cannot execute notebooks: {missing}")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    book = _read(path)
    client = nbclient.NotebookClient(
        book,
        kernel_name=KERNEL,
        timeout=TIMEOUT,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        pytest.fail(f"{path.name} failed:\n{error}", pytrace=False)
    printed = "".join(
        out.get("text", "")
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.get("output_type") == "stream"
    )
    assert "Traceback" not in printed
