"""What must hold in any game, whatever the players do: the books balance.

The property tests check these after every answer of random games, and
``benchmarks/soak.py`` over thousands of seeds; a house-rule author can call
``broken_invariants(game)`` to hunt a bug in a variant. Each finding is a sentence.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ckdsl.core import derived, pieces
from ckdsl.core.board_rules import longest_road
from ckdsl.core.progress import hand_limit
from ckdsl.core.state import CITY, DAMAGED, NOBODY, SETTLEMENT

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def broken_invariants(game: Game) -> list[str]:
    """Every invariant that does not hold now (an empty list when all is well)."""
    out: list[str] = []
    _goods(game, out)
    _pieces(game, out)
    _knights(game, out)
    _cards(game, out)
    _board(game, out)
    _kept(game, out)
    return out


def _goods(game: Game, out: list[str]) -> None:
    """Goods are conserved: every resource and commodity is in the bank or in a hand."""
    state, rules = game.state, game.rules
    for g, total in enumerate(rules.bank):
        held = state.bank[g] + sum(p.hand[g] for p in state.players)
        if held != total or state.bank[g] < 0:
            out.append(f"{rules.goods[g]}: bank {state.bank[g]} + hands = {held}, not {total}")
    for p, me in enumerate(state.players):
        if min(me.hand) < 0 or min(me.supply.values()) < 0:
            out.append(f"player {p}: a negative count in hand or supply")


def _pieces(game: Game, out: list[str]) -> None:
    """Pieces on the board plus pieces in supply make the rule set's supply; the tracked
    points equal a recount."""
    state, rules = game.state, game.rules
    for p, me in enumerate(state.players):
        building = state.building
        on_board = {
            "settlement": sum(1 for i in me.buildings if building[i] == SETTLEMENT),
            "city": sum(1 for i in me.buildings if building[i] in (CITY, DAMAGED)),
            "city_wall": sum(1 for i in me.buildings if state.wall[i]),
            "road": len(me.roads),
        }
        for piece, n in on_board.items():
            if n + me.supply[piece] != rules.supply[piece]:
                out.append(f"player {p}: {n} {piece} on the board + {me.supply[piece]} in "
                           f"supply, not {rules.supply[piece]}")  # fmt: skip
        if any(state.owner[i] != p for i in me.buildings):
            out.append(f"player {p}: a building listed as theirs belongs to someone else")
        if any(state.road[e] != p for e in me.roads):
            out.append(f"player {p}: a road listed as theirs belongs to someone else")
        if me.points != game.recount_points(p):
            out.append(f"player {p}: {me.points} points tracked, {game.recount_points(p)} "
                       "counted")  # fmt: skip
    owned = sum(1 for o in state.owner if o != NOBODY)
    if owned != sum(len(p.buildings) for p in state.players):
        out.append("the board's buildings and the players' lists disagree")


def _knights(game: Game, out: list[str]) -> None:
    """Knights on the board and in supply add up, level by level."""
    state, rules = game.state, game.rules
    for p, me in enumerate(state.players):
        if sorted(me.knights) != [i for i, q in enumerate(state.knight) if q == p]:
            out.append(f"player {p}: the knights listed and those on the board disagree")
        for n, level in enumerate(rules.knight_levels, start=1):
            on_board = sum(1 for i in me.knights if state.knight_level[i] == n)
            if on_board + me.supply[level.id] != level.supply:
                out.append(f"player {p}: {on_board} {level.id} on the board + "
                           f"{me.supply[level.id]} in supply, not {level.supply}")  # fmt: skip
    for i, owner in enumerate(state.knight):
        if (owner == NOBODY) != (state.knight_level[i] == 0):
            out.append(f"intersection {i}: a knight's owner and level disagree")


def _cards(game: Game, out: list[str]) -> None:
    """Progress cards are conserved (decks + hands + shown + the one being played); nobody
    holds more than the limit off their turn."""
    state, rules = game.state, game.rules
    cards: Counter[str] = Counter()
    for deck in state.decks:
        cards.update(deck)
    for me in state.players:
        cards.update(me.progress)
        cards.update(me.revealed)
    cards.update(t[1]["id"] for t in state.queue if t[0] == "effect" and t[1]["src"] == "card")
    expected = Counter(c for deck in rules.decks for c in deck.cards)
    if cards != expected:
        out.append(f"progress cards: {dict(cards - expected)} too many, "
                   f"{dict(expected - cards)} missing")  # fmt: skip
    for p, me in enumerate(state.players):
        waiting = any(t[0] == "discard_progress" and t[1] == p for t in state.queue)
        over = len(me.progress) > hand_limit(game, p, own_turn=False)
        if p != state.current and not waiting and over:
            out.append(f"player {p}: {len(me.progress)} progress cards off their turn")
    if pieces.defenders_left(game) < 0:  # (no limit: turn_limit, one attack a turn at most)
        out.append("more Defender of Catan cards given than there are")


def _board(game: Game, out: list[str]) -> None:
    """Metropolises stand on cities, the merchant has a holder, the ship is on its track,
    levels are within their tracks."""
    state, rules = game.state, game.rules
    held = [i for i in state.metropolis if i != NOBODY]
    if len(held) != len(set(held)) or any(state.building[i] != CITY for i in held):
        out.append(f"metropolises on {held}: not each on a city of its own")
    if (state.merchant == NOBODY) != (state.merchant_owner == NOBODY):
        out.append("the merchant and its holder disagree")
    if not 0 <= state.barbarians < rules.barbarian_track:
        out.append(f"the barbarian ship stands at {state.barbarians}")
    for p, me in enumerate(state.players):
        if any(not 0 <= lv <= len(t.levels) for lv, t in zip(me.levels, rules.tracks, strict=True)):
            out.append(f"player {p}: an improvement level outside its track")


def _kept(game: Game, out: list[str]) -> None:
    """What the engine keeps up to date as the game goes equals a count from scratch: the
    board rules' kept answers (``ckdsl.core.derived``), each player's longest road, the
    tiles of each number."""
    out += derived.stale_entries(game)
    state = game.state
    for p, me in enumerate(state.players):
        length = longest_road(game.topo, state, p)
        if me.road_length != length:
            out.append(f"player {p}: longest road {me.road_length} tracked, {length} counted")
    if derived.tiles_by_number(state.numbers) != game.tiles_by_number:
        out.append("the tiles indexed by number are not those carrying each number")
