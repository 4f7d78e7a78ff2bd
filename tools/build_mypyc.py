"""Compile ckdsl's hot modules with mypyc, in place: an optional build, about 2.5x the
decisions per second of the pure-Python engine and 2x the heuristic bots' speed
(docs/engine.md, "Speed").

    python tools/build_mypyc.py [--only engine|engine+dsl|all|all+bots] [--opt 0-3]
    python tools/build_mypyc.py --pure

The .so files land next to the sources, so an editable install (or a checkout on
sys.path) runs them; ``--pure`` removes them again. The pure-Python package stays the
default and the reference: the suite runs on it, and again on the compiled build in CI.

A compiled module does not see later edits of its source: the build records a hash of
every source it compiled in ``ckdsl/_native.json``, and importing ckdsl refuses a build
whose sources have changed since (``ckdsl/__init__.py``) rather than run stale code.

Needs mypy (mypyc ships with it), setuptools >= 77 (the dev extra has both), a C compiler
and the Python headers. The compiled modules share one library,
``ckdsl/_native__mypyc*.so``; ``*.so`` is in .gitignore, so a wheel built from the tree
stays pure. A few minutes at ``--opt 3`` (the default, ``all+bots``: the engine, the DSL's
runtime, the random streams and the bots; the smaller sets are for measuring).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAMP = ROOT / "ckdsl" / "_native.json"

ENGINE = sorted(
    str(p.relative_to(ROOT))
    for p in (ROOT / "ckdsl" / "engine").glob("*.py")
    # tasks.py: type definitions only (NamedTuples, TypedDicts), nothing to speed up, and
    # compiled NamedTuples lose their Literal annotations (tests/test_protocols.py reads them)
    if p.name not in ("__init__.py", "tasks.py")
)
DSL = ["ckdsl/dsl/runtime.py", "ckdsl/dsl/vocabulary.py", "ckdsl/dsl/turn_vocabulary.py"]
OTHER = ["ckdsl/rng.py", "ckdsl/bots/random_bot.py"]
BOTS = ["ckdsl/bots/base.py", "ckdsl/bots/features.py", "ckdsl/bots/heuristic.py"]
SETS = {
    "engine": ENGINE,
    "engine+dsl": ENGINE + DSL,
    "all": ENGINE + DSL + OTHER,
    "all+bots": ENGINE + DSL + OTHER + BOTS,
}


def compiled_files() -> list[Path]:
    return list((ROOT / "ckdsl").rglob("*.so")) + list(ROOT.glob("*__mypyc*.so"))


def remove() -> None:
    for path in compiled_files():
        path.unlink()
        print("removed", path.relative_to(ROOT))
    if STAMP.exists():
        STAMP.unlink()


def record(sources: list[str]) -> None:
    """The hash of each compiled source, for the stale-build check on import."""
    hashes = {s: hashlib.sha256((ROOT / s).read_bytes()).hexdigest() for s in sources}
    # Each source's size and modification time too: a source whose stat is unchanged is
    # not read again at import (a changed stat, e.g. after a checkout, is hashed).
    stats = {s: _stat(ROOT / s) for s in sources}
    data = {"sources": hashes, "stats": stats}
    STAMP.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _stat(path: Path) -> list[int]:
    found = path.stat()
    return [found.st_size, found.st_mtime_ns]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SETS), default="all+bots")
    parser.add_argument("--pure", action="store_true", help="remove the compiled modules")
    parser.add_argument("--opt", default="3", choices=list("0123"))
    args = parser.parse_args()
    remove()
    if args.pure:
        return 0
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as exc:
        print(f"build_mypyc: {exc} (pip install -e '.[dev]' installs mypy and setuptools)")
        return 2
    os.chdir(ROOT)
    sources = SETS[args.only]
    setup(
        name="ckdsl-mypyc",
        packages=[],
        py_modules=[],
        ext_modules=mypycify(sources, opt_level=args.opt, group_name="ckdsl._native"),
        script_args=["build_ext", "--inplace", "--force"],
    )
    record(sources)
    return 0


if __name__ == "__main__":
    sys.exit(main())
