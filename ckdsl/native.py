"""The compiled build: ckdsl's hot modules compiled by mypyc, run only while they are
exactly what their sources say.

The install builds them (``hatch_build.py``, which runs ``tools/build_mypyc.py``) into
the package's ``_compiled`` folder, apart from the sources, with a record of what was compiled
(``build.json``: the interpreter, each module's file, each source's hash, size and time).
Importing ckdsl puts a finder in front of Python's own that offers those modules, and
only when all of these hold:

- the record is there, for this interpreter (a build for another Python cannot load),
  and so is every module file it names;
- every compiled source is as it was built: a source whose size and time are those
  recorded is taken as it was, any other is hashed, and one whose content changed turns
  the whole build off (the compiled modules call each other directly, so one stale
  module cannot be swapped alone);
- ``CKDSL_PURE`` is not set (to run, test or measure the pure-Python package anyway).

Otherwise ckdsl imports its sources, as it always can: an edit runs as written at once,
and ``python tools/build_mypyc.py`` (or the install again) compiles it. Why a separate
folder and a finder, rather than compiled files beside the sources: Python prefers an
extension module to the source beside it, so a build left behind by an edit would run old
code. ``ckdsl --version`` says which package runs, and why.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ExtensionFileLoader, ModuleSpec

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
BUILD_DIR = os.path.join(PACKAGE_DIR, "_compiled")
RECORD = os.path.join(BUILD_DIR, "build.json")
PURE_VARIABLE = "CKDSL_PURE"


def interpreter() -> str:
    """What a build is for: the interpreter's cache tag and its extension suffix."""
    from importlib.machinery import EXTENSION_SUFFIXES

    return f"{sys.implementation.cache_tag} {EXTENSION_SUFFIXES[0]}"


class CompiledFinder:
    """A meta path finder offering the compiled modules, by name, from the build folder."""

    def __init__(self, modules: dict[str, str]) -> None:
        self.modules = modules  # module name -> its compiled file's absolute path

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: object = None
    ) -> ModuleSpec | None:
        file = self.modules.get(fullname)
        if file is None:
            return None
        spec = ModuleSpec(fullname, ExtensionFileLoader(fullname, file), origin=file)
        spec.has_location = True  # the module's __file__ is its compiled file
        return spec


def why_pure(record: dict[str, object], root: str, build_dir: str) -> str | None:
    """Why a build's record cannot be used as it stands, or None when it can. ``root`` is
    the folder the record's source paths are relative to (the package's parent),
    ``build_dir`` the one its module files are relative to."""
    if record.get("python") != interpreter():
        return f"the compiled build is for another Python ({record.get('python')})"
    sources, stats, modules = record.get("sources"), record.get("stats"), record.get("modules")
    if not (isinstance(sources, dict) and isinstance(stats, dict) and isinstance(modules, dict)):
        return "the compiled build's record is damaged (rebuild: python tools/build_mypyc.py)"
    lost = sorted(name for name, file in modules.items()
                  if not os.path.exists(os.path.join(build_dir, file)))  # fmt: skip
    if lost:  # all or nothing, as for a changed source
        return f"the compiled build lacks {', '.join(lost)}"
    changed = [source for source, digest in sources.items()
               if not _as_built(os.path.join(root, source), digest, stats.get(source))]  # fmt: skip
    if changed:
        return ("sources changed since the compiled build (" + ", ".join(changed)
                + "; rebuild: python tools/build_mypyc.py)")  # fmt: skip
    return None


def _as_built(path: str, digest: object, stat: object) -> bool:
    try:
        found = os.stat(path)
        if stat == [found.st_size, found.st_mtime_ns]:
            return True  # its size and time are those recorded at the build
        import hashlib  # only for a source touched since the build

        with open(path, "rb") as file:
            return hashlib.sha256(file.read()).hexdigest() == digest
    except OSError:
        return False


def read_record() -> dict[str, object] | None:
    """The build's record as written (None: no build, or not a record)."""
    try:
        with open(RECORD, encoding="utf-8") as file:
            found = json.load(file)
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


_STATUS = "pure Python (not compiled)"


def install() -> None:
    """Offer the compiled modules if the build can be used (see the module's docstring);
    ``status()`` says what was decided. Called once, by ``ckdsl/__init__.py``."""
    global _STATUS
    if os.path.exists(os.path.join(PACKAGE_DIR, "_native.json")):
        # An older build compiled beside the sources: Python runs it, edited or not.
        raise ImportError(
            "ckdsl: an older compiled build lies beside the sources (its _native.json): "
            "remove it with python tools/build_mypyc.py --pure, or rebuild"
        )
    if os.environ.get(PURE_VARIABLE):
        _STATUS = f"pure Python ({PURE_VARIABLE} is set)"
        return
    record = read_record()
    if record is None:
        return
    reason = why_pure(record, os.path.dirname(PACKAGE_DIR), BUILD_DIR)
    if reason is not None:
        _STATUS = f"pure Python ({reason})"
        return
    modules, sources = record["modules"], record["sources"]
    assert isinstance(modules, dict) and isinstance(sources, dict)  # why_pure checked them
    files = {name: os.path.join(BUILD_DIR, file) for name, file in modules.items()}
    sys.meta_path.insert(0, CompiledFinder(files))
    _STATUS = f"compiled by mypyc ({len(sources)} modules)"


def status() -> str:
    """Which package runs: "compiled by mypyc (N modules)" or "pure Python (why)"."""
    return _STATUS


def active() -> bool:
    """Whether the compiled modules are offered."""
    return _STATUS.startswith("compiled")
