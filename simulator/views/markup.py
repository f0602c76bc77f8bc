"""HTML pieces shared by the report page and the notebook displays.

Escaping, citation links, tables and the colours of ruling kinds live here once. The report
styles its tables with its own stylesheet (classes); a notebook cell cannot rely on one, because
JupyterLab (``.jp-RenderedHTMLCommon td``) and the classic Notebook (``.rendered_html td``)
right-align cells and centre tables with rules as specific as a class selector, so a table made
for a notebook (``inline=True``) carries its style on every table, header and cell: an inline
style wins over any stylesheet rule that is not ``!important``.

>>> t = table(("kind", "text"), [row(("elected", escape("Ann <b>")), inline=True)], inline=True)
>>> t.count("text-align:left"), "Ann &lt;b&gt;" in t
(4, True)
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from simulator.law.cite import Cite

__all__ = [
    "RULING_COLOURS",
    "cite_links",
    "escape",
    "row",
    "ruling_colour",
    "spanning_row",
    "table",
]

_TABLE_STYLE = "border-collapse:collapse;font-size:90%;margin:0 0 0.6em 0;table-layout:auto"
_CELL_STYLE = "border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top"
_TH_STYLE = _CELL_STYLE + ";background:#f2f2f2;font-weight:bold"
#: A notebook cell holding a word of more than 30 characters (a name of a hundred letters):
#: its content is held to 24em and the word breaks, rather than push the table past the
#: output's width. (``overflow-wrap: anywhere`` on every cell would let the table squeeze a
#: column to a few letters; cells of ordinary words keep the width the table gives them.)
_BODY_STYLE = "max-width:24em;overflow-wrap:break-word"
#: A row across the table (:func:`spanning_row`): joined to the row above it, its words set in
#: from the left, as wide as a line of text reads well
_SPAN_STYLE = _CELL_STYLE + ";border-top:hidden;padding:0 6px 4px 18px"
_SPAN_BODY_STYLE = "max-width:48em;overflow-wrap:break-word"
#: (a hyphen is a place a browser breaks a line: an id like gap:nonpartisan-left-before-printing
#: is several words to it)
_LONG_WORD = re.compile(r"[^\s-]{31,}")
_TAG = re.compile(r"<[^>]*>")

#: The colour of each kind of deciding ruling (a sweep's chart and table; colour-blind-safe
#: where it matters).
RULING_COLOURS: dict[str, str] = {
    "elected": "#1b9e77",
    "nominated": "#66a61e",
    "nominee_certified": "#a6d854",
    "office_vacant": "#636363",
    "runoff_available": "#cab2d6",
    "runoff_called": "#6a3d9a",
    "runoff_unless_withdrawn": "#9e9ac8",
    "no_runoff": "#b2df8a",
    "decided_by_lot": "#e7298a",
    "filing_reopened": "#fdbf6f",
    "filing_extended": "#ffe48a",
    "party_to_nominate": "#80b1d3",
    "votes_disregarded": "#fb8072",
    "recount_required": "#e6ab02",
    "lot_required": "#f1b6da",
    "no_provision": "#d95f02",
}
OTHER_COLOUR = "#bdbdbd"


def ruling_colour(kind: str | None) -> str:
    """The colour of a ruling kind (grey for a kind without one, or no ruling)."""
    return RULING_COLOURS.get(kind or "", OTHER_COLOUR)


def escape(value: object) -> str:
    """Text as HTML: ``<``, ``>``, ``&`` and both quotes escaped."""
    return html.escape(str(value), quote=True)


def cite_links(cites: Iterable[Cite], *, inline: bool = False) -> str:
    """Citations, each a link to its section (opened in a new tab), joined by ``; ``. A citation
    never breaks across lines ("G.S. 163-" / "294.4(c)"): a page's style sheet says so for the
    class ``cite``; with ``inline`` (a notebook, which has no style sheet of ours) each link
    says so itself."""
    style = ' style="white-space:nowrap"' if inline else ""
    return "; ".join(
        f'<a class="cite"{style} target="_blank" href="{escape(c.url)}" rel="noopener">'
        f"{escape(c)}</a>"
        for c in cites
    )


def row(cells: Iterable[str | tuple[str, str]], *, cls: str = "", inline: bool = False) -> str:
    """A table row; each cell is HTML (escape text with :func:`escape`), or (HTML, class)."""
    out = []
    for cell in cells:
        body, cell_cls = cell if isinstance(cell, tuple) else (cell, "")
        style = f' style="{_CELL_STYLE}"' if inline else ""
        klass = f' class="{cell_cls}"' if cell_cls else ""
        if inline and _LONG_WORD.search(_TAG.sub(" ", body)):
            body = f'<div style="{_BODY_STYLE}">{body}</div>'
        out.append(f"<td{klass}{style}>{body}</td>")
    klass = f' class="{cls}"' if cls else ""
    return f"<tr{klass}>{''.join(out)}</tr>"


def spanning_row(body: str, span: int) -> str:
    """A notebook table's row of one cell across ``span`` columns, under the row it belongs to:
    a ruling's words under its date, kind and citation, so that the words take the output's
    whole width rather than a column squeezed beside the others on a phone. ``body`` is HTML."""
    return (
        f'<tr><td colspan="{span}" style="{_SPAN_STYLE}">'
        f'<div style="{_SPAN_BODY_STYLE}">{body}</div></td></tr>'
    )


def table(
    head: Sequence[str], rows: Iterable[str], *, inline: bool = False, narrow: bool = False
) -> str:
    """A table of :func:`row` s under a header of plain text; ``inline`` for a notebook cell,
    otherwise classes for the report's stylesheet (scrolling sideways when too wide)."""
    if inline:
        th = "".join(f'<th style="{_TH_STYLE}">{escape(h)}</th>' for h in head)
        return (
            f'<table class="electsim-t" style="{_TABLE_STYLE}">'
            f"<thead><tr>{th}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "\n".join(rows)
    start = '<table class="narrow">' if narrow else "<table>"
    return (
        f'<div class="scroll">{start}<thead><tr>{th}</tr></thead>'
        f"<tbody>\n{body}\n</tbody></table></div>"
    )
