"""Reading a YAML document in one pass into plain data that remembers its lines.

Instead of PyYAML's compose-then-construct passes, which build a node tree of the whole file
and then walk it, :meth:`YamlReader.build` turns the parser's event stream straight into dicts
and lists in one iterative pass: every mapping remembers its line, duplicate keys, tags, aliases
to nothing and a second document are recorded as problems rather than raised, merge keys
(``<<``) are applied, and no recursion limit can be hit. :func:`read_yaml` reads a text with it;
:func:`yaml_problem` is the one problem for text that is not YAML at all.
"""

from __future__ import annotations

import contextlib
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from simulator.input.parse.messages import REPEATED_KEY, RawProblem, show
from simulator.input.parse.trees import MISSING, Map, Seq
from simulator.input.parse.yaml_scalars import MAP_TAG, MERGE, SEQ_TAG, YamlScalars

__all__ = ["YamlReader", "read_yaml", "yaml_problem"]


class YamlReader(YamlScalars):
    """libyaml's safe parser with a one-pass, line-recording, problem-collecting builder.

    Use :meth:`build` instead of ``get_single_data``. docs/scenarios.md: "nothing a user wrote is
    lost", so a duplicate key is a problem, not a silent overwrite.
    """

    def __init__(self, text: str, *, detail: bool = False) -> None:
        super().__init__(text)
        self.detail = detail
        self.duplicates: list[RawProblem] = []

    def build(self) -> Any:
        """Read the single document: plain dicts/lists/scalars, maps as :class:`Map`.

        Raises :class:`yaml.YAMLError` for malformed text; collects everything else in
        :attr:`problems`.
        """
        get = self.get_event
        detail = self.detail
        cache = self.cache
        anchors: dict[str, Any] = {}
        stack: list[tuple[Any, Any, Any, Any, Any]] = []
        cur: Any = None  # the open collection; None at the top
        in_map = False
        key: Any = MISSING  # the key waiting for its value, in a mapping
        key_ev: Any = None
        merges: list[Any] | None = None
        lines: dict[Any, int] | None = None  # the open mapping's key lines, if recorded
        root: Any = None
        documents = 0
        val: Any
        while True:
            ev: Any = get()
            et = type(ev)
            if et is ScalarEvent:
                if ev.tag is None and ev.implicit[0]:  # a plain scalar: read once per text
                    val = cache.get(ev.value, MISSING)
                    if val is MISSING:
                        val = self._plain_cached(ev.value)
                else:
                    val = self._written_scalar(ev, stack, cur, key)
                if val is MERGE and not (in_map and key is MISSING):
                    val = "<<"  # a merge key is only special as a key
                if ev.anchor is not None:
                    anchors[ev.anchor] = val
            elif et is MappingStartEvent:
                new, new_lines = self._open_mapping(ev, anchors, stack, cur, key)
                stack.append((cur, key, key_ev, merges, lines))
                cur, lines, in_map, key, merges = new, new_lines, True, MISSING, None
                continue
            elif et is MappingEndEvent:
                if merges is not None:
                    _apply_merges(cur, merges)
                if lines is None and ev.end_mark.line + 1 == cur.line:
                    cur.key_lines = None  # all on one line: each key's line is the mapping's
                val = cur
                cur, key, key_ev, merges, lines = stack.pop()
                in_map = type(cur) is Map
            elif et is SequenceStartEvent:
                cur_seq = self._open_sequence(ev, anchors, stack, cur, key)
                stack.append((cur, key, key_ev, merges, lines))
                cur, in_map, key, merges, lines = cur_seq, False, MISSING, None, None
                continue
            elif et is SequenceEndEvent:
                val = cur
                cur, key, key_ev, merges, lines = stack.pop()
                in_map = type(cur) is Map
            elif et is AliasEvent:
                val = anchors.get(ev.anchor, MISSING)
                if val is MISSING:
                    self._no_anchor(ev, _path_here(stack, cur, key))
                    val = None
            elif et is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    self._second_document(ev)
                    break
                continue
            elif et is StreamEndEvent or ev is None:
                break
            else:  # stream start, document end
                continue

            # Place the value just read.
            if cur is None:
                root = val
            elif in_map:
                if key is MISSING:
                    key, key_ev = val, ev
                    continue
                if key is MERGE:
                    merges = self._merge_source(merges, val, _path_here(stack, cur, key), ev)
                else:
                    size_before = len(cur)
                    try:
                        cur[key] = val
                    except TypeError:
                        self._bad_key(key, key_ev, _path_here(stack, cur, "<key>"))
                    else:
                        if len(cur) == size_before:
                            self._repeated_key(key, key_ev, _path_here(stack, cur, key))
                        if lines is not None:
                            lines[key] = key_ev.start_mark.line + 1
                key = MISSING
            else:
                cur.append(val)
                if detail:
                    cur.item_lines.append(_item_line(val, ev))
        return root

    def _plain_cached(self, text: str) -> Any:
        """A plain scalar's value, remembered for the next time its text is read."""
        val = self._plain(text)
        cache = self.cache
        if len(cache) > 100_000:
            cache.clear()
        cache[text] = val
        return val

    def _written_scalar(self, ev: Any, stack: list[Any], cur: Any, key: Any) -> Any:
        """A quoted scalar's or a ``!``-tagged one's text, or a tagged scalar's value."""
        tag = ev.tag
        if tag is None or tag == "!":
            return ev.value
        return self._tagged(ev, _path_here(stack, cur, key))

    def _second_document(self, ev: Any) -> None:
        """A second document in the text: the scenario is one."""
        self.problems.append(
            (
                (),
                "a single YAML document (remove the second `---`)",
                "another document",
                ev.start_mark.line + 1,
            )
        )

    def _open_mapping(
        self, ev: Any, anchors: dict[str, Any], stack: list[Any], cur: Any, key: Any
    ) -> tuple[Map, dict[Any, int] | None]:
        """A new mapping opened by ``ev`` in ``cur`` at ``key``, and where its keys' lines go:
        recorded for block mappings (usually few: each costs a little), not for a flow mapping,
        like each event of a big log, which is usually on one line."""
        new = Map()
        new.line = ev.start_mark.line + 1
        if ev.tag is not None and ev.tag != MAP_TAG and ev.tag != "!":
            self._bad_tag(ev.tag, ev, _path_here(stack, cur, key))
        lines: dict[Any, int] | None = None
        if self.detail or not ev.flow_style:
            new.key_lines = lines = {}
        if ev.anchor is not None:
            anchors[ev.anchor] = new
        return new, lines

    def _open_sequence(
        self, ev: Any, anchors: dict[str, Any], stack: list[Any], cur: Any, key: Any
    ) -> list[Any]:
        """A new sequence opened by ``ev`` in ``cur`` at ``key`` (with its items' lines in
        detail)."""
        new: list[Any]
        if self.detail:
            new = seq = Seq()
            seq.line = ev.start_mark.line + 1
            seq.item_lines = []
        else:
            new = []
        if ev.tag is not None and ev.tag != SEQ_TAG and ev.tag != "!":
            self._bad_tag(ev.tag, ev, _path_here(stack, cur, key))
        if ev.anchor is not None:
            anchors[ev.anchor] = new
        return new

    def _no_anchor(self, ev: Any, where: tuple[Any, ...]) -> None:
        """An alias to an anchor not defined above it."""
        self.problems.append(
            (
                where,
                "an alias to an anchor defined above it (`&name` before `*name`)",
                f"*{ev.anchor}",
                ev.start_mark.line + 1,
            )
        )

    def _bad_key(self, key: Any, key_ev: Any, where: tuple[Any, ...]) -> None:
        """A key that is a list or a mapping."""
        self.problems.append(
            (
                where,
                "a plain key such as a field name (not a list or a mapping)",
                show(key),
                key_ev.start_mark.line + 1,
            )
        )

    def _repeated_key(self, key: Any, key_ev: Any, where: tuple[Any, ...]) -> None:
        """A key written twice in one mapping: docs/scenarios.md, nothing a user wrote is lost."""
        self.duplicates.append(
            (
                where,
                REPEATED_KEY,
                f"{show(key)} again",
                key_ev.start_mark.line + 1,
            )
        )

    def _merge_source(
        self, merges: list[Any] | None, val: Any, where: tuple[Any, ...], ev: Any
    ) -> list[Any] | None:
        """Record ``<<: *base`` (or a list of bases: the first wins) for the open mapping."""
        sources = list(reversed(val)) if isinstance(val, list) else [val]
        good = [s for s in sources if isinstance(s, dict)]
        if len(good) != len(sources):
            self.problems.append(
                (
                    where,
                    "a mapping, or a list of mappings, to merge with `<<`",
                    show(val),
                    ev.start_mark.line + 1,
                )
            )
        return (merges or []) + good


def _apply_merges(cur: Map, merges: list[Any]) -> None:
    """YAML merge keys: the mapping's own keys win, then later ``<<`` keys over earlier ones."""
    key_lines = getattr(cur, "key_lines", None)
    for src in reversed(merges):
        for k, v in src.items():
            if k not in cur:
                cur[k] = v
                if key_lines is not None:
                    lines = getattr(src, "key_lines", None) or {}
                    key_lines[k] = lines.get(k, getattr(src, "line", 0))


def _item_line(val: Any, ev: Any) -> int:
    """The line of a sequence's item: where a mapping or a sequence starts, else where the
    event that gave it (a scalar, or an alias to a collection) is."""
    kind = type(val)
    if (kind is Map or kind is Seq) and type(ev) is not AliasEvent:
        return int(val.line)
    return int(ev.start_mark.line) + 1


def _path_here(stack: list[tuple[Any, Any, Any, Any, Any]], cur: Any, key: Any) -> tuple[Any, ...]:
    """Path of the slot being filled, from the builder's stack (only used on problems)."""
    parts = [_slot(frame[0], frame[1]) for frame in stack[1:]]
    if cur is not None:
        parts.append(_slot(cur, key))
    return tuple(parts)


def _slot(container: Any, pending: Any) -> Any:
    """The path part of the value being read into ``container``."""
    if isinstance(container, dict):
        if pending is MISSING:
            return "<key>"
        return "<<" if pending is MERGE else pending
    return len(container)


def yaml_problem(error: yaml.YAMLError, text: str) -> RawProblem:
    """One problem for malformed YAML, at the line the parser reports."""
    line: int | None = None
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else None
        found = " ".join(str(x) for x in (error.context, error.problem) if x)
    elif isinstance(error, yaml.reader.ReaderError):
        with contextlib.suppress(Exception):
            line = text.encode("utf-8", "replace")[: int(error.position)].count(b"\n") + 1
        found = f"the character {error.character!r}: {error.reason}"
    else:
        found = str(error)
    return ((), "well-formed YAML", found or "a syntax error", line)


def read_yaml(text: str, *, detail: bool) -> tuple[Any, list[RawProblem]]:
    """The document and the problems met while reading it; raises only :class:`yaml.YAMLError`."""
    try:
        loader = YamlReader(text, detail=detail)
    except UnicodeError as error:  # lone surrogates cannot be handed to libyaml
        raise yaml.YAMLError(f"text that is valid Unicode: {error}") from None
    try:
        root = loader.build()
        return root, loader.duplicates + loader.problems
    finally:
        loader.dispose()
