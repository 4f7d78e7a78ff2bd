"""Read a stored comparison back: the folder ``ckdsl compare --out DIR`` wrote (one results
folder per rule set), for ``ckdsl report DIR`` (re-render the report) and ``ckdsl plan DIR``
(a pilot run).

The base is the rule set the compare command named first (its manifest's command line),
unless the caller names it; the store facts (where the rules came from, the master seed,
the map, the rotation) come from each folder's manifest, as the compare command shows
them; and the commands that played the games are kept, so a re-rendered report says what
played them rather than what re-read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.jsondata import JsonObject, arr, obj
from ckdsl.sim.compare.specs import StoreFacts, UserMetric
from ckdsl.sim.provenance import describe
from ckdsl.sim.store import MANIFEST, read_manifest, read_results

__all__ = ["StoredComparison", "load"]


@dataclass(frozen=True)
class StoredComparison:
    """The games of each rule set of a stored comparison, and what the folders say."""

    folder: Path
    base: str
    frames: dict[str, pd.DataFrame]  # label → games, the base first
    stores: dict[str, StoreFacts]
    commands: tuple[str, ...]  # the command lines that played the games, oldest first
    created: str
    user_metrics: tuple[UserMetric, ...] = ()  # the --metric columns of the base's folder


def _fail(where: Path, message: str) -> CkdslError:
    return CkdslError([Diagnostic(str(where), 0, 0, message)])


def load(folder: Path | str, base: str | None = None) -> StoredComparison:
    """The comparison stored in ``folder`` (``compare --out``); ``base``: the label of the
    base (default: the first rule set of the command that made the folder)."""
    root = Path(folder)
    if not root.is_dir():
        raise _fail(root, "is not a folder (give the folder of `ckdsl compare --out`)")
    if (root / MANIFEST).exists():
        raise _fail(
            root,
            "is the results folder of one rule set; give the folder that holds one such "
            "folder per rule set (`ckdsl compare --out`)",
        )
    manifests: dict[str, tuple[Path, JsonObject]] = {}
    for sub in sorted(p for p in root.iterdir() if (p / MANIFEST).exists()):
        manifest = read_manifest(sub)
        label = str(obj(manifest.get("experiment", {})).get("label", sub.name))
        manifests[label] = (sub, manifest)
    if len(manifests) < 2:
        raise _fail(root, "holds fewer than two results folders: nothing to compare")
    commands: list[str] = []
    for _, manifest in manifests.values():
        for run in arr(manifest.get("runs", [])):
            line = " ".join(str(w) for w in arr(obj(run).get("command", [])))
            if line and line not in commands:
                commands.append(line)
    chosen = base or _first_target(manifests)
    if chosen not in manifests:
        known = ", ".join(manifests)
        raise _fail(root, f"no rule set labelled '{chosen}' (the folder holds {known})")
    labels = [chosen, *(label for label in manifests if label != chosen)]
    frames = {label: read_results(manifests[label][0]) for label in labels}
    stores: dict[str, StoreFacts] = {}
    for label in labels:
        sub, manifest = manifests[label]
        experiment = obj(manifest.get("experiment", {}))
        stores[label] = {
            "rules": str(experiment.get("rules", "")),
            "master_seed": _int(experiment.get("master_seed")),
            "map": str(experiment.get("map", "")),
            "layout": _str(experiment.get("layout")),
            "rotate": bool(experiment.get("rotate", False)),
            "folder": sub.name,
            # which ckdsl played it, as compare says it (ckdsl.sim.provenance)
            "sources": describe(manifest),
        }
    created = str(manifests[chosen][1].get("created", ""))
    experiment = obj(manifests[chosen][1].get("experiment", {}))
    user = tuple(UserMetric.from_json(obj(m)) for m in arr(experiment.get("metrics") or []))
    return StoredComparison(root, chosen, frames, stores, tuple(commands), created, user)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) else None


def _str(value: object) -> str | None:
    return None if value is None else str(value)


def _first_target(manifests: dict[str, tuple[Path, JsonObject]]) -> str:
    """The label of the rule set the compare command named first."""
    by_rules = {
        str(obj(m.get("experiment", {})).get("rules", "")): label
        for label, (_, m) in manifests.items()
    }
    for _, manifest in manifests.values():
        for run in arr(manifest.get("runs", [])):
            words = [str(w) for w in arr(obj(run).get("command", []))]
            if len(words) > 2 and words[1] == "compare" and words[2] in by_rules:
                return by_rules[words[2]]
    return "base" if "base" in manifests else next(iter(manifests))
