"""``electsim import-results``: list the contests of a results file from the State Board of
Elections (or OpenElections), or import one as a scenario, printed as YAML or written with
``-o`` (:mod:`simulator.input.importer` reads the file)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import attrs
import yaml

from simulator.input.files import MAX_INPUT_BYTES
from simulator.input.importer import format_contest_list, import_results, list_contests
from simulator.input.loader import dump_scenario, scenario_to_dict
from simulator.input.output import check_output, visible, writing
from simulator.model.errors import ImportResultsError

__all__ = ["cmd_import_results"]


#: the options of an import, which --list does not take: (option, dest)
_IMPORT_OPTIONS = (
    ("--contest", "contest"),
    ("--seats", "seats"),
    ("--method", "method"),
    ("--stage", "stage"),
    ("--year", "year"),
    ("-o/--output", "output"),
    ("--overwrite", "overwrite"),
)


def cmd_import_results(args: argparse.Namespace) -> int:
    """``electsim import-results``: list the contests, or import one (stdout or ``-o``)."""
    encoding = getattr(args, "encoding", None) or "utf-8"
    max_bytes = getattr(args, "max_bytes", None) or MAX_INPUT_BYTES
    if args.list:
        ignored = [
            option
            for option, dest in _IMPORT_OPTIONS
            if getattr(args, dest, None) not in (None, False)
        ]
        if ignored:  # (each was ignored: the list printed, nothing imported or written)
            raise ImportResultsError(
                f"--list: expected alone, since it imports nothing; found {', '.join(ignored)} too"
            )
        summaries = list_contests(args.file, encoding=encoding, max_bytes=max_bytes)
        if args.json:
            doc = {"file": str(args.file), "contests": [attrs.asdict(c) for c in summaries]}
            sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        else:
            # (a contest name is the file's: a terminal escape in it is shown, not obeyed)
            shown = [attrs.evolve(s, name=visible(s.name, keep="")) for s in summaries]
            sys.stdout.write(format_contest_list(shown))
        return 0
    if args.json:
        raise ImportResultsError(
            "--json: expected with --list (an imported scenario is printed as YAML, or written "
            "with -o as .yaml or .json); found without"
        )
    if not args.contest:
        raise ImportResultsError(
            "import-results: expected --contest NAME (or --list to see the contests); found neither"
        )
    if args.seats is not None and args.seats < 1:
        raise ImportResultsError(f"--seats: expected a whole number, 1 or more; found {args.seats}")
    if getattr(args, "overwrite", False) and not args.output:
        raise ImportResultsError("--overwrite: expected -o FILE to go with it; found no -o")
    if args.output:
        check_output(args.output, inputs=(args.file,))
        kind = Path(args.output).suffix.lower()
        if kind not in (".yaml", ".yml", ".json"):
            raise ImportResultsError(
                f"-o: expected a scenario file name ending .yaml, .yml or .json; found "
                f"{args.output!r}"
            )
        if Path(args.output).exists() and not getattr(args, "overwrite", False):
            # a scenario written by hand there (with its expect: block) would be lost
            raise ImportResultsError(
                f"-o: expected a file that does not exist yet (or --overwrite to replace it); "
                f"found {args.output!r}, which exists"
            )
    scenario = import_results(
        args.file,
        args.contest,
        seats=args.seats,
        method=args.method,
        stage=args.stage,
        year=args.year,
        encoding=encoding,
        max_bytes=max_bytes,
    )
    if args.output:
        with writing(args.output):
            dump_scenario(scenario, args.output)
        print(f"wrote {args.output} ({len(scenario.events)} events)", file=sys.stderr)
        return 0

    sys.stdout.write(
        yaml.safe_dump(
            scenario_to_dict(scenario),
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=None,
            width=100,
        )
    )
    return 0
