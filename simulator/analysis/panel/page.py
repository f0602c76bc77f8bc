"""The what-if panel as a standalone web page (``electsim app``): plain HTML controls, the same
outputs as the Jupyter panel, and a few lines of script that send each change to the local
server and put the answer in place. No notebook, no code on the page.

The page runs under a content security policy that allows only its own style sheet and script
(each carrying the nonce the server gives the page) and no style attribute; it sends each change
with the server's token (from its ``electsim-token`` meta tag) in an ``X-Electsim-Token``
header, and shows only answers that came from the server with that token accepted."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from simulator.analysis.panel.controls import Control
from simulator.analysis.panel.model import PanelState
from simulator.analysis.panel.render import CSS, outputs_html

PAGE_CSS = """
*{box-sizing:border-box}
body{margin:0;background:#eef1f6}
header{background:#1d2433;color:#fff;padding:10px 16px}
header h1{font-size:18px;margin:0}
header p{margin:2px 0 0;font-size:13px;color:#c9d1de}
main{display:flex;flex-wrap:wrap;gap:14px;padding:14px}
#controls{flex:1 1 320px;max-width:460px;background:#fff;border-radius:8px;padding:10px 14px;
 max-height:calc(100vh - 90px);overflow:auto}
#outputs{flex:2 1 420px;min-width:0;background:#fff;border-radius:8px;padding:10px 14px}
fieldset{border:1px solid #e1e6ee;border-radius:6px;margin:8px 0;padding:6px 10px}
legend{font-weight:600;font-size:13px}
label.ws-control{display:flex;justify-content:space-between;align-items:center;gap:8px;
 margin:5px 0;font-size:13px}
label.ws-control span{flex:1}
label.ws-control input[type=date],label.ws-control input[type=number],label.ws-control select{
 font-size:13px;padding:2px 4px;max-width:170px}
label.ws-control input[type=number]{width:100px}
.ws-buttons{display:flex;gap:8px;margin:10px 0}
button{font-size:13px;padding:5px 10px;border-radius:5px;border:1px solid #8a94a6;
 background:#f7f9fc;cursor:pointer}
textarea{width:100%;height:16em;font-family:ui-monospace,monospace;font-size:12px}
#controls h2{font-size:15px;margin:4px 0}
details summary{cursor:pointer;font-size:13px;font-weight:600;margin:6px 0}
@media (max-width:600px){main{padding:6px;gap:8px}#controls{max-height:42vh}}
"""

SCRIPT = """
const outputs = document.getElementById('outputs');
const token = document.querySelector('meta[name="electsim-token"]').content;
function show(answer){
  for (const [name, html] of Object.entries(answer.outputs)) {
    document.getElementById('out-' + name).innerHTML = html;
  }
  document.getElementById('timing').textContent =
    'replayed in ' + Math.round(answer.ms) + ' ms';
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
document.querySelectorAll('[data-key]').forEach(el => {
  el.addEventListener('change', () => post('/set', {key: el.dataset.key, value: value(el)}));
});
document.getElementById('reset').addEventListener('click', () => post('/reset'));
document.getElementById('copy').addEventListener('click', async () => {
  const text = await (await fetch('/variant.yaml')).text();
  const box = document.getElementById('yaml');
  box.value = text; box.hidden = false; box.select();
  try { await navigator.clipboard.writeText(text); } catch (e) {}
});
"""


def _input(c: Control, value: Any) -> str:
    key = escape(c.key, quote=True)
    if c.kind == "date":
        box = (
            f'<input type="date" data-key="{key}" value="{value.isoformat()}" '
            f'min="{c.first}" max="{c.last}">'
        )
    elif c.kind == "count":
        box = f'<input type="number" data-key="{key}" value="{value}" step="1">'
    elif c.kind == "switch":
        box = f'<input type="checkbox" data-key="{key}"{" checked" if value else ""}>'
    else:
        options = "".join(
            f'<option value="{escape(str(v), quote=True)}"{" selected" if v == value else ""}>'
            f"{escape(words)}</option>"
            for words, v in c.choices
        )
        box = f'<select data-key="{key}">{options}</select>'
    return f'<label class="ws-control"><span>{escape(c.label)}</span>{box}</label>'


def controls_html(p: PanelState) -> str:
    groups: dict[str, list[str]] = {}
    for key, c in p.controls.items():
        groups.setdefault(c.group, []).append(_input(c, p.values[key]))
    parts = ["<h2>Change a fact</h2>"]
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
    carried by the page's style sheet and script."""
    outs = "".join(f'<div id="out-{name}">{html}</div>' for name, html in outputs_html(p).items())
    title = escape(p.original.title)
    tag = f" nonce='{escape(nonce, quote=True)}'" if nonce else ""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<meta name='electsim-token' content='{escape(token, quote=True)}'>"
        f"<title>What if? {title}</title><style{tag}>{CSS}{PAGE_CSS}</style></head>"
        f"<body class='ws-panel'><header><h1>What if? {title}</h1><p>Change a date, a count, "
        "who asked or a reading; the law answers below.</p></header><main>"
        f"<section id='controls'>{controls_html(p)}</section>"
        f"<section id='outputs'>{outs}<div id='timing' class='ws-note'></div></section>"
        f"</main><script{tag}>{SCRIPT}</script></body></html>"
    )


def answer_json(p: PanelState, *, values: bool = False) -> str:
    """What the page needs after a change: every output's HTML, the error if any, the time."""
    doc: dict[str, Any] = {
        "ok": not p.error,
        "error": p.error,
        "ms": p.seconds * 1000,
        "outputs": outputs_html(p),
    }
    if values:
        doc["values"] = {
            k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in p.values.items()
        }
    return json.dumps(doc)
