"""Mutations of the scenario library, as a hostile or careless user would write them.

:func:`variant` turns one scenario file's text into an odd variant, reproducibly from a seed: a
key dropped, renamed or added; a value of the wrong type, out of range, huge or empty; a date
impossible, moved or far away; events swapped, repeated or dropped; names respelt (case,
spaces, invisible characters, Unicode forms, control characters, very long); the text cut,
re-encoded, given NUL or stray bytes, tags, anchors, deep nesting; the log made large.

:func:`run_variant` runs electsim's commands on one variant in this process and reports the exit
code of each, and whether a problem was located (the message names the file, or the option).
``tests/test_fuzz_mutations.py`` runs a small fixed-seed set; ``python -m tests.fuzz_mutations``
runs a campaign (``make fuzz``).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import signal
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import yaml

from simulator.cli.main import main
from tests.conftest import read_yaml

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = sorted((ROOT / "scenarios").rglob("*.yaml"))
TIMEOUT = 60  # seconds a command may take before it counts as a hang

Data = Any
Mutator = Callable[[Data, random.Random], Data]


# ---------------------------------------------------------------------------------------------
# Helpers on the data


def _containers(data: Data, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Data]]:
    """Every dict and list in ``data`` with its path."""
    if isinstance(data, dict | list):
        yield path, data
        items = data.items() if isinstance(data, dict) else enumerate(data)
        for key, value in items:
            yield from _containers(value, (*path, key))


def _slots(data: Data) -> list[tuple[Data, Any]]:
    """Every (container, key) holding a value."""
    out = []
    for _, c in _containers(data):
        keys = list(c.keys()) if isinstance(c, dict) else list(range(len(c)))
        out.extend((c, k) for k in keys)
    return out


def _strings(data: Data) -> list[tuple[Data, Any]]:
    return [(c, k) for c, k in _slots(data) if isinstance(c[k], str)]


ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    10**30,
    -(10**30),
    1.5,
    float("nan"),
    "",
    " ",
    "x" * 5000,
    "\u200b",
    "2027-02-30",
    "2027-13-01",
    "9999-12-31T23:59:59-12:00",
    "0001-01-01T00:00+14:00",
    "1899-12-31",
    "2201-01-01",
    "2027-07-06T25:00",
    "2027-11-05T02:30",
    "2027-03-14T02:30",
    "yes",
    "~",
    "NaN",
    "1e400",
    [],
    [1, 2],
    {},
    {"a": 1},
    [[[[[]]]]],
]

NAME_SPELLINGS: list[Callable[[str], str]] = [
    str.upper,
    str.lower,
    lambda s: f"  {s}  ",
    lambda s: s.replace(" ", "   "),
    lambda s: s + "\u200b",
    lambda s: "\ufeff" + s,
    lambda s: unicodedata.normalize("NFD", s + "\u00e9"),
    lambda s: unicodedata.normalize("NFC", s + "\u00e9"),
    lambda s: s + "\x07",
    lambda s: s + "\n" + s,
    lambda s: s * 400,
    lambda s: s + " (Write-In)",
    lambda s: "Write-In (Miscellaneous)",
    lambda s: s.replace("a", "\u0430"),  # Cyrillic a
    lambda s: "\u202e" + s,
    lambda s: "",
]

KEYS = (  # noqa: SIM905 - one string reads better than 32 quoted words
    "type at candidate counts notice_at winner enough_time count precinct party fee contest seats "
    "method stage year id date filing opens closes format title events contests timezone "
    "interpretations office_closed expect district_based salary filing_fee"
).split()


# ---------------------------------------------------------------------------------------------
# Mutators on the data


def drop_key(data: Data, rng: random.Random) -> Data:
    maps = [c for _, c in _containers(data) if isinstance(c, dict) and c]
    if maps:
        m = rng.choice(maps)
        del m[rng.choice(list(m))]
    return data


def rename_key(data: Data, rng: random.Random) -> Data:
    maps = [c for _, c in _containers(data) if isinstance(c, dict) and c]
    if maps:
        m = rng.choice(maps)
        key = rng.choice(list(m))
        new = rng.choice([str(key).upper(), str(key) + "s", str(key)[:-1], rng.choice(KEYS), 1])
        m[new] = m.pop(key)
    return data


def add_key(data: Data, rng: random.Random) -> Data:
    maps = [c for _, c in _containers(data) if isinstance(c, dict)]
    if maps:
        rng.choice(maps)[rng.choice(KEYS)] = rng.choice(ODD_VALUES)
    return data


def odd_value(data: Data, rng: random.Random) -> Data:
    slots = _slots(data)
    if slots:
        c, k = rng.choice(slots)
        c[k] = copy.deepcopy(rng.choice(ODD_VALUES))
    return data


def number_tweak(data: Data, rng: random.Random) -> Data:
    slots = [(c, k) for c, k in _slots(data) if type(c[k]) is int]
    if slots:
        c, k = rng.choice(slots)
        c[k] = rng.choice([c[k] + 1, c[k] - 1, -c[k], 0, c[k] * 1000, 10**9, 2**63, 1 - c[k]])
    return data


def move_date(data: Data, rng: random.Random) -> Data:
    slots = [(c, k) for c, k in _strings(data) if c[k][:2] in ("19", "20") and "-" in c[k]]
    if slots:
        c, k = rng.choice(slots)
        text = c[k]
        year = rng.choice(["1900", "1973", "2026", "2027", "2028", "2200", "2199", "0000", "10000"])
        c[k] = rng.choice(
            [
                year + text[4:],
                text[:10],
                text[:8] + rng.choice(["29", "30", "31", "00"]) + text[10:],
                text + rng.choice(["Z", "+05:00", "-12:00", "+14:00", " EST", ".999999"]),
                text.replace("T", " "),
                text[:10] + "T" + rng.choice(["00:00", "23:59:59", "12:00", "02:30"]),
            ]
        )
    return data


def reorder_events(data: Data, rng: random.Random) -> Data:
    events = data.get("events") if isinstance(data, dict) else None
    if isinstance(events, list) and len(events) > 1:
        how = rng.randrange(4)
        i, j = rng.randrange(len(events)), rng.randrange(len(events))
        if how == 0:
            events[i], events[j] = events[j], events[i]
        elif how == 1:
            events.reverse()
        elif how == 2:
            events.insert(j, copy.deepcopy(events[i]))
        else:
            del events[i]
    return data


def respell_name(data: Data, rng: random.Random) -> Data:
    names = [
        (c, k) for c, k in _slots(data) if k in ("candidate", "winner") and isinstance(c[k], str)
    ]
    counts = [c[k] for c, k in _slots(data) if k == "counts" and isinstance(c[k], dict) and c[k]]
    if counts and rng.random() < 0.4:
        m = rng.choice(counts)
        key = rng.choice(list(m))
        m[rng.choice(NAME_SPELLINGS)(str(key))] = m.pop(key)
    elif names:
        c, k = rng.choice(names)
        c[k] = rng.choice(NAME_SPELLINGS)(c[k])
    return data


def contest_ids(data: Data, rng: random.Random) -> Data:
    contests = data.get("contests") if isinstance(data, dict) else None
    if isinstance(contests, list) and contests and isinstance(contests[0], dict):
        extra = copy.deepcopy(contests[0])
        extra["id"] = rng.choice(["ward/1", "ward 1", "WARD 1", "", "..", "a" * 300, "c\x00"])
        contests.append(extra)
        if rng.random() < 0.5:
            for ev in data.get("events") or []:
                if isinstance(ev, dict) and rng.random() < 0.5:
                    ev["contest"] = extra["id"]
    return data


def grow(data: Data, rng: random.Random) -> Data:
    events = data.get("events") if isinstance(data, dict) else None
    if isinstance(events, list) and events:
        # up to about 100,000 events: a large log, not one that takes minutes to read
        times = min(rng.choice([10, 100, 1000]), max(1, 100_000 // len(events)))
        data["events"] = events * times
    return data


DATA_MUTATORS: list[Mutator] = [
    drop_key,
    rename_key,
    add_key,
    odd_value,
    odd_value,
    number_tweak,
    move_date,
    move_date,
    reorder_events,
    reorder_events,
    respell_name,
    respell_name,
    contest_ids,
    grow,
]


# ---------------------------------------------------------------------------------------------
# Mutators on the text and bytes


def _text_mutation(text: str, rng: random.Random) -> bytes:
    lines = text.splitlines(keepends=True)
    how = rng.randrange(14)
    if how == 0 and text:
        return text[: rng.randrange(len(text))].encode()
    if how == 1:
        at = rng.randrange(len(text) + 1)
        return (text[:at] + "\x00" + text[at:]).encode()
    if how == 2:
        data = bytearray(text.encode())
        for _ in range(rng.randrange(1, 5)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if how == 3:
        return text.encode(rng.choice(["utf-16", "utf-32", "latin-1", "cp1252"]), "replace")
    if how == 4 and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return "".join(lines).encode()
    if how == 5 and lines:
        del lines[rng.randrange(len(lines))]
        return "".join(lines).encode()
    if how == 6:
        return ("\ufeff" + text).encode()
    if how == 7:
        return text.replace("  ", "\t", rng.randrange(1, 4)).encode()
    if how == 8:
        return (text + "\nx: !!python/object/apply:os.system ['true']\n").encode()
    if how == 9:
        bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n"
        for n in range(1, 9):
            bomb += f"{chr(97 + n)}: &{chr(97 + n)} [" + ", ".join([f"*{chr(96 + n)}"] * 9) + "]\n"
        return (bomb + text).encode()
    if how == 10:
        return (text + "\ndeep: " + "[" * 5000 + "]" * 5000 + "\n").encode()
    if how == 11:
        return (text + "\n---\n" + text).encode()
    if how == 12:
        return text.replace("\n", "\r\n").encode()
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000)))


def variant(path: Path, seed: int) -> tuple[str, bytes]:
    """(file suffix, bytes) of one variant of a library scenario, from ``seed``."""
    rng = random.Random(seed)
    text = path.read_text(encoding="utf-8")
    if rng.random() < 0.2:
        return ".yaml", _text_mutation(text, rng)
    data = read_yaml(text)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data = rng.choice(DATA_MUTATORS)(data, rng)
    if rng.random() < 0.3:
        try:
            return ".json", json.dumps(data, ensure_ascii=rng.random() < 0.5, default=str).encode()
        except ValueError:
            pass
    try:
        return ".yaml", yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode()
    except yaml.YAMLError:
        return ".yaml", text.encode()


# ---------------------------------------------------------------------------------------------
# Running the commands


class Hang(BaseException):
    """A command that ran past :data:`TIMEOUT` (not an Exception: electsim must not catch it)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def commands(path: Path, out: Path, rng: random.Random) -> list[list[str]]:
    """The commands run on one variant: always validate and replay --json, and one more."""
    extra = rng.choice(
        [
            ["replay", str(path)],
            ["replay", str(path), "--as-of", rng.choice(["2027-10-14T12:00", "2019-10-09",
             "2023-11-01T00:00-05:00", "9999-12-31T23:59-12:00", "2027-07-16T12:00"])],
            ["replay", str(path), "--graph", str(out / "graph.json")],
            ["report", str(path), "-o", str(out / "report.html")],
            ["replay", str(path), "--chart", str(out / "chart.svg")],
            ["test", str(path)],
        ]
    )  # fmt: skip
    return [["validate", str(path)], ["replay", str(path), "--json"], extra]


def run_command(argv: list[str]) -> tuple[int | str, str]:
    """Exit code (or "hang") and stderr of one command, in this process (with the end of stdout
    for ``electsim test``, which reports problems there)."""
    err, out = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                code: int | str = main(argv)
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
    except Hang:
        code = "hang"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return code, err.getvalue() + (out.getvalue()[-2000:] if argv[0] == "test" else "")


def located(argv: list[str], message: str) -> bool:
    """Whether an exit-2 message says where: the file (with its path) or the option."""
    return bool(message.strip()) and (
        argv[1] in message or "--" in message or "usage:" in message or "-o" in message
    )


def run_variant(source: Path, seed: int, folder: Path) -> list[tuple[list[str], int | str, str]]:
    """Write the variant of ``source`` from ``seed`` in ``folder`` and run the commands on it;
    returns (argv, exit code, stderr) for each."""
    suffix, body = variant(source, seed)
    path = folder / f"{source.stem}-{seed}{suffix}"
    path.write_bytes(body)
    rng = random.Random(seed ^ 0x5EED)
    results = []
    for argv in commands(path, folder, rng):
        code, err = run_command(argv)
        results.append((argv, code, err))
    return results


def is_bad(argv: list[str], code: int | str, err: str) -> bool:
    """Not exit 0 and not a located exit 2 (or 3, ``electsim test``'s failed expectation)."""
    if code == 0 or (code == 3 and argv[0] == "test"):
        return False
    return not (code == 2 and located(argv, err))
