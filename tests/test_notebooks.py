"""The notebooks in notebooks/ run from top to bottom, and each ends by asserting what it claims.

They are stored without outputs (the repository holds the analysis, not one run of it) and are
executed here with nbclient on the ``python3`` kernel, from notebooks/, with no matplotlib setup:
an executed notebook that shows a wrong answer fails the suite, and so does a chart cell (tagged
``chart``) that shows no picture.
"""

from __future__ import annotations

import atexit
import base64
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.views.browser import Browser
from tests.views.test_graph import not_blank

nbformat = pytest.importorskip(
    "nbformat", reason="nbformat is not installed (pip install -e '.[test]')"
)
nbclient = pytest.importorskip(
    "nbclient", reason="nbclient is not installed (pip install -e '.[test]')"
)
run_sync = nbclient.util.run_sync

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


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_a_notebook_reads_as_a_user_would_write_it(path: Path) -> None:
    # no scaffolding: no fallbacks for modules that always exist, no events found by position,
    # no data found relative to the working directory
    code = "\n".join(c.source for c in _read(path).cells if c.cell_type == "code")
    assert "except ImportError" not in code and "Path.cwd()" not in code
    assert "%matplotlib" not in code and not re.search(r"\bdisplay\(", code)
    assert not re.search(r"\b(?:EventTime|Votes|Margin|EventField)\(\d", code), path.name


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_every_cell_that_draws_is_tagged_as_a_chart(path: Path) -> None:
    for i, cell in enumerate(_read(path).cells):
        if cell.cell_type != "code":
            continue
        draws = bool(DRAWS.search(cell.source))
        tagged = "chart" in cell.metadata.get("tags", [])
        assert draws == tagged, f"cell {i} of {path.name}: draws={draws} but tagged={tagged}"


DRAWS = re.compile(r"\b(?:plot_timeline|draw_graph)\(|\.plot\(")
_EXECUTED: dict[Path, Any] = {}


def _executed(path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The notebook executed top to bottom (once per test run), with no matplotlib backend set
    up for it: a chart shows only if it displays itself.

    The notebooks of one test process share one kernel, started for the first of them: each
    starts with the kernel's namespace emptied (``%reset -f``) and its folder notebooks/, so a
    notebook that leans on a name another one made fails as in a kernel of its own (what stays
    is only the modules imported, which a fresh kernel would import the same way; starting a
    kernel and importing matplotlib is most of a notebook's time). A fresh kernel with no setup
    at all is checked by test_a_result_shows_as_a_table_in_a_fresh_kernel_with_no_setup."""
    if path in _EXECUTED:
        return _EXECUTED[path]
    missing = _kernel_missing()
    if missing is not None:
        pytest.skip(f"cannot execute notebooks: {missing}")
    book = _run(_read(path), path.name, monkeypatch)
    _EXECUTED[path] = book
    return book


def _run(book: Any, name: str, monkeypatch: pytest.MonkeyPatch, setup: str = "") -> Any:
    """``book`` executed in the shared kernel after ``setup`` (code run first, not kept)."""
    fresh = nbformat.v4.new_code_cell(
        f"%reset -f\nimport os\nos.chdir({str(NOTEBOOKS)!r})\n{setup}"
    )
    book.cells.insert(0, fresh)
    client = nbclient.NotebookClient(book, km=_shared_kernel(monkeypatch), timeout=TIMEOUT)
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        pytest.fail(f"{name} failed:\n{error}", pytrace=False)
    finally:
        del book.cells[0]
        if client.kc is not None:
            client.kc.stop_channels()
    return book


def _shared_kernel(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The kernel this test process runs its notebooks in (started on first use, shut down when
    the process ends), with the package importable and no matplotlib backend set."""
    if "km" not in _KERNEL:
        monkeypatch.delenv("MPLBACKEND", raising=False)
        paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
        starter = nbclient.NotebookClient(nbformat.v4.new_notebook(), kernel_name=KERNEL)
        km = starter.create_kernel_manager()
        starter.start_new_kernel(cwd=str(NOTEBOOKS))
        atexit.register(run_sync(km.shutdown_kernel), now=True)
        _KERNEL["km"] = km
    return _KERNEL["km"]


_KERNEL: dict[str, Any] = {}


@pytest.mark.notebooks
@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_a_notebook_runs_and_its_claims_hold(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = _executed(path, monkeypatch)
    printed = "".join(
        out.get("text", "")
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.get("output_type") == "stream"
    )
    assert "Traceback" not in printed
    last = [c for c in book.cells if c.cell_type == "code"][-1]
    assert any(o.get("name") == "stdout" for o in last.outputs), "the claims cell printed nothing"


@pytest.mark.notebooks
@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_every_chart_cell_shows_a_picture(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = _executed(path, monkeypatch)
    charts = [c for c in book.cells if "chart" in c.metadata.get("tags", [])]
    assert charts, f"{path.name} draws nothing"
    for cell in charts:
        kinds = {k for out in cell.outputs for k in out.get("data", {})}
        assert kinds & {"image/png", "image/svg+xml"}, f"{cell.source!r} showed only {kinds}"
        png = next(o.data["image/png"] for o in cell.outputs if "image/png" in o.get("data", {}))
        assert base64.b64decode(png)[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.notebooks
@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_tables_show_as_html_in_the_notebook(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = _executed(path, monkeypatch)
    html = [
        o.data["text/html"]
        for c in book.cells
        for o in c.get("outputs", [])
        if "text/html" in o.get("data", {})
    ]
    tables = [h for h in html if "electsim-chart" not in h]  # (a chart shows as HTML too)
    assert tables and all("electsim-t" in h or "<h3>" in h or "<h4>" in h for h in tables)


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.name)
def test_a_notebook_needs_no_setup_call_to_show_tables(path: Path) -> None:
    code = "\n".join(c.source for c in _read(path).cells if c.cell_type == "code")
    assert "enable_rich_display" not in code and "show(" not in code, path.name


_BARE = '''
from datetime import datetime

from simulator import parse_scenario, replay
s = parse_scenario("""
format: electsim/v1
title: Council seat A, 2027
contests: [{id: seat-a, seats: 1, method: nonpartisan-runoff, year: 2027}]
events:
  - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
  - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
  - {type: candidate_filed, at: 2027-07-08, candidate: Cy}
  - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 480, Bob: 420, Cy: 100}}
  - {type: canvass_held, at: "2027-10-12T11:00"}
""")
'''


@pytest.mark.notebooks
def test_a_result_shows_as_a_table_in_a_fresh_kernel_with_no_setup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    missing = _kernel_missing()
    if missing is not None:
        pytest.skip(f"cannot execute notebooks: {missing}")
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    early = "replay(s, as_of=datetime(2027, 10, 12, 15)).contests[0]"  # before the request
    cells = [_BARE, "replay(s)", early, "replay(s).contests[0].timeline"]
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nbclient.NotebookClient(book, kernel_name=KERNEL, timeout=TIMEOUT).execute()
    for cell in book.cells[1:]:
        (out,) = [o for o in cell.outputs if o.get("output_type") == "execute_result"]
        assert "electsim-t" in out.data["text/html"], cell.source
        plain = out.data["text/plain"]
        if cell.source != cells[-1]:  # a result's repr is short (a timeline's is its entries)
            assert len(plain.splitlines()) <= 5 and len(plain) < 400, plain
    result, contest = (c.outputs[0].data["text/html"] for c in book.cells[1:3])
    assert "<h3>Council seat A, 2027</h3>" in result
    # words, not identifiers: the state, the method, the runoff and what it waits for
    for words in ("runoff may be requested", "nonpartisan runoff", "a runoff request", "votes"):
        assert words in contest, words
    assert "runoff_request" not in contest and "awaiting_" not in contest


# Each table cell reports, into the page, the alignment the browser computed for it: the
# exported page carries JupyterLab's own stylesheet, which right-aligns plain table cells.
_PROBE = """<script>
window.addEventListener("load", () => {
  const cells = document.querySelectorAll("table.electsim-t td");
  const aligns = [...cells].map((td) => getComputedStyle(td).textAlign);
  const seen = document.createElement("pre");
  seen.id = "electsim-probe";
  seen.textContent = JSON.stringify({cells: cells.length, aligns: [...new Set(aligns)]});
  document.body.appendChild(seen);
});
</script>"""


@pytest.mark.notebooks
@pytest.mark.browser
def test_an_exported_notebook_shows_its_charts_and_left_aligned_tables_in_a_browser(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nbconvert = pytest.importorskip("nbconvert", reason="nbconvert is not installed")
    book = _executed(NOTEBOOKS / "04-dead-candidate-wins.ipynb", monkeypatch)
    page, _ = nbconvert.HTMLExporter(template_name="lab").from_notebook_node(book)
    assert "jp-RenderedHTMLCommon" in page  # JupyterLab's stylesheet is in the page
    assert page.count("data:image/png;base64") >= 3
    html = tmp_path / "04.html"
    html.write_text(page.replace("</body>", _PROBE + "</body>"), encoding="utf-8")
    browser.resize(1280, 2400)
    browser.load(html.as_uri())
    probe = browser.until("document.getElementById('electsim-probe')?.textContent")
    shot = browser.screenshot(tmp_path / "04.png", full=False)
    assert shot.exists() and not_blank(shot)
    seen = json.loads(probe)
    assert seen["cells"] > 10 and seen["aligns"] == ["left"], seen


@pytest.mark.notebooks
def test_the_runoff_notebook_runs_for_a_new_user_without_the_results_files(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # ELECTSIM_DATA names a folder with no results file: the notebook falls back to the bundled
    # scenario of the same election, says so, and every claim of it still holds
    if _kernel_missing() is not None:
        pytest.skip(f"cannot execute notebooks: {_kernel_missing()}")
    path = NOTEBOOKS / "03-runoff-request.ipynb"
    setup = f"os.environ['ELECTSIM_DATA'] = {str(tmp_path)!r}"
    try:
        book = _run(_read(path), path.name, monkeypatch, setup)
    finally:
        _run(
            nbformat.v4.new_notebook(),
            "reset",
            monkeypatch,
            "os.environ.pop('ELECTSIM_DATA', None)",
        )
    printed = "".join(
        out.get("text", "")
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.get("output_type") == "stream"
    )
    assert "the bundled scenario raleigh-2019-mayor-not-requested.yaml" in printed
    assert "a request by noon on Thursday 17 October 2019 would have forced a runoff" in printed


@pytest.mark.notebooks
def test_the_what_if_notebook_shows_the_panel_as_a_widget(monkeypatch: pytest.MonkeyPatch) -> None:
    book = _executed(NOTEBOOKS / "05-what-if-panel.ipynb", monkeypatch)
    widgets = [
        out.data["application/vnd.jupyter.widget-view+json"]["model_id"]
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if "application/vnd.jupyter.widget-view+json" in out.get("data", {})
    ]
    # Cary's runoff, the death near the 30-day boundary, and Cary with a withdrawal added
    assert len(widgets) == 3
    # the widgets' state is saved with the notebook, so the panel shows when it is opened
    state = book.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert set(widgets) <= set(state)
    shown = json.dumps(state)
    assert "What if? Town of Cary Town Council District D" in shown
    assert "163-112(a)" in shown and "ws-new" in shown
    assert "candidate withdrew: Ryan Eades" in shown and "hypothetical" in shown


def _exported_for_a_browser(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Notebook ``name`` executed and exported to an HTML file (the test is skipped where
    nbconvert is missing)."""
    nbconvert = pytest.importorskip("nbconvert", reason="nbconvert is not installed")
    book = _executed(NOTEBOOKS / f"{name}.ipynb", monkeypatch)
    page, _ = nbconvert.HTMLExporter(template_name="lab").from_notebook_node(book)
    html = tmp_path / f"{name}.html"
    html.write_text(page, encoding="utf-8")
    return html


@pytest.mark.notebooks
@pytest.mark.browser
def test_the_dead_candidate_notebook_shows_its_two_contests_side_by_side_where_they_fit(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    html = _exported_for_a_browser("04-dead-candidate-wins", tmp_path, monkeypatch)
    boxes = """JSON.stringify([...document.querySelectorAll(
        '.electsim-side-by-side > div')].map(b => {const r = b.getBoundingClientRect();
        return [r.left, r.top, r.right];}).concat([[document.documentElement.clientWidth]]))"""
    seen = {}
    for width in (1280, 390):
        browser.resize(width)
        browser.load(html.as_uri())
        seen[width] = json.loads(browser.evaluate(boxes))
    (left, right, _) = seen[1280]
    assert left[1] == right[1] and left[2] <= right[0], seen  # one row: side by side
    (top, below, (narrow,)) = seen[390]
    assert top[0] == below[0] and top[1] < below[1], seen  # stacked on a phone
    assert max(top[2], below[2]) <= narrow, seen  # and no wider than the screen


@pytest.mark.notebooks
@pytest.mark.browser
def test_the_what_if_notebook_exported_to_html_shows_the_panels_answers_without_a_kernel(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the live panels need a kernel or the widget scripts from the network, which an exported
    # page read offline has neither of: its snapshots must show the answers by themselves
    html = _exported_for_a_browser("05-what-if-panel", tmp_path, monkeypatch)
    browser.resize(1280)
    browser.load(html.as_uri())
    shown = json.loads(
        browser.evaluate(
            "JSON.stringify([...document.querySelectorAll('.electsim-snapshot')]"
            ".map(e => [e.innerText, e.getBoundingClientRect().height]))"
        )
    )
    assert len(shown) == 4, shown
    texts = [text for text, _ in shown]
    assert all(height > 100 for _, height in shown), shown
    assert "elected Sarika Bansal" in texts[0]  # the request a minute late: no runoff
    assert "163-112(a)" in texts[1]  # the death moved to day 30: filing reopened
    assert "hypothetical" in texts[2]
    assert re.search(r"What can happen from here \(\d+ ways\)", texts[3])  # (board undecided)
