"""The last barbarian attack as it was fought, for the tables' facts.

Once the barbarians have attacked, every knight is deactivated and the ship goes back to
the start, so the live facts (strength against defence, now 0) no longer say what
happened. This tells the attack from the engine's own events: the ``attack`` event (the
strength and the defence at that moment, won or lost) and the run of events it caused
(the Defender of Catan, a tied defender's card, each city lost), in the table's language
and as ``seat`` may see them (a tied defender's card drawn is that player's secret).
"""

from __future__ import annotations

from typing import Any

from ckdsl.core.view import visible_event
from ckdsl.l10n.catalog import Catalog
from ckdsl.reports.game import log_renderer
from ckdsl.turn.game import Event, Game

ENDS = frozenset(
    {
        "turn", "roll", "produce", "shortage", "discard", "robber", "steal", "end_turn",
        "play", "build", "offer", "bank_trade", "trade", "win", "unfinished", "barbarians",
    }
)  # fmt: skip
"""Events that are no part of an attack: the first of them after it ends its run (the
roll's production, the 7's discards, the turn going on)."""

QUIET = frozenset({"deactivate"})
"""Events of the attack not told again: every knight deactivated is one line each."""


def last_attack(game: Game, catalog: Catalog, seat: int) -> dict[str, Any] | None:
    """The game's last attack (None before the first): its turn, strength, defence and
    outcome, the colours of its Defender(s) and of those who lost a city, a one-line
    summary (``said``) and the log's lines of it (``lines``), for ``seat``'s eyes."""
    events = game.events
    at = next((k for k in range(len(events) - 1, -1, -1) if events[k]["event"] == "attack"), -1)
    if at < 0:
        return None
    attack = events[at]
    run: list[Event] = []
    for event in events[at + 1 :]:
        if event["event"] in ENDS:
            break
        run.append(event)
    turn = next((e["turn"] for e in reversed(events[:at]) if e["event"] == "turn"), 0)
    colours = game.rules.names("player_colours")

    def who(players: list[int]) -> str:
        return ", ".join(catalog.name("colours", colours[p]) for p in players)

    defenders = [e["player"] for e in run if e["event"] == "defender"]
    lost = [e["player"] for e in run if e["event"] == "pillaged"]
    m = catalog.message
    outcome = m("table_attack_won" if attack["won"] else "table_attack_lost")
    said = m(
        "table_attack_fought",
        turn=turn,
        strength=attack["strength"],
        defence=attack["defence"],
        outcome=outcome,
    )
    if defenders:
        said += " · " + m(
            "table_label", label=catalog.name("titles", "defender"), value=who(defenders)
        )
    if lost:
        said += " · " + m("table_attack_cities_lost", players=who(lost))
    shown = [attack, *(e for e in run if e["event"] not in QUIET)]
    lines = log_renderer(game, catalog).lines(visible_event(e, seat) for e in shown)
    return {
        "id": at,
        "turn": turn,
        "strength": attack["strength"],
        "defence": attack["defence"],
        "won": bool(attack["won"]),
        "defenders": [colours[p] for p in defenders],
        "lost": [colours[p] for p in lost],
        "heading": catalog.name("hooks", "barbarian_attack"),
        "said": said,
        "lines": lines,
    }
