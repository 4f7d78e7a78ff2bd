"""What a seat sees before it answers, in a few lines: the turn, the barbarians, its own
hand, cards, levels and knights, the others' public counts, and the legal answers
numbered. Built from the seat's view (``Game.view``): nothing another player hides."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ckdsl.core.decisions import Option
from ckdsl.core.state import NOBODY
from ckdsl.l10n.catalog import Catalog
from ckdsl.turn.game import Game
from ckdsl.turn.notation import format_option


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
        dice = f" · {m('table_dice')} {white}+{red} ({face})"
    barbarians = catalog.name("concepts", "barbarians")
    lines = [
        f"{m('table_turn', turn=state.turn)} · {m('table_to_play', player=who(state.current))}"
        f" · {view.decision.kind} · {barbarians} {state.barbarians}/{rules.barbarian_track}{dice}"
    ]
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
        head = f"{'▶' if p == seat else ' '} {who(p)}: {player.points} {m('table_vp')}"
        if p == seat:
            hand = ", ".join(
                f"{n} {catalog.good_name(rules.goods[g])}" for g, n in enumerate(player.hand) if n
            )
            cards = ", ".join(
                catalog.card_name(card) + (f" ×{n}" if n > 1 else "")
                for card, n in Counter(player.progress).items()
            )
            lines.append(
                f"{head} · {m('table_hand')}: {hand or '-'} · {m('table_progress')}: {cards or '-'}"
            )
            lines.append(
                f"    {m('table_levels')}: {levels} · {m('table_knights')}: {knights or '-'}"
            )
        else:
            lines.append(
                f"{head} · {m('table_cards')}: {view.hand_sizes[p]} · "
                f"{m('table_progress')}: {view.progress_counts[p]} · {m('table_levels')}: "
                f"{levels} · {m('table_knights')}: {knights or '-'}"
            )
    if state.merchant != NOBODY:
        merchant = catalog.name("pieces", "merchant")
        tile = catalog.message("board_tile", tile=state.merchant)
        lines.append(f"  {merchant}: {tile} ({who(state.merchant_owner)})")
    return lines


def option_lines(game: Game, catalog: Catalog, options: Sequence[Option]) -> list[str]:
    """The legal answers numbered from 1, with the card's or track's name where the
    answer names one, in columns when there are many."""
    texts = [
        f"{n}) {format_option(game, o)}{option_gloss(game, catalog, o)}"
        for n, o in enumerate(options, start=1)
    ]
    if len(texts) <= 12:
        return [f"  {t}" for t in texts]
    width = max(len(t) for t in texts) + 2
    per_line = max(1, 100 // width)
    return [
        "  " + "".join(t.ljust(width) for t in texts[i : i + per_line]).rstrip()
        for i in range(0, len(texts), per_line)
    ]


def option_gloss(game: Game, catalog: Catalog, option: Option) -> str:
    """The localized name an answer's id stands for ("play bishop" — Bishop)."""
    if option[0] in ("play", "discard_card", "reward") and isinstance(option[1], str):
        name = catalog.card_name(option[1])
    elif option[0] == "improve" and isinstance(option[1], str):
        name = catalog.name("tracks", option[1])
    elif option[0] in ("discard", "take") and isinstance(option[1], str):
        name = catalog.good_name(option[1])
    else:
        return ""
    return "" if name.lower() == option[1].lower() else f" — {name}"
