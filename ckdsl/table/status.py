"""What a seat sees before it answers, in a few lines: the turn, the barbarians, its own
hand, cards, levels and knights, the others' public counts, and the legal answers
numbered. Built from the seat's view (``Game.view``): nothing another player hides."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ckdsl.core.decisions import Option
from ckdsl.core.pieces import points_breakdown
from ckdsl.core.state import NOBODY
from ckdsl.l10n.catalog import Catalog
from ckdsl.table.answers import localized
from ckdsl.turn.game import Game


def status_lines(game: Game, catalog: Catalog, seat: int) -> list[str]:
    """The compact status for ``seat``: a header line, then a line per player (the seat's
    own with its hand, progress cards, levels and knights)."""
    view = game.view(seat)
    state, rules = view.state, view.rules
    colours = rules.names("player_colours")

    def who(p: int) -> str:
        return catalog.name("colours", colours[p])

    m = catalog.message
    dice = ""
    if state.dice is not None and state.rolled:
        white, red, face = state.dice
        event = catalog.name("event_faces", face)
        dice = f" · {m('table_dice_rolled', white=white, red=red, event=event)}"
    programs = rules.programs
    strength = programs.barbarian_strength(game)  # public: the board and the knights
    defence = sum(programs.defence_of(game, p) for p in range(view.players))
    barbarians = (
        f"{catalog.name('concepts', 'barbarians')} {state.barbarians}/{rules.barbarian_track}"
        f" ({m('table_strength', strength=strength, defence=defence)})"
    )
    decision = decision_name(game, catalog)
    lines = [
        f"{turn_name(catalog, state.turn)} · {m('table_to_play', player=who(state.current))}"
        f" · {decision} · {barbarians}{dice}",
        f"  {label(catalog, m('table_titles'), title_line(game, catalog))}",
    ]
    counters = counter_line(game, catalog)
    if counters:
        lines.append(f"  {counters}")
    details = pending_details(game, catalog) if view.decision.player == seat else ""
    if details:
        lines.append(f"  → {details}")
    for p in range(view.players):
        player = state.players[p]
        knights = ", ".join(
            f"{i}{'' if state.knight_active[i] else '(-)'}:{state.knight_level[i]}"
            for i in player.knights
        )
        levels = " ".join(
            f"{catalog.name('tracks', track.id)} {player.levels[t]}"
            for t, track in enumerate(rules.tracks)
        )
        sources = ", ".join(
            f"{source_name(game, catalog, source)} {n}"
            for source, n in points_breakdown(game, p).items()
        )
        score = f"{player.points} {m('table_vp')} ({sources})"
        head = f"{'▶' if p == seat else ' '} {label(catalog, who(p), score)}"
        if p == seat:
            hand = ", ".join(
                catalog.counted(rules.goods[g], n) for g, n in enumerate(player.hand) if n
            )
            cards = ", ".join(
                catalog.card_name(card) + (f" ×{n}" if n > 1 else "")
                for card, n in Counter(player.progress).items()
            )
            lines.append(
                f"{head} · {label(catalog, m('table_hand'), hand or '-')}"
                f" · {label(catalog, m('table_progress'), cards or '-')}"
            )
            lines.append(
                f"    {label(catalog, m('table_levels'), levels)}"
                f" · {label(catalog, m('table_knights'), knights or '-')}"
            )
        else:
            lines.append(
                f"{head} · {label(catalog, m('table_cards'), view.hand_sizes[p])}"
                f" · {label(catalog, m('table_progress'), view.progress_counts[p])}"
                f" · {label(catalog, m('table_levels'), levels)}"
                f" · {label(catalog, m('table_knights'), knights or '-')}"
            )
    return lines


def label(catalog: Catalog, name: str, value: object) -> str:
    """``name: value`` as the table's language writes it (French puts a space before the
    colon: ``table_label``)."""
    return catalog.message("table_label", label=name, value=value)


def bank_rates(game: Game, catalog: Catalog, rates: Sequence[int]) -> str:
    """A player's rates with the bank, good by good, grouped ("bank rates: 2:1 grain ·
    4:1 brick, lumber"): harbors and a Trading House change them, and the rates are the
    engine's own (``PlayerState.rates``), never the page's guess."""
    by_rate: dict[int, list[str]] = {}
    for good, rate in zip(game.rules.goods, rates, strict=True):
        by_rate.setdefault(rate, []).append(catalog.good_name(good))
    said = " · ".join(f"{rate}:1 {', '.join(names)}" for rate, names in sorted(by_rate.items()))
    return label(catalog, catalog.message("table_bank_rates"), said)


def turn_name(catalog: Catalog, turn: int) -> str:
    """The turn in words: "turn N", or "set-up" before the first roll (turn 0), which no
    player would call a turn."""
    return catalog.message("table_turn", turn=turn) if turn else catalog.message("table_setup")


def decision_name(game: Game, catalog: Catalog) -> str:
    """The decision owed now in words: a phase of the rule set by its name, another
    decision by its ``decision_*`` message (its kind when the locale has none)."""
    kind = game.pending.kind
    if kind == "phase":
        for task in game.state.queue:
            if task[0] == "phase" and task[1] == game.pending.player:
                return catalog.name("phases", str(task[2]))
    key = f"decision_{kind}"
    return catalog.message(key) if catalog.has_message(key) else kind


def counter_line(game: Game, catalog: Catalog) -> str:
    """The rule set's counters that have counted something, with their values, by name
    ("" when none has): a variant's own state, which the players must see to play it."""
    colours = game.rules.names("player_colours")
    parts = []
    for cid, value in game.state.counters.items():
        if not any(value) if isinstance(value, list) else not value:
            continue  # nothing counted yet (the base's cranes_played, most turns)
        if isinstance(value, list):
            shown = ", ".join(
                f"{catalog.name('colours', colours[p])} {n}" for p, n in enumerate(value)
            )
        else:
            shown = str(value)
        parts.append(label(catalog, catalog.name("counters", cid), shown))
    return " · ".join(parts)


def pending_details(game: Game, catalog: Catalog) -> str:
    """What the decision owed now is about, where its answers do not say: how many cards
    a discard still owes, the offer a trade answer is about ("" otherwise)."""
    decision = game.pending
    for task in game.state.queue:
        if task[0] == "discard" and task[1] == decision.player and decision.kind == "discard":
            return catalog.message_with("table_discard_count", task[2], {"count": task[2]})
        if task[0] in ("respond", "partner") and decision.kind == task[0]:
            offer = task[2]
            colour = game.rules.names("player_colours")[offer["from"]]
            return catalog.message(
                "log_offer",
                player=catalog.name("colours", colour),
                give=_goods(catalog, offer["give"]),
                get=_goods(catalog, offer["get"]),
            )
    return ""


def _goods(catalog: Catalog, amounts: dict[str, int]) -> str:
    return ", ".join(catalog.counted(good, n) for good, n in amounts.items())


def title_line(game: Game, catalog: Catalog) -> str:
    """Who holds what a player can hold alone or take from another: Longest Road, the
    Defender of Catan cards, the titles the rule set declares (``ckdsl.turn.titles``),
    each track's metropolis, the merchant."""
    state, rules = game.state, game.rules
    colours = rules.names("player_colours")

    def who(p: int) -> str:
        return (
            catalog.name("colours", colours[p]) if p != NOBODY else catalog.message("table_nobody")
        )

    parts = [label(catalog, catalog.name("titles", "longest_road"), who(state.longest_road_holder))]
    defenders = [(p, me.defender) for p, me in enumerate(state.players) if me.defender]
    if defenders:
        held = ", ".join(who(p) + (f" ×{n}" if n > 1 else "") for p, n in defenders)
        parts.append(label(catalog, catalog.name("titles", "defender"), held))
    for title in rules.programs.titles:
        if title.score is not None:
            holders = state.titles.get(title.id, ((), ()))[0]
            held = ", ".join(who(p) for p in holders) or who(NOBODY)
            parts.append(label(catalog, catalog.name("titles", title.id), held))
    for t, track in enumerate(rules.tracks):
        at = state.metropolis[t]
        if at != NOBODY:
            metropolis = (
                f"{catalog.name('pieces', 'metropolis')} ({catalog.name('tracks', track.id)})"
            )
            parts.append(label(catalog, metropolis, who(state.owner[at])))
    if state.merchant != NOBODY:
        tile = catalog.message("board_tile", tile=state.merchant)
        merchant = f"{who(state.merchant_owner)} ({tile})"
        parts.append(label(catalog, catalog.name("pieces", "merchant"), merchant))
    return " · ".join(parts)


def source_name(game: Game, catalog: Catalog, source: str) -> str:
    """The name of a source of points (``pieces.points_breakdown``)."""
    if source in ("longest_road", "defender") or source in game.state.titles:
        return catalog.name("titles", source)
    if source in ("settlement", "city", "metropolis", "merchant"):
        return catalog.name("pieces", source)
    return catalog.card_name(source)


def option_lines(game: Game, catalog: Catalog, options: Sequence[Option]) -> list[str]:
    """The legal answers numbered from 1, in the table's language (``ckdsl.table.answers``),
    in columns when there are many."""
    texts = [f"{n}) {localized(game, catalog, o)}" for n, o in enumerate(options, start=1)]
    if len(texts) <= 12:
        return [f"  {t}" for t in texts]
    width = max(len(t) for t in texts) + 2
    per_line = max(1, 100 // width)
    return [
        "  " + "".join(t.ljust(width) for t in texts[i : i + per_line]).rstrip()
        for i in range(0, len(texts), per_line)
    ]
