"""Dependencies point one way: the law, then the engine, input, views, analysis, the command line.

Every module of ``simulator`` sits in one layer; a module imports only from its own layer or
those below it, at the top of the file or inside a function (``if TYPE_CHECKING:`` imports are
annotations only and are not counted).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "simulator"
LAYERS = {  # layer: its modules, lowest first
    # facts, vocabularies, citations, calendars, rule tables
    "law": "errors vocab law events eventlog scenario parameters closures calendar rules"
    " count_rules filing_rules result_rules rulebook contingencies tally",
    "engine": "machine state result counting replay engines expect",  # state, machine, fold
    "input": "reading reader schema loader importer output seats",  # files in and out, structuring
    "views": "markup text tables charts graph report ical",  # they only read results
    "analysis": "whatif explore explore_coverage gaps citations conformance conformance_primaries",
    # the command line and the public API
    "cli": "cli cite_command explore_command __main__ __init__",
}
LAYER = {m: (i, layer) for i, (layer, names) in enumerate(LAYERS.items()) for m in names.split()}


def imported(tree: ast.Module) -> set[str]:
    """The ``simulator`` modules a module imports at run time."""
    typing_only = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module == "simulator":
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("simulator."):
            out.add(str(node.module).split(".")[1])
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[1] for a in node.names if a.name.startswith("simulator.")}
    return out


def test_every_module_imports_only_from_its_own_layer_or_below() -> None:
    modules = {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in PACKAGE.glob("*.py")}
    assert set(modules) == set(LAYER), f"place in LAYERS: {set(modules) ^ set(LAYER)}"
    upward = [
        f"{m} ({LAYER[m][1]}) imports {d} ({LAYER[d][1]})"
        for m, tree in sorted(modules.items())
        for d in sorted(imported(tree))
        if d in LAYER and LAYER[d] > LAYER[m]
    ]
    assert not upward, "\n".join(upward)
