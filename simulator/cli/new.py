"""``electsim new``: a first scenario for a town's contest in one command (docs/cli.md).

The method comes from ``--method``, else from the table of the methods the towns' elections show
in the State Board's results (:mod:`simulator.law.towns`); the file itself is written by
:mod:`simulator.views.first_scenario`. What was assumed is said on stderr, one line each.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from datetime import date
from typing import Any

from simulator.cli.common import EXIT_OK, FIRST_YEAR, LAST_YEAR, UsageError

_PARTY_AFTER = re.compile(r"^(.*\S)\s*\(([A-Za-z]{2,5})\)$")


def register(sub: argparse._SubParsersAction[Any], only: str | None, *, docs: str) -> None:
    """Add ``electsim new`` to the command line, unless another command (``only``) is run;
    ``docs`` says where the documentation is."""
    from simulator.cli.parsing import EXAMPLES, Formatter

    if only not in (None, "new"):
        return
    p = sub.add_parser(
        "new",
        help="write a first scenario for a town's contest",
        description="Write a first scenario for a town's contest: the contest, the method the "
        "town's elections show in the State Board's results (or --method), the statutory "
        "dates in comments, one filing per candidate and, commented out, the returns and the "
        "canvass on their days. Says on stderr what it assumed.",
        epilog=EXAMPLES["new"] + f"\n\ndocumentation: {docs}",
        formatter_class=Formatter,
    )
    p.add_argument("--municipality", required=True, help='the town or city, like "Town of Cary"')
    p.add_argument("--office", required=True, help='the office, like "Town Council District D"')
    p.add_argument("--year", required=True, type=int, help="the election year, like 2027")
    p.add_argument(
        "--candidates",
        required=True,
        action="append",
        metavar="NAMES",
        help='the candidates, separated by commas: "Ann Adams, Bob Brown" (repeatable); in a '
        'partisan election, each with its party: "Ann Adams (DEM)"',
    )
    p.add_argument(
        "--method",
        metavar="METHOD",
        help="the election method: partisan, nonpartisan-plurality, nonpartisan-primary or "
        "nonpartisan-runoff (default: the one the town's elections show in the State Board's "
        "results 2011-2025; needed for a town they do not name)",
    )
    p.add_argument("--seats", type=int, default=1, metavar="N", help="seats to fill (default: 1)")
    p.add_argument(
        "--stage",
        metavar="STAGE",
        default="election",
        help="election (the default) or primary (the partisan and nonpartisan-primary methods)",
    )
    p.add_argument("--party", help="whose primary it is, like DEM (a partisan primary)")
    p.add_argument(
        "--district-based",
        action="store_true",
        help="the census-year filing exception for district elections (G.S. 163-291(2)a, "
        "163-294.2(c)(1))",
    )
    p.add_argument(
        "--closed",
        action="append",
        default=[],
        metavar="DATE",
        help="a day the board's office is closed besides the State holidays, like 2027-07-06 "
        "(repeatable): deadlines on it move to the next open day (G.S. 103-5)",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the scenario here (.yaml or .yml; an existing file is never replaced), "
        "not to stdout",
    )
    p.set_defaults(func=cmd_new)


def cmd_new(args: argparse.Namespace) -> int:
    from simulator.law.vocab import Method, Stage
    from simulator.views.first_scenario import COMMENTED, NewContest, first_scenario

    if args.output is not None:
        _check_output(args.output)
    if not FIRST_YEAR <= args.year <= LAST_YEAR:
        raise UsageError(
            f"--year: expected a year from {FIRST_YEAR} to {LAST_YEAR}; found {args.year}"
        )
    if args.seats < 1:
        raise UsageError(f"--seats: expected a whole number, 1 or more; found {args.seats}")
    municipality = _text("--municipality", args.municipality)
    office = _text("--office", args.office)
    method, said = _method(args.method, municipality)
    stage = _choice("--stage", args.stage, [s.value for s in Stage])
    stage_ = Stage(stage)
    if stage_ is Stage.PRIMARY and method not in (Method.PARTISAN, Method.PRIMARY):
        raise UsageError(
            f"--stage: expected election for the {method.value} method (only partisan and "
            f"nonpartisan-primary hold a primary); found {stage!r}"
        )
    party = _party(args.party, method, stage_)
    candidates = _candidates(args.candidates, method, stage_)
    closed = tuple(_day(d) for d in args.closed)
    contest = NewContest(
        municipality,
        office,
        args.year,
        method,
        candidates,
        seats=args.seats,
        stage=stage_,
        party=party,
        district_based=args.district_based,
        closed=closed,
        method_source=said,
    )
    text = first_scenario(contest)
    if args.output is None:
        sys.stdout.write(text)
    else:
        _write_new(args.output, text)
    _say(said)
    seats = f"{args.seats} seat" + ("s" if args.seats != 1 else "")
    _say(
        f"{seats} (--seats), stage {stage} (--stage), "
        + ("district-based (--district-based)" if args.district_based else "not district-based")
        + (f", office closed on {', '.join(d.isoformat() for d in closed)}" if closed else "")
        + "; every filing an hour after filing opens; times in America/New_York"
    )
    if "\n" + COMMENTED in text:
        _say(
            "the returns and the canvass are commented out, with placeholder counts: uncomment "
            "them and write the real counts"
        )
    if args.output is not None:
        _say(f"wrote {args.output}")
    return EXIT_OK


def _say(line: str) -> None:
    print(f"electsim new: {line}", file=sys.stderr)


def _check_output(path: str) -> None:
    if not path.lower().endswith((".yaml", ".yml")):
        raise UsageError(f"-o: expected a .yaml or .yml file name; found {path!r}")
    if os.path.lexists(path):
        raise UsageError(
            f"-o: expected a file that does not exist yet; found {path!r}, which does (electsim "
            "new never replaces a file: choose another name or remove it)"
        )


def _write_new(path: str, text: str) -> None:
    """Write ``text`` to a file that must not exist (checked again as it is made)."""
    try:
        with open(path, "x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        _check_output(path)
        raise
    except OSError as e:
        raise UsageError(f"-o: cannot write {path!r}: {e.strerror or e}") from None


def _text(option: str, value: str) -> str:
    from simulator.input.loader.values import PRINTABLE, has_controls, normal_name

    if has_controls(value):
        raise UsageError(f"{option}: expected {PRINTABLE}; found {value!r}")
    return normal_name(value)


def _choice(option: str, value: str, choices: list[str]) -> str:
    from simulator.input.loader.problems import did_you_mean

    if value in choices:
        return value
    raise UsageError(
        f"{option}: expected one of {', '.join(choices)}; found {value!r}"
        + did_you_mean(value, choices)
    )


def _method(given: str | None, municipality: str) -> tuple[Any, str]:
    """The method, and where it comes from in words (for stderr and the file's comment)."""
    from simulator.law.towns import FIRST_YEAR as FIRST
    from simulator.law.towns import LAST_YEAR as LAST
    from simulator.law.towns import close_towns, town_method
    from simulator.law.vocab import Method

    choices = [m.value for m in Method]
    found = town_method(municipality)
    if given is not None:
        method = Method(_choice("--method", given, choices))
        said = f"method {method.value} (--method)"
        if found is not None and found.method is not method:
            said += (
                f"; the State Board's results {FIRST}-{LAST} show {found.method.value} for "
                f"{found.town}: {found.evidence}"
            )
        return method, said
    if found is None:
        close = close_towns(municipality)
        hint = f"; did you mean {' or '.join(repr(t) for t in close)}?" if close else ""
        raise UsageError(
            f"--municipality: expected a town of the State Board's results {FIRST}-{LAST}, or "
            f"--method with one of {', '.join(choices)}; found {municipality!r}, not found "
            f"among those towns{hint}"
        )
    return found.method, (
        f"method {found.method.value}, the one {found.town}'s elections show in the State "
        f"Board's results {FIRST}-{LAST} ({found.evidence}); --method to choose another"
    )


def _party(party: str | None, method: Any, stage: Any) -> str | None:
    from simulator.law.vocab import Method, Stage

    if party is None:
        if method is Method.PARTISAN and stage is Stage.PRIMARY:
            raise UsageError(
                "--party: expected whose primary it is, like DEM, for a partisan primary; found "
                "nothing"
            )
        return None
    if method is not Method.PARTISAN:
        raise UsageError(
            f"--party: expected no party for the {method.value} method (its contests are "
            f"nonpartisan); found {party!r}"
        )
    if stage is not Stage.PRIMARY:
        raise UsageError(
            f"--party: expected no party for a partisan election (write each candidate's party "
            f'after the name: "Ann Adams (DEM), Bob Brown (REP)"); found {party!r}'
        )
    return _text("--party", party)


def _candidates(given: list[str], method: Any, stage: Any) -> tuple[tuple[str, str | None], ...]:
    from simulator.input.loader.values import BadValue, normal_name, read_name
    from simulator.law.vocab import Method, Stage
    from simulator.model.events import is_write_in

    names = [n for text in given for n in text.split(",")]
    partisan_election = method is Method.PARTISAN and stage is Stage.ELECTION
    out: list[tuple[str, str | None]] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(names, 1):
        where = f"--candidates: the {_ordinal(i)} name"
        if not raw.strip():
            raise UsageError(
                f'{where}: expected a name between the commas, like "Ann Adams, Bob Brown"; '
                f"found an empty one in {', '.join(given)!r}"
            )
        try:
            name = normal_name(read_name(raw))
        except BadValue as e:
            raise UsageError(f"{where}: expected {e.expected}; found {e.found}") from None
        party = None
        m = _PARTY_AFTER.match(name) if partisan_election else None
        if m and not is_write_in(name):
            name, party = m.group(1), m.group(2).upper()
        if is_write_in(name):
            raise UsageError(
                f"{where}: expected a candidate who files a notice of candidacy; found "
                f"{name!r}, a write-in (write-ins file nothing: add their votes to the returns)"
            )
        folded = name.casefold()
        if folded in seen:
            raise UsageError(
                f"{where}: expected each candidate once; found {name!r} again (the "
                f"{_ordinal(list(seen).index(folded) + 1)} name is {seen[folded]!r})"
            )
        seen[folded] = name
        out.append((name, party))
    return tuple(out)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--closed: expected a date like 2027-07-06; found {text!r}") from None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
