"""G.S. 163-293: how elections are decided where a city elects by majority with runoffs."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from hypothesis import example, given, settings
from hypothesis import strategies as st

from simulator.law import calendar as cal
from simulator.law.cite import statute
from tests.inline import TZ, cites, deadline, filed, local, only, returns, rulings, run

SEAT = "{id: seat, office: Council Seat A, seats: 1, method: nonpartisan-runoff, year: 2027}"
GROUP2 = "{id: board, office: Council At-Large, seats: 2, method: nonpartisan-runoff, year: 2027}"
GROUP3 = "{id: board, office: Council At-Large, seats: 3, method: nonpartisan-runoff, year: 2027}"
NIGHT = "2027-10-05T21:00"  # 2027: first election Tue 5 Oct, canvass Tue 12 Oct
CANVASS = '- {type: canvass_held, at: "2027-10-12T11:00"}'
RUNOFF_CANVASS = '- {type: canvass_held, at: "2027-11-12T11:00"}'

# Real first-election returns (State Board results in ../shared/data/nc-results, summed)
STATESVILLE_WARD_6_2019 = {
    "David Jackson": 94,
    "Frederick Foster": 58,
    "James T. Neal": 36,
    "David Mayes, Jr.": 5,
    "Marvin Odell Laxton": 4,
}
RALEIGH_AT_LARGE_2019 = {
    "Nicole Stewart": 30960,
    "Jonathan Melton": 21183,
    "Russ Stephenson": 17805,
    "Portia Wilson Rochelle": 11449,
    "Carlie Allison Spencer": 5502,
    "James Garland Bledsoe": 4484,
    "Write-In (Miscellaneous)": 363,
    "April Parker (Write-In)": 7,
    "David Knight (Write-In)": 6,
    "Sam Hershey (Write-In)": 5,
    "Carlie Allison Spencer (Write-In)": 2,
    "Nicole Stewart (Write-In)": 2,
    "Brett Rondurant (Write-In)": 1,
}


def request(name: str, at: str) -> str:
    return f'- {{type: runoff_requested, at: "{at}", candidate: "{name}"}}'


def withdraw(name: str, at: str) -> str:
    return f'- {{type: candidate_withdrew, at: "{at}", candidate: "{name}"}}'


def recount(at: str, **counts: int) -> str:
    return returns(at, **counts).replace("returns_reported", "recount_held")


def first(**counts: int) -> str:
    """Everyone in ``counts`` files, the returns come in, the canvass declares them."""
    names = [n for n in counts if "Write-In" not in n]
    return f"{filed(*names)}\n{returns(NIGHT, **counts)}\n{CANVASS}"


# (a)(1) ---------------------------------------------------------------------------------------


def test_a_candidate_with_more_than_half_the_votes_is_elected_at_the_canvass() -> None:
    # G.S. 163-293(a)(1); Cary District D 2019: Ya Liu 3523 of 6128
    c = run(
        SEAT,
        first(
            **{
                "Ya Liu": 3523,
                "Ken George": 2237,
                "Beth Friedrich": 365,
                "Write-In (Miscellaneous)": 3,
            }
        ),
    )
    t = only(c, "majority_threshold")
    assert (t.get("total"), t.get("threshold")) == (6128, "3064")
    assert c.outcome.elected == ("Ya Liu",)
    assert cites(only(c, "elected"), r"163-293\(a\)\(1\)")
    assert not rulings(c, "runoff_available")


def test_exactly_half_the_votes_is_not_a_majority() -> None:
    # G.S. 163-293(a)(1), "any excess" (interpretation write_ins_in_total); Dunn Ward 3 2015:
    # McLean 64 of 128
    c = run(SEAT, first(**{"Frank McLean": 64, "Fred Chavis": 63, "Write-In (Miscellaneous)": 1}))
    assert only(c, "majority_threshold").get("threshold") == "64"
    assert c.outcome.elected == ("Frank McLean",)  # only because nobody requested a runoff
    assert cites(only(c, "elected"), r"163-293\(b\)\(1\)")
    assert only(c, "runoff_available").candidates == ("Fred Chavis",)


def test_an_odd_total_gives_an_exact_half_vote_threshold() -> None:
    # G.S. 163-293(a)(1); Statesville Ward 6 2019: 197 votes, a majority is more than 98.5
    c = run(SEAT, first(**STATESVILLE_WARD_6_2019))
    assert only(c, "majority_threshold").get("threshold") == "98.5"


def test_write_in_votes_count_in_the_total() -> None:
    # G.S. 163-293(a)(1), interpretation write_ins_in_total: 500 of 960 printed votes, but 1010 in
    # all
    log = first(Ann=500, Bob=400, Cy=60, **{"Write-In (Miscellaneous)": 50})
    c = run(SEAT, log, as_of="2027-10-13T12:00")
    assert only(c, "majority_threshold").get("total") == 1010
    assert c.outcome.elected == ()
    assert c.outcome.runoff_status.value == "available"


def test_leaving_write_ins_out_of_the_total_is_a_named_alternative() -> None:
    # interpretation write_ins_in_total, switched: interpretations.write_ins_in_total = false
    log = first(Ann=500, Bob=400, Cy=60, **{"Write-In (Miscellaneous)": 50})
    c = run(SEAT, log, head="interpretations: {write_ins_in_total: false}")
    assert only(c, "majority_threshold").get("total") == 960
    assert cites(only(c, "elected"), r"163-293\(a\)\(1\)")


# (a)(2) ---------------------------------------------------------------------------------------


def test_a_group_majority_divides_the_total_by_the_seats_and_by_two_exactly() -> None:
    # G.S. 163-293(a)(2): 1000 / 3 / 2 = 500/3, reported as a fraction (SPEC section 4)
    c = run(GROUP3, first(Ann=400, Bob=300, Cy=167, Dee=133))
    assert only(c, "majority_threshold").get("threshold") == "500/3"
    assert set(c.outcome.elected) == {"Ann", "Bob", "Cy"}


def test_a_group_threshold_with_a_terminating_decimal_is_written_as_one() -> None:
    # G.S. 163-293(a)(2); Raleigh at-large 2019: 91769 / 2 / 2 = 22942.25
    c = run(GROUP2, first(**RALEIGH_AT_LARGE_2019))
    assert only(c, "majority_threshold").get("threshold") == "22942.25"


def test_when_more_obtain_a_majority_than_there_are_seats_the_highest_are_elected() -> None:
    # G.S. 163-293(a)(2), last sentence
    c = run(GROUP2, first(Ann=300, Bob=280, Cy=260, Dee=160))
    assert set(c.outcome.elected) == {"Ann", "Bob"}
    assert "Cy" not in c.outcome.elected
    assert not rulings(c, "runoff_available")


# (b)(1) and (c) -------------------------------------------------------------------------------


def test_without_a_majority_the_leader_is_elected_when_no_runoff_is_requested() -> None:
    # G.S. 163-293(b)(1), (c); as in Raleigh's mayoral election of 2019 (none requested)
    log = first(Ann=480, Bob=420, Cy=100)
    during = run(SEAT, log, as_of="2027-10-13T12:00")
    assert during.outcome.elected == ()
    assert during.outcome.pending is not None and during.outcome.pending.value == "runoff_request"
    c = run(SEAT, log)
    assert c.outcome.elected == ("Ann",)
    assert local(only(c, "elected").at) == "2027-10-14T12:00:00"
    assert c.outcome.runoff_status.value == "none"


def test_the_request_deadline_is_noon_on_the_thursday_after_the_canvass() -> None:
    # G.S. 163-293(c), interpretation early_request
    d = deadline(run(SEAT, first(Ann=480, Bob=420, Cy=100)), "runoff_request")
    assert local(d.due) == "2027-10-14T12:00:00"
    assert "163-293(c)" in d.cite and d.moved_from is None


def test_a_request_at_noon_exactly_is_in_time() -> None:
    # G.S. 163-293(c): "no later than 12:00 noon"
    c = run(SEAT, f"{first(Ann=480, Bob=420, Cy=100)}\n{request('Bob', '2027-10-14T12:00')}")
    assert c.outcome.runoff_status.value == "called"
    assert not rulings(c, "request_rejected")


def test_a_request_after_noon_is_rejected_as_late() -> None:
    # G.S. 163-293(c)
    c = run(SEAT, f"{first(Ann=480, Bob=420, Cy=100)}\n{request('Bob', '2027-10-14T12:01')}")
    assert c.outcome.elected == ("Ann",)
    late = only(c, "request_rejected")
    assert late.get("reason") == "late" and cites(late, r"163-293\(c\)")


def test_only_the_runner_up_may_request_a_runoff() -> None:
    # G.S. 163-293(b)(1): "the candidate receiving the second highest number of votes"
    c = run(
        SEAT,
        f"{first(Ann=480, Bob=420, Cy=100)}\n{request('Cy', '2027-10-13T09:00')}\n"
        f"{request('Ann', '2027-10-13T10:00')}",
    )
    rejected = rulings(c, "request_rejected")
    assert [r.candidates for r in rejected] == [("Cy",), ("Ann",)]
    assert all(r.get("reason") and cites(r, r"163-293") for r in rejected)
    assert c.outcome.elected == ("Ann",)


def test_a_request_when_someone_has_a_majority_is_rejected() -> None:
    # G.S. 163-293(a)(1), (b): a runoff follows only a failure to obtain a majority
    c = run(SEAT, f"{first(Ann=520, Bob=380, Cy=100)}\n{request('Bob', '2027-10-13T09:00')}")
    assert c.outcome.elected == ("Ann",)
    assert only(c, "request_rejected").candidates == ("Bob",)


def test_the_runoff_ballot_has_only_the_two_highest_and_no_write_ins() -> None:
    # G.S. 163-293(b)(1)
    log = (
        f"{first(Ann=480, Bob=420, Cy=100)}\n{request('Bob', '2027-10-13T09:00')}\n"
        + returns("2027-11-02T21:00", Ann=400, Bob=450, Cy=9, **{"Write-In (Miscellaneous)": 70})
        + f"\n{RUNOFF_CANVASS}"
    )
    c = run(SEAT, log)
    assert c.outcome.runoff_candidates == ("Ann", "Bob")
    set_aside = only(c, "votes_disregarded")
    assert set(set_aside.candidates) == {"Cy", "Write-In (Miscellaneous)"}
    assert cites(set_aside, r"163-293\(b\)\(1\)")
    assert c.outcome.elected == ("Bob",)


def test_a_request_filed_before_the_canvass_takes_effect_at_it() -> None:
    # G.S. 163-293(c), interpretation early_request
    log = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=480, Bob=420, Cy=100)}\n"
        f"{request('Bob', '2027-10-08T10:00')}\n{CANVASS}"
    )
    before = run(SEAT, log, as_of="2027-10-11T12:00")
    assert before.outcome.runoff_status.value == "none" and not before.rulings
    c = run(SEAT, log)
    called = only(c, "runoff_called")
    assert local(called.at) == "2027-10-12T11:00:00" and called.candidates == ("Ann", "Bob")


def test_an_early_request_by_someone_not_entitled_at_the_canvass_is_rejected_then() -> None:
    # G.S. 163-293(c), interpretation early_request: "if the requester is then entitled"
    log = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=480, Bob=420, Cy=100)}\n"
        f"{request('Cy', '2027-10-08T10:00')}\n{CANVASS}"
    )
    rejected = only(run(SEAT, log), "request_rejected")
    assert rejected.candidates == ("Cy",) and local(rejected.at) == "2027-10-12T11:00:00"


def test_an_early_request_by_a_runner_up_who_has_died_is_rejected_when_filed() -> None:
    # G.S. 163-293(c): a request is a candidate's written act; there is none to hold for the
    # canvass (interpretation early_request) when the requester has already died
    log = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=480, Bob=420, Cy=100)}\n"
        '- {type: candidate_died, at: "2027-10-07T08:00", candidate: Bob}\n'
        f"{request('Bob', '2027-10-08T10:00')}\n{CANVASS}"
    )
    c = run(SEAT, log)
    rejected = only(c, "request_rejected")
    assert local(rejected.at) == "2027-10-08T10:00:00" and rejected.candidates == ("Bob",)
    assert rejected.get("reason") == "Bob died and is no longer a candidate"
    assert rejected.cite == "G.S. 163-293(c)"
    assert not rulings(c, "runoff_called")


def test_rejecting_early_requests_is_a_named_alternative() -> None:
    # interpretation early_request, switched: interpretations.early_request = reject
    log = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=480, Bob=420, Cy=100)}\n"
        f"{request('Bob', '2027-10-08T10:00')}\n{CANVASS}"
    )
    c = run(SEAT, log, head="interpretations: {early_request: reject}")
    assert local(only(c, "request_rejected").at) == "2027-10-08T10:00:00"
    assert c.outcome.elected == ("Ann",)


RECOUNT_TIE = (
    '- {type: recount_held, at: "2027-10-14T15:00", counts: {Ann: 401, Bob: 400, Cy: 199}}'
)


def test_a_request_while_the_recount_of_a_tie_for_first_is_awaited_is_held_for_it() -> None:
    # G.S. 163-293(c), (d)(1), interpretation early_request: the recount says who may ask; the
    # request, made before it, is weighed then as of when it was made (the engine used to reject it
    # at once)
    log = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=400, Bob=400, Cy=200)}\n{CANVASS}\n"
        f"{request('Bob', '2027-10-13T09:00')}\n{RECOUNT_TIE}"
    )
    waiting = run(SEAT, log, as_of="2027-10-14T09:00")
    assert not rulings(waiting, "request_rejected")
    c = run(SEAT, log)
    called = only(c, "runoff_called")
    assert local(called.at) == "2027-10-14T15:00:00" and called.candidates == ("Ann", "Bob")
    assert not rulings(c, "request_rejected") and not rulings(c, "elected")


def test_a_request_held_for_a_recount_is_held_under_either_reading() -> None:
    # interpretation early_request: reject rejects a request made before the canvass; once the
    # canvass has declared the result, one made while its recount is awaited is held all the same
    log = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=400, Bob=400, Cy=200)}\n{CANVASS}\n"
        f"{request('Bob', '2027-10-13T09:00')}\n{RECOUNT_TIE}"
    )
    c = run(SEAT, log, head="interpretations: {early_request: reject}")
    assert only(c, "runoff_called").candidates == ("Ann", "Bob")
    early = (
        f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=400, Bob=400, Cy=200)}\n"
        f"{request('Bob', '2027-10-08T09:00')}\n{CANVASS}\n{RECOUNT_TIE}"
    )
    c = run(SEAT, early, head="interpretations: {early_request: reject}")
    rejected = only(c, "request_rejected")
    assert local(rejected.at) == "2027-10-08T09:00:00" and "before the canvass" in rejected.text
    assert c.outcome.elected == ("Ann",)


def test_the_deadline_counts_from_a_canvass_held_late() -> None:
    # G.S. 163-293(c) with 163-182.5(b) ("a reasonable time thereafter"); README choices
    for held, due in (
        ("2027-10-13", "2027-10-14"),
        ("2027-10-14", "2027-10-21"),
        ("2027-10-15", "2027-10-21"),
    ):
        log = (
            f"{filed('Ann', 'Bob', 'Cy')}\n{returns(NIGHT, Ann=480, Bob=420, Cy=100)}\n"
            f'- {{type: canvass_held, at: "{held}T11:00"}}'
        )
        assert local(deadline(run(SEAT, log), "runoff_request").due) == f"{due}T12:00:00"


def test_a_canvass_held_on_its_day_with_the_office_closed_stands() -> None:
    # G.S. 163-293(c) fixes the seventh day; G.S. 103-5(a) lets an act due on a closed day wait
    # for the next open day ("may"), so a canvass held on the day itself stands: the result is
    # declared then, the request deadline counts from it, and the canvass deadline (moved to
    # the open day) says the board held it on the closed day
    closed = "office_closed: [2027-10-12]"
    c = run(SEAT, first(Ann=480, Bob=420, Cy=100), head=closed)
    dl = deadline(c, "canvass")
    assert local(dl.due) == "2027-10-13T11:00:00"
    assert dl.moved_from is not None and local(dl.moved_from) == "2027-10-12T11:00:00"
    assert "held it on 2027-10-12" in dl.how and "does not require" in dl.how
    assert local(only(c, "runoff_available").at) == "2027-10-12T11:00:00"
    assert local(deadline(c, "runoff_request").due) == "2027-10-14T12:00:00"
    moved = first(Ann=480, Bob=420, Cy=100).replace(CANVASS, CANVASS.replace("10-12", "10-13"))
    assert "held it on" not in deadline(run(SEAT, moved, head=closed), "canvass").how


def test_a_closed_office_moves_the_request_deadline_to_the_next_open_day() -> None:
    # G.S. 163-293(c), last sentence, and G.S. 103-5(a)
    c = run(
        SEAT,
        f"{first(Ann=480, Bob=420, Cy=100)}\n{request('Bob', '2027-10-15T11:00')}",
        head="office_closed: [2027-10-14]",
    )
    d = deadline(c, "runoff_request")
    assert local(d.due) == "2027-10-15T12:00:00"
    assert d.moved_from is not None and local(d.moved_from) == "2027-10-14T12:00:00"
    assert "103-5" in d.cite
    assert c.outcome.runoff_status.value == "called"


@settings(max_examples=100, deadline=None)
@given(st.dates(min_value=date(2011, 1, 1), max_value=date(2039, 12, 31)))
def test_the_request_deadline_is_a_thursday_noon_or_the_next_open_day_after_it(d: date) -> None:
    # G.S. 163-293(c), 103-5(a): first Thursday after the declaration, moved only forward
    office = cal.OfficeCalendar()
    dl = cal.noon_thursday_after(cal.DeadlineKind.RUNOFF_REQUEST, d, statute("163-293(c)"), office)
    thursday = (dl.moved_from or dl.due).astimezone(TZ)
    assert thursday.weekday() == 3 and 1 <= (thursday.date() - d).days <= 7
    assert (thursday.hour, thursday.minute) == (12, 0)
    assert dl.due >= thursday and office.is_open(dl.due.astimezone(TZ).date())


# (b)(2) ---------------------------------------------------------------------------------------

GROUP_FIRST = first(Ann=700, Bob=410, Cy=400, Dee=380, Eve=350, Flo=160, Gus=100)


def test_in_a_group_the_best_remaining_are_elected_unless_the_next_ones_request() -> None:
    # G.S. 163-293(b)(2): one seat filled by majority, two remain; Dee and Eve may request
    c = run(GROUP3, GROUP_FIRST, as_of="2027-10-12T12:00")
    assert c.outcome.elected == ("Ann",)
    assert set(only(c, "runoff_available").candidates) == {"Dee", "Eve"}
    done = run(GROUP3, GROUP_FIRST)
    assert set(done.outcome.elected) == {"Ann", "Bob", "Cy"}


def test_a_group_runoff_ballot_is_the_best_remaining_plus_every_requester() -> None:
    # G.S. 163-293(b)(2), interpretation group_runoff_ballot
    log = (
        f"{GROUP_FIRST}\n{request('Eve', '2027-10-13T10:00')}\n"
        + returns("2027-11-02T21:00", Eve=600, Bob=550, Cy=500)
        + f"\n{RUNOFF_CANVASS}"
    )
    waiting = run(GROUP3, log, as_of="2027-10-13T12:00")
    assert waiting.outcome.runoff_status.value == "available"  # Dee may still join
    c = run(GROUP3, log)
    assert set(c.outcome.runoff_candidates) == {"Bob", "Cy", "Eve"}
    assert len(rulings(c, "runoff_called")) == 1
    assert set(c.outcome.elected) == {"Ann", "Eve", "Bob"}
    assert cites(rulings(c, "elected")[-1], r"163-293\(f\)")


def test_a_group_runoff_is_called_at_once_when_every_runner_up_has_requested() -> None:
    # G.S. 163-293(b)(2), interpretation group_runoff_ballot: the ballot is then known
    log = (
        f"{GROUP_FIRST}\n{request('Eve', '2027-10-13T10:00')}\n{request('Dee', '2027-10-13T11:00')}"
    )
    c = run(GROUP3, log, as_of="2027-10-13T12:00")
    assert c.outcome.runoff_status.value == "called"
    assert set(c.outcome.runoff_candidates) == {"Bob", "Cy", "Dee", "Eve"}


def test_the_top_two_r_reading_puts_the_next_r_on_the_ballot_whoever_requested() -> None:
    # interpretation group_runoff_ballot, switched: interpretations.group_runoff_ballot =
    # top_two_r
    c = run(
        GROUP3,
        f"{GROUP_FIRST}\n{request('Eve', '2027-10-13T10:00')}",
        head="interpretations: {group_runoff_ballot: top_two_r}",
    )
    assert set(c.outcome.runoff_candidates) == {"Bob", "Cy", "Dee", "Eve"}


def test_a_group_majority_winner_may_not_request_a_runoff() -> None:
    # G.S. 163-293(b)(2): only the next candidates may request
    c = run(GROUP3, f"{GROUP_FIRST}\n{request('Ann', '2027-10-13T10:00')}")
    assert only(c, "request_rejected").candidates == ("Ann",)


# (d)(1) ---------------------------------------------------------------------------------------

TIE = first(Ann=450, Bob=450, Cy=100)


def test_a_tie_for_first_requires_a_recount_and_nobody_is_elected_meanwhile() -> None:
    # G.S. 163-293(d)(1); as in Henderson's 1st Ward in 2015 (234 to 234)
    c = run(SEAT, TIE)
    assert set(only(c, "recount_required").candidates) == {"Ann", "Bob"}
    assert c.outcome.elected == ()
    assert c.outcome.pending is not None and c.outcome.pending.value == "recount"


def test_a_recount_that_confirms_the_tie_opens_three_days_for_a_withdrawal() -> None:
    # G.S. 163-293(d)(1), day counting (docs/readings.md): through 23:59:59 of the third day
    # after the recount
    log = f"{TIE}\n{recount('2027-10-19T10:00', Ann=450, Bob=450, Cy=100)}"
    c = run(SEAT, log, as_of="2027-10-20T12:00")
    assert c.outcome.pending is not None and c.outcome.pending.value == "withdrawal"
    d = deadline(c, "tie_withdrawal")
    assert local(d.due) == "2027-10-22T23:59:59" and "163-293(d)(1)" in d.cite


def test_a_tied_candidate_who_withdraws_before_the_recount_is_the_only_one_said_to_leave() -> None:
    # G.S. 163-293(d)(1) counts a withdrawal within three days after the recount's result; one
    # filed before the recount is a gap, and its fallback elects the tied candidate who stands.
    # The declaration said "the other tied candidate(s) had left the race (Ann, Bob
    # (withdrew))": Ann, elected, had not left
    log = f"{TIE}\n{withdraw('Bob', '2027-10-18T09:00')}\n"
    log += recount("2027-10-19T10:00", Ann=450, Bob=450, Cy=100)
    c = run(SEAT, log)
    assert c.outcome.elected == ("Ann",)
    gap = only(c, "no_provision")
    assert cites(gap, r"163-293\(d\)\(1\)") and gap.candidates == ("Ann", "Bob")
    assert (
        only(c, "elected").text
        == "the other tied candidate had left the race (Bob withdrew): Ann elected"
    )


def test_a_tie_withdrawal_deadline_on_a_sunday_moves_to_monday() -> None:
    # G.S. 163-293(d)(1), 103-5(a): a recount on Thursday, so the third day is a Sunday
    log = f"{TIE}\n{recount('2027-10-14T10:00', Ann=450, Bob=450, Cy=100)}"
    d = deadline(run(SEAT, log), "tie_withdrawal")
    assert local(d.due) == "2027-10-18T23:59:59"
    assert d.moved_from is not None and local(d.moved_from) == "2027-10-17T23:59:59"


def test_when_one_tied_candidate_withdraws_the_other_is_elected() -> None:
    # G.S. 163-293(d)(1)
    log = (
        f"{TIE}\n{recount('2027-10-19T10:00', Ann=450, Bob=450, Cy=100)}\n"
        f"{withdraw('Bob', '2027-10-21T16:00')}"
    )
    c = run(SEAT, log)
    assert c.outcome.elected == ("Ann",)
    assert cites(only(c, "elected"), r"163-293\(d\)\(1\)")
    assert not rulings(c, "runoff_called")


def test_when_neither_withdraws_a_runoff_between_the_two_is_called() -> None:
    # G.S. 163-293(d)(1)
    c = run(SEAT, f"{TIE}\n{recount('2027-10-19T10:00', Ann=450, Bob=450, Cy=100)}")
    called = only(c, "runoff_called")
    assert set(called.candidates) == {"Ann", "Bob"}
    assert local(called.at) == "2027-10-22T23:59:59"


def test_a_recount_that_breaks_the_tie_declares_a_majority() -> None:
    # G.S. 163-293(d)(1) "conduct a recount and declare the results", (a)(1)
    c = run(SEAT, f"{first(Ann=500, Bob=500)}\n{recount('2027-10-15T10:00', Ann=501, Bob=499)}")
    assert c.outcome.elected == ("Ann",)
    assert cites(only(c, "elected"), r"163-293\(a\)\(1\)")


def test_a_recount_that_breaks_the_tie_short_of_a_majority_opens_the_request_window() -> None:
    # G.S. 163-293(d)(1), (b)(1), (c): the recount's declaration starts the Thursday count
    c = run(SEAT, f"{TIE}\n{recount('2027-10-15T10:00', Ann=451, Bob=449, Cy=100)}")
    assert only(c, "runoff_available").candidates == ("Bob",)
    assert local(deadline(c, "runoff_request").due) == "2027-10-21T12:00:00"


def test_a_three_way_tie_for_first_is_a_gap_and_goes_to_a_runoff_among_all() -> None:
    # G.S. 163-293(d)(1) "between the two", interpretation three_way_tie
    tie3 = first(Ann=300, Bob=300, Cy=300, Dee=100)
    c = run(SEAT, f"{tie3}\n{recount('2027-10-18T10:00', Ann=300, Bob=300, Cy=300, Dee=100)}")
    assert cites(only(c, "no_provision"), r"163-293\(d\)\(1\)")
    assert set(c.outcome.runoff_candidates) == {"Ann", "Bob", "Cy"}


def test_drawing_lots_in_a_three_way_tie_is_a_named_alternative() -> None:
    # interpretation three_way_tie, switched: interpretations.three_way_tie = lot
    tie3 = first(Ann=300, Bob=300, Cy=300, Dee=100)
    log = (
        f"{tie3}\n{recount('2027-10-18T10:00', Ann=300, Bob=300, Cy=300, Dee=100)}\n"
        '- {type: lot_drawn, at: "2027-10-19T10:00", winner: Cy}'
    )
    c = run(SEAT, log, head="interpretations: {three_way_tie: lot}")
    assert c.outcome.elected == ("Cy",)
    assert not rulings(c, "runoff_called")


# (d)(2) ---------------------------------------------------------------------------------------

TIE2 = first(Ann=450, Bob=250, Cy=250, Dee=50)


def test_a_tie_for_second_needs_no_recount_and_the_leader_is_elected_by_default() -> None:
    # G.S. 163-293(d)(2)
    c = run(SEAT, TIE2)
    assert not rulings(c, "recount_required")
    assert set(only(c, "runoff_available").candidates) == {"Bob", "Cy"}
    assert c.outcome.elected == ("Ann",)
    assert cites(only(c, "elected"), r"163-293\(d\)\(2\)")


def test_a_tie_for_second_shows_both_deadlines() -> None:
    # G.S. 163-293(d)(2): three days after the canvass; the demand under (c) by noon Thursday
    c = run(SEAT, TIE2)
    assert local(deadline(c, "tie_withdrawal").due) == "2027-10-15T23:59:59"
    assert local(deadline(c, "runoff_request").due) == "2027-10-14T12:00:00"


def test_a_tie_for_second_says_the_demand_is_due_before_the_three_days_end() -> None:
    # G.S. 163-293(d)(2) with (c): the demand's noon-Thursday deadline falls inside the three
    # days, which the ruling says rather than leave it to look like a slip
    text = only(run(SEAT, TIE2), "runoff_available").text
    assert "withdraw by 2027-10-15 23:59 and the last demands a runoff by 2027-10-14 12:00" in text
    assert "comes before the three days end: a demand made while the tie stands waits" in text


def test_when_all_but_one_withdraw_and_the_last_demands_a_runoff_is_held() -> None:
    # G.S. 163-293(d)(2)
    log = f"{TIE2}\n{request('Bob', '2027-10-13T09:00')}\n{withdraw('Cy', '2027-10-15T15:00')}"
    c = run(SEAT, log)
    assert set(c.outcome.runoff_candidates) == {"Ann", "Bob"}
    assert cites(only(c, "runoff_called"), r"163-293\(d\)\(2\)")


def test_a_demand_without_the_others_withdrawing_leaves_the_leader_elected() -> None:
    # G.S. 163-293(d)(2): both conditions are needed
    c = run(SEAT, f"{TIE2}\n{request('Bob', '2027-10-13T09:00')}")
    assert c.outcome.elected == ("Ann",)
    assert local(only(c, "elected").at) == "2027-10-15T23:59:59"


def test_withdrawals_without_a_timely_demand_leave_the_leader_elected() -> None:
    # G.S. 163-293(d)(2): the demand must be made under (c), by noon Thursday
    c = run(SEAT, f"{TIE2}\n{withdraw('Cy', '2027-10-13T09:00')}")
    assert c.outcome.elected == ("Ann",)
    assert not rulings(c, "runoff_called")


def test_only_a_tied_runner_up_may_demand_the_runoff() -> None:
    # G.S. 163-293(d)(2)
    c = run(SEAT, f"{TIE2}\n{request('Dee', '2027-10-13T09:00')}")
    assert only(c, "request_rejected").candidates == ("Dee",)


# A canvass on Thursday 14 October: the three days end Monday 18 (Sunday, moved by 103-5(a)),
# the demand under (c) may come until noon on Thursday 21.
TIE2_THURSDAY = (
    f"{filed('Ann', 'Bob', 'Cy', 'Dee')}\n{returns(NIGHT, Ann=450, Bob=250, Cy=250, Dee=50)}\n"
    '- {type: canvass_held, at: "2027-10-14T11:00"}'
)


def test_the_last_tied_runner_up_may_demand_after_the_three_days_until_the_thursday() -> None:
    # G.S. 163-293(d)(2) with (c): all but one withdrew within three days; the demand is made
    # "as provided in (c)", by noon on the Thursday after the declaration
    log = (
        f"{TIE2_THURSDAY}\n{withdraw('Cy', '2027-10-15T09:00')}\n"
        f"{request('Bob', '2027-10-19T10:00')}"
    )
    c = run(SEAT, log)
    assert local(deadline(c, "tie_withdrawal").due) == "2027-10-18T23:59:59"
    assert set(c.outcome.runoff_candidates) == {"Ann", "Bob"}
    assert cites(only(c, "runoff_called"), r"163-293\(d\)\(2\)")
    assert not rulings(c, "elected")


def test_the_last_tied_runner_up_silent_until_the_thursday_leaves_the_leader_elected() -> None:
    # G.S. 163-293(d)(2): the others withdrew, so the reason is not that they did not
    c = run(SEAT, f"{TIE2_THURSDAY}\n{withdraw('Cy', '2027-10-15T09:00')}")
    elected = only(c, "elected")
    assert c.outcome.elected == ("Ann",) and local(elected.at) == "2027-10-21T12:00:00"
    assert "did not all but one withdraw" not in elected.text


def test_when_every_tied_runner_up_withdraws_the_leader_is_elected_at_once() -> None:
    # G.S. 163-293(d)(2): nobody is left to demand a runoff
    log = f"{TIE2}\n{withdraw('Bob', '2027-10-13T09:00')}\n{withdraw('Cy', '2027-10-13T10:00')}"
    elected = only(run(SEAT, log), "elected")
    assert elected.candidates == ("Ann",) and local(elected.at) == "2027-10-13T10:00:00"
    assert "every tied runner-up withdrew" in elected.text


def test_a_candidate_tied_for_first_who_dies_in_the_three_days_is_not_said_to_withdraw() -> None:
    # G.S. 163-293(d)(1) counts written withdrawals; 163-294.1(c) speaks of a person elected:
    # the runoff (d)(1) provides is called, and the gap is said
    log = (
        f"{TIE}\n{recount('2027-10-19T10:00', Ann=450, Bob=450, Cy=100)}\n"
        '- {type: candidate_died, at: "2027-10-20T08:00", candidate: Bob}'
    )
    c = run(SEAT, log)
    gap = [
        r for r in rulings(c, "no_provision") if r.get("gap") == "departed-tied-for-first-window"
    ]
    assert len(gap) == 1 and cites(gap[0], r"163-294\.1\(c\)")
    called = only(c, "runoff_called")
    assert set(called.candidates) == {"Ann", "Bob"} and "Bob died" in called.text
    assert "still standing" not in called.text and "Bob withdrew" not in called.text


def test_a_tied_candidate_who_died_before_the_recount_is_named_when_it_confirms_the_tie() -> None:
    # the same gap, but the death comes between the canvass and the recount: the recount's
    # ruling says at once that the three days cannot end as (d)(1) foresees (it said nothing
    # of Bob until the three days ended)
    death = '- {type: candidate_died, at: "2027-10-15T08:00", candidate: Bob}'
    log = f"{TIE}\n{death}\n{recount('2027-10-19T10:00', Ann=450, Bob=450, Cy=100)}"
    c = run(SEAT, log, as_of="2027-10-19T12:00")
    assert "no provision covers what follows" in only(c, "runoff_unless_withdrawn").text
    assert "Bob died on or after election day" in only(c, "runoff_unless_withdrawn").text
    assert not rulings(c, "no_provision")  # ruled when the three days end
    gap = only(run(SEAT, log), "no_provision")
    assert gap.get("gap") == "departed-tied-for-first-window"
    # one who stands is not named
    plain = run(SEAT, f"{TIE}\n{recount('2027-10-19T10:00', Ann=450, Bob=450, Cy=100)}")
    held = only(plain, "runoff_unless_withdrawn")
    assert held.text.endswith("is held unless one withdraws by 2027-10-22 23:59")


def test_a_recount_before_any_result_is_declared_has_no_effect_and_names_the_gap() -> None:
    # G.S. 163-293(d)(1)'s recount follows a declared tie
    log = (
        f"{filed('Ann', 'Bob')}\n{returns(NIGHT, Ann=450, Bob=400)}\n"
        f"{recount('2027-10-08T10:00', Ann=300, Bob=500)}\n{CANVASS}"
    )
    c = run(SEAT, log)
    assert only(c, "no_provision").get("gap") == "recount-before-result"
    assert only(c, "no_effect").get("reason") == "no result to recount"
    assert c.outcome.elected == ("Ann",)


# (e) and (f) ----------------------------------------------------------------------------------

RUNOFF = f"{first(Ann=480, Bob=420, Cy=100)}\n{request('Bob', '2027-10-13T09:30')}"


@settings(max_examples=30, deadline=None)
@given(st.integers(1006, 1019).map(lambda k: 2 * k + 1))
def test_the_runoff_is_held_on_the_tuesday_after_the_first_monday_in_november(year: int) -> None:
    # G.S. 163-293(e), 163-279(a)(4); odd-year municipal cycles 2013-2039
    contest = SEAT.replace("2027", str(year))
    night = cal.first_election_day(year, cal.Method.RUNOFF)
    canvass = night + timedelta(days=7)
    log = (
        f"{filed('Ann', 'Bob', 'Cy', at=f'{year}-07-08')}\n"
        + returns(f"{night}T21:00", Ann=480, Bob=420, Cy=100)
        + f'\n- {{type: canvass_held, at: "{canvass}T11:00"}}\n'
        + request("Bob", f"{canvass}T15:00")
    )
    c = run(contest, log)
    assert c.outcome.runoff_status.value == "called"
    day = deadline(c, "runoff_election").due.astimezone(TZ)
    assert day.weekday() == 1 and day.month == 11 and 2 <= day.day <= 8


def test_a_runoff_tie_waits_for_the_lot_and_the_lot_elects() -> None:
    # G.S. 163-293(f)
    log = (
        f"{RUNOFF}\n{returns('2027-11-02T21:00', Ann=500, Bob=500)}\n{RUNOFF_CANVASS}\n"
        '- {type: lot_drawn, at: "2027-11-13T10:00", winner: Bob}'
    )
    waiting = run(SEAT, log, as_of="2027-11-12T12:00")
    assert waiting.outcome.pending is not None and waiting.outcome.pending.value == "lot"
    assert waiting.outcome.elected == ()
    c = run(SEAT, log)
    assert c.outcome.elected == ("Bob",)
    assert cites(only(c, "decided_by_lot"), r"163-293\(f\)")
    # the declaration names the winner and says the lot settled it, the tally apart
    assert only(c, "elected").text == (
        "Bob elected with the highest vote in the runoff; the votes: Ann 500, Bob 500; "
        "the tie settled by the drawing of lots (Bob)"
    )


def test_a_second_runoff_is_not_held() -> None:
    # G.S. 163-293(f): the highest in the runoff is elected; a further request is rejected
    log = (
        f"{RUNOFF}\n{returns('2027-11-02T21:00', Ann=510, Bob=490)}\n{RUNOFF_CANVASS}\n"
        f"{request('Bob', '2027-11-13T09:00')}"
    )
    c = run(SEAT, log)
    assert c.outcome.elected == ("Ann",)
    assert c.outcome.runoff_status.value == "held"
    assert len(rulings(c, "runoff_called")) == 1
    assert only(c, "request_rejected").candidates == ("Bob",)


def test_the_runner_up_can_win_the_runoff() -> None:
    # G.S. 163-293(f); Statesville Ward 6 2019: Foster (second) won 112 to 109
    log = (
        f"{first(**STATESVILLE_WARD_6_2019)}\n"
        f"{request('Frederick Foster', '2027-10-13T16:00')}\n"
        + returns("2027-11-02T21:00", **{"Frederick Foster": 112, "David Jackson": 109})
        + f"\n{RUNOFF_CANVASS}"
    )
    c = run(SEAT, log)
    assert c.outcome.elected == ("Frederick Foster",)
    assert local(only(c, "elected").at) == "2027-11-12T11:00:00"


def test_the_declared_time_of_each_ruling_is_a_moment_of_the_log_or_a_deadline() -> None:
    # G.S. 163-293(c): rulings carry when they were made (a deadline passing is one)
    c = run(SEAT, f"{first(Ann=480, Bob=420, Cy=100)}")
    moments = {
        datetime.fromisoformat("2027-10-12T11:00").replace(tzinfo=TZ),
        deadline(c, "runoff_request").due,
    }
    assert {r.at for r in c.rulings} <= moments


ACTS = st.lists(
    st.tuples(
        st.sampled_from(["candidate_withdrew", "candidate_died", "candidate_disqualified", "ask"]),
        st.sampled_from(["Ann", "Bob", "Cy"]),
        st.integers(0, 12 * 24),  # hours after the declaration that opens the three days
    ),
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(st.booleans(), ACTS)
def test_no_reason_says_a_candidate_who_died_or_was_disqualified_withdrew_or_stands(
    for_first: bool, acts: list[tuple[str, str, int]]
) -> None:
    # G.S. 163-293(d)(1), (d)(2) count written withdrawals: a candidate who died or was
    # disqualified has made none, whatever else happens in the three days
    if for_first:
        log = f"{TIE}\n{recount('2027-10-14T10:00', Ann=450, Bob=450, Cy=100)}"
        start = datetime(2027, 10, 14, 10, 30, tzinfo=TZ)
    else:
        log, start = TIE2_THURSDAY, datetime(2027, 10, 14, 11, 30, tzinfo=TZ)
    gone: dict[str, datetime] = {}  # who died or was disqualified without withdrawing, when
    off: set[str] = set()  # the first act that takes a candidate off is the one that counts
    for kind, name, hours in sorted(acts, key=lambda a: a[2]):
        at = start + timedelta(hours=hours)
        when = at.replace(tzinfo=None).isoformat(timespec="minutes")
        if kind == "ask":
            log += "\n" + request(name, when)
        else:
            log += f'\n- {{type: {kind}, at: "{when}", candidate: {name}}}'
            if kind != "candidate_withdrew" and name not in off:
                gone[name] = at
            off.add(name)
    c = run(SEAT, log)
    for r in c.rulings:
        for name, at in gone.items():
            assert f"{name} withdrew" not in r.text, r.text
            if r.at >= at and name in r.candidates:
                assert "still standing" not in r.text, r.text


_HOW = {
    "candidate_withdrew": "withdrew",
    "candidate_died": "died",
    "candidate_disqualified": "was disqualified",
}


@settings(max_examples=60, deadline=None)
@given(st.booleans(), ACTS)
@example(
    False,
    [("candidate_withdrew", "Bob", 109), ("candidate_withdrew", "Cy", 0), ("ask", "Bob", 109)],
)
@example(
    False,
    [
        ("candidate_withdrew", "Ann", 0),
        ("candidate_withdrew", "Bob", 0),
        ("candidate_died", "Bob", 0),
        ("ask", "Bob", 1),
    ],
)
def test_a_request_or_demand_by_one_who_has_left_is_rejected_saying_how_they_left(
    for_first: bool, acts: list[tuple[str, str, int]]
) -> None:
    # G.S. 163-293(c), (d)(2): a request or a demand is a candidate's written act; one who has
    # died, withdrawn or been disqualified is no longer a candidate and files none
    if for_first:
        log = f"{TIE}\n{recount('2027-10-14T10:00', Ann=450, Bob=450, Cy=100)}"
        start = datetime(2027, 10, 14, 10, 30, tzinfo=TZ)
    else:
        log, start = TIE2_THURSDAY, datetime(2027, 10, 14, 11, 30, tzinfo=TZ)
    done: list[tuple[str, str, datetime]] = []  # each act in order: kind, name, when
    for i, (kind, name, hours) in enumerate(sorted(acts, key=lambda a: a[2])):
        at = start + timedelta(hours=hours, minutes=i)
        when = at.replace(tzinfo=None).isoformat(timespec="minutes")
        if kind == "ask":
            log += "\n" + request(name, when)
        else:
            log += f'\n- {{type: {kind}, at: "{when}", candidate: {name}}}'
        done.append((kind, name, at))
    c = run(SEAT, log)
    # a tied candidate's withdrawal after the three days is refused (163-293(d)): they stay a
    # candidate, and may still ask. (A defeated candidate's withdrawal after the result is
    # taken, and ruled only to say that the result stands: it is not refused.)
    refused = {
        (r.candidates, r.at)
        for r in c.rulings
        if r.kind == "no_effect" and r.get("reason") != "the result stands"
    }
    how: dict[str, str] = {}  # the first act that takes a candidate off
    left_at: dict[str, datetime] = {}  # and when
    asks: list[tuple[str, datetime, str]] = []  # requests by one who had left, and how
    for kind, name, at in done:
        if kind == "ask":
            if name in how:
                asks.append((name, at, how[name]))
        elif kind != "candidate_withdrew" or ((name,), at) not in refused:
            how.setdefault(name, _HOW[kind])
            left_at.setdefault(name, at)
    for name, at, verb in asks:
        found = [
            r
            for r in c.rulings
            if r.kind == "request_rejected" and r.at == at and name in r.candidates
        ]
        assert found, (name, at, [r.text for r in c.rulings])
        assert found[0].get("reason") == f"{name} {verb} and is no longer a candidate"
    for r in c.rulings:
        if r.kind == "runoff_called":
            # no runoff rests on a demand by one who had left before it was called (one who
            # leaves the called runoff afterwards does not undo the demand)
            gone = [n for n, t in left_at.items() if t <= r.at]
            assert not any(f"{n} demanded" in r.text for n in gone), r.text


def test_a_leader_short_of_a_majority_with_nobody_below_is_declared_elected() -> None:
    # G.S. 163-293(b)(1): the runoff is the runner-up's to request; the miscellaneous write-ins
    # count in the total but are nobody's votes, so there is no runner-up
    log = f"{filed('Ann')}\n{returns(NIGHT, **{'Ann': 400, 'Write-In (Miscellaneous)': 600})}"
    c = run(SEAT, f"{log}\n{CANVASS}")
    elected = only(c, "elected")
    assert elected.candidates == ("Ann",) and "no other candidate" in elected.text
    assert not rulings(c, "runoff_available") and c.outcome.elected == ("Ann",)


def test_a_tied_runner_up_who_demanded_and_then_died_gets_no_runoff() -> None:
    # G.S. 163-293(d)(2): the runoff is with the last tied runner-up who demands it; one who
    # demanded and then died is no longer a candidate, so the leader is elected
    log = (
        f"{TIE2_THURSDAY}\n{request('Cy', '2027-10-14T11:30')}\n"
        '- {type: candidate_died, at: "2027-10-14T11:31", candidate: Cy}\n'
        '- {type: candidate_withdrew, at: "2027-10-14T11:32", candidate: Bob}'
    )
    c = run(SEAT, log)
    assert not rulings(c, "runoff_called")
    assert c.outcome.elected == ("Ann",)
    (elected,) = rulings(c, "elected")
    assert "Cy died" in elected.text and "Cy demanded" not in elected.text


def test_a_dead_candidate_declared_as_the_other_on_a_runoff_ballot_leaves_the_office_vacant() -> (
    None
):
    # G.S. 163-293(d)(1): Ann and Bob stay tied after the recount and Bob dies (a death is no
    # withdrawal), so the runoff is called with both names; Ann then withdraws, and under
    # left_runoff_ballot: other_declared Bob is the one declared. He is dead: the office is
    # vacant (163-294.1(c)), and the ruling does not say he polled enough votes to be elected
    c = run(
        "{id: c, seats: 1, method: nonpartisan-runoff, year: 2027}",
        """
        - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
        - {type: candidate_filed, at: 2027-07-06, candidate: Bob}
        - {type: returns_reported, at: "2027-10-05T21:00", counts: {Ann: 300, Bob: 300}}
        - {type: canvass_held, at: "2027-10-12T11:00"}
        - {type: recount_held, at: "2027-10-14T11:00", counts: {Ann: 300, Bob: 300}}
        - {type: candidate_died, at: "2027-10-15T09:00", candidate: Bob}
        - {type: candidate_withdrew, at: "2027-10-22T09:00", candidate: Ann}
        """,
        head="interpretations: {left_runoff_ballot: other_declared}",
    )
    assert c.outcome.elected == () and c.outcome.vacant_seats == 1
    vacant = only(c, "office_vacant")
    assert vacant.candidates == ("Bob",) and cites(vacant, r"^G\.S\. 163-294\.1\(c\)$")
    assert "polled" not in vacant.text and "Ann withdrew" in vacant.text


def test_two_dead_candidates_tied_for_first_leave_the_office_vacant_under_every_reading() -> None:
    # 163-293(d)(1) and 163-294.4(c) collide when a dead candidate ties for first; the other
    # reading (interpretation dead_tied_for_first: other_elected) elects the tied candidate who
    # stands, and here none does: the office is vacant (the reading once asked the table about a tie
    # of nobody)
    log = """
        - {type: candidate_filed, at: 2027-07-06, candidate: Ann}
        - {type: candidate_filed, at: 2027-07-06, candidate: Bob}
        - {type: candidate_filed, at: 2027-07-06, candidate: Cy}
        - {type: ballots_printed, at: "2027-09-01T10:00"}
        - {type: candidate_died, at: "2027-09-20T10:00", candidate: Cy}
        - {type: candidate_died, at: "2027-09-21T10:00", candidate: Bob}
        - {type: reprint_determined, at: "2027-09-22T10:00", enough_time: false}
        - {type: returns_reported, at: "2027-10-05T21:00", counts: {Bob: 400, Cy: 400, Ann: 200}}
        - {type: canvass_held, at: "2027-10-12T11:00"}
        - {type: recount_held, at: "2027-10-14T11:00", counts: {Bob: 400, Cy: 400, Ann: 200}}
        """
    seat = "{id: c, seats: 1, method: nonpartisan-runoff, year: 2027}"
    for head in ("", "interpretations: {dead_tied_for_first: other_elected}"):
        c = run(seat, log, head=head)
        assert c.outcome.elected == () and c.outcome.vacant_seats == 1, head
        (gap,) = rulings(c, "no_provision")
        # (the words of the other reading follow "This is gap:...", as the one to choose)
        fallback = gap.text.split(" This is ")[0]
        assert gap.get("reading") is None and "stands is declared elected" not in fallback


# (e) the runoff's day ---------------------------------------------------------------------------


def _late(canvass: str, *more: str, counts: dict[str, int] | None = None) -> str:
    counts = counts or {"Ann": 400, "Bob": 350, "Cy": 300}
    log = [filed(*counts), returns(NIGHT, **counts), f'- {{type: canvass_held, at: "{canvass}"}}']
    return "\n".join([*log, *more])


def test_a_runoff_called_before_its_day_is_held_on_the_day_the_law_fixes() -> None:
    # G.S. 163-293(e), 163-279(a)(4): the Tuesday after the first Monday in November, 2 Nov 2027
    c = run(SEAT, _late("2027-10-12T11:00", request("Bob", "2027-10-13T09:00")))
    assert not rulings(c, "no_provision")
    assert "a runoff on 2027-11-02 between Ann, Bob" in only(c, "runoff_called").text
    assert local(deadline(c, "canvass").due) == "2027-11-12T11:00:00"


def test_a_runoff_called_on_its_own_day_or_after_it_is_a_named_gap() -> None:
    # the result declared on 27 October: the request deadline is Thursday 28 October; a request
    # on the day the law fixes, or after it: no section sets another day
    for canvass, asked, gone in (
        ("2027-10-28T11:00", "2027-11-02T08:00", "had begun"),
        ("2027-11-23T11:00", "2027-11-29T09:00", "had passed"),
    ):
        c = run(SEAT, _late(canvass, request("Bob", asked)))
        gap = only(c, "no_provision")
        assert dict(gap.extra)["gap"] == "runoff-called-after-its-day"
        assert cites(gap, r"^G\.S\. 163-293\(e\); G\.S\. 163-279\(a\)\(4\)$")
        assert gap.candidates == ("Ann", "Bob") and local(gap.at) == asked + ":00"
        assert f"when the day fixed for it, 2027-11-02, {gone}" in gap.text
        called = only(c, "runoff_called")
        assert "on 2027-11-02" not in called.text
        assert f"(the day fixed for it, 2027-11-02, {gone}: no day set by law)" in called.text
        # the statutory day stays on the timeline; no canvass is counted from it
        assert local(deadline(c, "runoff_election").due) == "2027-11-02T00:00:00"
        assert [d.kind.value for d in c.deadlines].count("canvass") == 1
    # a request the night before the day is in time for it
    c = run(SEAT, _late("2027-10-28T11:00", request("Bob", "2027-11-01T23:59")))
    assert not rulings(c, "no_provision")


def test_a_runoff_after_a_tie_declared_late_is_called_when_the_withdrawal_window_ends() -> None:
    # 163-293(d)(1): a tie for first confirmed by a recount declared on 1 November; the three
    # days for a withdrawal end after the runoff's day has begun
    tie = {"Ann": 300, "Bob": 300, "Cy": 100}
    c = run(SEAT, _late("2027-10-12T11:00", recount("2027-11-01T10:00", **tie), counts=tie))
    gap = only(c, "no_provision")
    assert dict(gap.extra)["gap"] == "runoff-called-after-its-day"
    assert only(c, "runoff_called").candidates == ("Ann", "Bob")
    assert c.outcome.runoff_candidates == ("Ann", "Bob")


def test_votes_reported_after_a_runoff_called_late_are_the_runoffs() -> None:
    log = _late(
        "2027-11-23T11:00",
        request("Bob", "2027-11-29T09:00"),
        returns("2027-12-14T21:00", Ann=500, Bob=600),
        '- {type: canvass_held, at: "2027-12-21T11:00"}',
    )
    c = run(SEAT, log)
    assert c.outcome.elected == ("Bob",)
    assert cites(only(c, "elected"), r"163-293\(f\)")


def test_an_early_demand_by_a_tied_runner_up_waits_for_the_others_to_withdraw() -> None:
    # 163-293(d)(2), a request before the canvass held for it (interpretation early_request: wait):
    # Cy demands before the canvass; the runoff is called when Bob, the other tied runner-up,
    # withdraws within the three days, not before
    log = "\n".join(
        [
            filed("Ann", "Bob", "Cy", "Dee"),
            returns(NIGHT, Ann=450, Bob=250, Cy=250, Dee=50),
            request("Cy", "2027-10-06T11:00"),
            CANVASS,
            withdraw("Bob", "2027-10-13T09:00"),
        ]
    )
    at_canvass = run(SEAT, log, as_of="2027-10-12T12:00")
    assert at_canvass.state == "tie_withdrawal" and not rulings(at_canvass, "runoff_called")
    c = run(SEAT, log)
    called = only(c, "runoff_called")
    assert called.candidates == ("Ann", "Cy") and local(called.at) == "2027-10-13T09:00:00"
    # nobody withdraws: the demand lapses with the window and Ann is elected
    c = run(SEAT, log.rsplit("\n", 1)[0])
    assert c.outcome.elected == ("Ann",) and not rulings(c, "runoff_called")


def test_a_tie_a_withdrawal_leaves_after_its_three_days_calls_the_runoff_at_once() -> None:
    # three tied for first after the recount, a drawing among them awaited (the three_way_tie
    # reading as "lot"); one withdraws after the three days of (d)(1) ended: the two left tie for
    # first, and neither withdrew within the three days, so the runoff is called then, not announced
    # as a runoff "unless one withdraws by" a day already gone
    log = (
        f"{first(Ann=300, Bob=300, Cy=300)}\n"
        f"{recount('2027-10-14T11:00', Ann=300, Bob=300, Cy=300)}\n"
        f"{withdraw('Cy', '2027-10-22T09:00')}"
    )
    c = run(SEAT, log, head="interpretations: {three_way_tie: lot}")
    called = only(c, "runoff_called")
    assert set(called.candidates) == {"Ann", "Bob"}
    assert local(called.at) == "2027-10-22T09:00:00"
    offered = ("runoff_available", "runoff_unless_withdrawn")
    assert not [r for r in c.rulings if r.kind.value in offered and r.at > called.at]
    assert not [r for r in c.rulings if r.kind.value in offered and r.at == called.at]
    assert c.outcome.runoff_status.value == "called" and c.outcome.pending.value == "votes"  # type: ignore[union-attr]


def _runoff_then(leave: str, *, before: bool = False) -> str:
    """Ann leads short of a majority, Bob requests, and the runoff returns put Bob first; then
    ``leave`` (events; ``before`` the runoff's returns), then the runoff's canvass."""
    votes = returns("2027-11-02T21:00", Ann=400, Bob=450)
    middle = f"{leave}\n{votes}" if before else f"{votes}\n{leave}"
    return (
        f"{first(Ann=400, Bob=350, Cy=250)}\n{request('Bob', '2027-10-13T09:00')}\n"
        f"{middle}\n{RUNOFF_CANVASS}"
    )


def test_a_runoff_winner_who_dies_after_the_runoff_vote_leaves_the_office_vacant() -> None:
    # G.S. 163-294.1(c): a person elected who dies on or after election day, before the oath.
    # The runoff's day is an election day: the death is no gap of the runoff rules (they speak
    # of candidates who leave before the runoff is voted)
    c = run(SEAT, _runoff_then('- {type: candidate_died, at: "2027-11-04T10:00", candidate: Bob}'))
    assert not rulings(c, "no_provision")
    vacant = only(c, "office_vacant")
    assert cites(vacant, r"^G\.S\. 163-294\.1\(c\)$") and vacant.candidates == ("Bob",)
    assert local(vacant.at) == "2027-11-12T11:00:00"
    assert c.outcome.elected == () and c.outcome.vacant_seats == 1


def test_a_runoff_loser_who_withdraws_after_the_runoff_vote_changes_nothing() -> None:
    c = run(SEAT, _runoff_then(withdraw("Ann", "2027-11-04T10:00")))
    assert not rulings(c, "no_provision") and not rulings(c, "office_vacant")
    assert c.outcome.elected == ("Bob",)


def test_a_runoff_candidate_who_dies_before_the_runoff_day_is_still_a_gap() -> None:
    # the boundary: the day before the runoff, the runoff-ballot gap names the death
    died = '- {type: candidate_died, at: "2027-11-01T10:00", candidate: Bob}'
    c = run(SEAT, _runoff_then(died, before=True))
    gap = only(c, "no_provision")
    assert "between the first vote and the runoff" in gap.text
    assert only(c, "office_vacant").candidates == ("Bob",)


def _tied_runoff_then(*events: str) -> str:
    """Ann leads short of a majority, Bob requests, the runoff ties 450 to 450 and the canvass
    awaits the drawing of 163-293(f); then ``events``."""
    return (
        f"{first(Ann=400, Bob=350, Cy=250)}\n{request('Bob', '2027-10-13T09:00')}\n"
        f"{returns('2027-11-02T21:00', Ann=450, Bob=450)}\n{RUNOFF_CANVASS}\n" + "\n".join(events)
    )


BOB_DIES = '- {type: candidate_died, at: "2027-11-13T10:00", candidate: Bob}'


def test_a_runoff_tie_left_by_a_death_before_the_lot_is_a_named_gap_at_the_death() -> None:
    # 163-293(f) with 163-294.1(c): the death is said when it comes, not left silent while the
    # drawing is awaited
    c = run(SEAT, _tied_runoff_then(BOB_DIES))
    gap = only(c, "no_provision")
    assert gap.get("gap") == "runoff-tied-candidate-left-before-lot"
    assert local(gap.at) == "2027-11-13T10:00:00"
    assert cites(gap, r"163-293\(f\)") and cites(gap, r"163-294\.1\(c\)")
    assert c.outcome.pending is not None and c.outcome.pending.value == "lot"


def test_a_runoff_lot_drawn_for_the_one_who_died_leaves_the_office_vacant() -> None:
    lot = '- {type: lot_drawn, at: "2027-11-15T10:00", winner: Bob}'
    c = run(SEAT, _tied_runoff_then(BOB_DIES, lot))
    assert c.outcome.elected == () and c.outcome.vacant_seats == 1
    assert only(c, "office_vacant").candidates == ("Bob",)
    lot = '- {type: lot_drawn, at: "2027-11-15T10:00", winner: Ann}'
    c = run(SEAT, _tied_runoff_then(BOB_DIES, lot))
    assert c.outcome.elected == ("Ann",) and c.outcome.vacant_seats == 0
    # the drawing is the gap's whichever way it falls
    assert cites(only(c, "decided_by_lot"), r"163-294\.1\(c\)")


def test_a_runoff_tie_with_nobody_gone_is_decided_by_lot_without_a_gap() -> None:
    c = run(SEAT, _tied_runoff_then())
    assert not rulings(c, "no_provision")
    assert cites(only(c, "lot_required"), r"^G\.S\. 163-293\(f\)$")


def test_a_group_runoff_winner_below_a_dead_candidate_is_not_said_to_have_the_highest_vote() -> (
    None
):
    # G.S. 163-293(f) with 163-294.1(c): Bob, dead, polls the most in the runoff for two places
    # and his seat is vacant; Dee takes the other place with the second vote: "one of the highest"
    log = (
        f"{filed('Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay')}\n"
        f"{returns(NIGHT, Ann=400, Bob=160, Cy=150, Dee=120, Eve=100, Fay=70)}\n{CANVASS}\n"
        '- {type: runoff_requested, at: "2027-10-13T10:00", candidate: Dee}\n'
        '- {type: candidate_died, at: "2027-10-20T11:00", candidate: Bob}\n'
        f"{returns('2027-11-02T21:00', Bob=300, Cy=200, Dee=250)}\n{RUNOFF_CANVASS}"
    )
    c = run(GROUP3, log)
    assert c.outcome.elected == ("Ann", "Dee") and c.outcome.vacant_seats == 1
    text = next(r for r in rulings(c, "elected") if "Dee" in r.candidates).text
    assert text.startswith("Dee elected with one of the highest votes in the runoff")


def test_a_canvass_before_the_seventh_day_is_a_named_gap_and_still_declares() -> None:
    # G.S. 163-293(c) fixes the seventh day; 163-182.5(b) allows a later canvass, not an earlier
    # one: the gap canvass-before-its-day is said, and the request deadline counts from the
    # canvass actually held (Thursday 7 October, so noon on Thursday 14 October)
    early = first(Ann=480, Bob=420, Cy=100).replace(CANVASS, CANVASS.replace("10-12", "10-07"))
    c = run(SEAT, early)
    gap = only(c, "no_provision")
    assert gap.get("gap") == "canvass-before-its-day"
    assert cites(gap, r"163-293\(c\).*163-182\.5\(b\)") and "2027-10-12" in gap.text
    assert local(deadline(c, "runoff_request").due) == "2027-10-14T12:00:00"
    on_its_day = run(SEAT, f"{first(Ann=480, Bob=420, Cy=100)}")
    assert not rulings(on_its_day, "no_provision")


AS_OF_ITS_DAY = "interpretations: {canvass_before_its_day: as_of_its_day}"
EARLY_CANVASS = CANVASS.replace("10-12", "10-06")


def test_a_canvass_before_its_day_read_as_of_that_day_counts_the_deadlines_from_it() -> None:
    # a canvass before its day (interpretation canvass_before_its_day: as_of_its_day): the canvass
    # of Wednesday 6 October declares the result as of Tuesday 12 October, the day 163-293(c) fixes:
    # the request is due at noon on Thursday 14 October (not 7 October), and a tie for second's
    # three days end on Friday 15 October (not Saturday 9 October, which G.S. 103-5 moves to Monday
    # 11 October)
    early = first(Ann=480, Bob=420, Cy=100).replace(CANVASS, EARLY_CANVASS)
    assert local(deadline(run(SEAT, early), "runoff_request").due) == "2027-10-07T12:00:00"
    c = run(SEAT, early, head=AS_OF_ITS_DAY)
    assert only(c, "no_provision").get("gap") == "canvass-before-its-day"
    assert local(deadline(c, "runoff_request").due) == "2027-10-14T12:00:00"
    tie = first(Ann=480, Bob=260, Cy=260).replace(CANVASS, EARLY_CANVASS)
    assert local(deadline(run(SEAT, tie), "tie_withdrawal").due) == "2027-10-11T23:59:59"
    c = run(SEAT, tie, head=AS_OF_ITS_DAY)
    assert local(deadline(c, "tie_withdrawal").due) == "2027-10-15T23:59:59"


def test_a_request_before_the_day_of_an_early_canvass_is_one_before_the_declaration() -> None:
    # a canvass before its day read as of that day (interpretation canvass_before_its_day:
    # as_of_its_day), with a request before the declaration: a request between the early canvass
    # and the day the law fixes is made before the declaration: held and counted (default),
    # or rejected as premature under early_request: reject, and the runner-up may ask again from
    # that day
    log = (
        f"{first(Ann=480, Bob=420, Cy=100).replace(CANVASS, EARLY_CANVASS)}\n"
        f"{request('Bob', '2027-10-08T10:00')}"
    )
    held = run(SEAT, log, head=AS_OF_ITS_DAY)
    assert only(held, "runoff_called").candidates == ("Ann", "Bob")
    assert not rulings(held, "request_rejected")
    both = "interpretations: {canvass_before_its_day: as_of_its_day, early_request: reject}"
    c = run(SEAT, log, head=both)
    rejected = only(c, "request_rejected")
    assert local(rejected.at) == "2027-10-08T10:00:00"
    assert "before the declaration of the result, as of 2027-10-12" in rejected.text
    assert c.outcome.elected == ("Ann",) and not rulings(c, "runoff_called")
    again = run(SEAT, f"{log}\n{request('Bob', '2027-10-13T10:00')}", head=both)
    assert local(only(again, "runoff_called").at) == "2027-10-13T10:00:00"


def test_a_second_canvass_on_the_day_of_an_early_one_read_as_of_that_day_says_so() -> None:
    # a canvass before its day read as of that day (interpretation canvass_before_its_day:
    # as_of_its_day): the canvass on the day the law fixes declares nothing new; the result was
    # declared as of that day, not at a canvass held then
    early = first(Ann=480, Bob=420, Cy=100).replace(CANVASS, f"{EARLY_CANVASS}\n{CANVASS}")
    c = run(SEAT, early, head=AS_OF_ITS_DAY)
    again = only(c, "canvass_repeated")
    assert local(again.at) == "2027-10-12T11:00:00"
    assert "the result was declared as of 2027-10-12 11:00" in again.text
    # a canvass held on its day declared the result when it was held, under either reading:
    # the one repeated after it says so, not "as of"
    twice = first(Ann=480, Bob=420, Cy=100).replace(
        CANVASS, f"{CANVASS}\n{CANVASS.replace('10-12T11', '10-13T11')}"
    )
    repeated = only(run(SEAT, twice, head=AS_OF_ITS_DAY), "canvass_repeated")
    assert "the result was declared at the canvass of 2027-10-12 11:00" in repeated.text


TIED = {"Ann": 450, "Bob": 450, "Cy": 100}


def test_a_recount_before_the_day_of_an_early_canvass_declares_as_of_that_day_too() -> None:
    # a canvass before its day read as of that day (interpretation canvass_before_its_day:
    # as_of_its_day): the early canvass of 6 October finds a tie for first; the recount of 8 October
    # confirms it, still before 12 October, the day 163-293(c) fixes: the three days of
    # 163-293(d)(1) run from 12 October (to Friday 15 October), not from the recount
    log = f"{TIE.replace(CANVASS, EARLY_CANVASS)}\n{recount('2027-10-08T10:00', **TIED)}"
    assert local(deadline(run(SEAT, log), "tie_withdrawal").due) == "2027-10-11T23:59:59"
    c = run(SEAT, log, head=AS_OF_ITS_DAY)
    assert local(deadline(c, "tie_withdrawal").due) == "2027-10-15T23:59:59"
