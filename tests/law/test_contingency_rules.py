"""The departures rule table (simulator.law.tables.departures): every rule reachable,
conflicts settled by declared priority, every gap named, and `electsim gaps` listing them."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date, datetime

import attrs
import pytest

from simulator.cli.main import main
from simulator.law.tables import departure_facts, departure_gaps, departure_words, departures
from simulator.law.vocab import CandStatus, Method, Stage

FACTS = list(departure_facts.all_facts())
FINDINGS = [(f, departures.TABLE.evaluate(f)) for f in FACTS]
#: Sections whose subsections our sources do not number (or rules, not statutes).
WHOLE = {"163-114", "163-110", "160A-63", "08 NCAC 06B .0104"}


def _cites_a_subsection(c: departures.Cite) -> bool:
    return bool(c.sub) or c.section in WHOLE


def test_every_rule_of_the_table_decides_some_combination_of_facts() -> None:
    # each rule is reachable, and wins somewhere (otherwise it is dead law in the table)
    winners = Counter(fd.rule.id for _, fd in FINDINGS if fd.rule is not None)
    assert {r.id for r in departures.RULES} == set(winners)


def test_every_named_gap_is_reached_and_no_facts_fall_outside_the_rules_and_gaps() -> None:
    # a no_provision ruling always names its gap
    reached = {fd.gap.id for _, fd in FINDINGS if fd.gap is not None}
    assert reached == {g.id for g in departures.GAPS}
    assert departures.UNCLASSIFIED.id not in reached


def test_rule_ids_are_unique_and_each_rule_cites_a_subsection() -> None:
    # G.S. subsections: a reader finds the text each ruling implements in one step
    ids = [r.id for r in departures.RULES] + [g.id for g in departures.GAPS]
    assert len(ids) == len(set(ids))
    for r in departures.RULES:
        assert _cites_a_subsection(r.cites[0]), r.id


def test_every_effect_the_table_can_produce_cites_a_subsection() -> None:
    # SPEC section 3: every ruling has a cite naming the section and subsection
    for f, fd in FINDINGS:
        for e in fd.effect(f):
            assert all(_cites_a_subsection(c) for c in e.cites), (f, e)
    for g in departures.GAPS:
        assert g.near and all(c.section for c in g.cites)


def test_where_several_rules_apply_the_more_specific_is_declared_and_wins() -> None:
    # Catala's semantics: several rules settle only where one is declared the more specific
    # (its `over` names every other); no combination of facts leaves a conflict
    settled: Counter[tuple[str, ...]] = Counter()
    for f, fd in FINDINGS:
        assert not fd.conflict, (f, [r.id for r in fd.rules])
        if len(fd.rules) > 1:
            winner = fd.rules[0]
            assert {r.id for r in fd.rules[1:]} <= set(winner.exception_to)
            settled[tuple(r.id for r in fd.rules)] += 1
    assert set(settled) >= {
        ("death-after-30-days-leaves-one", "death-after-30-days"),
        ("group-deaths-leave-seats-or-fewer", "group-death-after-30-days"),
        (
            "group-deaths-leave-fewer-than-seats",
            "group-deaths-leave-seats-or-fewer",
            "group-death-after-30-days",
        ),
        ("group-nominee-dies-before-primary", "party-nominee-left"),
        ("two-per-seat-left", "nonpartisan-primary-left-after-printing"),
    }


def test_after_the_oath_only_163_294_1_d_applies() -> None:
    # G.S. 163-294.1(c) speaks of a person who has not yet qualified by taking the oath
    for f, fd in FINDINGS:
        if f.sworn:
            assert fd.rule is not None and fd.rule.id == "officer-left-after-oath", f


@pytest.mark.parametrize(
    ("facts", "winner"),
    [
        # G.S. 163-112(b): one left after day 30 is certified rather than printed alone
        (
            departure_facts.Facts(
                Method.PARTISAN,
                Stage.PRIMARY,
                CandStatus.DIED,
                departure_facts.BEFORE_ELECTION,
                1,
                3,
                1,
            ),
            "death-after-30-days-leaves-one",
        ),
        (
            departure_facts.Facts(
                Method.PARTISAN,
                Stage.PRIMARY,
                CandStatus.DIED,
                departure_facts.BEFORE_ELECTION,
                1,
                3,
                2,
            ),
            "death-after-30-days",
        ),
        # G.S. 163-112(d)(4) over (d)(3) over (d)(1)
        (
            departure_facts.Facts(
                Method.PARTISAN,
                Stage.PRIMARY,
                CandStatus.DIED,
                departure_facts.BEFORE_ELECTION,
                3,
                4,
                2,
            ),
            "group-deaths-leave-fewer-than-seats",
        ),
        (
            departure_facts.Facts(
                Method.PARTISAN,
                Stage.PRIMARY,
                CandStatus.DIED,
                departure_facts.BEFORE_ELECTION,
                3,
                4,
                3,
            ),
            "group-deaths-leave-seats-or-fewer",
        ),
        # G.S. 163-294.1(b): two per seat left cancels the primary
        (
            departure_facts.Facts(
                Method.PRIMARY,
                Stage.PRIMARY,
                CandStatus.WITHDREW,
                departure_facts.BEFORE_ELECTION,
                1,
                3,
                2,
            ),
            "two-per-seat-left",
        ),
        (
            departure_facts.Facts(
                Method.PRIMARY,
                Stage.PRIMARY,
                CandStatus.WITHDREW,
                departure_facts.BEFORE_ELECTION,
                1,
                3,
                2,
                printed_at_death=True,
                printed_at_notice=True,
                withdrawal_as_death=False,
            ),
            "nonpartisan-primary-left-after-printing",
        ),
        # G.S. 163-294.1(d) over (c) once the oath is taken
        (
            departure_facts.Facts(
                Method.PLURALITY,
                Stage.ELECTION,
                CandStatus.DIED,
                departure_facts.ELECTION_OR_AFTER,
                sworn=True,
            ),
            "officer-left-after-oath",
        ),
        (
            departure_facts.Facts(
                Method.PLURALITY, Stage.ELECTION, CandStatus.DIED, departure_facts.ELECTION_OR_AFTER
            ),
            "elected-left-before-oath",
        ),
        # while filing is open nothing else applies
        (
            departure_facts.Facts(
                Method.PARTISAN, Stage.PRIMARY, CandStatus.DIED, departure_facts.DURING_FILING
            ),
            "filing-open",
        ),
    ],
)
def test_the_more_specific_provision_governs(facts: departure_facts.Facts, winner: str) -> None:
    fd = departures.TABLE.evaluate(facts)
    assert fd.rule is not None and fd.rule.id == winner


def test_while_filing_is_open_and_after_election_day_the_rules_ignore_dates_and_printing() -> None:
    # justifies the fixed values all_facts uses then
    base = departure_facts.Facts(
        Method.PARTISAN, Stage.PRIMARY, CandStatus.DIED, departure_facts.DURING_FILING, 1, 3, 2
    )
    for when in (departure_facts.DURING_FILING, departure_facts.ELECTION_OR_AFTER):
        for method, stage in departure_facts.METHOD_STAGES:
            f = attrs.evolve(base, method=method, stage=stage, when=when)
            seen = set()
            for w30, printed, reprint in [
                (a, b, c) for a in (False, True) for b in (False, True) for c in (None, False, True)
            ]:
                g = attrs.evolve(
                    f,
                    within_30_by_death=w30,
                    within_30_by_notice=w30,
                    printed_at_death=printed,
                    printed_at_notice=printed,
                    reprint=reprint,
                )
                fd = departures.TABLE.evaluate(g)
                seen.add(
                    (
                        fd.rule.id if fd.rule else fd.gap.id if fd.gap else "",
                        tuple(e.kind for e in fd.effect(g)),
                    )
                )
            assert len(seen) == 1, (method, stage, when, seen)


def test_late_notice_is_a_gap_whose_fallback_follows_the_interpretation() -> None:
    # G.S. 163-112(b); interpretation late_notice
    f = departure_facts.Facts(
        Method.PARTISAN,
        Stage.PRIMARY,
        CandStatus.DIED,
        departure_facts.BEFORE_ELECTION,
        1,
        3,
        2,
        within_30_by_death=True,
        within_30_by_notice=False,
    )
    fd = departures.TABLE.evaluate(f)
    assert fd.gap is not None and fd.gap.id == "late-notice"
    assert [e.kind for e in fd.effect(f)] == ["name_removed", "reopen"]
    g = attrs.evolve(f, late_notice_by_death=False)
    assert [e.kind for e in departures.TABLE.evaluate(g).effect(g)] == ["name_removed"]
    assert "death date decides" in fd.gap.fallback_for(f)
    assert "notice date decides" in fd.gap.fallback_for(g)


def test_a_withdrawal_or_disqualification_after_printing_takes_the_effects_of_a_death() -> None:
    # G.S. 163-294.1(b) first paragraph: "the provisions of G.S. 163-112 shall govern"
    f = departure_facts.Facts(
        Method.PARTISAN,
        Stage.PRIMARY,
        CandStatus.WITHDREW,
        departure_facts.BEFORE_ELECTION,
        1,
        2,
        1,
        printed_at_death=True,
        printed_at_notice=True,
    )
    fd = departures.TABLE.evaluate(f)
    assert fd.rule is not None and fd.rule.id == "party-candidate-left-after-printing"
    effects = fd.effect(f)
    assert [e.kind for e in effects] == ["certify"]
    assert [str(c) for c in effects[0].cites] == ["G.S. 163-112(b)", "G.S. 163-294.1(b)"]


def test_the_gaps_list_every_combination_that_no_rule_covers() -> None:
    found = departure_gaps.gaps()
    assert len(found) == sum(1 for _, fd in FINDINGS if fd.gap is not None)
    assert all(hit.gap in departures.GAPS for hit in found)
    summary = departure_gaps.summarize(found)
    assert [s.gap.id for s in summary] == [g.id for g in departures.GAPS]
    assert sum(s.combinations for s in summary) == len(found)
    r8 = summary[0]
    assert dict(r8.values)["method"] == (Method.PARTISAN,)
    assert dict(r8.values)["within_30_by_notice"] == (False,)
    assert "method partisan; stage primary; what died;" in r8.describe()
    assert "within_30_by_notice false;" in r8.describe()


def test_electsim_gaps_prints_each_gap_with_its_sections_why_fallback_and_facts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["gaps"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("46 gaps and conflicts of the statutes")
    entries = {e.split("\n", 1)[0]: e for e in out.split("\n\n")[1:]}
    for g in departures.GAPS:
        entry = entries[f"gap:{g.id}"]  # one entry per id, as a ruling names it
        assert f"\n    provisions: {g.cite}" in entry, entry
        assert "\n    why: " in entry and "\n    facts: " in entry, entry
    assert "fallback: under late_notice: death_date, the death date decides" in out
    # the facts in words ("within 30 by notice: no"), not as the table's fields
    facts = " ".join(out.split())
    assert "within 30 by notice: no" in facts and "within_30_by_notice" not in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_electsim_gaps_json_groups_the_combinations_by_gap(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["gaps", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["combinations"] == len(FACTS)
    assert [g["id"] for g in doc["gaps"]] == [g.id for g in departures.GAPS]
    assert sum(g["combinations"] for g in doc["gaps"]) == doc["in_gaps"]
    first = doc["gaps"][0]
    assert first["cite"] == "G.S. 163-112(b)" and first["facts"]["what"] == ["died"]
    assert first["facts"]["seats"] == [1] and first["facts"]["within_30_by_death"] == [True]
    assert set(first) == {"id", "cite", "note", "fallback", "combinations", "facts"}


def test_electsim_gaps_verbose_lists_every_combination(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["gaps", "--verbose"]) == 0
    out = capsys.readouterr().out
    rows = [
        line
        for line in out.splitlines()
        if line.startswith("      ") and line.split()[0] in {m.value for m in Method}
    ]
    assert len(rows) == len(departure_gaps.gaps())


def test_the_effects_are_a_closed_vocabulary_every_kind_of_which_the_table_produces() -> None:
    # Effect.kind is an EffectKind: a misspelt kind fails when the table is built, and no kind
    # is vocabulary the engine interprets but no rule can give
    produced = {e.kind for f, fd in FINDINGS for e in fd.effect(f)}
    assert all(isinstance(k, departures.EffectKind) for k in produced)
    assert produced == set(departures.EffectKind)
    with pytest.raises(ValueError, match="name_remvoed"):
        departures.Effect("name_remvoed", departures.statute("163-112(b)"))


#: what the engine gives the words of an effect's ruling (engine/handlers/departure_effects.py)
GIVEN: dict[str, object] = {
    "deadline": datetime(2027, 7, 13, 17),
    "opens": datetime(2027, 8, 16, 12),
    "closes": datetime(2027, 8, 19, 12),
    "moved_from": date(2027, 8, 18),
    "why_moved": "a holiday",
    "notice": datetime(2027, 8, 16, 9),
    "noticed": datetime(2027, 8, 14, 9),
    "need": 1,
}


def test_every_effect_the_table_gives_is_worded_by_the_law_with_what_the_engine_gives() -> None:
    # the law's words of each ruling: every field of a template is given by the engine or
    # chosen from the facts, so no ruling the table can lead to is left half written
    assert set(departure_words.WORDS) == set(departures.EffectKind)
    said = set()
    for f, fd in FINDINGS:
        for e in fd.effect(f):
            if departure_words.WORDS[e.kind].ruling:
                text = departure_words.ruling(e, f, "Ann", "died", **GIVEN)
                assert text.startswith(("Ann", "after Ann", "votes cast for Ann")), text
                assert "{" not in text and "}" not in text, text
                said.add(e.kind)
            assert "{" not in departure_words.would(e, "Ann")
    quiet = {departures.EffectKind.INEFFECTIVE, departures.EffectKind.CERTIFY_IF_NONE}
    assert said == set(departures.EffectKind) - quiet


def test_why_a_name_comes_off_the_ballot_is_chosen_from_the_facts() -> None:
    # G.S. 163-294.2(d), 163-294.1(b): during filing, before printing, or on reprinted ballots
    effect = departures.Effect("name_removed", departures.statute("163-294.1(b)"))
    during = departure_facts.Facts(
        Method.PLURALITY, Stage.ELECTION, CandStatus.WITHDREW, departure_facts.DURING_FILING
    )
    before = attrs.evolve(during, when=departure_facts.BEFORE_ELECTION)
    printed = attrs.evolve(before, printed_at_notice=True)
    words = [
        departure_words.ruling(effect, f, "Ann", "withdrew") for f in (during, before, printed)
    ]
    assert words == [
        "Ann withdrew; filing is still open, so the name is not on the ballot",
        "Ann withdrew; the ballots are not yet printed, so the name is not on the ballot",
        "Ann withdrew; the ballots will be reprinted, so the name is not on the ballot",
    ]


def test_a_party_withdrawal_after_the_163_106e_deadline_leaves_the_candidacy_standing() -> None:
    # G.S. 163-106(e): until close of business on the third business day before filing closes;
    # 163-294.2(d) lets a nonpartisan candidate withdraw until filing closes
    late = departure_facts.Facts(
        Method.PARTISAN,
        Stage.PRIMARY,
        CandStatus.WITHDREW,
        departure_facts.DURING_FILING,
        past_party_withdrawal=True,
    )
    found = departures.TABLE.evaluate(late)
    assert found.rule is not None and found.rule.id == "party-withdrawal-too-late"
    kinds = [e.kind for e in found.effect(late)]
    assert kinds == [departures.EffectKind.NAME_REMAINS, departures.EffectKind.INEFFECTIVE]
    # the ruling names the deadline the withdrawal came after
    remains = found.effect(late)[0]
    text = departure_words.ruling(remains, late, "Ann", "withdrew", deadline=GIVEN["deadline"])
    assert "before filing closes, here 2027-07-13 17:00; the candidacy stands" in text
    in_time = attrs.evolve(late, past_party_withdrawal=False)
    assert departures.TABLE.evaluate(in_time).rule.id == "filing-open"  # type: ignore[union-attr]
    nonpartisan = attrs.evolve(late, method=Method.PLURALITY, stage=Stage.ELECTION)
    found = departures.TABLE.evaluate(nonpartisan)
    assert found.rule is not None and found.rule.id == "filing-open"
    assert [str(e.cite) for e in found.effect(nonpartisan)] == ["G.S. 163-294.2(d)"]


def test_a_defeated_candidate_who_leaves_after_the_result_changes_nothing() -> None:
    # G.S. 163-294.1(c) speaks of a person elected; 163-294.1(b) after the primary of nominees
    for stage, rule in ((Stage.ELECTION, "defeated-candidate-left"), (Stage.PRIMARY, None)):
        method = Method.PLURALITY if stage is Stage.ELECTION else Method.PARTISAN
        facts = departure_facts.Facts(
            method, stage, CandStatus.WITHDREW, departure_facts.ELECTION_OR_AFTER, defeated=True
        )
        found = departures.TABLE.evaluate(facts)
        expected = rule or "defeated-primary-candidate-left"
        assert found.rule is not None and found.rule.id == expected
        assert [e.kind for e in found.effect(facts)] == [departures.EffectKind.RESULT_STANDS]
