"""The wheel carries the rules, locales, schemas and grammars: an installed ckdsl works anywhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    src = tmp_path_factory.mktemp("src") / "ckdsl"
    # Build from a copy so the build never writes into the working tree.
    shutil.copytree(
        REPO,
        src,
        ignore=shutil.ignore_patterns(
            ".git", ".ci-venv", "*cache*", "__pycache__", "dist", "build", "_compiled"
        ),
    )
    # A pure wheel: compiling (hatch_build.py) would take a minute; CI's install compiles.
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(out)],
        cwd=src,
        check=True,
        capture_output=True,
        env={**os.environ, "CKDSL_PURE": "1"},
    )
    (path,) = out.glob("ckdsl-*.whl")
    return path


@pytest.mark.xdist_group("wheel")  # one worker builds the wheel for all three
def test_wheel_contains_the_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "ckdsl/_data/rules/base/progress.yaml",
        "ckdsl/_data/rules/locales/sr.yaml",
        "ckdsl/_data/rules/schema/variant.schema.json",
        "ckdsl/_data/rules/maps/standard.yaml",
        "ckdsl/_data/grammars/README.md",
        "ckdsl/cli.py",
        "ckdsl/table/web/static/index.html",  # the web table's page
        "ckdsl/table/web/static/table.js",
        "ckdsl/table/web/static/vendor/panzoom.min.js",  # and its licence beside it
        "ckdsl/table/web/static/vendor/panzoom-LICENSE.txt",
    ):
        assert expected in names


@pytest.mark.xdist_group("wheel")
def test_installed_wheel_validates_from_another_directory(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    where = subprocess.run(
        [sys.executable, "-c", "import ckdsl.paths as p; print(p.base_rules_dir())"],
        cwd=elsewhere, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert where.stdout.strip().startswith(str(target / "ckdsl" / "_data"))
    done = subprocess.run(
        [sys.executable, "-m", "ckdsl", "validate"],
        cwd=elsewhere, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("ok ") == 8  # the rule set, 6 locales and sr-Latn's file
    cards = subprocess.run(
        [sys.executable, "-m", "ckdsl", "cards", "--lang", "it", "--deck", "trade"],
        cwd=elsewhere, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert cards.returncode == 0, cards.stderr
    game = subprocess.run(
        [sys.executable, "-m", "ckdsl", "play", "--players", "random,random,random", "--seed", "1"],
        cwd=elsewhere, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert game.returncode == 0, game.stderr
    assert "Final scores" in game.stdout


@pytest.mark.slow
@pytest.mark.xdist_group("wheel")
def test_wheel_in_a_fresh_virtual_environment(wheel: Path, tmp_path: Path) -> None:
    """A new venv, pip installs the wheel, and the installed ckdsl (not the checkout's)
    works from another folder. The venv sees this environment's packages (a path in a .pth
    file: after its own, and without running this environment's .pth files, so not its
    editable ckdsl), so pip checks the wheel's dependencies against them instead of
    downloading them all again (a clean install from the index, dependencies included, is
    what CI's `.ci/run` does)."""
    env_dir = tmp_path / "venv"
    # Without a pip of its own (ensurepip installs and compiles pip: ~4 s): this
    # environment's pip installs into it (``pip --python``, pip >= 22.3), as its own would.
    ours_installs = tuple(int(n) for n in version("pip").split(".")[:2]) >= (22, 3)
    venv.create(env_dir, with_pip=not ours_installs)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    site = subprocess.run(
        [str(bindir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "_this_environment.pth").write_text("\n".join(sorted(ours)) + "\n")
    # (a PYTHONPATH naming a checkout would put it before the installed wheel)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(bindir / "python"), "install", "-q",
         str(wheel)] if ours_installs else
        [str(bindir / "python"), "-m", "pip", "install", "-q", str(wheel)],
        capture_output=True, text=True, check=False, env=env,
    )  # fmt: skip
    if install.returncode != 0 and "Could not find a version" in install.stderr:
        pytest.skip("no package index reachable: " + install.stderr.splitlines()[-1])
    assert install.returncode == 0, install.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(bindir / "python"), "-c", "import ckdsl; print(ckdsl.__file__)"],
        cwd=elsewhere, capture_output=True, text=True, check=True, env=env,
    )  # fmt: skip
    assert Path(where.stdout.strip()).is_relative_to(env_dir), where.stdout
    done = subprocess.run(
        [str(bindir / "ckdsl"), "validate"],
        cwd=elsewhere, capture_output=True, text=True, check=False, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
