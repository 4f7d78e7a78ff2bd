"""Which folder of ckdsl imports which, and whether any import goes up.

    python tools/folder_imports.py          # one line per folder: what it imports
    python tools/folder_imports.py --check  # only the upward imports; exit 1 if any

A folder is a package of ckdsl (``ckdsl/dsl/compiler/``); a module at the top of the
package (``cli.py``, ``rng.py``) is a unit of its own. The order is the import-linter
contracts' in pyproject.toml: the layers of ckdsl, then, inside a folder, the layers of its
subfolders (a contract with ``containers``). A folder and a subfolder of its own may not
import each other: one builds on the other. Imports under ``if TYPE_CHECKING:`` do not
count (as for import-linter); imports inside functions do. The graph is grimp's, the
library import-linter is built on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import grimp
import tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "ckdsl"


def contracts() -> list[dict[str, object]]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        found: list[dict[str, object]] = tomllib.load(f)["tool"]["importlinter"]["contracts"]
    return [c for c in found if c["type"] == "layers"]


def units(layer: str) -> list[str]:
    return [u.strip() for u in layer.replace("|", ":").split(":")]


def rank_of() -> dict[str, tuple[int, ...]]:
    """Each unit's place, outermost first: (layer in ckdsl, layer in its container...);
    lower is higher up."""
    ranks: dict[str, tuple[int, ...]] = {}
    for contract in contracts():
        containers = contract.get("containers") or [""]
        for container in containers:  # type: ignore[union-attr]
            for i, layer in enumerate(contract["layers"]):  # type: ignore[arg-type]
                for unit in units(layer):
                    name = f"{container}.{unit}" if container else unit
                    ranks[name] = (*rank(container, ranks), i) if container else (i,)
    return ranks


def rank(unit: str, ranks: dict[str, tuple[int, ...]]) -> tuple[int, ...]:
    parts = unit.split(".")
    while parts:
        if ".".join(parts) in ranks:
            return ranks[".".join(parts)]
        parts.pop()
    raise KeyError(unit)


def folder_of(module: str, packages: set[str]) -> str:
    parts = module.split(".")
    if len(parts) == 2 and module not in packages:
        return module  # a module at the top: a unit of its own
    while ".".join(parts) not in packages:
        parts.pop()
    return ".".join(parts)


def edges() -> dict[tuple[str, str], str]:
    """(importer's folder, imported folder) -> one import that makes it."""
    graph = grimp.build_graph(PACKAGE, exclude_type_checking_imports=True)
    packages = {m for m in graph.modules if (ROOT / m.replace(".", "/") / "__init__.py").exists()}
    found: dict[tuple[str, str], str] = {}
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            a, b = folder_of(importer, packages), folder_of(imported, packages)
            if a != b and not {a, b} & {PACKAGE, f"{PACKAGE}.__main__"}:
                found.setdefault((a, b), f"{importer} -> {imported}")
    return found


def upward(a: str, b: str, ranks: dict[str, tuple[int, ...]], found: set[tuple[str, str]]) -> bool:
    """Whether folder ``a`` importing folder ``b`` goes up."""
    if a.startswith(b + ".") or b.startswith(a + "."):
        # A folder and its subfolder: one may build on the other, not both (the
        # subfolder's import of its parent's own modules is the one said to go up).
        return a.startswith(b + ".") and (b, a) in found
    ra, rb = rank(a, ranks), rank(b, ranks)
    common = 0
    while common < min(len(ra), len(rb)) and ra[common] == rb[common]:
        common += 1
    if common == min(len(ra), len(rb)):
        return False  # the same layer (siblings of one layer may import each other)
    return rb[common] < ra[common]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="print only upward imports")
    args = parser.parse_args()
    ranks = rank_of()
    found = edges()
    up = {e: why for e, why in found.items() if upward(*e, ranks, set(found))}
    if not args.check:
        for folder in sorted({a for a, _ in found}, key=lambda f: (rank(f, ranks), f)):
            down = sorted((b for a, b in found if a == folder), key=lambda f: (rank(f, ranks), f))
            marks = [f"{b} (UP: {found[(folder, b)]})" if (folder, b) in up else b for b in down]
            print(f"{folder} -> {', '.join(marks)}")
    for (a, b), why in sorted(up.items()):
        print(f"upward: {a} -> {b} ({why})", file=sys.stderr)
    print(f"{len(found)} folder-to-folder imports, {len(up)} upward", file=sys.stderr)
    return 1 if up else 0


if __name__ == "__main__":
    sys.exit(main())
