"""``electsim explore`` speaks in words in its text (the configuration, the ranking class of the
returns), while its JSON and its records keep their short forms."""

from __future__ import annotations

import json
import re

from simulator.cli.main import main


def test_the_text_names_the_configuration_and_the_rankings_in_words(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["explore", "--method", "nonpartisan-runoff", "--candidates", "3"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("nonpartisan runoff election, 1 seat, 3 candidates, up to 1 departure")
    assert not re.search(r"\b[snk]=\d", text)
    assert not re.search(r"ranking [\d|]+|group\(s\)|in group \d", text)
    assert "returns: one, then two tied, the first over the threshold" in text


def test_the_json_keeps_the_short_forms_of_the_records(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["explore", "--method", "nonpartisan-runoff", "--candidates", "3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "ranking 1|2" in json.dumps(doc)
