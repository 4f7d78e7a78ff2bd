"""Compile ckdsl's hot modules with mypyc: about 2.5x the decisions per second of the
pure-Python engine and 1.6x the heuristic bots' speed, the same games (docs/engine.md,
"Speed").

    python tools/build_mypyc.py [--only engine|engine+dsl|all|all+bots] [--opt 0-3]
    python tools/build_mypyc.py --pure

The install runs it (``hatch_build.py``: ``pip install -e .`` compiles, and falls back to
pure Python where it cannot); run it again after editing a compiled module, which until
then runs from its source. The compiled modules land in the package's ``_compiled`` folder with a
record of what was compiled (``build.json``), apart from the sources; ``ckdsl.native``
offers them on import only while every compiled source is as built, and never with
``CKDSL_PURE`` set. ``--pure`` removes the build.

Needs mypy (mypyc ships with it), setuptools >= 77 (the dev extra has both), a C compiler
and the Python headers. The compiled modules share one library, ``ckdsl._native__mypyc``.
About a minute on two cores at ``--opt 3`` (the default, ``all+bots``: the engine, the
DSL's runtime, the random streams and the bots; the smaller sets are for measuring).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _load_native() -> ModuleType:
    """This checkout's ``ckdsl/native.py`` alone, whichever ckdsl is installed, and
    without importing ckdsl (which refuses an older build this tool is here to remove)."""
    spec = importlib.util.spec_from_file_location("_ckdsl_native", ROOT / "ckdsl" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


native = _load_native()
BUILD_DIR = Path(native.BUILD_DIR)

ENGINE = sorted(
    str(p.relative_to(ROOT))
    for folder in ("core", "turn")  # the game engine: the board core and the turn machine
    for p in (ROOT / "ckdsl" / folder).glob("*.py")
    # tasks.py: type definitions only (NamedTuples, TypedDicts), nothing to speed up, and
    # compiled NamedTuples lose their Literal annotations (tests/test_protocols.py reads them)
    if p.name not in ("__init__.py", "tasks.py")
)
DSL = [
    "ckdsl/dsl/runtime.py",
    *sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "ckdsl" / "dsl" / "vocabulary").glob("*.py")
        if p.name != "__init__.py"
    ),
]
OTHER = ["ckdsl/rng.py", "ckdsl/bots/random_bot.py"]
BOTS = [
    "ckdsl/bots/base.py",
    "ckdsl/bots/features.py",
    "ckdsl/bots/weights.py",
    "ckdsl/bots/heuristic.py",
    "ckdsl/bots/descriptors.py",
    "ckdsl/bots/learned.py",
]
SETS = {
    "engine": ENGINE,
    "engine+dsl": ENGINE + DSL,
    "all": ENGINE + DSL + OTHER,
    "all+bots": ENGINE + DSL + OTHER + BOTS,
}


def remove() -> None:
    """Remove the build, and the compiled files an older version of this tool put beside
    the sources (Python would run those whatever the sources say)."""
    if BUILD_DIR.exists():
        shutil.rmtree(BUILD_DIR)
        print("removed", BUILD_DIR.relative_to(ROOT))
    beside = [p for p in (ROOT / "ckdsl").rglob("*.so") if BUILD_DIR not in p.parents]
    for path in [*beside, *ROOT.glob("*__mypyc*.so"), ROOT / "ckdsl" / "_native.json"]:
        if path.exists():
            path.unlink()
            print("removed", path.relative_to(ROOT))


def build(only: str = "all+bots", opt: str = "3") -> None:
    """Compile the set ``only`` into ``BUILD_DIR`` and record it (raises on failure)."""
    from mypyc.build import mypycify
    from setuptools import setup

    remove()
    sources = SETS[only]
    was = os.getcwd()
    os.chdir(ROOT)  # mypyc and setuptools work relative to it (build/, .mypy_cache/)
    try:
        setup(
            name="ckdsl-mypyc",
            packages=[],
            py_modules=[],
            ext_modules=mypycify(sources, opt_level=opt, group_name="ckdsl._native"),
            script_args=["build_ext", "--build-lib", str(BUILD_DIR), "--force"],
        )
    finally:
        os.chdir(was)
    record(sources)


def up_to_date(only: str = "all+bots") -> bool:
    """Whether the build there is of the set ``only``, for this interpreter, and every
    source as built (the install does not compile again what has not changed)."""
    found = native.read_record()
    if found is None or set(found.get("sources") or ()) != set(SETS[only]):
        return False
    return native.why_pure(found, str(ROOT), str(BUILD_DIR)) is None


def record(sources: list[str]) -> None:
    """What ``ckdsl.native`` checks before offering the build: the interpreter, each
    compiled module's file, and each source's hash, size and modification time (a source
    whose size and time are unchanged is not read again at import)."""
    modules = {}
    for path in BUILD_DIR.rglob("*"):
        if path.suffix in (".so", ".pyd"):
            relative = path.relative_to(BUILD_DIR)
            name = ".".join((*relative.parent.parts, relative.name.split(".")[0]))
            modules[name] = relative.as_posix()
    missing = sorted({s[:-3].replace("/", ".") for s in sources} - set(modules))
    if missing or "ckdsl._native__mypyc" not in modules:
        raise RuntimeError(f"build_mypyc: the build lacks {missing or 'its library'}")
    data = {
        "python": native.interpreter(),
        "modules": dict(sorted(modules.items())),
        "sources": {s: hashlib.sha256((ROOT / s).read_bytes()).hexdigest() for s in sources},
        "stats": {s: _stat(ROOT / s) for s in sources},
    }
    (BUILD_DIR / "build.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _stat(path: Path) -> list[int]:
    found = path.stat()
    return [found.st_size, found.st_mtime_ns]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SETS), default="all+bots")
    parser.add_argument("--pure", action="store_true", help="remove the compiled modules")
    parser.add_argument("--opt", default="3", choices=list("0123"))
    args = parser.parse_args()
    if args.pure:
        remove()
        return 0
    try:
        build(args.only, args.opt)
    except ImportError as exc:
        print(f"build_mypyc: {exc} (pip install -e '.[dev]' installs mypy and setuptools)")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
