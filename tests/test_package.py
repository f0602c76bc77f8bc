"""The package's public names, in groups, and what a replay leaves out: the heavy libraries
(matplotlib, networkx, ipywidgets, dask, nbformat) are imported by the functions that use them,
as are the standard library's process pools, web server and package metadata reader (the
parallel sweeps and charts, ``electsim app``, ``--version``)."""

from __future__ import annotations

import subprocess
import sys

import simulator

#: the libraries imported only by the functions that draw, show or spread work
HEAVY = {"matplotlib", "networkx", "ipywidgets", "dask", "distributed", "nbformat"}
#: the standard library's modules imported only by the commands and engines that need them
HEAVY_STDLIB = {"multiprocessing", "concurrent.futures", "http.server", "importlib.metadata"}


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(out.split())


SMALL = "scenarios/contingencies/112a-one-of-two-dies-day-30-nobody-files.yaml"


def test_a_replay_imports_no_chart_graph_widget_or_holiday_library() -> None:
    loaded = _modules_after(
        f"import simulator\ns = simulator.load_scenario({SMALL!r})\nsimulator.replay(s)"
    )
    assert "simulator.engine.replay" in loaded
    # nor the date libraries: the closure table answers for the years a scenario uses (G.S.
    # 103-5 moves), and a deadline off a change of clocks is placed without pendulum
    assert not (HEAVY | {"holidays", "pendulum", "dateutil"}) & loaded


def test_a_replay_from_the_command_line_starts_no_pool_server_or_metadata_reader() -> None:
    loaded = _modules_after(
        "from simulator.cli.main import main\n"
        f"try:\n    main(['replay', {SMALL!r}])\nexcept SystemExit:\n    pass"
    )
    assert "simulator.cli.app" in loaded and "simulator.engine.replay" in loaded
    assert not (HEAVY | HEAVY_STDLIB) & loaded, (HEAVY | HEAVY_STDLIB) & loaded


def test_asking_the_version_reads_the_package_metadata() -> None:
    # the test above must be able to fail: --version does import the metadata reader
    loaded = _modules_after(
        "from simulator.cli.main import main\ntry:\n    main(['--version'])\n"
        "except SystemExit:\n    pass"
    )
    assert "importlib.metadata" in loaded


def test_drawing_a_timeline_imports_matplotlib() -> None:
    # the test above must be able to fail: the chart's function does import it
    loaded = _modules_after(
        f"import simulator\ns = simulator.load_scenario({SMALL!r})\n"
        "simulator.plot_timeline(simulator.replay(s))"
    )
    assert "matplotlib" in loaded


def test_the_public_names_are_those_the_readme_and_the_notebooks_use() -> None:
    assert simulator.__all__[:4] == [
        "load_scenario",
        "parse_scenario",
        "structure",
        "scenario_to_dict",
    ]
    for name in simulator.__all__:
        assert getattr(simulator, name) is not None
    assert simulator.replay.__module__ == "simulator.engine.replay"


def test_the_whatif_api_is_a_module_of_its_own() -> None:
    from simulator.analysis import whatif

    assert simulator.whatif.__all__ == whatif.__all__
    assert simulator.whatif.Margin is whatif.Margin
    assert simulator.fork is whatif.fork


def test_star_import_gives_the_public_names() -> None:
    out = subprocess.run(
        [sys.executable, "-c", "from simulator import *\nprint(' '.join(dir()))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert set(simulator.__all__) <= set(out.split())
