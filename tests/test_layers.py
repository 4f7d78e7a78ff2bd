"""The layers import downward only (docs/engine.md, "The package"): the import-linter contracts
in pyproject.toml hold, they cover every module, they break on an upward import, and no
folder imports a folder above it (tools/folder_imports.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import tomllib

REPO = Path(__file__).resolve().parent.parent
RUN = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True))"


def contract() -> dict[str, object]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts[0]


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    """Run the contract on the package under ``root`` (first on the path)."""
    return subprocess.run(
        [sys.executable, "-c", RUN],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def copy_of_the_package(tmp_path: Path) -> Path:
    shutil.copytree(
        REPO / "ckdsl", tmp_path / "ckdsl", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_layers_import_downward_only() -> None:
    result = lint(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout


def test_every_module_is_in_a_layer() -> None:
    """A module left out of the contract would escape it."""
    layers = [str(layer) for layer in contract()["layers"]]  # type: ignore[attr-defined]
    named = {m.strip() for layer in layers for m in layer.replace("|", ":").split(":")}
    graph = grimp.build_graph("ckdsl")
    for module in graph.modules:
        if module in ("ckdsl", "ckdsl.__main__"):
            continue  # the root and `python -m ckdsl`
        parts = module.split(".")
        covered = any(".".join(parts[:k]) in named for k in range(2, len(parts) + 1))
        assert covered, f"{module} is in no layer of the import contract"


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    """The state (the lowest engine layer) importing the game (the turn machine)."""
    root = copy_of_the_package(tmp_path)
    state = root / "ckdsl" / "core" / "state.py"
    state.write_text(
        state.read_text(encoding="utf-8") + "\nfrom ckdsl.turn import game  # noqa\n",
        encoding="utf-8",
    )
    result = lint(root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "ckdsl.core.state -> ckdsl.turn.game" in result.stdout
    assert "ckdsl's layers import downward only BROKEN" in result.stdout


def test_a_function_level_upward_import_breaks_it_too(tmp_path: Path) -> None:
    """An import hidden inside a function is an import all the same."""
    root = copy_of_the_package(tmp_path)
    rules = root / "ckdsl" / "rules" / "checks.py"
    rules.write_text(
        rules.read_text(encoding="utf-8")
        + "\n\ndef _late() -> None:\n    from ckdsl.dsl import program  # noqa\n",
        encoding="utf-8",
    )
    result = lint(root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "ckdsl.rules.checks -> ckdsl.dsl.program" in result.stdout


def folder_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """tools/folder_imports.py --check on the package under ``root``."""
    return subprocess.run(
        [sys.executable, str(root / "tools" / "folder_imports.py"), "--check"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_no_folder_imports_a_folder_above_it() -> None:
    """Read by folder, every import goes down: the contracts' order of the folders, and a
    folder and its subfolder never import each other."""
    done = folder_imports(REPO)
    assert done.returncode == 0, done.stderr
    assert ", 0 upward" in done.stderr


def test_a_subfolder_importing_its_folder_goes_up(tmp_path: Path) -> None:
    """The DSL's base (a subfolder of ckdsl/dsl) importing the parser (of ckdsl/dsl), which
    imports the base: the two folders would import each other."""
    root = copy_of_the_package(tmp_path)
    (root / "tools").mkdir()
    shutil.copy(REPO / "tools" / "folder_imports.py", root / "tools" / "folder_imports.py")
    types = root / "ckdsl" / "dsl" / "base" / "types.py"
    types.write_text(
        types.read_text(encoding="utf-8") + "\nfrom ckdsl.dsl import parser  # noqa\n",
        encoding="utf-8",
    )
    done = folder_imports(root)
    assert done.returncode == 1, done.stderr
    assert "upward: ckdsl.dsl.base -> ckdsl.dsl (ckdsl.dsl.base.types -> ckdsl.dsl.parser)" in (
        done.stderr
    )


def test_the_map_of_the_package_names_every_folder() -> None:
    """docs/engine.md's map has a line for each folder of the package (a new folder is a
    new layer, or part of one, to be said there)."""
    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text[text.index("## The package") : text.index("## Randomness")]
    package = REPO / "ckdsl"
    for init in sorted(package.rglob("__init__.py")):
        folder = init.parent.relative_to(package).as_posix()
        if folder != ".":
            assert f"| `{folder}/`" in section or f", `{folder}/`" in section, folder
