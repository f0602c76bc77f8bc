"""The package as a user installs it: ``python -m build`` makes a wheel and an sdist; the wheel,
installed into a fresh virtualenv, runs ``electsim --version`` and a replay.

Marked ``dist`` (``make dist-check``): building and installing needs the package index, and takes
a minute, so the ordinary suite leaves it out. It skips, saying why, when the index cannot be
reached.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.dist


def _run(*cmd: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    p = _run(sys.executable, "-m", "build", "--outdir", out, ROOT)
    if p.returncode != 0:
        if "Could not find a version" in p.stderr or "connection" in p.stderr.lower():
            pytest.skip(f"cannot build without the package index: {p.stderr[-300:]}")
        raise AssertionError(p.stdout[-2000:] + p.stderr[-2000:])
    return out


def test_build_makes_a_wheel_and_an_sdist_with_the_license(dist: Path) -> None:
    (wheel,) = dist.glob("electsim-*.whl")
    (sdist,) = dist.glob("electsim-*.tar.gz")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert "simulator/cli/main.py" in names
    # every command's module, and the packages below the top one (found, not listed by hand)
    for command in ("replay", "validate", "test", "calendar", "demo", "report", "conformance"):
        assert f"simulator/cli/{command}.py" in names
    assert "simulator/analysis/conformance/runoffs.py" in names
    assert "simulator/law/town_methods.csv" in names  # the data electsim new reads
    assert any(n.endswith("LICENSE") for n in names)
    assert any(n.endswith("entry_points.txt") for n in names)
    with tarfile.open(sdist) as t:
        members = t.getnames()
    assert any(m.endswith("/LICENSE") for m in members)
    assert any(m.endswith("/docs/scenario.schema.json") for m in members)


def test_the_wheel_installed_in_a_fresh_virtualenv_runs(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("electsim-*.whl")
    env = tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", env).returncode == 0
    pip = _run(env / "bin" / "python", "-m", "pip", "install", "--quiet", wheel)
    if pip.returncode != 0:
        pytest.skip(
            f"cannot install the dependencies without the package index: {pip.stderr[-300:]}"
        )
    electsim = env / "bin" / "electsim"
    version = _run(electsim, "--version", cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("electsim ")
    scenario = ROOT / "scenarios" / "runoff" / "cary-2023-district-d.yaml"
    replay = _run(electsim, "replay", scenario, "--json", cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    doc = json.loads(replay.stdout)
    assert doc["contests"][0]["outcome"]["elected"] == ["Sarika Bansal"]
    # the installed package is the one used, not the source tree
    where = _run(
        env / "bin" / "python", "-c", "import simulator; print(simulator.__file__)", cwd=tmp_path
    )
    assert str(env) in where.stdout
