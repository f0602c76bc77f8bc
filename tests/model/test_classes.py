"""The compiled code of attrs' methods kept between runs (simulator/model/classes.py): a second
start compiles nothing, its classes behave as the first start's, Python's per-process hash
salt does not make the cache grow, and a broken or foreign cache changes nothing."""

from __future__ import annotations

import json
import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import attr._make
import pytest

from simulator.model import classes

#: a child process that replays a scenario and reports what the cache did
_CHILD = """
import json, sys
from simulator.model import classes
import simulator
from simulator.engine.replay import replay
from simulator.input.loader import load_scenario
result = replay(load_scenario(sys.argv[1]))
cache = classes.installed
print(json.dumps({
    "new": cache.new,
    "used": len(cache.used),
    "path": cache.path,
    "result": result.to_json(),
}))
"""

SCENARIO = (
    Path(__file__).resolve().parents[2]
    / "scenarios"
    / "runoff"
    / "tie-for-second-withdrawal-then-demand.yaml"
)


def _start(prefix: Path, *, seed: str, write: bool = True) -> dict[str, object]:
    env = {
        **os.environ,
        "PYTHONPYCACHEPREFIX": str(prefix),
        "PYTHONHASHSEED": seed,
        "PYTHONDONTWRITEBYTECODE": "" if write else "1",
    }
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(SCENARIO)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    done: dict[str, object] = json.loads(out.stdout)
    return done


def _entries(path: object) -> dict[tuple[str, str], bytes]:
    assert isinstance(path, str)
    with open(path, "rb") as f:
        kept: dict[tuple[str, str], bytes] = marshal.loads(f.read())
    return kept


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """A first start, with a bytecode folder of its own: the folder and what the start did."""
    prefix = tmp_path_factory.mktemp("pycache")
    return prefix, _start(prefix, seed="1")


def _copy(first: tuple[Path, dict[str, object]], to: Path) -> tuple[Path, Path]:
    """The first start's bytecode folder copied (its modules compiled, its cache written): the
    copy, and its cache file."""
    prefix, done = first
    shutil.copytree(prefix, to)
    return to, to / Path(str(done["path"])).relative_to(prefix)


def test_a_second_start_compiles_none_of_the_methods_the_first_compiled(
    first: tuple[Path, dict[str, object]],
) -> None:
    prefix, done = first
    assert isinstance(done["new"], int) and done["new"] > 50  # every class of a replay
    assert done["path"] is not None and str(prefix) in str(done["path"])
    second = _start(prefix, seed="1")
    assert second["new"] == 0
    assert second["used"] == done["used"]
    assert second["result"] == done["result"]


def test_the_hash_salt_of_a_process_leaves_the_cache_as_it_is(
    first: tuple[Path, dict[str, object]],
) -> None:
    # attrs mixes a number drawn from the process's string hashing into each __hash__
    prefix, done = first
    kept = _entries(done["path"])
    second = _start(prefix, seed="2")
    assert second["new"] == 0
    assert _entries(second["path"]).keys() == kept.keys()
    assert second["result"] == done["result"]


def test_nothing_is_written_where_python_writes_no_bytecode(
    first: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    prefix, cache = _copy(first, tmp_path / "copy")
    cache.unlink()
    done = _start(prefix, seed="1", write=False)
    assert isinstance(done["new"], int) and done["new"] > 50
    assert not cache.exists()


def test_a_broken_cache_file_is_ignored_and_written_again(
    first: tuple[Path, dict[str, object]], tmp_path: Path
) -> None:
    prefix, cache = _copy(first, tmp_path / "copy")
    cache.write_bytes(b"not a cache")
    again = _start(prefix, seed="1")
    assert again["new"] == first[1]["new"]
    assert again["result"] == first[1]["result"]
    assert len(_entries(again["path"])) == first[1]["new"]


def test_this_process_compiles_attrs_methods_through_the_cache() -> None:
    # attrs compiles through the name ``compile`` of attr._make: were that to change, the
    # cache would sit unused and this says so
    import simulator.model.events  # noqa: F401 (its classes are made here, if not before)

    assert classes.installed is not None
    assert attr._make.compile == classes.installed.compile  # type: ignore[attr-defined]
    assert classes.installed.used


def test_code_of_other_packages_is_compiled_as_before(tmp_path: Path) -> None:
    cache = classes.MethodCache(str(tmp_path / "cache.bin"))
    code = cache.compile("x = 1", "<attrs generated methods other.Thing>", "exec")
    assert code.co_filename == "<attrs generated methods other.Thing>"
    assert not cache.used and not cache.new
    ours = cache.compile("x = 1", "<attrs generated methods simulator.Thing>", "exec")
    assert cache.new == 1
    cache.write()
    assert len(_entries(str(tmp_path / "cache.bin"))) == 1
    again = classes.MethodCache(str(tmp_path / "cache.bin"))
    assert again.compile("x = 1", "<attrs generated methods simulator.Thing>", "exec") == ours
    assert again.new == 0


def test_two_processes_writing_keep_what_each_compiled(tmp_path: Path) -> None:
    path = str(tmp_path / "cache.bin")
    one, two = classes.MethodCache(path), classes.MethodCache(path)
    one.compile("x = 1", "<attrs generated methods simulator.One>", "exec")
    two.compile("y = 2", "<attrs generated methods simulator.Two>", "exec")
    one.write()
    two.write()
    assert {name for name, _ in _entries(path)} == {
        "<attrs generated methods simulator.One>",
        "<attrs generated methods simulator.Two>",
    }
    assert not list(tmp_path.glob("cache.bin.*"))  # no part left behind
