"""Reading scenario files (SPEC section 1): every kind of bad input is one problem with a path, a
line and a message; good input in every accepted spelling gives the same typed scenario."""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import attrs
import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from simulator.input.loader import (
    _parse_json,
    _parse_yaml,
    dump_scenario,
    load_scenario,
    parse_scenario,
    scenario_to_dict,
)
from simulator.input.loader.values import normal_name
from simulator.law.calendar import OfficeCalendar, filing_period
from simulator.law.readings import Interpretations
from simulator.law.vocab import Method, Stage
from simulator.model import events as ev
from simulator.model.errors import Problem, ScenarioError
from simulator.model.scenario import Contest, Scenario

NY = ZoneInfo("America/New_York")

HEAD = """\
format: electsim/v1
title: Mayor of Example, 2027
contests:
  - {id: mayor, municipality: Example, office: Mayor, method: nonpartisan-plurality, year: 2027}
events:
"""  # the first event is on line 6

TWO_CONTESTS = """\
format: electsim/v1
title: Example, 2027
contests:
  - {id: mayor, method: nonpartisan-plurality, year: 2027}
  - {id: council, method: nonpartisan-plurality, seats: 3, year: 2027}
events:
"""  # the first event is on line 7


def scenario(*events: str, head: str = HEAD) -> str:
    """A scenario text: ``head`` and then one flow-style event per line."""
    return head + "".join(f"  - {e}\n" for e in events)


FILED = "{type: candidate_filed, at: 2027-07-06, candidate: Ann}"


def problems(text: str, **kwargs: Any) -> list[Problem]:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, **kwargs)
    return list(caught.value.problems)


def only(text: str, **kwargs: Any) -> Problem:
    found = problems(text, **kwargs)
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0]


# --- malformed text -----------------------------------------------------------------------------


def test_malformed_yaml_is_one_problem_at_the_line_yaml_reports() -> None:
    text = scenario(FILED, "{type: votes_cast, at: 2027-11-02, candidate: Ann")
    problem = only(text, source="bad.yaml")
    assert problem.path == "document"
    assert problem.line in (7, 8)  # libyaml reports the end of the unclosed flow mapping
    assert problem.file == "bad.yaml"
    assert "well-formed YAML" in problem.expected


def test_a_tab_indentation_error_names_its_line() -> None:
    problem = only("format: electsim/v1\ntitle: x\n\tcontests: []\n")
    assert problem.path == "document"
    assert problem.line == 3


def test_a_document_that_is_not_a_mapping_is_a_problem() -> None:
    assert only("- just\n- a list\n").path == "document"
    assert only("").found == "null (an empty value)"


def test_a_second_yaml_document_is_a_problem() -> None:
    text = scenario(FILED) + "---\nformat: electsim/v1\n"
    problem = only(text)
    assert "single YAML document" in problem.expected
    assert problem.line == 7


def test_a_duplicate_key_is_a_problem_because_nothing_a_user_wrote_is_lost() -> None:
    text = scenario(FILED, "{type: votes_cast, at: 2027-11-02, candidate: Ann, candidate: Ann}")
    problem = only(text)
    assert problem.path == "events[1].candidate"
    assert problem.line == 7
    assert "at most once" in problem.expected
    assert "'candidate' again" in problem.found


def test_a_duplicate_top_level_key_is_a_problem() -> None:
    problem = only(scenario(FILED) + "title: again\n")
    assert (problem.path, problem.line) == ("title", 7)


def test_a_python_tag_is_rejected_not_executed() -> None:
    text = scenario(FILED, '{type: votes_cast, at: !!python/object/apply:os.system ["true"]}')
    found = problems(text)
    tag = [p for p in found if "tag" in p.found]
    assert len(tag) == 1
    assert tag[0].path == "events[1].at"
    assert tag[0].line == 7
    assert "!!python/object/apply:os.system" in tag[0].found


def test_a_custom_tag_on_a_scalar_is_rejected() -> None:
    problem = only(scenario("{type: candidate_filed, at: 2027-07-06, candidate: !person Ann}"))
    assert (problem.path, problem.line) == ("events[0].candidate", 6)


def test_yaml_own_scalar_tags_are_allowed() -> None:
    text = scenario("{type: candidate_filed, at: !!str 2027-07-06, candidate: !!str 1234}")
    (filed,) = parse_scenario(text).events
    assert isinstance(filed, ev.CandidateFiled)
    assert filed.candidate == "1234"


def test_an_undefined_alias_is_a_problem() -> None:
    problem = only(scenario("{type: candidate_filed, at: 2027-07-06, candidate: *nobody}"))
    assert problem.path == "events[0].candidate"
    assert problem.found == "*nobody"


def test_anchors_aliases_and_merge_keys_work_as_in_yaml() -> None:
    text = HEAD + (
        "  - &ann {type: candidate_filed, at: 2027-07-06, candidate: Ann}\n"
        "  - {<<: *ann, candidate: Bob}\n"
    )
    ann, bob = parse_scenario(text).events
    assert isinstance(ann, ev.CandidateFiled) and isinstance(bob, ev.CandidateFiled)
    assert (ann.candidate, bob.candidate) == ("Ann", "Bob")
    assert bob.at == ann.at


def test_a_missing_file_is_a_problem_with_the_path_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(tmp_path / "nowhere.yaml")
    (problem,) = caught.value.problems
    assert problem.path == "file"
    assert problem.expected == "a readable scenario file"
    assert "No such file" in problem.found
    assert problem.file == str(tmp_path / "nowhere.yaml")


def test_a_directory_is_not_a_readable_scenario_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(tmp_path)
    assert caught.value.problems[0].path == "file"


def test_a_file_that_is_not_utf8_is_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(scenario(FILED).encode() + b"# caf\xe9\n")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert "UTF-8" in caught.value.problems[0].found


def test_a_json_syntax_error_names_its_line() -> None:
    text = '{\n "format": "electsim/v1",\n "title": "x",\n "contests": [}\n'
    problem = only(text, fmt="json")
    assert problem.path == "document"
    assert problem.line == 4
    assert "well-formed JSON" in problem.expected


def test_a_json_duplicate_key_is_a_problem_with_path_and_line() -> None:
    text = (
        '{"format": "electsim/v1", "title": "x",\n'
        ' "contests": [{"id": "mayor", "method": "nonpartisan-plurality", "year": 2027}],\n'
        ' "events": [\n'
        '  {"type": "candidate_filed", "at": "2027-07-06", "candidate": "Ann"},\n'
        '  {"type": "candidate_filed", "at": "2027-07-06", "candidate": "Bob", "candidate": "C"}\n'
        "]}\n"
    )
    problem = only(text, fmt="json")
    assert problem.path == "events[1].candidate"
    assert problem.line == 5
    assert "at most once" in problem.expected


# --- the top level ------------------------------------------------------------------------------


def test_a_missing_title_is_a_problem_at_the_top_of_the_document() -> None:
    problem = only(scenario(FILED).replace("title: Mayor of Example, 2027\n", ""))
    assert problem.path == "title"
    assert problem.line == 1
    assert problem.found == "nothing: the field is missing"


def test_missing_format_title_contests_and_events_are_all_reported() -> None:
    found = problems("description: nothing else\n")
    assert [p.path for p in found] == ["format", "title", "contests", "events"]


def test_the_format_must_be_exactly_electsim_v1() -> None:
    problem = only(scenario(FILED).replace("electsim/v1", "electsim/v2"))
    assert (problem.path, problem.line) == ("format", 1)
    assert "'electsim/v1'" in problem.expected
    assert problem.found == "'electsim/v2'"


def test_an_unknown_top_level_field_is_a_problem_listing_the_allowed_ones() -> None:
    problem = only(scenario(FILED) + "contest: mayor\n")
    assert (problem.path, problem.line) == ("contest", 7)
    assert "contests" in problem.expected and "office_closed" in problem.expected


@pytest.mark.parametrize(
    ("field", "written"),
    [
        ("title", "2027"),
        ("title", "2027-10-05"),
        ("contests[0].office", "2"),
        ("events[0].candidate", "No"),
    ],
)
def test_text_yaml_reads_as_a_number_a_date_or_a_boolean_says_to_quote_it(
    field: str, written: str
) -> None:
    # it said "title: expected a non-empty title; found 2027", of a title written 2027
    text = scenario(FILED)
    if field == "title":
        text = text.replace("title: Mayor of Example, 2027", f"title: {written}")
    elif field == "contests[0].office":
        text = text.replace("office: Mayor", f"office: {written}")
    else:
        text = text.replace("candidate: Ann", f"candidate: {written}")
    problem = only(text)
    assert problem.path == field
    assert problem.expected.endswith("(quote a value YAML reads as a number, a date or true/false)")


def test_an_unknown_timezone_is_a_problem() -> None:
    problem = only("timezone: America/Springfield\n" + scenario(FILED))
    assert (problem.path, problem.line) == ("timezone", 1)


@pytest.mark.parametrize("name", ["localtime", "posixrules", "right/America/New_York", "zone.tab"])
def test_a_file_of_the_zone_folders_that_is_no_zone_of_the_database_is_a_problem(name: str) -> None:
    # ZoneInfo reads any file there: `localtime` is the machine's own zone, so the same
    # scenario gave another answer on a machine in another zone
    problem = only(f"timezone: {name}\n" + scenario(FILED))
    assert (problem.path, problem.found) == ("timezone", repr(name))


def test_zones_of_the_database_are_read() -> None:
    for name in ("UTC", "US/Eastern", "Etc/GMT+5", "Asia/Kolkata"):
        assert parse_scenario(f"timezone: {name}\n" + scenario(FILED)).timezone == name


def test_office_closed_takes_dates_not_times() -> None:
    text = "office_closed: [2027-07-05, '2027-11-11', 2027-07-06T12:00:00]\n" + scenario(FILED)
    problem = only(text)
    assert problem.path == "office_closed[2]"


def test_office_closed_dates_are_read() -> None:
    text = "office_closed: [2027-07-05, '2027-11-11']\n" + scenario(FILED)
    assert parse_scenario(text).office_closed == (date(2027, 7, 5), date(2027, 11, 11))


def test_an_unknown_interpretation_is_a_problem() -> None:
    text = "interpretations: {three_way_ties: lot}\n" + scenario(FILED)
    problem = only(text)
    assert (problem.path, problem.line) == ("interpretations.three_way_ties", 1)
    assert "three_way_tie" in problem.expected


def test_an_interpretation_must_take_one_of_its_settings() -> None:
    text = "interpretations: {three_way_tie: coin, harmless_ties: 'no'}\n" + scenario(FILED)
    assert [p.path for p in problems(text)] == [
        "interpretations.three_way_tie",
        "interpretations.harmless_ties",
    ]


def test_interpretations_are_read() -> None:
    text = "interpretations: {three_way_tie: lot, harmless_ties: false}\n" + scenario(FILED)
    assert parse_scenario(text).interpretations == Interpretations(
        three_way_tie="lot", harmless_ties=False
    )


# --- contests -----------------------------------------------------------------------------------


def contest_head(contest: str) -> str:
    return f"format: electsim/v1\ntitle: x\ncontests:\n  - {contest}\nevents:\n"


def test_an_unknown_contest_field_is_a_problem() -> None:
    text = scenario(FILED, head=contest_head("{id: m, method: partisan, year: 2027, seat: 2}"))
    problem = only(text)
    assert (problem.path, problem.line) == ("contests[0].seat", 4)
    assert "seats" in problem.expected


@pytest.mark.parametrize("seats", ["0", "two", "true", "1.5", "-1"])
def test_seats_must_be_a_whole_number_of_at_least_one(seats: str) -> None:
    head = contest_head(f"{{id: m, method: nonpartisan-plurality, year: 2027, seats: {seats}}}")
    problem = only(scenario(FILED, head=head))
    assert (problem.path, problem.line) == ("contests[0].seats", 4)


def test_an_unknown_method_is_a_problem_listing_the_four_methods() -> None:
    problem = only(scenario(FILED, head=contest_head("{id: m, method: ranked-choice, year: 2027}")))
    assert problem.path == "contests[0].method"
    assert "nonpartisan-runoff" in problem.expected


def test_a_partisan_primary_needs_a_party() -> None:
    head = contest_head("{id: m, method: partisan, stage: primary, year: 2027}")
    problem = only(scenario(FILED, head=head))
    assert (problem.path, problem.line) == ("contests[0].party", 4)


def test_a_nonpartisan_contest_has_no_party() -> None:
    head = contest_head("{id: m, method: nonpartisan-runoff, party: DEM, year: 2027}")
    assert only(scenario(FILED, head=head)).path == "contests[0].party"


def test_a_plurality_contest_has_no_primary_stage() -> None:
    head = contest_head("{id: m, method: nonpartisan-plurality, stage: primary, year: 2027}")
    assert only(scenario(FILED, head=head)).path == "contests[0].stage"


def test_a_missing_year_and_a_missing_id_are_both_reported() -> None:
    head = contest_head("{method: nonpartisan-plurality}")
    found = problems(scenario(FILED, head=head))
    assert [p.path for p in found] == ["contests[0].id", "contests[0].year"]


def test_contest_ids_are_unique() -> None:
    head = TWO_CONTESTS.replace("id: council", "id: mayor")
    problem = only(
        scenario("{type: candidate_filed, at: 2027-07-06, candidate: A, contest: mayor}", head=head)
    )
    assert (problem.path, problem.line) == ("contests[1].id", 5)


@pytest.mark.parametrize("other", ["Mayor", "MAYOR", '"mayor "', '"may\\u200bor"'])
def test_contest_ids_that_differ_only_in_case_or_spacing_are_a_problem(other: str) -> None:
    # they were two contests printed alike: [mayor] and [mayor ], or Mayor and mayor
    head = TWO_CONTESTS.replace("id: council", f"id: {other}")
    problem = only(
        scenario("{type: candidate_filed, at: 2027-07-06, candidate: A, contest: mayor}", head=head)
    )
    assert (problem.path, problem.line) == ("contests[1].id", 5)
    assert problem.expected.endswith("contests[0] is 'mayor'")


@pytest.mark.parametrize(
    ("fee", "salary", "expected"),
    [
        # G.S. 163-291(3): not less than $5 nor more than 1% of the annual salary ...
        ("4.99", "12000", "between $5.00 and 1% of the salary ($120.00)"),
        ("120.01", "12000", "between $5.00 and 1% of the salary ($120.00)"),
        # ... unless 1% of the salary is less than $5, when the fee is $5.
        ("4", "300", "exactly $5.00"),
        ("6", "300", "exactly $5.00"),
        ("3", None, "between $5.00 and 1% of the salary"),
    ],
)
def test_a_filing_fee_outside_g_s_163_291_3_is_a_problem(
    fee: str, salary: str | None, expected: str
) -> None:
    pay = f", salary: {salary}" if salary is not None else ""
    head = contest_head(
        f"{{id: m, method: nonpartisan-plurality, year: 2027, filing_fee: {fee}{pay}}}"
    )
    problem = only(scenario(FILED, head=head))
    assert (problem.path, problem.line) == ("contests[0].filing_fee", 4)
    assert expected in problem.expected


@pytest.mark.parametrize(
    ("fee", "salary"), [("5", "300"), ("5", "500"), ("120.00", "12000"), ("5", None)]
)
def test_a_filing_fee_within_g_s_163_291_3_is_fine(fee: str, salary: str | None) -> None:
    pay = f", salary: {salary}" if salary is not None else ""
    head = contest_head(
        f"{{id: m, method: nonpartisan-plurality, year: 2027, filing_fee: {fee}{pay}}}"
    )
    (contest,) = parse_scenario(scenario(FILED, head=head)).contests
    assert contest.filing_fee == Decimal(fee)


def test_money_is_kept_exactly_as_written() -> None:
    head = contest_head(
        "{id: m, method: nonpartisan-plurality, year: 2027, filing_fee: 40.10, salary: 4010.00}"
    )
    (contest,) = parse_scenario(scenario(FILED, head=head)).contests
    assert str(contest.filing_fee) == "40.10"
    assert str(contest.salary) == "4010.00"


def test_a_contest_is_read_with_all_its_fields() -> None:
    head = contest_head(
        "{id: cary-d, municipality: Town of Cary, office: Council D, seats: 2, method: partisan,"
        " stage: primary, party: DEM, year: 2023, date: 2023-10-10, district_based: true,"
        " filing: {opens: '2023-07-07T12:00', closes: '2023-07-21T12:00'}}"
    )
    (contest,) = parse_scenario(scenario(FILED, head=head)).contests
    assert contest == Contest(
        id="cary-d",
        method=Method.PARTISAN,
        year=2023,
        seats=2,
        stage=Stage.PRIMARY,
        municipality="Town of Cary",
        office="Council D",
        party="DEM",
        date=date(2023, 10, 10),
        district_based=True,
        filing_opens=datetime(2023, 7, 7, 12, tzinfo=NY),
        filing_closes=datetime(2023, 7, 21, 12, tzinfo=NY),
    )
    assert contest.line == 4


@pytest.mark.parametrize(
    ("filing", "path", "statutory"),
    [
        ("{closes: 2027-06-01}", "contests[0].filing.closes", "2027-07-02T12:00:00-04:00"),
        ("{opens: 2027-08-01}", "contests[0].filing.opens", "2027-07-16T12:00:00-04:00"),
    ],
)
def test_a_filing_period_set_on_one_side_must_still_open_before_it_closes(
    filing: str, path: str, statutory: str
) -> None:
    # G.S. 163-294.2(c): the other side stays the statutory one; {closes: 2027-06-01} made a
    # period from July 2 to June 1 and every filing was rejected as outside it
    head = contest_head(
        f"{{id: mayor, method: nonpartisan-plurality, year: 2027, filing: {filing}}}"
    )
    problem = only(scenario(FILED, head=head))
    assert problem.path == path
    assert f"the statutory one ({statutory}" in problem.expected
    later = contest_head(
        "{id: mayor, method: nonpartisan-plurality, year: 2027, filing: {closes: 2027-07-20}}"
    )
    (contest,) = parse_scenario(scenario(FILED, head=later)).contests
    assert contest.filing_closes == datetime(2027, 7, 20, tzinfo=NY)


# --- events -------------------------------------------------------------------------------------


def test_an_unknown_event_type_is_a_problem_listing_the_types() -> None:
    problem = only(scenario(FILED, "{type: vote_cast, at: 2027-11-02, candidate: Ann}"))
    assert (problem.path, problem.line) == ("events[1].type", 7)
    assert "votes_cast" in problem.expected
    assert problem.found == "'vote_cast'; did you mean 'votes_cast'?"


def test_an_event_without_at_is_a_problem() -> None:
    problem = only(scenario(FILED, "{type: votes_cast, candidate: Ann}"))
    assert (problem.path, problem.line) == ("events[1].at", 7)
    assert "ISO 8601" in problem.expected


@pytest.mark.parametrize(
    "at", ["2027-02-30", "'2027-11-02 25:00'", "'next Tuesday'", "'02/11/2027'", "2027"]
)
def test_a_bad_date_is_a_problem(at: str) -> None:
    problem = only(scenario(FILED, f"{{type: votes_cast, at: {at}, candidate: Ann}}"))
    assert (problem.path, problem.line) == ("events[1].at", 7)
    assert problem.expected.startswith("an ISO 8601 date or date-time")


def test_an_unknown_contest_id_is_a_problem() -> None:
    problem = only(
        scenario("{type: candidate_filed, at: 2027-07-06, candidate: Ann, contest: mayr}")
    )
    assert (problem.path, problem.line) == ("events[0].contest", 6)
    assert "mayor" in problem.expected


def test_with_two_contests_every_event_names_its_contest() -> None:
    text = scenario(
        "{type: candidate_filed, at: 2027-07-06, candidate: Ann, contest: mayor}",
        "{type: candidate_filed, at: 2027-07-06, candidate: Bob}",
        head=TWO_CONTESTS,
    )
    problem = only(text)
    assert (problem.path, problem.line) == ("events[1].contest", 8)
    assert "council" in problem.expected and "mayor" in problem.expected


def test_with_one_contest_events_default_to_it() -> None:
    (filed,) = parse_scenario(scenario(FILED)).events
    assert filed.contest == "mayor"


def test_an_unknown_event_field_is_a_problem_naming_it() -> None:
    problem = only(scenario("{type: candidate_filed, at: 2027-07-06, candidate: Ann, partie: DEM}"))
    assert problem.path == "events[0].partie"
    assert "partie" in str(problem)
    assert "candidate, party, fee" in problem.expected


def test_a_misspelt_candidate_field_names_the_misspelling() -> None:
    # SPEC contract example bad-unknown-field
    found = problems(scenario("{type: candidate_filed, at: 2027-07-06, candidat: Ann}"))
    assert [p.path for p in found] == ["events[0].candidat", "events[0].candidate"]
    assert "candidat" in str(found[0])


def test_votes_for_someone_who_never_filed_are_a_problem() -> None:
    text = scenario(
        FILED,
        "{type: votes_cast, at: 2027-11-02T09:00, candidate: Bob}",
        "{type: votes_cast, at: 2027-11-02T10:00, candidate: Bob}",
    )
    problem = only(text)
    assert (problem.path, problem.line) == ("events[1].candidate", 7)
    assert "a candidate who filed in contest 'mayor'" in problem.expected
    assert "'Bob'" in problem.found and "2 events" in problem.found


def test_returns_for_someone_who_never_filed_name_the_count() -> None:
    problem = only(
        scenario(FILED, "{type: returns_reported, at: 2027-11-02, counts: {Ann: 3, Bo: 1}}")
    )
    assert problem.path == "events[1].counts.Bo"


def test_a_filing_written_after_the_votes_for_it_is_out_of_order() -> None:
    # SPEC section 1: the log is in the order the board learned of things
    text = scenario("{type: votes_cast, at: 2027-11-02, candidate: Ann}", FILED)
    problem = only(text)
    assert (problem.path, problem.line) == ("events[1].at", 7)
    assert "events[0] (line 6)" in problem.expected


def test_a_filing_in_another_contest_does_not_count() -> None:
    text = scenario(
        "{type: candidate_filed, at: 2027-07-06, candidate: Ann, contest: council}",
        "{type: votes_cast, at: 2027-11-02, candidate: Ann, contest: mayor}",
        head=TWO_CONTESTS,
    )
    assert only(text).path == "events[1].candidate"


def test_a_nominee_named_by_the_party_needs_no_filing() -> None:
    # G.S. 163-114
    text = scenario(
        "{type: nominee_named, at: 2027-08-01, candidate: Cy, party: DEM}",
        "{type: votes_cast, at: 2027-11-02, candidate: Cy}",
    )
    assert len(parse_scenario(text).events) == 2


def test_write_ins_need_no_filing() -> None:
    text = scenario(
        FILED,
        "{type: votes_cast, at: 2027-11-02, candidate: Write-In (Miscellaneous), count: 4}",
        "{type: returns_reported, at: 2027-11-02, counts: {Ann: 3, Zed (Write-In): 2}}",
    )
    events = parse_scenario(text).events
    assert isinstance(events[1], ev.VotesCast) and events[1].count == 4
    assert isinstance(events[2], ev.ReturnsReported)
    assert dict(events[2].counts) == {"Ann": 3, "Zed (Write-In)": 2}


def test_a_negative_count_is_a_problem() -> None:
    problem = only(scenario(FILED, "{type: votes_cast, at: 2027-11-02, candidate: Ann, count: -3}"))
    assert (problem.path, problem.line) == ("events[1].count", 7)
    assert problem.found == "-3"


def test_a_boolean_count_is_a_problem() -> None:
    problem = only(
        scenario(FILED, "{type: votes_cast, at: 2027-11-02, candidate: Ann, count: true}")
    )
    assert problem.path == "events[1].count"
    assert problem.found == "true (a boolean)"


def test_a_count_over_the_most_votes_is_a_problem_naming_the_bound() -> None:
    # Two counts of 4300 nines each read; their total could not be written out (exit 1).
    nines = "9" * 4300
    text = scenario(
        FILED,
        "{type: candidate_filed, at: 2027-07-06, candidate: Bob}",
        f"{{type: returns_reported, at: 2027-11-02, counts: {{Ann: {nines}, Bob: 1000000000000}}}}",
        "{type: votes_cast, at: 2027-11-02, candidate: Bob, count: 1000000000001}",
    )
    found = problems(text)
    assert [(p.path, p.line) for p in found] == [
        ("events[2].counts.Ann", 8),
        ("events[3].count", 9),
    ]
    assert all(p.expected.endswith("and at most 1,000,000,000,000") for p in found)
    assert found[0].found == "a number of about 4300 digits"


@pytest.mark.parametrize("fmt", ["yaml", "json"])
@pytest.mark.parametrize("field", ["seats", "count", "precinct", "title"])
def test_a_number_too_long_to_write_out_is_a_problem_not_a_crash(fmt: str, field: str) -> None:
    # Python writes out integers of at most 4300 digits: a long number read as an int passed
    # the checks and stopped the replay where it was printed.
    number = "9" * 5000
    contest = {"id": "mayor", "method": "nonpartisan-plurality", "year": 2027, "seats": 1}
    vote = {"type": "votes_cast", "at": "2027-11-02", "candidate": "Ann", "count": 1}
    doc: dict[str, Any] = {"format": "electsim/v1", "title": "Example", "contests": [contest]}
    doc["events"] = [{"type": "candidate_filed", "at": "2027-07-06", "candidate": "Ann"}, vote]
    if field == "seats":
        contest["seats"] = "LONG"
    elif field == "title":
        doc["title"] = "LONG"
    else:
        vote[field] = "LONG"
    if fmt == "json":
        text = json.dumps(doc).replace('"LONG"', number)
    else:
        text = yaml.safe_dump(doc).replace("LONG", number)
    (problem,) = problems(text, fmt=fmt)
    assert problem.path.endswith(field) and problem.line is not None
    assert problem.found == "a number of about 5000 digits"


def test_negative_counts_in_returns_are_each_a_problem() -> None:
    text = scenario(
        FILED,
        "{type: candidate_filed, at: 2027-07-06, candidate: Bob}",
        "{type: returns_reported, at: 2027-11-02, counts: {Ann: -1, Bob: many}}",
    )
    assert [p.path for p in problems(text)] == ["events[2].counts.Ann", "events[2].counts.Bob"]


def test_one_name_twice_in_counts_by_its_accents_is_shown_by_its_code_points() -> None:
    # 'Ané' composed and decomposed are one name (NFC): the message showed 'Ané' twice and
    # spoke of spacing or invisible characters
    text = scenario(
        '{type: candidate_filed, at: 2027-07-06, candidate: "An\\u00e9"}',
        '{type: returns_reported, at: 2027-11-02, counts: {"An\\u00e9": 1, "Ane\\u0301": 2}}',
    )
    problem = only(text)
    assert problem.found == "'An\\xe9'"
    assert "the same as 'Ane\\u0301' but for" in problem.expected
    assert problem.expected.endswith("or how its accents are encoded")


def test_empty_counts_are_a_problem() -> None:
    assert only(scenario(FILED, "{type: recount_held, at: 2027-11-20, counts: {}}")).path == (
        "events[1].counts"
    )


def test_a_death_noticed_before_it_happened_is_a_problem() -> None:
    text = scenario(
        FILED,
        "{type: candidate_died, at: 2027-08-25T22:00, notice_at: 2027-08-25T21:00, candidate: Ann}",
    )
    problem = only(text)
    assert (problem.path, problem.line) == ("events[1].notice_at", 7)


def test_a_death_notice_is_read_as_a_time() -> None:
    text = scenario(
        FILED,
        "{type: candidate_died, at: 2027-08-25T22:00, notice_at: 2027-08-26T10:00, candidate: Ann}",
    )
    died = parse_scenario(text).events[1]
    assert isinstance(died, ev.CandidateDied)
    assert died.known_at == datetime(2027, 8, 26, 10, tzinfo=NY)


def test_a_numeric_precinct_is_kept_as_text() -> None:
    text = scenario(FILED, "{type: votes_cast, at: 2027-11-02, candidate: Ann, precinct: 12}")
    votes = parse_scenario(text).events[1]
    assert isinstance(votes, ev.VotesCast) and votes.precinct == "12"


@pytest.mark.parametrize("written", ["0012", "010", "08", "1:30", "-01", "0_7"])
@pytest.mark.parametrize("quick", [True, False])
def test_a_precinct_yaml_would_read_as_octal_or_base_60_keeps_its_text(
    written: str, quick: bool
) -> None:
    # YAML 1.1 read 0012 as the octal 10, the same precinct as one written 10; 1:30 as 90.
    votes = "{type: votes_cast, at: 2027-11-02, candidate: Ann, precinct: %s}"
    text = scenario(FILED, *[votes % written] * 40)
    events = _parse_yaml(text, "s.yaml", quick=quick).events
    assert {e.precinct for e in events[1:] if isinstance(e, ev.VotesCast)} == {written}


@pytest.mark.parametrize("written", ["010", "0012", "1:30", "1:30.5", "'12'"])
def test_a_count_yaml_would_read_as_octal_or_base_60_is_a_problem_showing_it(written: str) -> None:
    # count: 010 was 8 votes, count: 1:30 was 90.
    problem = only(
        scenario(FILED, f"{{type: votes_cast, at: 2027-11-02, candidate: Ann, count: {written}}}")
    )
    assert problem.path == "events[1].count"
    assert problem.expected.endswith(
        "written as a plain decimal number (no quotes, no leading zero)"
    )
    assert problem.found == repr(written.strip("'"))


@pytest.mark.parametrize("written", ["0x10", "0b11", "0o17", "1_000", "1_5", "0x7fffffff"])
@pytest.mark.parametrize("quick", [True, False])
def test_a_count_in_any_form_but_plain_decimal_digits_is_a_problem_showing_it(
    written: str, quick: bool
) -> None:
    # YAML 1.1 read 0x10 as 16, 0b11 as 3 and 1_5 as 15: the format asks for plain decimal
    # numbers, and a value is never read as other than it looks
    votes = f"{{type: votes_cast, at: 2027-11-02, candidate: Ann, count: {written}}}"
    with pytest.raises(ScenarioError) as caught:
        _parse_yaml(scenario(FILED, *[votes] * 40), "s.yaml", quick=quick)
    found = caught.value.problems
    assert len(found) == 40
    assert {p.found for p in found} == {repr(written)}
    assert found[0].path == "events[1].count" and "plain decimal number" in found[0].expected


@pytest.mark.parametrize(("field", "written"), [("seats", "0x1"), ("year", "0x7EB")])
def test_a_contest_number_in_hexadecimal_is_a_problem(field: str, written: str) -> None:
    head = HEAD.replace(
        "year: 2027", f"year: 2027, {field}: {written}" if field == "seats" else f"year: {written}"
    )
    p = only(scenario(FILED, head=head))
    assert p.path == f"contests[0].{field}" and p.found == repr(written)


@pytest.mark.parametrize("written", ["1_5", "'1_5'", "1_5.00", "0x0F"])
def test_a_fee_with_grouped_digits_or_in_hexadecimal_is_a_problem(written: str) -> None:
    # Decimal("1_5") is 15: a quoted amount is read as plain decimal text only
    p = only(scenario(f"{{type: candidate_filed, at: 2027-07-06, candidate: Ann, fee: {written}}}"))
    assert p.path == "events[0].fee" and p.found == repr(written.strip("'"))


def test_zero_and_signed_plain_numbers_are_still_read() -> None:
    text = scenario(
        FILED,
        "{type: votes_cast, at: 2027-11-02, candidate: Ann, count: 0}",
        "{type: votes_cast, at: 2027-11-02, candidate: Ann, count: +7}",
        "{type: votes_cast, at: 2027-11-02, candidate: Ann, count: 1000}",
    )
    counts = [e.count for e in parse_scenario(text).events if isinstance(e, ev.VotesCast)]
    assert counts == [0, 7, 1000]


def test_a_fee_is_kept_as_an_exact_decimal_string() -> None:
    text = scenario("{type: candidate_filed, at: 2027-07-06, candidate: Ann, fee: 12.50}")
    filed = parse_scenario(text).events[0]
    assert isinstance(filed, ev.CandidateFiled) and filed.fee == "12.50"


def test_the_problem_names_the_line_of_the_field_in_block_style() -> None:
    text = HEAD + "  - type: votes_cast\n    at: 2027-11-02\n    candidate: Ann\n    count: -1\n"
    found = problems(text)
    assert [(p.path, p.line) for p in found] == [("events[0].candidate", 8), ("events[0].count", 9)]


def test_the_problem_names_the_line_of_the_field_in_a_multi_line_flow_mapping() -> None:
    text = (
        HEAD + "  - " + FILED + "\n  - {type: votes_cast,\n     at: 2027-11-02,\n     count: -1}\n"
    )
    found = problems(text)
    assert [(p.path, p.line) for p in found] == [("events[1].candidate", 7), ("events[1].count", 9)]


def test_events_carry_their_index_and_line() -> None:
    text = (
        HEAD + "  - " + FILED + "\n  # a comment\n  - type: ballots_printed\n    at: 2027-09-10\n"
    )
    filed, printed = parse_scenario(text).events
    assert (filed.index, filed.line) == (0, 6)
    assert (printed.index, printed.line) == (1, 8)


def test_all_problems_are_reported_in_line_order() -> None:
    text = (
        "format: electsim/v2\n"  # 1
        "title: Example\n"
        "colour: blue\n"  # 3
        "contests:\n"
        "  - {id: m, method: partisan, stage: primary, year: 2027, seats: 0}\n"  # 5
        "events:\n"
        "  - {type: candidate_filed, at: 2027-07-06, candidat: Ann}\n"  # 7
        "  - {type: votes_cast, at: 2027-13-01, candidate: Bob, count: -1}\n"  # 8
        "  - {type: lot_drawn, at: 2027-11-10, winner: Cy, extra: 1}\n"  # 9
    )
    found = problems(text, source="many.yaml")
    assert [(p.line, p.path) for p in found] == [
        (1, "format"),
        (3, "colour"),
        (5, "contests[0].party"),
        (5, "contests[0].seats"),
        (7, "events[0].candidat"),
        (7, "events[0].candidate"),
        (8, "events[1].at"),
        (8, "events[1].count"),
        (8, "events[1].candidate"),  # Bob never filed
        (9, "events[2].extra"),
        (9, "events[2].winner"),
    ]
    assert all(p.file == "many.yaml" for p in found)
    assert str(found[0]).startswith("many.yaml:1: format: expected")


def test_a_long_found_value_is_truncated() -> None:
    problem = only(
        scenario(
            FILED, "{type: votes_cast, at: 2027-11-02, candidate: Ann, count: " + "x" * 500 + "}"
        )
    )
    assert len(problem.found) <= 60


# --- times (SPEC section 1: naive times are in the scenario's timezone) -------------------------


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        ("2027-07-06", datetime(2027, 7, 6, 0, 0, tzinfo=NY)),  # YAML native date: 00:00 local
        ("2027-07-06 09:30:00", datetime(2027, 7, 6, 9, 30, tzinfo=NY)),  # native timestamp
        ("2027-07-06T09:30:00Z", datetime(2027, 7, 6, 5, 30, tzinfo=NY)),  # native, UTC
        ('"2027-07-06"', datetime(2027, 7, 6, 0, 0, tzinfo=NY)),  # quoted date
        ('"2027-07-06T09:30"', datetime(2027, 7, 6, 9, 30, tzinfo=NY)),  # quoted, no seconds
        ("2027-07-06T09:30", datetime(2027, 7, 6, 9, 30, tzinfo=NY)),  # plain, no seconds
        ('"2027-07-06 09:30"', datetime(2027, 7, 6, 9, 30, tzinfo=NY)),  # space-separated
        ('"2027-07-06T09:30:15.25"', datetime(2027, 7, 6, 9, 30, 15, 250000, tzinfo=NY)),
        ('"2027-07-06T09:30-07:00"', datetime(2027, 7, 6, 12, 30, tzinfo=NY)),  # with an offset
        ('"2027-07-06T13:30Z"', datetime(2027, 7, 6, 9, 30, tzinfo=NY)),  # with Z
        ("2027-07-06 09:30:00 -5", datetime(2027, 7, 6, 10, 30, tzinfo=NY)),  # YAML's own form
    ],
)
def test_times_in_every_accepted_spelling(at: str, expected: datetime) -> None:
    (filed,) = parse_scenario(
        scenario(f"{{type: candidate_filed, at: {at}, candidate: Ann}}")
    ).events
    assert filed.at == expected
    assert filed.at.tzinfo is NY
    assert filed.at.utcoffset() == expected.utcoffset()


def test_times_follow_the_scenario_timezone() -> None:
    text = "timezone: America/Los_Angeles\n" + scenario(FILED)
    (filed,) = parse_scenario(text).events
    assert filed.at == datetime(2027, 7, 6, tzinfo=ZoneInfo("America/Los_Angeles"))


def test_a_local_time_the_clocks_skip_is_a_problem_naming_the_jump() -> None:
    # 2027-03-14: New York's clocks go from 02:00 to 03:00; 02:30 did not happen, and moving it
    # to 03:30 (or 01:30) would be choosing for the file
    problem = only(scenario("{type: candidate_filed, at: '2027-03-14T02:30', candidate: A}"))
    assert (problem.path, problem.line, problem.found) == (
        "events[0].at",
        6,
        "'2027-03-14T02:30'",
    )
    assert "from 02:00 straight to 03:00, so 02:30 never shows" in problem.expected
    # the same instant written with its offset, or as the clocks showed it, is read
    for written, utc in (("2027-03-14T02:30-05:00", 7), ("2027-03-14T03:30", 7)):
        (filed,) = parse_scenario(
            scenario(f"{{type: candidate_filed, at: '{written}', candidate: A}}")
        ).events
        assert filed.at.astimezone(UTC) == datetime(2027, 3, 14, utc, 30, tzinfo=UTC)


def test_a_local_time_the_clocks_show_twice_needs_its_offset() -> None:
    problem = only(scenario("{type: candidate_filed, at: '2027-11-07T01:30', candidate: A}"))
    assert problem.path == "events[0].at"
    assert "go back from 02:00 to 01:00, so 01:30 shows twice" in problem.expected
    assert "2027-11-07T01:30-04:00 for the first, 2027-11-07T01:30-05:00" in problem.expected
    for offset, hours in (("-04:00", -4), ("-05:00", -5)):
        (filed,) = parse_scenario(
            scenario(f"{{type: candidate_filed, at: '2027-11-07T01:30{offset}', candidate: A}}")
        ).events
        assert filed.at.utcoffset() == timedelta(hours=hours)
    # the hours either side of the repeated one are read as they are
    for written, hours in (("2027-11-07T00:59", -4), ("2027-11-07T02:00", -5)):
        (filed,) = parse_scenario(
            scenario(f"{{type: candidate_filed, at: '{written}', candidate: A}}")
        ).events
        assert filed.at.utcoffset() == timedelta(hours=hours)


def test_clock_changes_of_other_zones_are_named_as_they_are() -> None:
    # Lord Howe Island moves its clocks by half an hour
    head = "timezone: Australia/Lord_Howe\n" + HEAD
    found = problems(
        scenario(
            "{type: candidate_filed, at: '2027-04-04T01:45', candidate: A}",
            "{type: candidate_filed, at: '2027-10-03T02:15', candidate: B}",
            head=head,
        )
    )
    assert [p.path for p in found] == ["events[0].at", "events[1].at"]
    assert "back from 02:00 to 01:30, so 01:45 shows twice" in found[0].expected
    assert "+11:00 for the first" in found[0].expected
    assert "from 02:00 straight to 02:30, so 02:15 never shows" in found[1].expected


def test_a_bare_date_is_the_first_moment_of_its_day_whatever_the_clocks_do() -> None:
    # Havana's clocks go from 00:00 to 01:00 on 2027-03-14: the day starts at 01:00
    head = "timezone: America/Havana\n" + HEAD
    (filed,) = parse_scenario(
        scenario("{type: candidate_filed, at: 2027-03-14, candidate: A}", head=head)
    ).events
    assert (filed.at.hour, filed.at.minute, filed.at.day) == (1, 0, 14)
    (quoted,) = parse_scenario(
        scenario("{type: candidate_filed, at: '2027-03-14', candidate: A}", head=head)
    ).events
    assert quoted.at == filed.at
    problem = only(
        scenario("{type: candidate_filed, at: '2027-03-14T00:30', candidate: A}", head=head)
    )
    assert "00:30 never shows" in problem.expected


# --- JSON ---------------------------------------------------------------------------------------


def example_dict() -> dict[str, Any]:
    return {
        "format": "electsim/v1",
        "title": "Example",
        "contests": [
            {"id": "mayor", "method": "nonpartisan-runoff", "year": 2027, "filing_fee": 12.5}
        ],
        "events": [
            {"type": "candidate_filed", "at": "2027-07-06", "candidate": "Ann", "fee": 12.50},
            {"type": "returns_reported", "at": "2027-10-05T21:00", "counts": {"Ann": 480}},
        ],
    }


def test_json_input_reads_like_yaml() -> None:
    from_json = parse_scenario(json.dumps(example_dict(), indent=1), fmt="json")
    from_yaml = parse_scenario(yaml.safe_dump(example_dict()))
    assert from_json == from_yaml
    assert from_json.contests[0].filing_fee == Decimal("12.5")


def test_json_problems_name_their_lines() -> None:
    data = example_dict()
    data["events"][1]["counts"]["Ann"] = -480
    problem = only(json.dumps(data, indent=1), fmt="json")
    assert problem.path == "events[1].counts.Ann"
    assert problem.line == 23


@pytest.mark.parametrize("quick", [True, False])
def test_json_nested_too_deep_is_a_problem_at_its_line(quick: bool) -> None:
    # It said "expected well-formed JSON; found maximum recursion depth exceeded", with no line.
    data = example_dict()
    data["description"] = "DEEP"
    text = json.dumps(data, indent=1).replace('"DEEP"', "[" * 5000 + "]" * 5000)
    with pytest.raises(ScenarioError) as caught:
        _parse_json(text, "s.json", quick=quick)
    (problem,) = caught.value.problems
    assert problem.line == line_of(text, '"description"')
    assert problem.expected.startswith("JSON whose lists and objects are nested at most 500 deep")
    data["description"] = "DEEP"
    shallow = json.dumps(data, indent=1).replace('"DEEP"', "[" * 500 + "]" * 500)
    assert only(shallow, fmt="json").path == "description"  # read, and found no text


def test_a_json_number_with_an_exponent_is_shown_as_written_not_as_a_whole_number() -> None:
    data = example_dict()
    data["contests"][0]["year"] = "YEAR"
    problem = only(json.dumps(data).replace('"YEAR"', "2.027e3"), fmt="json")
    assert (problem.path, problem.found) == ("contests[0].year", "2.027E+3")  # (it said 2027)


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``text`` containing ``needle``."""
    lines = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return lines[nth - 1]


def test_json_problems_name_the_line_of_each_field_in_a_pretty_printed_file() -> None:
    data = example_dict()
    del data["title"]
    data["contests"][0]["seats"] = "two"
    data["events"][0]["candidat"] = "Ann"
    data["events"].append(
        {"type": "votes_cast", "at": "2027-11-02", "candidate": "Ann", "count": -2}
    )
    data["events"].append({"type": "votes_cast", "at": "2027-11-02"})
    text = json.dumps(data, indent=2)
    found = {p.path: p.line for p in problems(text, fmt="json")}
    assert found == {
        "title": 1,
        "contests[0].seats": line_of(text, '"seats"'),
        "events[0].candidat": line_of(text, '"candidat"'),
        "events[2].count": line_of(text, '"count"'),
        # a missing field: the line where the event's object opens
        "events[3].candidate": line_of(text, '"votes_cast"', 2) - 1,
    }


def test_a_json_key_repeated_on_another_line_names_the_repetition() -> None:
    text = json.dumps(example_dict(), indent=1).replace(
        '"candidate": "Ann",', '"candidate": "Ann",\n   "candidate": "Ann",', 1
    )
    problem = only(text, fmt="json")
    assert (problem.path, problem.line) == ("events[0].candidate", line_of(text, '"candidate":', 2))


def test_a_json_file_is_read_as_json(tmp_path: Path) -> None:
    path = tmp_path / "example.JSON"
    path.write_text(json.dumps(example_dict()))
    assert load_scenario(path).source == str(path)


# --- writing ------------------------------------------------------------------------------------


def test_scenario_to_dict_leaves_defaults_out() -> None:
    data = scenario_to_dict(parse_scenario(scenario(FILED)))
    assert data == {
        "format": "electsim/v1",
        "title": "Mayor of Example, 2027",
        "contests": [
            {
                "id": "mayor",
                "municipality": "Example",
                "office": "Mayor",
                "seats": 1,
                "method": "nonpartisan-plurality",
                "year": 2027,
            }
        ],
        "events": [
            {"type": "candidate_filed", "at": "2027-07-06T00:00:00-04:00", "candidate": "Ann"}
        ],
    }


def test_a_scenario_round_trips_through_scenario_to_dict() -> None:
    text = (
        "description: all of it\ntimezone: America/Chicago\noffice_closed: [2027-07-05]\n"
        "interpretations: {early_request: reject}\n"
        + TWO_CONTESTS.replace("year: 2027}", "year: 2027, filing_fee: 12.34, salary: 1234}", 1)
        + "".join(
            f"  - {e}\n"
            for e in (
                "{type: candidate_filed, at: 2027-07-06, candidate: Ann, contest: mayor, fee: 5}",
                "{type: candidate_filed, at: 2027-07-06, candidate: Bob, contest: mayor,"
                " fee: 5.00}",
                "{type: candidate_died, at: 2027-08-01, notice_at: 2027-08-02T10:00,"
                " candidate: Bob, contest: mayor}",
                "{type: returns_reported, at: 2027-11-02, counts: {Bob: 1, Ann: 2},"
                " contest: mayor}",
                "{type: votes_cast, at: 2027-11-02, candidate: Ann, count: 3, precinct: P1,"
                " contest: mayor}",
                "{type: reprint_determined, at: 2027-08-03, enough_time: false, contest: council}",
            )
        )
    )
    original = parse_scenario(text)
    assert parse_scenario(yaml.safe_dump(scenario_to_dict(original))) == original
    assert parse_scenario(json.dumps(scenario_to_dict(original)), fmt="json") == original


def test_dump_scenario_writes_yaml_or_json_that_loads_back(tmp_path: Path) -> None:
    original = parse_scenario(scenario(FILED, "{type: votes_cast, at: 2027-11-02, candidate: Ann}"))
    for name in ("out.yaml", "out.json"):
        dump_scenario(original, tmp_path / name)
        assert load_scenario(tmp_path / name) == original
    assert (tmp_path / "out.json").read_text().startswith("{")


# --- properties ---------------------------------------------------------------------------------

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text())
def test_random_text_gives_a_scenario_error_and_nothing_else(text: str) -> None:
    for fmt in ("yaml", "json"):
        with pytest.raises(ScenarioError):
            parse_scenario(text, fmt=fmt)


@FUZZ
@given(st.text(alphabet="{}[]:,-#&*!|>'\"%@` \n\tabcyz019.<=~?", max_size=80))
def test_random_yaml_punctuation_never_escapes_as_another_exception(text: str) -> None:
    for fmt in ("yaml", "json"):
        with contextlib.suppress(ScenarioError):
            parse_scenario(HEAD + text, fmt=fmt)


FIELD_NAMES = [
    "format", "title", "contests", "events", "type", "at", "contest", "candidate", "count",
    "counts", "notice_at", "seats", "method", "year", "filing", "opens", "filing_fee", "salary",
    "interpretations", "timezone", "office_closed", "precinct", "fee", "party", "winner", "<<",
]  # fmt: skip
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "electsim/v1",
            "votes_cast",
            "candidate_filed",
            "mayor",
            "2027-07-06",
            "2027-07-06T12:00",
            "partisan",
            "Ann",
            "-1",
            "1e400",
        ]
    )
    | st.dates()
    | st.datetimes()
)
YAMLISH = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=5), inner, max_size=5)
    ),
    max_leaves=20,
)


def base_dict() -> dict[str, Any]:
    return {
        "format": "electsim/v1",
        "title": "x",
        "contests": [{"id": "mayor", "method": "nonpartisan-plurality", "year": 2027}],
        "events": [
            {"type": "candidate_filed", "at": "2027-07-06", "candidate": "Ann"},
            {"type": "votes_cast", "at": "2027-11-02", "candidate": "Ann"},
            {"type": "returns_reported", "at": "2027-11-02", "counts": {"Ann": 3}},
        ],
    }


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["top", "contest", "event0", "event1", "event2", "counts"]),
            st.sampled_from(FIELD_NAMES),
            YAMLISH,
        ),
        max_size=4,
    ),
    YAMLISH,
)
def test_yamlish_data_gives_a_scenario_or_a_scenario_error(
    edits: list[tuple[str, str, Any]], anything: Any
) -> None:
    data = base_dict()
    targets = {
        "top": data,
        "contest": data["contests"][0],
        "event0": data["events"][0],
        "event1": data["events"][1],
        "event2": data["events"][2],
        "counts": data["events"][2]["counts"],
    }
    for where, key, value in edits:
        targets[where][key] = value
    for doc in (data, anything):
        texts = [("yaml", yaml.safe_dump(doc))]
        with_json = json.dumps(doc, default=str)
        texts.append(("json", with_json))
        for fmt, text in texts:
            try:
                parse_scenario(text, fmt=fmt)
            except ScenarioError as error:
                assert error.problems
                assert all(isinstance(p, Problem) and p.path for p in error.problems)


TIMEZONES = st.sampled_from(["America/New_York", "UTC", "America/Chicago", "Pacific/Honolulu"])
#: text as a scenario may hold it: no control characters or lone surrogates (a name that holds
#: one is a problem: test_text_with_control_characters_is_a_problem)
#: what a name may hold: no control character, no surrogate, no line or paragraph separator,
#: no bidirectional embedding, override or isolate
PRINTABLE = st.characters(
    blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
    blacklist_characters="\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
)
NAMES = st.text(PRINTABLE, min_size=1, max_size=12).filter(lambda s: s.strip() != "")
#: a party as the loader accepts it: a name that is not empty once normalized (not a lone soft
#: hyphen, say)
PARTIES = NAMES.filter(lambda s: bool(normal_name(s)))
MONEY = st.decimals(min_value=0, max_value=10**9, places=2)


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    tz_name = draw(TIMEZONES)
    tz = ZoneInfo(tz_name)

    def moment() -> datetime:
        naive = draw(st.datetimes(datetime(1900, 1, 2), datetime(2200, 12, 30)))
        return naive.replace(tzinfo=tz).astimezone(UTC).astimezone(tz)  # as the loader reads it

    contests = []
    ids = draw(
        st.lists(NAMES, min_size=1, max_size=3, unique_by=lambda s: normal_name(s).casefold())
    )
    for cid in ids:
        method = draw(st.sampled_from(list(Method)))
        stage = draw(st.sampled_from([Stage.ELECTION, Stage.PRIMARY]))
        if method not in (Method.PARTISAN, Method.PRIMARY):
            stage = Stage.ELECTION
        party = None
        if method is Method.PARTISAN:
            party = draw(NAMES) if stage is Stage.PRIMARY else draw(st.none() | NAMES)
        salary = draw(st.none() | MONEY)
        fee = None
        if draw(st.booleans()):
            ceiling = salary / 100 if salary is not None else Decimal(10**6)
            fee = Decimal(5) if ceiling < 5 else draw(st.decimals(5, ceiling, places=2))
        opens = draw(st.none() | st.builds(moment))
        closes = draw(st.none() | st.builds(moment))
        if opens is not None and closes is not None and closes <= opens:
            closes = None
        year, district_based = draw(st.integers(1973, 2200)), draw(st.booleans())
        if (opens is None) != (closes is None):  # the other side is the statutory one
            office = OfficeCalendar(timezone=tz_name)
            first, last = filing_period(
                year, calendar=office, district_based=district_based, method=method
            )
            margin = timedelta(days=15)  # (more than the scenario's closures can move them)
            if closes is not None and closes <= first.due + margin:
                closes = None
            if opens is not None and opens >= last.due - margin:
                opens = None
        contests.append(
            Contest(
                id=cid,
                method=method,
                year=year,
                seats=draw(st.integers(1, 9)),
                stage=stage,
                municipality=draw(st.text(PRINTABLE, max_size=10)),
                office=draw(st.text(PRINTABLE, max_size=10)),
                party=party,
                date=draw(st.none() | st.dates(date(1900, 1, 1), date(2200, 12, 31))),
                district_based=district_based,
                filing_opens=opens,
                filing_closes=closes,
                filing_fee=fee,
                salary=salary,
            )
        )
    log: list[ev.Event] = []
    filed: dict[str, list[str]] = {}
    for i in range(draw(st.integers(0, 12))):
        contest = draw(st.sampled_from(ids))
        names = filed.setdefault(contest, [])
        kind = draw(st.sampled_from(sorted(ev.EVENT_TYPES)))
        cls = ev.EVENT_TYPES[kind]
        base = {"at": moment(), "contest": contest, "index": i}
        refers = "candidate" in cls.fields or "winner" in cls.fields or "counts" in cls.fields
        if kind in ("candidate_filed", "nominee_named") or (refers and not names):
            # a name as the loader keeps it: in normal form, one spelling per contest
            name = normal_name(draw(NAMES)) or "Ann"
            name = next((n for n in names if n.casefold() == name.casefold()), name)
            names.append(name)
            fee = draw(st.none() | MONEY.map(str))
            if kind == "nominee_named":
                log.append(ev.NomineeNamed(**base, candidate=name, party=draw(st.none() | PARTIES)))
            else:
                log.append(
                    ev.CandidateFiled(
                        **base, candidate=name, party=draw(st.none() | PARTIES), fee=fee
                    )
                )
            continue
        fields: dict[str, Any] = {}
        for field in cls.fields:
            if field in ("candidate", "winner"):
                fields[field] = draw(st.sampled_from(names))
            elif field == "counts":
                chosen = draw(st.lists(st.sampled_from(names), min_size=1, unique=True))
                fields[field] = {n: draw(st.integers(0, 10**6)) for n in sorted(chosen)}
            elif field == "count":
                fields[field] = draw(st.integers(0, 10**6))
            elif field == "precinct":
                fields[field] = draw(st.none() | NAMES)
            elif field == "notice_at":
                fields[field] = draw(st.none() | st.just(base["at"] + timedelta(hours=3)))
            elif field == "enough_time":
                fields[field] = draw(st.booleans())
            elif field == "party":
                fields[field] = draw(st.none() | PARTIES)
            elif field == "fee":
                fields[field] = draw(st.none() | MONEY.map(str))
        log.append(cls(**base, **fields))
    # the log in the order the board learned of things (SPEC section 1)
    log.sort(key=lambda e: e.known_at)
    log = [attrs.evolve(e, index=i) for i, e in enumerate(log)]
    flags = {
        name: draw(st.sampled_from(Interpretations.CHOICES[name]))
        for name in Interpretations.CHOICES
    }
    return Scenario(
        title=draw(NAMES),
        contests=tuple(contests),
        events=tuple(log),
        description=draw(st.text(PRINTABLE | st.sampled_from("\n\t"), max_size=20)),
        timezone=tz_name,
        office_closed=tuple(
            draw(st.lists(st.dates(date(1900, 1, 1), date(2200, 12, 31)), max_size=3))
        ),
        interpretations=Interpretations(
            write_ins_in_total=draw(st.booleans()), harmless_ties=draw(st.booleans()), **flags
        ),
    )


#: A contest whose filing closes in the second pass of the hour the clocks go back, with events
#: in both passes: Python never finds a time of that hour equal to the same instant in another
#: zone, so it failed the round trip until every such time was kept as an instant.
_REPEATED_HOUR = Scenario(
    title="T",
    contests=(
        Contest(
            id="c",
            method=Method.PLURALITY,
            year=2173,
            filing_closes=datetime(2173, 11, 7, 1, tzinfo=ZoneInfo("America/New_York"), fold=1),
        ),
    ),
    events=(
        ev.CandidateFiled(
            at=datetime(2173, 11, 7, 1, 30, tzinfo=ZoneInfo("America/New_York")),
            contest="c",
            candidate="Ann",
        ),
        ev.CandidateWithdrew(
            at=datetime(2173, 11, 7, 1, 15, tzinfo=ZoneInfo("America/New_York"), fold=1),
            contest="c",
            candidate="Ann",
            index=1,
        ),
    ),
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
@example(_REPEATED_HOUR)
def test_any_scenario_round_trips_through_yaml_and_json(original: Scenario) -> None:
    data = scenario_to_dict(original)
    assert parse_scenario(yaml.safe_dump(data)) == original
    assert parse_scenario(json.dumps(data), fmt="json") == original


# --- the order of the log (SPEC section 1) ------------------------------------------------------


def test_an_event_dated_before_one_above_it_is_invalid_input_naming_both() -> None:
    text = scenario(
        FILED,
        "{type: canvass_held, at: 2027-11-12}",
        "{type: candidate_died, at: 2027-07-08, candidate: Ann}",
    )
    problem = only(text)
    assert (problem.path, problem.line) == ("events[2].at", 8)
    assert "events[1] (line 7)" in problem.expected
    assert problem.found.startswith("2027-07-08")


def test_equal_times_keep_the_order_they_are_written_in() -> None:
    text = scenario(
        FILED,
        "{type: candidate_filed, at: 2027-07-06, candidate: Bob}",
        "{type: candidate_withdrew, at: 2027-07-06, candidate: Bob}",
    )
    assert [e.index for e in parse_scenario(text).events] == [0, 1, 2]


def test_a_death_is_placed_by_when_the_board_had_notice_of_it() -> None:
    # the death itself may be earlier than the event above it; the notice may not
    fine = scenario(
        FILED,
        "{type: ballots_printed, at: 2027-09-01}",
        "{type: candidate_died, at: 2027-08-20, notice_at: 2027-09-02, candidate: Ann}",
    )
    assert len(parse_scenario(fine).events) == 3
    late = scenario(
        FILED,
        "{type: ballots_printed, at: 2027-09-03}",
        "{type: candidate_died, at: 2027-08-20, notice_at: 2027-09-02, candidate: Ann}",
    )
    assert only(late).path == "events[2].notice_at"


def test_each_contest_is_its_own_stream_for_the_order() -> None:
    text = scenario(
        "{type: candidate_filed, at: 2027-07-20, candidate: Ann, contest: council}",
        "{type: candidate_filed, at: 2027-07-06, candidate: Bob, contest: mayor}",
        head=TWO_CONTESTS,
    )
    assert len(parse_scenario(text).events) == 2


def test_an_event_out_of_order_in_json_names_the_earlier_events_line() -> None:
    data = {
        "format": "electsim/v1",
        "title": "t",
        "contests": [{"id": "m", "method": "nonpartisan-plurality", "year": 2027}],
        "events": [
            {"type": "canvass_held", "at": "2027-11-12"},
            {"type": "filing_closed", "at": "2027-07-16"},
        ],
    }
    problem = only(json.dumps(data, indent=1), fmt="json")
    assert problem.path == "events[1].at"
    assert problem.line is not None
    assert "events[0] (line " in problem.expected


# --- candidates' names --------------------------------------------------------------------------


def test_spellings_that_differ_only_in_form_spacing_or_invisible_characters_are_one_name() -> None:
    text = scenario(
        '{type: candidate_filed, at: 2027-07-06, candidate: "Jose\\u0301  Ruiz "}',
        '{type: votes_cast, at: 2027-11-02, candidate: "Jos\\u00e9 Ruiz"}',
        '{type: votes_cast, at: 2027-11-02, candidate: "\\u200bJos\\u00e9 Ruiz"}',
    )
    events = parse_scenario(text).events
    # the name as first written (without its surrounding whitespace), everywhere
    assert {e.candidate for e in events} == {"Jose\u0301  Ruiz"}  # type: ignore[attr-defined]


def test_names_equal_but_for_letter_case_in_one_contest_are_invalid_naming_both_places() -> None:
    text = scenario(FILED, "{type: votes_cast, at: 2027-11-02, candidate: ANN}")
    problem = only(text)
    assert (problem.path, problem.line) == ("events[1].candidate", 7)
    assert "'Ann' at events[0] (line 6)" in problem.expected


def test_names_equal_but_for_case_in_different_contests_are_two_people() -> None:
    text = scenario(
        "{type: candidate_filed, at: 2027-07-06, candidate: Ann, contest: council}",
        "{type: candidate_filed, at: 2027-07-06, candidate: ANN, contest: mayor}",
        head=TWO_CONTESTS,
    )
    assert len(parse_scenario(text).events) == 2


def test_one_name_twice_in_counts_is_invalid_not_merged() -> None:
    text = scenario(FILED, '{type: returns_reported, at: 2027-11-02, counts: {Ann: 3, "Ann ": 4}}')
    problem = only(text)
    assert problem.path.startswith("events[1].counts")
    assert "each candidate once" in problem.expected


def test_a_name_of_only_invisible_characters_is_no_name() -> None:
    text = scenario('{type: candidate_filed, at: 2027-07-06, candidate: "\\u200b\\u200d"}')
    assert only(text).path == "events[0].candidate"


def test_the_replay_counts_every_spelling_for_the_one_candidate() -> None:
    from simulator.engine.replay import replay

    text = scenario(
        FILED,
        '{type: candidate_filed, at: 2027-07-06, candidate: "Bob"}',
        '{type: votes_cast, at: 2027-11-02, candidate: "Ann ", count: 2}',
        '{type: votes_cast, at: 2027-11-02, candidate: "Ann\\u200b", count: 2}',
        '{type: votes_cast, at: 2027-11-02, candidate: "Bob", count: 3}',
        "{type: canvass_held, at: 2027-11-12}",
    )
    contest = replay(parse_scenario(text)).contests[0]
    assert contest.outcome.elected == ("Ann",)


def test_the_repeated_hour_is_ordered_by_the_instants_not_the_clocks() -> None:
    # 01:15 EST comes half an hour after 01:45 EDT, although its clock shows the earlier time
    first = "{type: candidate_filed, at: '2027-11-07T01:45-04:00', candidate: Ann}"
    second = "{type: candidate_filed, at: '2027-11-07T01:15-05:00', candidate: Bob}"
    ann, bob = parse_scenario(scenario(first, second)).events
    assert bob.at > ann.at and bob.at - ann.at == timedelta(minutes=30)
    assert bob.at.isoformat() == "2027-11-07T01:15:00-05:00"
    problem = only(scenario(second, first))
    assert problem.path == "events[1].at" and "no earlier than events[0]" in problem.expected
    # and the same in JSON, on the quick reading's path as on the located one
    doc = yaml.safe_load(scenario(first, second))
    ann, bob = parse_scenario(json.dumps(doc), fmt="json").events
    assert bob.at > ann.at


FILED_A = "{type: candidate_filed, at: 2027-07-06, candidate: A}"


@pytest.mark.parametrize(
    ("where", "events"),
    [
        (
            "events[0].candidate",
            ['{type: candidate_filed, at: 2027-07-06, candidate: "Bob\\nEve"}'],
        ),
        ("events[0].candidate", ['{type: candidate_filed, at: 2027-07-06, candidate: "A\\e[2J"}']),
        ("events[0].candidate", ['{type: candidate_filed, at: 2027-07-06, candidate: "Cy\\0"}']),
        # a line separator breaks the line; a bidirectional override turns the rest of it round
        ("events[0].candidate", ['{type: candidate_filed, at: 2027-07-06, candidate: "A\\LB"}']),
        (
            "events[0].candidate",
            ['{type: candidate_filed, at: 2027-07-06, candidate: "A\\u202eB"}'],
        ),
        (
            "events[0].candidate",
            ['{type: candidate_filed, at: 2027-07-06, candidate: "A\\u2067B"}'],
        ),
        ("title", [FILED_A]),
        (
            "events[1].precinct",
            [FILED_A, '{type: votes_cast, at: 2027-11-02, candidate: A, precinct: "P\\x85Q"}'],
        ),
        (
            "events[1].counts['A\\x07']",
            [FILED_A, '{type: returns_reported, at: 2027-11-02, counts: {A: 1, "A\\a": 1}}'],
        ),
        ("contests[0].office", [FILED_A]),
    ],
)
def test_text_with_control_characters_is_a_problem(where: str, events: list[str]) -> None:
    # a newline in a name would forge a line of the timeline; an escape sequence would drive
    # the terminal the timeline is printed on
    head = HEAD
    if where.startswith("contests"):
        head = HEAD.replace("office: Mayor", 'office: "Ma\\tyor"')
    if where == "title":
        head = HEAD.replace("title: Mayor of Example, 2027", 'title: "Mayor \\u202e7202"')
    problem = only(scenario(*events, head=head))
    assert problem.path == where
    assert "printable characters only" in problem.expected


def test_right_to_left_names_and_their_marks_are_names_and_a_description_may_not_override() -> None:
    text = scenario(
        '{type: candidate_filed, at: 2027-07-06, candidate: "\u05d3\u05e0\u05d4\u200f"}'
    )
    (filed,) = parse_scenario(text).events
    # the right-to-left mark prints as nothing: the name is kept without it
    assert isinstance(filed, ev.CandidateFiled) and filed.candidate == "\u05d3\u05e0\u05d4"
    problem = only(text.replace("contests:", 'description: "Two\\nlines \\u202e"\ncontests:'))
    assert problem.path == "description" and "\\u202e" in problem.expected


@pytest.mark.parametrize(
    "hidden",
    [
        "\u200e",  # left-to-right mark
        "\u200f",  # right-to-left mark
        "\u061c",  # Arabic letter mark
        "\u2062",  # invisible times
        "\U000e0041",  # tag latin capital letter A
        "\ufe0f",  # variation selector 16
        "\U000e0100",  # variation selector 17
        "\u3164",  # Hangul filler
        "\u034f",  # combining grapheme joiner
    ],
)
def test_a_name_that_prints_like_another_is_that_name(hidden: str) -> None:
    # "Ann" and "Ann" with a character that prints as nothing look the same on every page:
    # they are one candidate, named without the hidden character, wherever it is written
    escaped = hidden.encode("unicode_escape").decode()
    text = scenario(
        f'{{type: candidate_filed, at: 2027-07-06, candidate: "Ann{escaped}"}}',
        "{type: candidate_filed, at: 2027-07-07, candidate: Bob}",
        f'{{type: returns_reported, at: 2027-11-02T20:00, counts: {{"A{escaped}nn": 3, Bob: 1}}}}',
    )
    loaded = parse_scenario(text)
    filed, _, returns = loaded.events
    assert isinstance(filed, ev.CandidateFiled) and filed.candidate == "Ann"
    assert isinstance(returns, ev.ReturnsReported) and dict(returns.counts) == {"Ann": 3, "Bob": 1}


def test_a_lone_surrogate_in_json_is_a_problem_not_a_crash() -> None:
    doc = yaml.safe_load(scenario(FILED.replace("2027-07-06", "'2027-07-06'")))
    doc["title"] = "T\ud800"
    doc["events"][0]["candidate"] = "Ann\udfff"
    found = problems(json.dumps(doc), fmt="json")
    assert [p.path for p in found] == ["title", "events[0].candidate"]
    assert all("surrogate" in p.expected for p in found)


def test_a_description_may_hold_newlines_and_tabs_but_no_other_controls() -> None:
    text = scenario(FILED).replace("title:", 'description: "one\\n\\ttwo"\ntitle:', 1)
    assert parse_scenario(text).description == "one\n\ttwo"
    problem = only(text.replace("two", "two\\e[0m"))
    assert problem.path == "description" and "newlines and tabs are fine" in problem.expected


# --- a time finer than a microsecond ------------------------------------------------------------


@pytest.mark.parametrize(
    "written",
    [
        "2027-10-14T12:00:00.0000001",
        '"2027-10-14T12:00:00.0000001"',
        '"2027-10-14 12:00:00,00000019"',
    ],
)
def test_a_time_finer_than_a_microsecond_is_refused_not_cut(written: str) -> None:
    # cut to the microsecond, 100 ns after a noon deadline read as noon: in time
    p = only(scenario(FILED, f"{{type: candidate_withdrew, at: {written}, candidate: Ann}}"))
    assert p.path == "events[1].at" and p.line == 7
    assert "a time to the microsecond at most" in p.expected
    assert "00.0000001" in p.found or "00,00000019" in p.found


def test_zeros_past_the_microsecond_change_nothing_and_are_read() -> None:
    s = parse_scenario(
        scenario(
            FILED, "{type: candidate_withdrew, at: 2027-07-07T12:00:00.1234560000, candidate: Ann}"
        )
    )
    assert s.events[1].at.microsecond == 123456


def test_a_sub_microsecond_time_in_a_long_json_log_is_refused_at_its_event() -> None:
    # the bulk reading of many times at once leaves it to the one-by-one reading that refuses it
    events: list[dict[str, Any]] = [
        {"type": "candidate_filed", "at": "2027-07-06T10:00", "candidate": "Ann"}
    ]
    events += [
        {
            "type": "votes_cast",
            "at": f"2027-11-02T10:{i // 60:02d}:{i % 60:02d}",
            "candidate": "Ann",
        }
        for i in range(200)
    ]
    events[150]["at"] = "2027-11-02T10:02:29.0000005"
    doc = {
        "format": "electsim/v1",
        "title": "t",
        "contests": [
            {
                "id": "mayor",
                "method": "nonpartisan-plurality",
                "year": 2027,
                "municipality": "Example",
                "office": "Mayor",
            }
        ],
        "events": events,
    }
    p = only(json.dumps(doc), fmt="json")
    assert p.path == "events[150].at" and "a time to the microsecond at most" in p.expected


@pytest.mark.parametrize("breaks", ["\u2028", "\x85", "\u2029\u2028", "\r\n"])
def test_problem_lines_are_counted_as_editors_count_them(breaks: str) -> None:
    # YAML breaks lines at U+0085, U+2028 and U+2029 too (a description may hold them): the
    # problem below was reported two lines after the line editors and grep -n show
    head = HEAD.replace("title: Example, 2027", f'title: Example, 2027\ndescription: "a{breaks}b"')
    text = scenario(
        FILED, "{type: candidate_filed, at: 2027-07-07, candidate: Bob, bogus: 1}", head=head
    )
    p = only(text)
    assert p.path == "events[1].bogus"
    assert (
        p.line
        == text.replace("\r\n", "\n")
        .split("\n")
        .index("  - {type: candidate_filed, at: 2027-07-07, candidate: Bob, bogus: 1}")
        + 1
    )


@pytest.mark.parametrize("quick", [True, False])
def test_a_write_in_without_a_name_is_a_problem(quick: bool) -> None:
    # "(Write-In)" alone was counted as a write-in, and could be declared elected
    votes = "{type: votes_cast, at: 2027-11-02, candidate: (Write-In)}"
    returns = "{type: returns_reported, at: 2027-11-03, counts: {Ann: 1, ' (Write-In)': 9}}"
    with pytest.raises(ScenarioError) as caught:
        _parse_yaml(scenario(FILED, *[votes] * 40, returns), "s.yaml", quick=quick)
    found = caught.value.problems
    assert [p.path for p in found] == [f"events[{i}].candidate" for i in range(1, 41)] + [
        "events[41].counts[' (Write-In)']"
    ]
    assert all("a write-in's name before '(Write-In)'" in p.expected for p in found)
    named = scenario(FILED, "{type: votes_cast, at: 2027-11-02, candidate: Jo Roe (Write-In)}")
    assert parse_scenario(named).events[1].candidate == "Jo Roe (Write-In)"


# -- "did you mean": a misspelt name is answered with the names it looks like -----------------


def test_an_unknown_event_type_suggests_the_one_it_looks_like() -> None:
    p = only(scenario("{type: candidate_dies, at: 2027-07-06, candidate: Ann}"))
    assert (p.path, p.line) == ("events[0].type", 6)
    assert p.expected.startswith("one of the event types filing_opened")
    assert p.found == "'candidate_dies'; did you mean 'candidate_died'?"
    assert "\n" not in str(p)


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("plurality", "nonpartisan-plurality"),  # a shortening
        ("nonpartisan_runoff", "nonpartisan-runoff"),  # another separator
        ("Nonpartisan-Primary", "nonpartisan-primary"),  # capitals
        ("partisn", "partisan"),  # a slip
    ],
)
def test_an_unknown_method_suggests_the_one_it_looks_like(written: str, meant: str) -> None:
    text = HEAD.replace("method: nonpartisan-plurality", f"method: {written}")
    p = only(scenario("{type: candidate_filed, at: 2027-07-06, candidate: Ann}", head=text))
    assert p.path == "contests[0].method"
    assert p.found == f"{written!r}; did you mean {meant!r}?"


def test_nothing_is_suggested_for_a_name_like_none_of_them() -> None:
    p = only(scenario("{type: ballot_stuffed, at: 2027-07-06, candidate: Ann}"))
    assert p.found == "'ballot_stuffed'"
    text = HEAD.replace("method: nonpartisan-plurality", "method: ranked-choice")
    p = only(scenario("{type: candidate_filed, at: 2027-07-06, candidate: Ann}", head=text))
    assert p.found == "'ranked-choice'"


def test_a_field_named_otherwise_suggests_the_one_meant_where_it_is_allowed() -> None:
    # `name:` for the candidate is what a newcomer writes; JSON gets the same answer
    text = scenario("{type: candidate_filed, at: 2027-07-06, name: Ann}")
    as_json = json.dumps(yaml.safe_load(text), default=str)
    for found in (problems(text), problems(as_json, fmt="json")):
        (p,) = [x for x in found if x.path == "events[0].name"]
        assert p.found == "'name', an unknown field; did you mean 'candidate'?"
    text = scenario("{type: returns_reported, at: 2027-11-02, votes: {Ann: 3}}")
    (p,) = [x for x in problems(text) if x.path == "events[0].votes"]
    assert p.found.endswith("did you mean 'counts'?")
    # not where the field meant is not allowed (a canvass names nobody), nor written already
    text = scenario("{type: canvass_held, at: 2027-11-09, name: Ann}")
    (p,) = [x for x in problems(text) if x.path == "events[0].name"]
    assert p.found == "'name', an unknown field (check its spelling)"
    text = scenario("{type: candidate_filed, at: 2027-07-06, candidate: Ann, name: Ann}")
    (p,) = [x for x in problems(text) if x.path == "events[0].name"]
    assert "did you mean" not in p.found


def test_a_misspelt_interpretation_name_or_value_suggests_the_right_one() -> None:
    head = HEAD.replace(
        "contests:", "interpretations: {early_requst: wait, late_notice: notice}\ncontests:"
    )
    found = problems(scenario("{type: candidate_filed, at: 2027-07-06, candidate: Ann}", head=head))
    by_path = {p.path: p for p in found}
    assert set(by_path) == {"interpretations.early_requst", "interpretations.late_notice"}
    assert by_path["interpretations.early_requst"].found == (
        "'early_requst', an unknown field; did you mean 'early_request'?"
    )
    assert by_path["interpretations.late_notice"].expected == "one of death_date, notice_date"
    assert by_path["interpretations.late_notice"].found == ("'notice'; did you mean 'notice_date'?")


def test_a_misspelt_field_suggests_the_field_and_json_says_the_same() -> None:
    text = scenario("{type: candidate_filed, at: 2027-07-06, candidat: Ann}")
    (p,) = [x for x in problems(text) if x.path == "events[0].candidat"]
    assert p.found.endswith("an unknown field; did you mean 'candidate'?")
    doc = yaml.safe_load(text)
    doc["events"][0]["at"] = "2027-07-06"
    doc["events"][0]["type"] = "candidate_dies"
    found = problems(json.dumps(doc))
    assert any(x.found == "'candidate_dies'; did you mean 'candidate_died'?" for x in found)
