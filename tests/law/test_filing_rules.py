"""The filing tables (simulator.filing_rules): G.S. 163-291(2) and (3), 163-110, 163-294(a),
163-294.2(c) and 163-294.4(a) as rules, explored over every combination of their facts."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator.law.rules import Verdict
from simulator.law.tables import filing


@pytest.mark.parametrize("table", filing.TABLES, ids=lambda t: t.name)
def test_every_filing_question_has_exactly_one_answer_for_every_combination(table: object) -> None:
    # each ground excludes the ones the board meets before it: no conflict is possible
    assert isinstance(table, type(filing.NOTICE))
    findings = [f for _, f in table.explore()]
    assert findings
    assert all(f.verdict in (Verdict.RULED, Verdict.GAP) for f in findings)
    assert not any("unnamed" in f.id for f in findings)


amounts = st.decimals(min_value=0, max_value=100000, places=2, allow_nan=False)


@given(fee=amounts, salary=st.none() | amounts)
def test_the_fee_bounds_table_agrees_with_a_direct_reading_of_163_291_3(
    fee: Decimal, salary: Decimal | None
) -> None:
    # G.S. 163-291(3): from $5 to 1% of the salary; exactly $5 when 1% is less than $5
    one_percent = salary / 100 if salary is not None else None
    if one_percent is not None and one_percent < 5:
        fine = fee == 5
    else:
        fine = fee >= 5 and (one_percent is None or fee <= one_percent)
    assert (filing.fee_bounds(fee, salary) is None) is fine


def test_a_fee_above_one_percent_names_the_bound_in_dollars() -> None:
    # G.S. 163-291(3)
    assert filing.fee_bounds(Decimal("130"), Decimal("12000")) == (
        "a filing fee between $5.00 and 1% of the salary ($120.00) (G.S. 163-291(3))",
        "$130.00",
    )


def test_with_no_fixed_fee_less_than_five_dollars_is_not_the_fee() -> None:
    # G.S. 163-291(3): "a minimum filing fee of five dollars"
    facts = filing.FeeFacts(
        partisan_primary=True, fixed=False, below_fixed=False, below_minimum=True
    )
    finding = filing.FEE.evaluate(facts)
    assert finding.effect is filing.FeeEffect.REJECTED and finding.id == "minimum-fee"


def test_a_second_office_is_refused_before_the_fee_is_looked_at() -> None:
    # G.S. 163-291(2): the board meets the one-office rule before the fee
    facts = filing.NoticeFacts(
        partisan=True,
        already_filed=False,
        departed=False,
        other_office=True,
        wrong_party=False,
        fee_short=True,
        lists_nominees=False,
        election_day=False,
        in_period=True,
    )
    finding = filing.NOTICE.evaluate(facts)
    assert finding.effect is filing.Notice.OTHER_OFFICE and finding.near == ("163-291(2)",)
    assert not finding.effect.reaches_fee


@pytest.mark.parametrize(
    ("party", "few", "effect", "cite"),
    [
        (True, True, filing.Primary.PARTY_NOMINEES, "163-110"),
        (True, False, filing.Primary.HELD, "163-110"),
        (False, True, filing.Primary.NOMINATED, "163-294(a)"),
        (False, False, filing.Primary.HELD, "163-294(a)"),
    ],
)
def test_the_close_of_filing_holds_a_primary_only_with_more_candidates_than_it_needs(
    party: bool, few: bool, effect: filing.Primary, cite: str
) -> None:
    # G.S. 163-110 (party primaries), 163-294(a) (nonpartisan primaries)
    finding = filing.CLOSE.evaluate(filing.CloseFacts(party=party, few=few))
    assert finding.effect is effect and finding.near == (cite,)


def test_a_partisan_contest_is_never_extended_whatever_else_holds() -> None:
    # G.S. 163-294.4(a) speaks of nonpartisan elections
    for facts, finding in filing.EXTENSION.explore():
        if facts.partisan:
            assert finding.effect is filing.Extension.PARTISAN
    extended = [f for f, x in filing.EXTENSION.explore() if x.effect is filing.Extension.EXTENDED]
    assert extended == [filing.ExtensionFacts(False, True, False, False, False)]


def test_the_filing_law_table_names_one_provision_for_each_kind_of_contest_and_act() -> None:
    # G.S. 163-291(2) and 163-106(e) for party contests; 163-294.2(c) and (d) for nonpartisan
    cites = {
        (partisan, withdrawal): str(filing.filing_cite(partisan=partisan, withdrawal=withdrawal))
        for partisan in (False, True)
        for withdrawal in (False, True)
    }
    assert cites == {
        (True, False): "G.S. 163-291(2)",
        (False, False): "G.S. 163-294.2(c)",
        (True, True): "G.S. 163-106(e)",
        (False, True): "G.S. 163-294.2(d)",
    }
    finding = filing.FILING_LAW.evaluate(filing.FilingLawFacts(partisan=False, withdrawal=True))
    assert finding.effect is filing.FilingAct.WITHDRAWAL and finding.id == "nonpartisan-withdrawal"
