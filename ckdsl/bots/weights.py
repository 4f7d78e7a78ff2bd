"""The heuristic bot's weights: the numbers of ``rules/bots/heuristic.yaml`` (and of each
frozen version's file), read once and kept while the file is unchanged.

A weights file is the whole of a version's character: the code of ``features`` and
``heuristic`` plays every version, each feature that a version added counting only where
its file gives it a weight. A version is frozen by keeping its file (``FROZEN``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ckdsl.stamps import Stamp, StampedCache

TARGETS = ("settlement", "city", "city_wall", "knight", "activate", "promote", "improvement",
           "road", "metropolis")  # fmt: skip


@dataclass(frozen=True)
class Weights:
    """The weights of ``rules/bots/heuristic.yaml`` (see the comments there)."""

    version: str
    points: float
    win: float
    production: float
    diversity: float
    hand_card: float
    over_limit: float
    targets: dict[str, float]
    levels: tuple[float, ...]
    level_step: float
    metropolis_race: float
    knight_strength: float
    defence: float
    city_at_risk: float
    defender_chance: float
    progress_card: float
    rates: float
    expansion_now: float
    expansion_near: float
    road_length: float
    opponent_points: float
    opponent_production: float
    margin: float
    max_options: int
    # Since version 3 (absent from an older file: 0, which plays as that version did).
    wall: float = 0.0
    opponent_cards: float = 0.0
    opponent_progress: float = 0.0
    opponent_knights: float = 0.0
    opponent_expansion: float = 0.0
    knight_blocks: float = 0.0
    knight_cover: float = 0.0
    # A progress card held beyond the hand limit less one: the next card drawn on
    # another's roll makes one of them a discard (the file's `progress_card` if absent).
    progress_at_risk: float = -1.0
    # A knight that acts counts as active again on the player's next turn, at the
    # activation's price, with the chance the ship does not come first (version 4).
    reactivate_later: bool = False
    card_choices: int = 0

    def level_value(self, level: int) -> float:
        table = self.levels
        if level < len(table):
            return table[level]
        return table[-1] + (level - len(table) + 1) * self.level_step


BUNDLED = "bundled"
WEIGHTS_FILE = "rules/bots/heuristic.yaml"
# The weights of each frozen version of the bot (``heuristic:version=N``), kept so a study
# can compare with the bot it used; the newest is ``WEIGHTS_FILE``.
FROZEN = {2: "rules/bots/heuristic-v2.yaml", 3: "rules/bots/heuristic-v3.yaml"}
# The weights that are new in version 3, 0 when a file does not give them.
_OPTIONAL = ("wall", "opponent_cards", "opponent_progress", "opponent_knights",
             "opponent_expansion", "knight_blocks", "knight_cover")  # fmt: skip


_WEIGHTS: StampedCache[str, Weights] = StampedCache(maxsize=8)


def load_weights(path: str = BUNDLED, version: int = 0) -> Weights:
    """The weights file ``path`` (``bundled``: the one shipped with ckdsl for ``version``,
    0 or the newest: ``WEIGHTS_FILE``, else ``FROZEN``); raises ValueError naming what is
    missing or wrong. Cached while the file is unchanged."""
    from ckdsl.paths import rules_dir

    bundled = rules_dir().parent / FROZEN.get(version, WEIGHTS_FILE)
    file = bundled if path == BUNDLED else Path(path)
    return _WEIGHTS.get(str(file.resolve()), lambda: _read_weights(file))


def _weights_data(file: Path) -> tuple[Any, tuple[Stamp, ...]]:
    """The weights file as read, kept on disk (``ckdsl.rules.disk``) while it is
    unchanged: a bot's start does not import a YAML parser for it."""
    from ckdsl.rules import disk

    key = str(file.resolve())
    found = disk.load("weights", key)
    if found is not None:
        return found
    from ckdsl.userfiles import UnsafeFile, read_user_yaml

    stamp = Stamp.of(file)  # before reading: an edit while reading fails the next check
    try:  # a regular file only: a FIFO or a device would never end
        data = read_user_yaml(file)
    except UnsafeFile as exc:
        raise ValueError(f"cannot read the weights file {file}: {exc.message}") from None
    disk.store("weights", key, (stamp,), data)
    return data, (stamp,)


def _read_weights(file: Path) -> tuple[Weights, tuple[Stamp, ...]]:
    data, stamps = _weights_data(file)
    try:
        w: dict[str, Any] = data["weights"]
        look: dict[str, Any] = data.get("lookahead") or {}
        targets = {t: float(w["targets"].get(t, 0.0)) for t in TARGETS}
        numbers = {
            name: float(w[name])
            for name in Weights.__dataclass_fields__
            if name not in ("version", "targets", "levels", "margin", "max_options",
                            "card_choices", "progress_at_risk", "reactivate_later")
            and name not in _OPTIONAL
        }  # fmt: skip
        numbers.update({name: float(w.get(name, 0.0)) for name in _OPTIONAL})
        numbers["progress_at_risk"] = float(w.get("progress_at_risk", w["progress_card"]))
        weights = Weights(
            version=str(data.get("version", "1")),
            targets=targets,
            levels=tuple(float(x) for x in w["levels"]),
            margin=float(look.get("margin", 0.5)),
            max_options=int(look.get("max_options", 40)),
            card_choices=int(look.get("card_choices", 0)),
            reactivate_later=bool(look.get("reactivate_later", False)),
            **numbers,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"{file}: a weight is missing or not a number ({exc})") from None
    return weights, stamps
