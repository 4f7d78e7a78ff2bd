"""What made a results folder: enough to tell two runs of one command apart.

The engine's version label does not pin a game: two checkouts both called 0.2.0 played
the documented examples differently (review of 2026-11-27, section 2). So a results
folder's manifest records, under ``provenance``:

- ``source_digest``: the sha256 of ckdsl's own sources as they ran, by content and path
  relative to the package, so two checkouts of one commit agree wherever they lie: every
  ``.py`` file of the package, the grammars and the bundled data that decide a game (the
  schemas, the base rules, the bots' weights, the maps; not the translations);
- ``git``: the commit of the checkout ckdsl ran from and whether it had changes not
  committed (absent for an installed wheel);
- ``engine``: whether the compiled build ran (``ckdsl.native.status``);
- ``libraries``: the versions of everything that computes or draws the results;
- the rule sets' texts (``rule_files``): each file of the rule set as read, its
  ``extends`` parents and the base folder included, so the rules compared can be read
  again from the folder alone.

:func:`source_note` compares a folder's digest with the running sources: reading a
folder made by other sources warns, and resuming into one is refused (``ckdsl.sim.store``).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import platform
import subprocess
from pathlib import Path

from ckdsl import native
from ckdsl.jsondata import JsonObject, JsonValue
from ckdsl.paths import data_root, grammars_dir, package_dir, rules_dir

LIBRARIES = (
    "ckdsl",
    "numpy",
    "pandas",
    "pyarrow",
    "scipy",
    "statsmodels",
    "matplotlib",
    "optuna",
    "dask",
    "distributed",
)
"""The packages whose versions a manifest records: ckdsl and what computes or draws."""


_NOT_SOURCES = ("__pycache__", "_data", "_compiled")


def _source_files() -> list[tuple[str, Path]]:
    """(name relative to its root, path) of every file the source digest reads."""
    found: list[tuple[str, Path]] = []
    package = package_dir()
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = sorted(
            d for d in subfolders if d not in ("__pycache__", "_data", "_compiled")
        )
        for name in sorted(names):
            if name.endswith(".py"):
                path = Path(folder) / name
                found.append(("ckdsl/" + path.relative_to(package).as_posix(), path))
    found += [(f"grammars/{p.name}", p) for p in sorted(grammars_dir().glob("*.lark"))]
    rules = rules_dir()
    for folder, subfolders, names in os.walk(rules):
        subfolders[:] = sorted(d for d in subfolders if d != "locales")
        for name in sorted(names):
            path = Path(folder) / name
            found.append(("rules/" + path.relative_to(rules).as_posix(), path))
    return found


@functools.lru_cache(maxsize=1)
def source_digest() -> str:
    """The sha256 of ckdsl's sources as they are now (see the module's docstring)."""
    digest = hashlib.sha256()
    for name, path in _source_files():
        try:
            data = path.read_bytes()
        except OSError:
            data = b"\0missing"
        digest.update(f"{name}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        digest.update(data)
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def git_commit() -> JsonObject | None:
    """``{"commit": ..., "dirty": bool}`` when ckdsl runs from a git checkout, else None."""
    root = data_root()
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()  # fmt: skip
        changes = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no", "--",
             "ckdsl", "rules", "grammars"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": head, "dirty": bool(changes)}


def library_versions() -> dict[str, str | None]:
    """Python's version and each of :data:`LIBRARIES`' (None: not installed)."""
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def rule_files(rules: str) -> list[JsonObject]:
    """Every file the rule set ``rules`` ("base", a variant file, a folder) was read from,
    its parents and the base folder included: ``{"path", "sha256", "text"}`` each, in the
    order they were read."""
    from ckdsl.session import load_rules

    out: list[JsonObject] = []
    for stamp in load_rules(rules).ruleset.sources:
        path = Path(stamp.path)
        if not path.is_file():
            continue  # a folder's listing: its files follow
        data = path.read_bytes()
        out.append(
            {
                "path": _shown(path),
                "sha256": hashlib.sha256(data).hexdigest(),
                "text": data.decode("utf-8", "replace"),
            }
        )
    return out


def _shown(path: Path) -> str:
    """A bundled file relative to the bundled rules (the same on every machine); any
    other as given."""
    try:
        return "<ckdsl>/rules/" + path.relative_to(rules_dir().resolve()).as_posix()
    except ValueError:
        return str(path)


def provenance() -> JsonObject:
    """What the running ckdsl is: source digest, git commit, build and library versions."""
    libraries: dict[str, JsonValue] = {**library_versions()}
    return {
        "source_digest": source_digest(),
        "git": git_commit(),
        "engine": native.status(),
        "libraries": libraries,
    }


def stored_digest(manifest: JsonObject) -> str | None:
    """The source digest a results manifest records (None: made before it was recorded)."""
    found = manifest.get("provenance")
    if isinstance(found, dict):
        digest = found.get("source_digest")
        return digest if isinstance(digest, str) else None
    return None


def describe(manifest: JsonObject) -> str:
    """The sources a manifest records, in words: digest and commit."""
    found = manifest.get("provenance")
    digest = stored_digest(manifest)
    if digest is None:
        return "sources not recorded (made by an older ckdsl)"
    text = f"sources {digest[:12]}"
    git = found.get("git") if isinstance(found, dict) else None
    if isinstance(git, dict) and isinstance(git.get("commit"), str):
        text += f", commit {str(git['commit'])[:12]}" + (
            " with changes" if git.get("dirty") else ""
        )
    return text


def source_note(manifest: JsonObject, where: str) -> str | None:
    """A sentence when the folder ``where`` was made by other sources than those running
    now (naming both), else None."""
    if stored_digest(manifest) == source_digest():
        return None
    here = describe({"provenance": provenance()})
    return f"{where} was made by other ckdsl sources ({describe(manifest)}) than these ({here})"


def run_facts() -> dict[str, str]:
    """What ran, as lines of a report's run section: sources, build, libraries (the rule
    files' texts are in each results folder's manifest)."""
    versions = library_versions()
    return {
        "ckdsl sources": describe({"provenance": provenance()}),
        "engine build": native.status(),
        "libraries": ", ".join(f"{k} {v}" for k, v in versions.items() if v is not None),
        "rule texts": "in each results folder's _manifest.json (rule_files)",
    }
