"""Input a user can write or name, however odd, ends in exit 0 or 2 with a located message: outputs
that cannot be written, files too large or not text, times out of range, results files with
oversize fields or bytes that are not text. Never exit 1, never a read without end."""

from __future__ import annotations

import gzip
import io
import json
import os
from pathlib import Path
from unittest.mock import patch

import attrs
import pytest

from simulator.cli.main import main
from simulator.engine.replay import replay
from simulator.input import files as reading
from simulator.input.loader import load_scenario, parse_scenario
from simulator.input.output import file_names
from simulator.views.graph import export_graph

SCENARIO = """\
format: electsim/v1
title: Mayor of Example, 2027
contests:
  - {id: mayor, office: Mayor, method: nonpartisan-plurality, year: 2027}
events:
  - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
  - {type: candidate_filed, at: 2027-07-07, candidate: Bob}
  - {type: returns_reported, at: "2027-11-02T21:00", counts: {Ann: 600, Bob: 400}}
  - {type: canvass_held, at: "2027-11-12T11:00"}
"""

HEADER = "county,precinct,office,district,party,candidate,votes\n"
ROWS = "WAKE,01,TOWN OF CARY MAYOR,,,Ann,10\nWAKE,01,TOWN OF CARY MAYOR,,,Bob,5\n"


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    path = tmp_path / "mayor.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


@pytest.fixture
def results_file(tmp_path: Path) -> Path:
    path = tmp_path / "20271107__nc__general__precinct.csv"
    path.write_text(HEADER + ROWS, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


# --- outputs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "option",
    [("report", "-o"), ("replay", "--chart"), ("replay", "--graph")],
    ids=["report", "chart", "graph"],
)
def test_an_output_in_a_missing_folder_is_invalid_input_naming_path_and_reason(
    capsys: pytest.CaptureFixture[str], scenario_file: Path, tmp_path: Path, option: tuple[str, str]
) -> None:
    command, flag = option
    target = tmp_path / "no-such-folder" / "out.svg"
    code, err = run(capsys, command, str(scenario_file), flag, str(target))
    assert code == 2
    assert str(target) in err and "does not exist" in err


def test_an_output_that_is_a_folder_is_invalid_input(
    capsys: pytest.CaptureFixture[str], scenario_file: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "report.html"
    folder.mkdir()
    code, err = run(capsys, "report", str(scenario_file), "-o", str(folder))
    assert code == 2
    assert "it is a folder" in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full to stand for a full disk")
def test_a_full_disk_is_invalid_input_naming_the_reason(
    capsys: pytest.CaptureFixture[str], scenario_file: Path
) -> None:
    code, err = run(capsys, "report", str(scenario_file), "-o", "/dev/full")
    assert code == 2
    assert "/dev/full" in err and "No space left" in err


def test_a_report_over_its_own_scenario_is_refused_and_the_scenario_kept(
    capsys: pytest.CaptureFixture[str], scenario_file: Path
) -> None:
    code, err = run(capsys, "report", str(scenario_file), "-o", str(scenario_file))
    assert code == 2
    assert "over the input file" in err
    assert scenario_file.read_text(encoding="utf-8") == SCENARIO


def test_import_results_to_a_missing_folder_is_invalid_input(
    capsys: pytest.CaptureFixture[str], results_file: Path, tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "s.yaml"
    code, err = run(
        capsys, "import-results", str(results_file), "--contest", "town of cary mayor", "-o",
        str(target),
    )  # fmt: skip
    assert code == 2
    assert str(target) in err


def test_contests_whose_ids_read_alike_in_a_file_name_get_distinct_graph_files(
    tmp_path: Path,
) -> None:
    text = SCENARIO.replace(
        "  - {id: mayor, office: Mayor, method: nonpartisan-plurality, year: 2027}\n",
        "  - {id: ward 1, method: nonpartisan-plurality, year: 2027}\n"
        "  - {id: ward/1, method: nonpartisan-plurality, year: 2027}\n"
        "  - {id: WARD_1, method: nonpartisan-plurality, year: 2027}\n",
    )
    text = text.split("events:")[0] + "events: []\n"
    written = export_graph(replay(parse_scenario(text)), tmp_path / "g.dot")
    assert len({p.name.casefold() for p in written}) == 3
    assert all(p.exists() for p in written)
    assert file_names(["a", "a"]) == ["a", "a-2"]


# --- bounded reads ----------------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_validate_dev_zero_stops_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "validate", "/dev/zero")
    assert code == 2
    assert "NUL byte" in err


def test_a_scenario_over_the_size_limit_is_invalid_input_naming_the_limit(
    capsys: pytest.CaptureFixture[str], scenario_file: Path
) -> None:
    code, err = run(capsys, "validate", str(scenario_file), "--max-bytes", "100")
    assert code == 2
    assert "at most 100 bytes" in err and "--max-bytes" in err
    assert run(capsys, "validate", str(scenario_file), "--max-bytes", "1KiB")[0] == 0


def test_a_bad_size_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], scenario_file: Path
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["validate", str(scenario_file), "--max-bytes", "lots"])
    assert caught.value.code == 2


@pytest.mark.parametrize(
    "moment", ["9999-12-31T23:59-12:00", "0001-01-01T00:00+14:00", "1066-10-14"]
)
@pytest.mark.parametrize("command", ["replay", "report"])
def test_an_as_of_out_of_range_is_invalid_input_naming_the_range(
    capsys: pytest.CaptureFixture[str],
    scenario_file: Path,
    tmp_path: Path,
    moment: str,
    command: str,
) -> None:
    extra = ["-o", str(tmp_path / "r.html")] if command == "report" else []
    code, err = run(capsys, command, str(scenario_file), "--as-of", moment, *extra)
    assert code == 2
    assert "1900-2200" in err


def test_a_gzip_that_inflates_past_the_limit_stops_there(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bomb.csv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(HEADER)
        for i in range(20_000):
            out.write(ROWS.replace(",01,", f",{i:05d},"))  # (a precinct each: no row repeated)
    assert path.stat().st_size < 200_000
    code, err = run(capsys, "import-results", str(path), "--list", "--max-bytes", "1MiB")
    assert code == 2
    assert "at most 1 MiB" in err


def test_an_oversize_csv_field_is_invalid_input_naming_the_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "big.csv"
    path.write_text(HEADER + 'WAKE,01,MAYOR,,,"' + "x" * 200_000 + '",1\n', encoding="utf-8")
    code, err = run(capsys, "import-results", str(path), "--list")
    assert code == 2
    assert f"{path}:2" in err and "131,072 characters" in err


def test_a_year_out_of_range_is_invalid_input_naming_the_range(
    capsys: pytest.CaptureFixture[str], results_file: Path
) -> None:
    args = ["import-results", str(results_file), "--contest", "town of cary mayor"]
    code, err = run(capsys, *args, "--year", "99999")
    assert code == 2
    assert "1973 to 2200" in err


def test_bytes_that_are_not_utf8_are_invalid_input_with_their_line_unless_an_encoding_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "20271107__nc__general__precinct.csv"
    path.write_bytes(
        (HEADER + ROWS).encode() + "WAKE,02,TOWN OF CARY MAYOR,,,Jos\xe9,3\n".encode("cp1252")
    )
    code, err = run(capsys, "import-results", str(path), "--list")
    assert code == 2
    assert f"{path}:4" in err and "--encoding" in err
    code = main(
        ["import-results", str(path), "--contest", "town of cary mayor", "--encoding", "cp1252"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "José" in out


@pytest.mark.parametrize("encoding", ["rot13", "base64", "zlib", "no-such-codec"])
def test_an_encoding_that_is_no_text_encoding_is_invalid_input(
    encoding: str, capsys: pytest.CaptureFixture[str], results_file: Path
) -> None:
    # base64, zlib and rot13 are codecs, but not of bytes to text: reading stopped (exit 1)
    code, err = run(capsys, "import-results", str(results_file), "--list", "--encoding", encoding)
    assert code == 2
    assert err == (
        "electsim: --encoding: expected a Python codec name of a text encoding such as utf-8 or "
        f"cp1252; found {encoding!r}\n"
    )


def test_list_with_the_options_of_an_import_is_invalid_input(
    capsys: pytest.CaptureFixture[str], results_file: Path, tmp_path: Path
) -> None:
    # they were ignored: the list printed, nothing imported or written
    out = tmp_path / "mayor.yaml"
    args = ["import-results", str(results_file), "--list", "--contest", "mayor", "-o", str(out)]
    code, err = run(capsys, *args)
    assert code == 2
    assert err == (
        "electsim: --list: expected alone, since it imports nothing; found --contest, "
        "-o/--output too\n"
    )
    assert not out.exists()


def _read(read: object) -> object:
    """What reading gives: the text, or the refusal with where it points."""
    try:
        return read()  # type: ignore[operator]
    except reading.NotText as error:
        return ("not text", error.reason, error.offset, error.line)
    except reading.InputTooLarge as error:
        return ("too large", error.limit)


@pytest.mark.parametrize(
    "data",
    [
        b"events:\n  - a\n  - b\n" * 5,
        "\ufeffa BOM, then\nJos\u00e9\n".encode(),
        b"line 1\nline 2\nline 3\x00 and binary\n",
        b"ok\n" * 6 + "Jos\u00e9".encode("cp1252") + b"\nmore\n",
        b"ok\n" * 4 + "Jos\u00e9".encode()[:-1],  # cut inside a character at the end
        b"x" * 40,
    ],
    ids=["plain", "bom", "nul", "not utf-8", "cut character", "over the limit"],
)
def test_a_file_read_at_once_reads_as_its_bytes_read_in_chunks(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_bytes(data)
    limit = 39
    at_once = _read(lambda: reading.read_text(path, max_bytes=limit))
    with (
        patch.object(reading, "_CHUNK", 5),  # every problem a few chunks in
        patch.object(reading, "_open_binary", lambda _: io.BytesIO(data)),  # no file number
    ):
        chunked = _read(lambda: reading.read_text(path, max_bytes=limit))
    assert at_once == chunked
    if data.startswith(b"line 1"):
        assert at_once == ("not text", "a NUL byte: binary data, not text", 20, 3)
    if data.startswith(b"ok\n" * 6):
        assert at_once[:2] == ("not text", "bytes that are not UTF-8 text")
        assert at_once[3] == 7


JSON_SCENARIO = {
    "format": "electsim/v1",
    "title": "Mayor",
    "contests": [{"id": "mayor", "method": "nonpartisan-plurality", "year": 2027}],
    "events": [
        {"type": "candidate_filed", "at": "2027-07-06", "candidate": "Ann"},
        {"type": "candidate_filed", "at": "2027-07-07", "candidate": "Bob"},
        {"type": "returns_reported", "at": "2027-11-02T21:00", "counts": {"Ann": 6, "Bob": 4}},
        {"type": "votes_cast", "at": "2027-11-02T21:00", "candidate": "Ann"},
    ],
}


@pytest.mark.parametrize(
    "spoil",
    [
        (b'"Mayor"', b'"May\xffor"'),  # in the title, a value the quick reading leaves as text
        (b'"Ann": 6', b'"A\xc3nn": 6'),  # in a key of the returns, the same
        (b'"Ann"\n  }\n ]', b'"A\xe9nn"\n  }\n ]'),  # in the vote's name, the last event
    ],
    ids=["title", "returns", "vote"],
)
def test_a_json_scenario_with_bytes_that_are_not_utf8_is_refused_with_their_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, spoil: tuple[bytes, bytes]
) -> None:
    text = json.dumps(JSON_SCENARIO, indent=1).encode()
    path = tmp_path / "mayor.json"
    path.write_bytes(text)
    assert main(["validate", str(path)]) == 0
    assert text.count(spoil[0]) == 1
    path.write_bytes(text.replace(*spoil))
    line = text[: text.index(spoil[0])].count(b"\n") + 1
    code, err = run(capsys, "validate", str(path))
    assert code == 2
    assert f"{path}:{line}: file: expected UTF-8 text" in err and "not UTF-8 text" in err


def test_a_json_scenario_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    text = json.dumps(JSON_SCENARIO).encode()
    plain, marked = tmp_path / "plain.json", tmp_path / "marked.json"
    plain.write_bytes(text)
    marked.write_bytes(b"\xef\xbb\xbf" + text)
    assert load_scenario(marked) == attrs.evolve(load_scenario(plain), source=str(marked))


@pytest.mark.parametrize("columns", [None, "", "0", "-3", "wide", "57", "132"])
def test_the_terminal_width_is_shutils_without_importing_it(
    monkeypatch: pytest.MonkeyPatch, columns: str | None
) -> None:
    import shutil

    from simulator.input.output import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.delenv("LINES", raising=False)
    for fallback in (80, 100):
        assert terminal_columns(fallback) == shutil.get_terminal_size((fallback, 24)).columns
