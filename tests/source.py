"""The package's modules as syntax trees, each parsed and walked once per test process.

The structural tests (the layers, plain code, the law's one home, the engine's words) read
every module of the package, some of them several times over, and a module's tree is the same
each time: it is made once for each text. The trees are shared: a test reads them and never
changes them."""

from __future__ import annotations

import ast
from functools import cache


@cache
def tree(source: str) -> ast.Module:
    """``ast.parse(source)``, once per text."""
    return ast.parse(source)


@cache
def nodes(source: str) -> tuple[ast.AST, ...]:
    """Every node of ``source``'s tree, in the order ``ast.walk`` gives them, once per text."""
    return tuple(ast.walk(tree(source)))
