"""What names a game of an experiment, shared by the experiment, the results store and the
event logs (so that none of them imports another for it): its key, its seed, where each
bot of the line-up sits, and the column that carries its encoded log."""

from __future__ import annotations

from ckdsl.arguments import whole
from ckdsl.rng import derive

Key = tuple[int, int, int]
"""A game of an experiment: (seed_index, lineup, rotation)."""


def checked_key(value: object, argument: str = "key") -> Key:
    """``value`` as a game's key (three whole numbers, a tuple or a list); a TypeError
    naming ``argument`` otherwise (the Python API's entry points call it)."""
    if not isinstance(value, (tuple, list)) or len(value) != 3:
        raise TypeError(
            f"{argument} takes a game's key (seed_index, lineup, rotation), not {value!r:.40}"
        )
    index, lineup, rotation = (whole(part, f"{argument}'s parts") for part in value)
    return index, lineup, rotation


EVENTS = "_events"
"""The row's field that carries a game's encoded event log on its way to the store
(``ckdsl.sim.event_logs``), never a column."""


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of an experiment with master seed ``master``: the same
    for every line-up, rotation and rule set (that is what pairs them)."""
    return derive(master, "game", index)


def seat_positions(players: int, rotation: int) -> tuple[int, ...]:
    """For each seat, the position in the line-up of the bot sitting there."""
    return tuple((seat - rotation) % players for seat in range(players))
