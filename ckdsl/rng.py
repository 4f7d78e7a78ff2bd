"""Random streams: one seed, separate streams that pair across rule sets.

A game's randomness comes from one seed, but each kind of draw has a stream of its own,
derived from the seed and the stream's name: the layout, each deck's shuffle, the dice, and
the other draws of a game (steals). So the same seed under two rule sets gives the same
board and the same rolls, turn after turn, until the rules themselves make the games
differ: a variant that changes what a steal takes does not shift the dice. That is what
makes paired experiments work (docs/experiments.md, "Why the numbers can be trusted").

A stream is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014): its whole state is one 64-bit integer, so a game keeps its
streams as plain ints (``GameState.rng``), copies them for free when it is cloned, and
saves and hashes them like any other number. The Mersenne Twister's 2.5 KB state would
cost more to copy than the rest of a game.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import Any, Final, TypeVar

_T = TypeVar("_T")

# Final: the compiled build reads them as constants, not from the module at every draw.
MASK: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15
_SPAN: Final = MASK + 1
_WORD: Final = 1 << 32
_SURE: Final = _SPAN - _WORD  # below it, a draw for n <= _WORD is never rejected (``below``)

# The streams a game keeps in its state; the layout and the decks' first shuffles are
# drawn once, at the start, from streams derived on the spot.
GAME_STREAMS = ("dice", "other")


def derive(seed: int, *names: str | int) -> int:
    """A 64-bit seed for the stream ``names`` of ``seed``: stable across runs, machines and
    Python versions (a hash, not Python's ``hash``)."""
    text = ":".join(str(part) for part in (seed, *names))
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def streams(seed: int) -> dict[str, int]:
    """The in-game streams of a game with ``seed``, at their start."""
    return {name: derive(seed, name) for name in GAME_STREAMS}


def below(table: dict[str, int], stream: str, n: int) -> int:
    """A uniform integer in ``[0, n)`` drawn from ``table[stream]`` (which advances).
    SplitMix64, written out (it is on every roll); rejection keeps it exactly uniform."""
    if n <= 0:
        raise ValueError("cannot draw from an empty range")
    # Any: past 2**62 these are big numbers to the compiled build too, and as Any they go
    # straight to Python's arithmetic, not checked at every step for a machine word.
    state: Any = table[stream]
    while True:
        state = (state + GOLDEN) & MASK
        z: Any = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        # Rejected at or past the last multiple of n below 2**64, which for n up to 2**32
        # lies past _SURE: worked out only for a draw above that.
        if (z < _SURE and n <= _WORD) or z < _SPAN - _SPAN % n:
            table[stream] = state
            drawn: int = z % n
            return drawn


def choice(table: dict[str, int], stream: str, items: Sequence[_T]) -> _T:
    return items[below(table, stream, len(items))]


def shuffle(table: dict[str, int], stream: str, items: MutableSequence[_T]) -> None:
    """Fisher-Yates, in place."""
    for i in range(len(items) - 1, 0, -1):
        j = below(table, stream, i + 1)
        items[i], items[j] = items[j], items[i]


class Stream:
    """A stream on its own (the layout, a deck's first shuffle): the same generator
    outside a game's state."""

    def __init__(self, seed: int) -> None:
        self._table = {"s": seed & MASK}

    def below(self, n: int) -> int:
        return below(self._table, "s", n)

    def choice(self, items: Sequence[_T]) -> _T:
        return choice(self._table, "s", items)

    def shuffle(self, items: MutableSequence[_T]) -> None:
        shuffle(self._table, "s", items)
