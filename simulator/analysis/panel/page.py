"""The what-if panel as a standalone web page (``electsim app``): plain HTML controls, the same
outputs as the Jupyter panel, and a few lines of script that send each change to the local
server and put the answer in place. No notebook, no code on the page.

The page runs under a content security policy that allows only its own style sheet and script
(each carrying the nonce the server gives the page) and no style attribute; it sends each change
with the server's token (from its ``electsim-token`` meta tag) in an ``X-Electsim-Token``
header, and shows only answers that came from the server with that token accepted."""

from __future__ import annotations

import json
from datetime import datetime
from html import escape
from typing import Any

from simulator.analysis.panel.controls import Control, local_moment
from simulator.analysis.panel.model import ADDABLE, PanelState, addable_words
from simulator.analysis.panel.render import CSS, outputs_html

PAGE_CSS = """
*{box-sizing:border-box}
body{margin:0;background:#eef1f6}
header{background:#1d2433;color:#fff;padding:10px 16px}
header h1{font-size:18px;margin:0}
header p{margin:2px 0 0;font-size:13px;color:#c9d1de}
main{display:grid;gap:14px;padding:14px;align-items:start;
 grid-template-columns:minmax(300px,440px) minmax(0,1fr);
 grid-template-areas:"controls answer" "controls details"}
#answer{grid-area:answer}
#details{grid-area:details}
#controls{grid-area:controls;max-height:calc(100vh - 90px);overflow:auto}
#controls,#answer,#details{min-width:0;background:#fff;border-radius:8px;padding:10px 14px}
fieldset{border:1px solid #e1e6ee;border-radius:6px;margin:8px 0;padding:6px 10px;min-width:0}
legend{font-weight:600;font-size:13px}
label.ws-control{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;
 gap:4px 8px;margin:5px 0;font-size:13px}
label.ws-control span{flex:1 1 140px}
label.ws-control input,label.ws-control select{font-size:13px;padding:2px 4px;max-width:100%}
label.ws-control input[type=number]{width:100px}
.ws-added{border-color:#0f766e;background:#f3faf8}
.ws-buttons{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}
button{font-size:13px;padding:5px 10px;border-radius:5px;border:1px solid #8a94a6;
 background:#f7f9fc;cursor:pointer}
button.ws-remove{padding:2px 8px;font-size:12px}
textarea{width:100%;height:16em;font-family:ui-monospace,monospace;font-size:12px}
#controls h2{font-size:15px;margin:4px 0}
details summary{cursor:pointer;font-size:13px;font-weight:600;margin:6px 0}
@media (max-width:720px){
 main{grid-template-columns:minmax(0,1fr);grid-template-areas:"answer" "controls" "details";
  padding:6px;gap:8px}
 #controls{max-height:none}
}
"""

SCRIPT = """
const token = document.querySelector('meta[name="electsim-token"]').content;
function show(answer){
  for (const [name, html] of Object.entries(answer.outputs)) {
    document.getElementById('out-' + name).innerHTML = html;
  }
  document.getElementById('timing').textContent =
    'replayed in ' + Math.round(answer.ms) + ' ms';
  if (answer.controls) {
    document.getElementById('controls').innerHTML = answer.controls;
    bind();
  }
  if (answer.values) {
    for (const [key, value] of Object.entries(answer.values)) {
      const el = document.querySelector('[data-key="' + CSS.escape(key) + '"]');
      if (!el) continue;
      if (el.type === 'checkbox') el.checked = value; else el.value = value;
    }
  }
  document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
}
async function post(path, body){
  const r = await fetch(path, {method: 'POST', credentials: 'same-origin',
                               headers: {'Content-Type': 'application/json',
                                         'X-Electsim-Token': token},
                               body: JSON.stringify(body || {})});
  if (!r.ok) {  // refused (the server names why): shown as it is, never as the page's own
    document.getElementById('timing').textContent = 'the server refused the change (' +
      r.status + '): reload the page';
    return;
  }
  show(await r.json());
}
function value(el){
  if (el.type === 'checkbox') return el.checked;
  return el.value;
}
function bind(){
  document.querySelectorAll('#controls [data-key]').forEach(el => {
    el.addEventListener('change', () => post('/set', {key: el.dataset.key, value: value(el)}));
  });
  document.querySelectorAll('#controls [data-remove]').forEach(el => {
    el.addEventListener('click', () => post('/remove', {id: el.dataset.remove}));
  });
  const add = document.getElementById('add');
  if (add) add.addEventListener('click', () => {
    const body = {};
    document.querySelectorAll('#controls [data-add]').forEach(el => {
      body[el.dataset.add] = value(el);
    });
    post('/add', body);
  });
  document.getElementById('reset').addEventListener('click', () => post('/reset'));
  document.getElementById('copy').addEventListener('click', async () => {
    const text = await (await fetch('/variant.yaml')).text();
    const box = document.getElementById('yaml');
    box.value = text; box.hidden = false; box.select();
    try { await navigator.clipboard.writeText(text); } catch (e) {}
  });
}
bind();
"""

#: the parts of the answer shown first (beside the controls; above them on a phone), and the
#: parts shown after
_ANSWER = ("error", "outcome", "flip")
_DETAILS = ("rulings", "deadlines", "timeline")

_HYPOTHETICAL = '<span class="ws-tag ws-hypo">hypothetical</span>'


def moment_value(value: datetime) -> str:
    """A moment as a date-time box holds it: ``2023-10-19T11:59``."""
    return f"{value:%Y-%m-%dT%H:%M}"


def _input(c: Control, value: Any) -> str:
    key = escape(c.key, quote=True)
    if c.kind == "moment":
        box = (
            f'<input type="datetime-local" step="60" data-key="{key}" '
            f'value="{moment_value(value)}" min="{c.first}T00:00" max="{c.last}T23:59">'
        )
    elif c.kind == "count":
        box = f'<input type="number" data-key="{key}" value="{value}" step="1">'
    elif c.kind == "switch":
        box = f'<input type="checkbox" data-key="{key}"{" checked" if value else ""}>'
    else:
        box = _select(f'data-key="{key}"', c.choices, value)
    made_up = _HYPOTHETICAL if c.hypothetical else ""
    return f'<label class="ws-control"><span>{escape(c.label)}{made_up}</span>{box}</label>' + (
        f'<button type="button" class="ws-remove" data-remove="{escape(c.event or "")}">'
        "Remove this event</button>"
        if c.hypothetical and c.kind == "moment"
        else ""
    )


def _select(attribute: str, choices: Any, value: Any = None) -> str:
    options = "".join(
        f'<option value="{escape(str(v), quote=True)}"{" selected" if v == value else ""}>'
        f"{escape(str(words))}</option>"
        for words, v in choices
    )
    return f"<select {attribute}>{options}</select>"


def _add_form(p: PanelState) -> str:
    """The boxes that add a hypothetical event: what happens, to whom, in which contest, when
    (and, for a board's determination, whether there is time to reprint)."""
    names: dict[str, None] = {}
    for e in p.base.events:
        name = getattr(e, "candidate", None)
        if e.type == "candidate_filed" and isinstance(name, str):
            names[name] = None
    contests = [(c.label, c.id) for c in p.base.contests]
    last = max((e.at for e in p.variant.events), default=None)
    when = moment_value(local_moment(last, p.base)) if last is not None else ""
    year = p.base.contests[0].year
    rows = [
        ("What happens", _select('data-add="type"', [(addable_words(t), t) for t in ADDABLE])),
        ("Who (the winner, for lots)", _select('data-add="candidate"', [(n, n) for n in names])),
        (
            "When",
            f'<input type="datetime-local" step="60" data-add="at" value="{when}" '
            f'min="{year}-01-01T00:00" max="{year}-12-31T23:59">',
        ),
        (
            "Enough time to reprint (a board determination)",
            _select('data-add="enough_time"', [("yes", "yes"), ("no", "no")]),
        ),
    ]
    if len(contests) > 1:
        rows.insert(0, ("Contest", _select('data-add="contest"', contests)))
    boxes = "".join(
        f'<label class="ws-control"><span>{escape(words)}</span>{box}</label>'
        for words, box in rows
    )
    return (
        '<fieldset class="ws-add"><legend>Add an event that did not happen</legend>'
        f'{boxes}<div class="ws-buttons"><button id="add" type="button">Add it</button></div>'
        "</fieldset>"
    )


def controls_html(p: PanelState) -> str:
    groups: dict[str, list[str]] = {}
    added: list[str] = []
    for key, c in p.controls.items():
        (added if c.hypothetical else groups.setdefault(c.group, [])).append(
            _input(c, p.values[key])
        )
    parts = [
        "<h2>Change a fact</h2>",
        f'<p class="ws-note">Times are wall-clock times in {escape(str(p.base.tz))}, '
        "to the minute.</p>",
    ]
    parts.append(_add_form(p))
    if added:
        parts.append(
            '<fieldset class="ws-added"><legend>Events added here (hypothetical)</legend>'
            f"{''.join(added)}</fieldset>"
        )
    for name, items in groups.items():
        if name == "readings":
            continue
        legend = f"<legend>{escape(name)}</legend>" if name else ""
        parts.append(f"<fieldset>{legend}{''.join(items)}</fieldset>")
    if "readings" in groups:
        parts.append(
            "<details><summary>Readings of unclear law</summary>"
            f"{''.join(groups['readings'])}</details>"
        )
    parts.append(
        '<div class="ws-buttons"><button id="reset" type="button">Reset</button>'
        '<button id="copy" type="button">Copy this variant as YAML</button></div>'
        '<textarea id="yaml" hidden readonly aria-label="the variant as YAML">'
        "</textarea>"
    )
    return "".join(parts)


def page_html(p: PanelState, *, token: str = "", nonce: str = "") -> str:
    """The whole page for the panel's current state: ``token`` the server's, which the page
    sends with each change; ``nonce`` the one the response's content security policy names,
    carried by the page's style sheet and script. The answer (the outcome, what it assumes,
    where it flips) comes before the controls on a phone, beside them on a wider screen."""
    outputs = outputs_html(p)

    def part(names: tuple[str, ...]) -> str:
        return "".join(f'<div id="out-{name}">{outputs[name]}</div>' for name in names)

    title = escape(p.original.title)
    tag = f" nonce='{escape(nonce, quote=True)}'" if nonce else ""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<meta name='electsim-token' content='{escape(token, quote=True)}'>"
        f"<title>What if? {title}</title><style{tag}>{CSS}{PAGE_CSS}</style></head>"
        f"<body class='ws-panel'><header><h1>What if? {title}</h1><p>Change a moment, a count, "
        "who asked or a reading, or add an event that did not happen; the law answers."
        "</p></header><main>"
        f"<section id='answer'>{part(_ANSWER)}</section>"
        f"<section id='controls'>{controls_html(p)}</section>"
        f"<section id='details'>{part(_DETAILS)}<div id='timing' class='ws-note'></div>"
        f"</section></main><script{tag}>{SCRIPT}</script></body></html>"
    )


def answer_json(p: PanelState, *, values: bool = False, controls: bool = False) -> str:
    """What the page needs after a change: every output's HTML, the error if any, the time;
    with ``values``, every control's value; with ``controls``, the controls afresh (after an
    event is added or removed)."""
    doc: dict[str, Any] = {
        "ok": not p.error,
        "error": p.error,
        "ms": p.seconds * 1000,
        "outputs": outputs_html(p),
    }
    if values:
        doc["values"] = {
            k: moment_value(v) if isinstance(v, datetime) else v for k, v in p.values.items()
        }
    if controls:
        doc["controls"] = controls_html(p)
    return json.dumps(doc)
