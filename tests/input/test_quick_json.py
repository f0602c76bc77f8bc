"""The quick JSON reading gives exactly what the full, located reading gives.

A JSON scenario is read quickly by ``loader._parse_json_quick``: msgspec decodes the event log
straight into typed structs, and the loader's checks read them. It steps aside (None) whenever
anything is in doubt, and the full reading (``json.loads`` and the located checks) then says what
is wrong. These tests hold it to that on random documents, valid and invalid, written the ways
a program or a person writes JSON: compact or indented, ASCII escapes or not, repeated keys, keys
written with escapes, white space before a colon, escaped quotes inside strings.
"""

from __future__ import annotations

import json
import typing
from datetime import datetime
from typing import Any
from unittest.mock import Mock, patch
from zoneinfo import ZoneInfo

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.input.loader import _parse_json, _parse_json_quick, json_structs, parse_scenario
from simulator.model.errors import ScenarioError
from simulator.model.eventlog import VoteColumns
from simulator.model.events import EVENT_TYPES, ReturnsReported, VotesCast, builder, column_builder
from simulator.model.scenario import Scenario

NAMES = [
    "Ann", "Bob", "ann", "Ann  Lee", " Cy", "O'Brien", "José", "Jose\u0301", "1", "",
    "Write-In (Miscellaneous)", "Dee (Write-In)", "Ann\u200b", 'say "hi":', "back\\slash", 7,
    None, True,
]  # fmt: skip
TIMES = [
    "2027-07-06", "2027-07-06T10:00", "2027-07-06 10:00", "2027-07-06T10:00:00-04:00",
    "2027-11-02T09:00", "2027-11-02T08:00", "2027-03-14T02:30", "2027-11-07T01:30", "bad",
    "2027-13-01", "1800-01-01", 20270706,
]  # fmt: skip
CONTESTS = ["mayor", "council", "nope", "Mayor", 3]
COUNTS: list[Any] = [1, 0, 3, -1, "2", True, 1.0, 2**70]
TYPES = [
    "candidate_filed", "votes_cast", "votes_cast", "votes_cast", "candidate_withdrew",
    "canvass_held", "runoff_requested", "filing_closed", "nominee_named", "candidate_died",
    "returns_reported", "reprint_determined", "lot_drawn", "bogus", 5,
]  # fmt: skip
EXTRAS: list[tuple[str, Any]] = [
    ("id", "e-1"), ("id", "e-2"), ("id", 4), ("precinct", "P1"), ("precinct", 12),
    ("party", "DEM"), ("fee", 12.50), ("fee", "5"), ("fee", -1), ("foo", "x"),
    ("notice_at", "2027-10-16T09:00"), ("enough_time", False), ("enough_time", "no"),
    ("winner", "Ann"), ("counts", {"Ann": 3, "Bob": 2}), ("counts", {"Ann": -1}),
    ("counts", {}), ("counts", [1]),
]  # fmt: skip

FILED = [
    [("type", "candidate_filed"), ("at", f"2027-07-0{6 + i}T10"), ("contest", c), ("candidate", n)]
    for i, n in enumerate(["Ann", "Bob", "José"])
    for c in ("mayor", "council")
]  # fmt: skip


@st.composite
def event(draw: st.DrawFn) -> list[tuple[str, Any]]:
    pairs: list[tuple[str, Any]] = [("type", draw(st.sampled_from(TYPES)))]
    if draw(st.integers(0, 20)) > 0:
        pairs.append(("at", draw(st.sampled_from(TIMES))))
    if draw(st.integers(0, 5)) > 0:
        pairs.append(("contest", draw(st.sampled_from(CONTESTS))))
    if draw(st.integers(0, 9)) > 0:
        pairs.append(("candidate", draw(st.sampled_from(NAMES))))
    if draw(st.integers(0, 5)) == 0:
        pairs.append(("count", draw(st.sampled_from(COUNTS))))
    if draw(st.integers(0, 4)) == 0:
        pairs.append(draw(st.sampled_from(EXTRAS)))
    if draw(st.integers(0, 15)) == 0:
        pairs.append(draw(st.sampled_from(pairs)))  # a repeated key, same or other value
    return draw(st.permutations(pairs))


@st.composite
def good_event(draw: st.DrawFn, contests: int) -> list[tuple[str, Any]]:
    """An event of the common shape, by a candidate who filed, at one time."""
    pairs: list[tuple[str, Any]] = [
        ("type", draw(st.sampled_from(["votes_cast", "votes_cast", "runoff_requested"]))),
        ("at", "2027-11-02T09:00"),
    ]
    if contests == 2 or draw(st.booleans()):
        pairs.append(("contest", draw(st.sampled_from(["mayor", "council"][:contests]))))
    pairs += [
        (
            "candidate",
            draw(st.sampled_from(["Ann", "Bob", "Jos\u00e9", "Write-In (Miscellaneous)"])),
        ),
    ]
    if draw(st.booleans()):
        pairs.append(("count", draw(st.integers(0, 3))))
    return draw(st.permutations(pairs))


@st.composite
def document(draw: st.DrawFn) -> str:
    """A JSON scenario, written pair by pair so that keys may repeat."""
    ascii_only = draw(st.booleans())
    colon = draw(st.sampled_from([": ", ":", ": ", " : ", ":\n "]))
    comma = draw(st.sampled_from([", ", ",", ",\n  "]))

    def key(k: str) -> str:
        if draw(st.integers(0, 30)) == 0:  # the same key, written with an escape
            return '"' + "".join(f"\\u{ord(c):04x}" if c == "t" else c for c in k) + '"'
        return json.dumps(k)

    def obj(pairs: list[tuple[str, Any]]) -> str:
        return "{" + comma.join(key(k) + colon + value(v) for k, v in pairs) + "}"

    def value(v: Any) -> str:
        if isinstance(v, dict):
            return obj(list(v.items()))
        return json.dumps(v, ensure_ascii=ascii_only)

    contests = draw(st.sampled_from([1, 2, 2]))
    filed = [e for e in FILED if contests == 2 or ("contest", "mayor") in e]
    events = filed[: draw(st.sampled_from([0, 2, len(filed), len(filed)]))]
    events += draw(st.lists(event(), max_size=draw(st.sampled_from([0, 2, 10]))))
    events += draw(st.lists(good_event(contests), max_size=10))
    top: list[tuple[str, Any]] = [
        ("format", "electsim/v1"),
        ("title", draw(st.sampled_from(["Quick and full", 'a "quoted": title', "back\\"]))),
        (
            "contests",
            [
                {"id": "mayor", "method": "nonpartisan-plurality", "year": 2027},
                {"id": "council", "method": "nonpartisan-runoff", "seats": 2, "year": 2027},
            ][:contests],
        ),
    ]
    extra = draw(
        st.sampled_from(
            [
                [],
                [("timezone", "UTC")],
                [("office_closed", ["2027-07-03"])],
                [],
                [],
                [("title", "again")],
                [("surprise", 1)],
                [("interpretations", {"x": 1})],
            ]
        )
    )
    top += extra
    body = [key(k) + colon + value(v) for k, v in top]
    body.append(key("events") + colon + "[" + comma.join(obj(e) for e in events) + "]")
    return "{" + comma.join(draw(st.permutations(body))) + "}"


def outcome(read: Any) -> Scenario | tuple[str, ...]:
    try:
        return read()  # type: ignore[no-any-return]
    except ScenarioError as error:
        return tuple(map(str, error.problems))


QUICK = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@QUICK
@given(document())
def test_json_loading_gives_the_same_scenario_or_the_same_problems_as_the_full_path(
    text: str,
) -> None:
    quick = outcome(lambda: parse_scenario(text, source="s.json", fmt="json"))
    full = outcome(lambda: _parse_json(text, "s.json", quick=False))
    assert quick == full
    if isinstance(full, Scenario):
        assert isinstance(quick, Scenario)
        assert [e.line for e in quick.events] == [e.line for e in full.events]
        assert [type(e) for e in quick.events] == [type(e) for e in full.events]
    else:  # the quick reading never takes a document the full one rejects
        assert _parse_json_quick(text, "s.json") is None


def big_log(votes: int) -> str:
    events = [dict(pairs) for pairs in FILED[:4]]
    events += [
        {
            "type": "votes_cast",
            "at": f"2027-11-02T{9 + i // 60:02d}:{i % 60:02d}",
            "contest": "mayor" if i % 3 else "council",
            "candidate": "Ann" if i % 2 else "Bob",
            **({"count": 2} if i % 5 == 0 else {}),
        }
        for i in range(votes)
    ]
    contests = [
        {"id": "mayor", "method": "nonpartisan-plurality", "year": 2027},
        {"id": "council", "method": "nonpartisan-runoff", "seats": 2, "year": 2027},
    ]
    doc = {"format": "electsim/v1", "title": "Big", "contests": contests, "events": events}
    return json.dumps(doc, indent=1)


def test_a_big_log_in_the_common_shape_takes_the_quick_reading() -> None:
    text = big_log(500)
    quick = _parse_json_quick(text, "big.json")
    assert quick is not None and len(quick.events) == 504
    assert quick == _parse_json(text, "big.json", quick=False)
    assert quick.events[9].count == 2 and quick.events[10].count == 1


def test_a_repeated_key_the_decoder_would_drop_is_reported_by_the_full_reading() -> None:
    text = big_log(20).replace('"candidate": "Ann"', '"candidate": "Ann", "candidate": "Bob"', 1)
    assert _parse_json_quick(text, "big.json") is None
    try:
        parse_scenario(text, source="big.json", fmt="json")
    except ScenarioError as error:
        problem = error.problems[0]
    assert str(problem).startswith("big.json:22: events[0].candidate: expected each key at most")


@pytest.mark.parametrize(
    "repeat",
    [
        '"candidate": "Ann", "candidate" : "Bob"',  # white space before the colon
        '"candidate": "Ann", "count": 3, "count":2',  # a number's key: its value has no quotes
        '"candidate": "Ann", "\\u0063andidate": "Bob"',  # the key written with an escape
        '"candidate": "Ann", "contest": "mayor", "contest": "mayor"',  # the same value
        '"candidate": "A\\"nn", "candidate": "Bob"',  # an escaped quote in the dropped value
    ],
)
def test_every_way_of_repeating_a_key_leaves_the_quick_reading(repeat: str) -> None:
    text = big_log(400).replace('"candidate": "Ann"', repeat, 1)
    assert _parse_json_quick(text, "big.json") is None
    with pytest.raises(ScenarioError, match="expected each key at most once"):
        parse_scenario(text, source="big.json", fmt="json")


@pytest.mark.parametrize(
    "spelling",
    [
        lambda text: text.replace('": ', '" : '),  # white space before every colon
        lambda text: text.replace('"Big"', '"Big \\"one\\": \\\\u0041"'),  # escapes in a title
        lambda text: text.replace('"title"', '"t\\u0069tle"'),  # a key written with an escape
    ],
)
def test_a_log_written_with_spaces_or_escapes_still_takes_the_quick_reading(
    spelling: Any,
) -> None:
    text = spelling(big_log(400))
    quick = _parse_json_quick(text, "big.json")
    assert quick is not None
    assert quick == _parse_json(text, "big.json", quick=False)


def test_a_builder_makes_the_event_the_class_makes() -> None:
    at = datetime(2027, 11, 2, 9, tzinfo=ZoneInfo("America/New_York"))
    values: dict[str, Any] = {
        "candidate": "Ann", "count": 3, "winner": "Bob", "enough_time": True, "party": "DEM",
    }  # fmt: skip
    for cls in EVENT_TYPES.values():
        if "counts" in cls.fields:
            continue  # counts are converted: no builder takes them
        given = [f for f in cls.fields if f in values]
        made = builder(cls, *given)(at, "mayor", 4, 12, *(values[f] for f in given))
        plain = cls(at=at, contest="mayor", index=4, line=12, **{f: values[f] for f in given})
        assert type(made) is cls
        assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
        assert made.line == 12 and made.id is None


def test_a_column_builder_makes_the_events_the_builder_makes() -> None:
    at = datetime(2027, 11, 2, 9, tzinfo=ZoneInfo("America/New_York"))
    later = datetime(2027, 11, 2, 10, tzinfo=ZoneInfo("America/New_York"))
    values: dict[str, list[Any]] = {
        "candidate": ["Ann", "Bob", "Cy"], "count": [3, 0, 7], "winner": ["Bob", "Ann", "Cy"],
        "enough_time": [True, False, True], "party": ["DEM", "REP", "LIB"],
    }  # fmt: skip
    for cls in EVENT_TYPES.values():
        if "counts" in cls.fields:
            continue
        given = [f for f in cls.fields if f in values]
        one = builder(cls, *given)
        columns = [[at, later, at], ["mayor", "council", "mayor"], [4, 5, 6]]
        for lines in ([12, 13, 14], None):
            made = column_builder(cls, *given)(3, *columns, lines, *(values[f] for f in given))
            each = [
                one(*row, None if lines is None else lines[k], *(values[f][k] for f in given))
                for k, row in enumerate(zip(*columns, strict=True))
            ]
            assert [type(e) for e in made] == [cls] * 3
            assert made == each and [repr(e) for e in made] == [repr(e) for e in each]
            assert [e.line for e in made] == (lines or [None] * 3)
            assert [hash(e) for e in made] == [hash(e) for e in each]


def test_a_builder_refuses_a_field_with_a_converter() -> None:
    with pytest.raises(ValueError, match="counts"):
        builder(ReturnsReported, "counts")
    with pytest.raises(ValueError, match="no plain default"):
        builder(VotesCast)
    with pytest.raises(ValueError, match="counts"):
        column_builder(ReturnsReported, "counts")


@QUICK
@given(document(), st.sampled_from([1, 40, 90, 300]))
def test_an_event_log_read_in_small_pieces_gives_what_the_full_reading_gives(
    text: str, piece: int
) -> None:
    with (
        patch.object(json_structs, "_PIECE", piece),
        patch.object(json_structs, "_WINDOW", 120),
        patch.object(json_structs, "_OWN_DECODER", 0),  # each piece tries the log's own decoder
    ):
        quick = outcome(lambda: parse_scenario(text, source="s.json", fmt="json"))
    full = outcome(lambda: _parse_json(text, "s.json", quick=False))
    assert quick == full


def test_a_big_log_is_read_in_pieces_cut_between_events() -> None:
    text = big_log(300)
    cuts = []
    decode = json_structs.json_types().lean.decode

    def spy(buffer: bytearray) -> Any:
        cuts.append(bytes(buffer))
        return decode(buffer)

    types = attrs.evolve(json_structs.json_types(), lean=Mock(decode=spy))
    with (
        patch.object(json_structs, "_PIECE", 2000),
        patch.object(json_structs, "_JSON", types),
    ):
        quick = _parse_json_quick(text, "big.json")
    assert quick is not None and quick == _parse_json(text, "big.json", quick=False)
    assert len(cuts) > 10
    assert all(c[1:].lstrip().startswith(b"{") and c[:-1].rstrip().endswith(b"}") for c in cuts)


def test_pieces_are_read_lean_until_one_has_an_event_with_more_fields() -> None:
    doc = json.loads(big_log(300))
    doc["events"][200] |= {"id": "late", "precinct": "P2"}
    text = json.dumps(doc, indent=1)
    used = []
    real = json_structs.json_types()

    def spy(name: str) -> Mock:
        def decode(buffer: bytearray) -> Any:
            used.append(name)
            return getattr(real, name).decode(buffer)

        return Mock(decode=decode)

    types = attrs.evolve(real, lean=spy("lean"), log=spy("log"))
    with patch.object(json_structs, "_PIECE", 2000), patch.object(json_structs, "_JSON", types):
        quick = _parse_json_quick(text, "big.json")
    assert quick is not None and quick == _parse_json(text, "big.json", quick=False)
    assert quick.events[200].id == "late" and quick.events[200].precinct == "P2"
    first_full = used.index("log")
    assert used[:first_full] == ["lean"] * first_full and first_full > 3
    assert used[first_full - 1 :] == ["lean"] + ["log"] * (len(used) - first_full)


@pytest.mark.parametrize(
    ("late", "problem", "own_reads"),
    [
        ({}, None, 404),  # every event
        # the piece with the new name or contest, and the rest, are decoded lean
        ({"candidate": "Zed"}, "events[250].candidate: expected a candidate who filed", 200),
        ({"contest": "dogcatcher"}, "events[250].contest: expected the id of a contest", 200),
        # a new spelling of a filed name: the next pieces get a decoder that knows it
        ({"candidate": " Ann"}, None, 350),
        ({"one contest": "yes"}, None, 404),  # one contest, named by no event
    ],
)
def test_a_big_log_decoded_with_its_own_spellings_reads_as_the_full_reading_does(
    late: dict[str, str], problem: str | None, own_reads: int
) -> None:
    doc = json.loads(big_log(400))
    one_contest = late.get("one contest")
    late = {k: v for k, v in late.items() if k != "one contest"}
    if one_contest:
        doc["contests"] = doc["contests"][:1]
        for event in doc["events"]:
            del event["contest"]
    doc["events"][250] |= late
    text = json.dumps(doc)
    decoded = []  # by the log's own decoders: the events of each piece they decoded
    names = []  # what each decoder made takes as the candidate of a vote
    json_structs.json_types()  # (the shared decoders made before the spy)
    make = json_structs._lean_decoder

    def own(union: list[type[Any]]) -> Mock:
        real = make(union)
        (votes,) = (s for s in union if s.__struct_config__.tag == "votes_cast")
        names.append(typing.get_args(typing.get_type_hints(votes)["candidate"])[0])

        def decode(buffer: bytearray) -> Any:
            events = real.decode(buffer)
            decoded.append(len(events))
            return events

        return Mock(decode=decode)

    with (
        patch.object(json_structs, "_PIECE", 3000),
        patch.object(json_structs, "_OWN_DECODER", 0),
        patch.object(json_structs, "_lean_decoder", own),
    ):
        # (the quick reading alone: it must not step aside where the log is good)
        quick = outcome(lambda: _parse_json_quick(text, "big.json") or ("stepped aside",))
    if problem is not None:
        assert quick == ("stepped aside",)
        quick = outcome(lambda: parse_scenario(text, source="big.json", fmt="json"))
    else:  # and the votes were read in bulk, as columns (before a comparison makes events)
        assert isinstance(quick, Scenario)
        columns = [p for p in quick.events.parts() if isinstance(p, VoteColumns)]
        assert sum(map(len, columns)) >= 350
    assert quick == outcome(lambda: _parse_json(text, "big.json", quick=False))
    assert own_reads <= sum(decoded) <= 404
    assert names[0] is str  # before any filing
    spelt = {"Ann", "Bob"} | ({late["candidate"]} if "candidate" in late else set())
    assert set(typing.get_args(names[-1])) == spelt  # the names as written so far
    if problem is not None:
        assert not isinstance(quick, Scenario) and any(problem in p for p in quick)


def test_a_log_of_more_names_than_a_decoder_spells_reads_them_as_any_string() -> None:
    text = big_log(300)
    kinds = []
    make = json_structs._lean_decoder
    json_structs.json_types()

    def own(union: list[type[Any]]) -> Any:
        (votes,) = (s for s in union if s.__struct_config__.tag == "votes_cast")
        kinds.append(typing.get_type_hints(votes)["candidate"])
        return make(union)

    with (
        patch.object(json_structs, "_PIECE", 3000),
        patch.object(json_structs, "_OWN_DECODER", 0),
        patch.object(json_structs, "_SPELT_NAMES", 1),  # two names filed: more than it spells
        patch.object(json_structs, "_lean_decoder", own),
    ):
        quick = _parse_json_quick(text, "big.json")
    assert quick is not None and quick == _parse_json(text, "big.json", quick=False)
    assert kinds and all(typing.get_args(kind)[0] is str for kind in kinds)


def test_a_cut_inside_a_string_ends_the_quick_reading() -> None:
    title = "x" * 50 + '}, {"' + "y" * 50
    doc = json.loads(big_log(20))
    filed = {"type": "candidate_filed", "at": "2027-07-05T10", "contest": "mayor"}
    doc["events"].insert(0, {**filed, "candidate": title})
    text = json.dumps(doc, indent=1)
    where = text.index("}, {") - (text.index('"events": [') + len('"events": '))
    # the first piece ends where the string has its "}, {": inside the string
    with patch.object(json_structs, "_PIECE", where - 1), patch.object(json_structs, "_WINDOW", 10):
        assert _parse_json_quick(text, "big.json") is None
    assert parse_scenario(text, fmt="json").events[0].candidate == title
    assert _parse_json_quick(text, "big.json") is not None


@pytest.mark.parametrize(
    ("spelling", "contests"),
    [("Ann", 2), ("Ann", 1), ("Ann ", 2), ("Ann ", 1), ("A\u200bnn", 1), ("Cy", 1)],
    ids=["as-filed", "as-filed-one-contest", "spaced", "spaced-one-contest", "invisible", "new"],
)
def test_names_in_a_big_log_read_in_bulk_as_the_full_reading_reads_them(
    spelling: str, contests: int
) -> None:
    # a name written as filed needs no look-up where each name is spelt in one contest only;
    # a name written another way (or in both contests) is looked up as before
    doc = json.loads(big_log(400))
    if contests == 1:  # Ann, Bob (and José) file in both contests: here only in the mayor's
        doc["events"] = [
            e for e in doc["events"] if e["type"] != "candidate_filed" or e["contest"] == "mayor"
        ]
        doc["events"] = [e for e in doc["events"] if e.get("contest") != "council"]
        doc["contests"] = doc["contests"][:1]
    for event in doc["events"][300:320]:
        if event["type"] == "votes_cast" and event["candidate"] == "Ann":
            event["candidate"] = spelling
    text = json.dumps(doc)
    with patch.object(json_structs, "_OWN_DECODER", 0):
        quick = outcome(lambda: parse_scenario(text, source="big.json", fmt="json"))
    full = outcome(lambda: _parse_json(text, "big.json", quick=False))
    assert quick == full
    if isinstance(full, Scenario):
        assert {e.candidate for e in full.events if e.type == "votes_cast"} == {"Ann", "Bob"}
    else:
        assert spelling == "Cy" and any("never filed" in p for p in full)
