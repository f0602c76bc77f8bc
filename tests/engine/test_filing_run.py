"""A run of notices of candidacy is folded in one draft (the candidates grow in place); a notice
that replaces an earlier one in that run must not leave the run's list behind."""

from __future__ import annotations

from simulator import parse_scenario, replay

TEXT = """\
format: electsim/v1
title: Filing again, then another filing, in one run
contests: [{id: c, method: nonpartisan-plurality, year: 2027}]
events:
  - {type: candidate_filed, at: '2027-07-02T12:00', candidate: Ann}
  - {type: candidate_withdrew, at: '2027-07-02T13:00', candidate: Ann}
  - {type: candidate_filed, at: '2027-07-02T14:00', candidate: Ann}
  - {type: candidate_filed, at: '2027-07-02T15:00', candidate: Bob}
  - {type: candidate_filed, at: '2027-07-02T16:00', candidate: Bob}
  - {type: votes_cast, at: '2027-11-02T09:00', candidate: Bob, count: 3}
  - {type: votes_cast, at: '2027-11-02T10:00', candidate: Ann, count: 2}
  - {type: canvass_held, at: '2027-11-12T11:00'}
"""


def test_a_notice_filed_again_in_a_run_of_filings_keeps_every_candidate() -> None:
    # Ann files again after withdrawing (her new notice replaces the old); Bob files twice
    s = parse_scenario(TEXT)
    batched = replay(s)
    assert batched == replay(s, batched=False)
    assert batched.contests[0].outcome.elected == ("Bob",)
    duplicate = [r for r in batched.contests[0].rulings if "already filed" in r.text]
    assert [r.candidates for r in duplicate] == [("Bob",)]
