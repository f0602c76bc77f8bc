"""The package's public names load on first use, and the command line starts light."""

from __future__ import annotations

import subprocess
import sys


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(out.split())


def test_the_command_line_imports_no_engine_charts_or_holiday_package_to_start() -> None:
    loaded = _modules_after("import simulator.cli.main\nsimulator.cli.main.build_parser()")
    heavy = {
        "simulator.engine.replay",
        "simulator.input.loader",
        "matplotlib",
        "networkx",
        "holidays",
        "yaml",
    }
    heavy |= {"pendulum", "dateutil", "tqdm", "icalendar", "traceback", "zoneinfo"}
    # nor attrs (a quarter of the start of electsim --help), nor what electsim cite reads
    heavy |= {"attrs", "attr", "simulator.analysis.references", "simulator.law.cite"}
    assert not heavy & loaded


SMALL = "scenarios/contingencies/112a-one-of-two-dies-day-30-nobody-files.yaml"


def test_a_replay_looks_up_no_holiday_package() -> None:
    # the closure table answers for the years a scenario uses (G.S. 103-5 moves)
    loaded = _modules_after(
        f"import simulator\ns = simulator.load_scenario({SMALL!r})\nsimulator.replay(s)"
    )
    assert "simulator.engine.replay" in loaded
    # nor the charts, the graphs or the date libraries: a deadline off a change of clocks is
    # placed without pendulum (simulator.law.calendar.local)
    heavy = {"holidays", "matplotlib", "networkx", "pendulum", "dateutil", "tqdm", "icalendar"}
    assert not heavy & loaded


def test_the_replay_function_keeps_its_name_after_the_engine_is_imported() -> None:
    import simulator
    import simulator.engine.replay as module
    from simulator import replay

    assert callable(simulator.replay)
    assert simulator.replay is replay is module.replay
    assert replay.__module__ == "simulator.engine.replay"


def test_star_import_gives_the_whole_public_api() -> None:
    namespace: dict[str, object] = {}
    exec("from simulator import *", namespace)
    for name in ("replay", "load_scenario", "Scenario", "sweep", "fork", "compare", "Sweep"):
        assert name in namespace
