"""How the command line parses and explains itself: the parser that reports a wrong argument the
electsim way (exit 2), the help formatter, ``--version``, each command's examples, and the refusal
of an option given an empty value."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any

from simulator.cli.common import EXIT_INVALID, UsageError
from simulator.input.loader.problems import did_you_mean
from simulator.input.output import terminal_columns

_INVALID_CHOICE = re.compile(r"argument (\S+): invalid choice: '(.*)' \(choose from (.*)\)")


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors say what was expected and what was found (exit 2)."""

    #: the arguments being parsed (a command's parser reads them to explain a missing option)
    given: Sequence[str] = ()

    def error(self, message: str) -> None:  # type: ignore[override]
        if m := _INVALID_CHOICE.fullmatch(message):
            option, found, choices = m.groups()
            option = option.split("/")[-1]
            names = choices.replace(chr(39), "")
            message = (
                f"{option}: expected one of {names}; found {found!r}"
                f"{did_you_mean(found, names.split(', '))}"
            )
        elif message.startswith("the following arguments are required"):
            # a misspelt required option (--methd) is reported as itself, not as missing
            known = {o for a in self._actions for o in a.option_strings}
            for arg in Parser.given:
                name = arg.split("=", 1)[0]
                if name.startswith("--") and name not in known:
                    hint = did_you_mean(name, sorted(o for o in known if o.startswith("--")))
                    if hint:
                        message = f"{name}: expected an option of {self.prog}; found {name!r}{hint}"
                        break
        self.print_usage(sys.stderr)
        print(f"electsim: error: {message}", file=sys.stderr)
        sys.exit(EXIT_INVALID)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """As argparse's, but an unknown option is reported with the options it looks like
        (``--jsn``: did you mean ``--json``?): argparse before Python 3.14 suggests none."""
        Parser.given = list(sys.argv[1:] if args is None else args)
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.unrecognized(parsed, extras)
        return parsed

    def unrecognized(self, parsed: argparse.Namespace, extras: list[str]) -> None:
        command = getattr(parsed, "command", None)
        parser: argparse.ArgumentParser = self
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction) and command in action.choices:
                parser = action.choices[command]
        options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
        where = f"{self.prog} {command}" if command else self.prog
        first = extras[0]
        if first.startswith("-"):
            name = first.split("=", 1)[0]
            hint = did_you_mean(name, options) or f" ({where} --help lists them)"
            parser.error(f"{name}: expected an option of {where}; found {name!r}{hint}")
        parser.error(
            f"expected no more arguments after what {where} takes; found "
            + " ".join(repr(x) for x in extras)
        )


#: each command's examples, shown at the end of its --help
EXAMPLES = {
    "replay": """\
examples:
  electsim replay scenarios/runoff/cary-2023-district-d.yaml
  electsim replay FILE --json > result.json
  electsim replay FILE --as-of 2023-10-17T15:00      what the board knew then
  electsim replay FILE --ics > deadlines.ics          the deadlines, for a calendar
  electsim replay FILE --ics calendars/               one calendar file per contest
  electsim replay FILE --chart timeline.svg --graph states.png""",
    "next": """\
examples:
  electsim next FILE                              every way each contest can still end
  electsim next FILE --as-of 2027-10-06T12:00     from what the board knew then
  electsim next FILE --departures 0 --json        the count and requests only, as JSON""",
    "test": """\
examples:
  electsim test scenarios                  every scenario under the folder
  electsim test my-case.yaml -q            print only what fails
  electsim test scenarios --json > report.json

exit codes: 0 every expectation holds; 3 an expectation does not hold;
2 invalid input (a scenario or expectation that cannot be read); 1 a bug""",
    "validate": """\
examples:
  electsim validate my-case.yaml
  electsim validate scenarios/runoff/*.yaml --json""",
    "calendar": """\
examples:
  electsim calendar 2027 --method nonpartisan-runoff
  electsim calendar 2027 --method partisan --json
  electsim calendar 2027 --method nonpartisan-runoff --ics > nc-2027.ics""",
    "new": """\
examples:
  electsim new --municipality "Town of Erwin" --office "Board of Commissioners" --year 2027 \\
      --candidates "Ann Adams, Bob Brown" -o erwin.yaml
  electsim new --municipality "City of Charlotte" --office Mayor --year 2027 \\
      --candidates "Ann Adams (DEM), Bob Brown (REP)"
  electsim new --municipality "Town of Example" --office "Council Seat A" --year 2027 \\
      --method nonpartisan-runoff --seats 2 --closed 2027-07-06 \\
      --candidates "Ann, Bob, Cy" -o example.yaml""",
    "demo": """\
examples:
  electsim demo                              the bundled scenarios, into out/
  electsim demo my-cases --out my-results --all-charts --jobs 2""",
    "report": """\
examples:
  electsim report scenarios/runoff/cary-2023-district-d.yaml -o cary.html
  electsim report FILE --as-of 2023-10-18T09:00""",
    "explore": """\
examples:
  electsim explore --method nonpartisan-runoff --seats 1 --candidates 3
  electsim explore --method partisan --candidates 4 --check --witnesses out/explore
  electsim explore --grid --seats 2 --workers 2
  electsim explore --grid --seats 2 --accept known-gaps.txt   exit 4 on a gap not in it""",
    "gaps": """\
examples:
  electsim gaps
  electsim gaps --json
  electsim gaps --ids > known-gaps.txt
  electsim gaps --explore --accept known-gaps.txt    exit 4 on a gap not in the file""",
    "import-results": """\
examples:
  electsim import-results 20231010__nc__general__precinct.csv.gz --list
  electsim import-results FILE --list --json
  electsim import-results FILE --contest "Town of Cary Town Council District D" \\
      --method nonpartisan-runoff -o cary.yaml""",
    "conformance": """\
examples:
  electsim conformance
  electsim conformance --method nonpartisan-primary --year 2019
  electsim conformance --markdown > conformance.md
  electsim conformance --data ~/nc-results --json""",
    "cite": """\
examples:
  electsim cite "163-294.4(c)"
  electsim cite 163-293 --json""",
    "schema": """\
examples:
  electsim schema > scenario.schema.json
  electsim schema --futures > futures.schema.json""",
    "app": """\
examples:
  electsim app scenarios/runoff/cary-2023-district-d.yaml
  electsim app FILE --port 8050 --no-browser   then open http://127.0.0.1:8050/""",
}


class Formatter(argparse.HelpFormatter):
    """Wraps descriptions to the terminal; keeps the line breaks of text that has them (the
    examples)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        # argparse would import shutil (and with it lzma, bz2 and fnmatch) for the width, on
        # every start: every argument added makes a formatter
        super().__init__(
            prog,
            indent_increment,
            max_help_position,
            terminal_columns() - 2 if width is None else width,
        )

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def _version() -> str:
    # (the package metadata's reader, and the email parser it brings, imported when asked)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("electsim")
    except PackageNotFoundError:  # pragma: no cover - running from a plain checkout
        return "unknown"


class Version(argparse.Action):
    """``--version``, resolved only when asked (package metadata is slow to read)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"electsim {_version()}")
        parser.exit()


def refuse_empty_values(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """An option given an empty value (``--as-of ""``, ``--chart ""``, as an unset
    shell variable writes it) is a mistake: it was read as the option not given (no chart was
    drawn, the whole log replayed, the report written under another name), exit 0."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = commands.choices.get(str(getattr(args, "command", "")))
    for action in command._actions if command is not None else ():
        value = getattr(args, action.dest, None)
        if not action.option_strings:  # (an empty file or citation is no file or citation)
            continue
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str) and not v.strip():
                name = "/".join(action.option_strings)
                raise UsageError(f"{name}: expected a value; found {v!r}, an empty one")


class ReadingError(UsageError, ValueError):
    """A ``--reading NAME=VALUE`` that names no switch or gives it no value it takes (exit 2)."""


def parse_readings(written: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    """``--reading NAME=VALUE`` options (``electsim explore``, ``replay``, ``report``, ``test``)
    as (name, value) pairs sorted by name; a yes-or-no switch's value is true or false. Raises
    :class:`ReadingError`, one line naming the first bad one, with a near name or value."""
    from enum import StrEnum

    import attrs

    from simulator.law.readings import Interpretations
    from simulator.law.readings import written as shown  # (``written`` names the options here)

    fields = {f.name: f for f in attrs.fields(Interpretations)}
    out: dict[str, Any] = {}
    for text in written:
        name, eq, value = text.partition("=")
        name, value = name.strip(), value.strip()
        field = fields.get(name)
        if not eq or field is None:
            names = sorted(fields)
            raise ReadingError(
                f"--reading: expected NAME=VALUE with NAME one of {', '.join(names)}; "
                f"found {text!r}{did_you_mean(name, names) if eq else ''}"
            )
        allowed: tuple[Any, ...] = (
            tuple(m.value for m in type(field.default))
            if isinstance(field.default, StrEnum)
            else (True, False)
        )
        chosen: Any = value
        if allowed == (True, False):
            chosen = {"true": True, "false": False}.get(value.lower(), value)
        if chosen not in allowed:
            words = [shown(a) for a in allowed]
            raise ReadingError(
                f"--reading {name}: expected one of {', '.join(words)}; "
                f"found {value!r}{did_you_mean(value, words)}"
            )
        if name in out and out[name] != chosen:
            raise ReadingError(f"--reading {name}: given twice, as {shown(out[name])} and {value}")
        out[name] = chosen
    return tuple(sorted(out.items()))


def with_readings(scenario: Any, readings: Sequence[tuple[str, Any]]) -> Any:
    """The scenario with these interpretation switches set over its own ``interpretations:``
    (``--reading`` overrides the file for this run)."""
    if not readings:
        return scenario
    import attrs

    from simulator.law.readings import Interpretations

    interp: Interpretations = scenario.interpretations
    changed: dict[str, Any] = {
        name: (value if isinstance(value, bool) else type(getattr(interp, name))(value))
        for name, value in readings
    }
    return attrs.evolve(scenario, interpretations=attrs.evolve(interp, **changed))


def readings_note(readings: Sequence[tuple[str, Any]]) -> str:
    """The line a command prints when ``--reading`` chose readings for the run."""
    from simulator.law.readings import written

    said = ", ".join(f"{name}: {written(value)}" for name, value in readings)
    return f"readings chosen on the command line (over the scenario's interpretations:): {said}"
