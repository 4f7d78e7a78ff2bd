"""A seat's save of a game in progress at the web table: sealed, so it tells nobody more
than the seat already knows.

A full save holds the seed and every seat's answers: replayed, it shows every hand and
the dice to come, so only the host downloads one while the game runs. A seat gets this
cut-down save instead: which game it is (the rules, the map, the seat's colour, the turn,
no seed) and the full save sealed with the table's own key (Fernet: AES in CBC mode with
an HMAC, from ``cryptography``). Nobody can read the seed or the answers in it, nor edit
it; the table that made it opens it again (``/api/load``: the host or every seat asks, as
for any save), for as long as it runs. The host's save opens anywhere.
"""

from __future__ import annotations

import json
from typing import Any

from cryptography.fernet import Fernet, InvalidToken

from ckdsl.session import SAVE_VERSION, SEAT_SAVE_FORMAT, GameSetup, save_data
from ckdsl.turn.game import Game

PAD = 16_384
"""The sealed save's length is a multiple of this: two saves a seat downloads before and
after another seat's secret answer (a discard) differ in length by whole blocks only, not
by the length of the answer's text."""

NOT_OURS = (
    "this seat's save was sealed by another table (or an earlier run of this one): only "
    "the table that made it opens it; the host's save opens anywhere"
)


def new_key() -> bytes:
    """A table's sealing key, drawn once per run (``os.urandom``)."""
    return Fernet.generate_key()


def seat_save(game: Game, setup: GameSetup, seat: int, key: bytes) -> dict[str, Any]:
    """The seat's save of ``game``: what the seat may know in the clear, the rest sealed."""
    full = json.dumps(save_data(game, setup), separators=(",", ":"))
    full += " " * (-len(full) % PAD)  # (JSON ignores it) the length tells no answer's
    return {
        "format": SEAT_SAVE_FORMAT,
        "version": SAVE_VERSION,
        "setup": {"rules": setup.rules, "map": setup.map, "players": setup.players},
        "seat": game.rules.names("player_colours")[seat],
        "turn": game.state.turn,
        "sealed": Fernet(key).encrypt(full.encode("utf-8")).decode("ascii"),
    }


def is_seat_save(data: object) -> bool:
    return isinstance(data, dict) and data.get("format") == SEAT_SAVE_FORMAT


def unsealed(data: dict[str, Any], key: bytes) -> str:
    """The full save's text inside a seat's save; ValueError (``NOT_OURS``, or what is
    wrong with it) if this table's key does not open it."""
    sealed = data.get("sealed")
    if not isinstance(sealed, str):
        raise ValueError("a seat's save holds its game as the text 'sealed'")
    try:
        return Fernet(key).decrypt(sealed.encode("ascii", "replace")).decode("utf-8")
    except (InvalidToken, UnicodeDecodeError):
        raise ValueError(NOT_OURS) from None
