"""One game at the web table, apart from HTTP: who sits where, whose turn it is, what a
seat may see, and answers checked before they reach ``Game.answer``.

The room trusts nothing a page sends: a seat is known only by its secret token, an
answer is text that must be one of that seat's legal answers now, a save is uploaded
content whose rules and map must be the ones the table was started with, and which must
reach the state it says it reached. Every refusal is a ``Refused`` with an HTTP status
and a message, and changes nothing.

A seat is shown only what its player may know. A save holds the seed and every answer:
replayed, it shows every hand and the dice to come, so the full save of a game in
progress is the host's (the person who started ``ckdsl serve``, who holds the host
token); a seat gets it sealed (``seat_save``: no seed, no answer readable, opened again
by this table only), and the full save once the game is over. Replacing the game (a new
one, or a save loaded) is the host's call, or every person's: each seat's request is
counted until all of them asked for the same thing. Seeds are drawn from ``secrets``, so
nobody can tell the next dice.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ckdsl.bots import Bot, bot_seed
from ckdsl.bots.base import BotSpec
from ckdsl.core.compiled import CompiledRules
from ckdsl.core.decisions import IllegalAnswer
from ckdsl.core.pieces import points_breakdown
from ckdsl.core.view import visible_event
from ckdsl.diagnostics import CkdslError
from ckdsl.l10n.catalog import Catalog, all_languages, load_catalog
from ckdsl.l10n.refusals import render, say
from ckdsl.reports.game import log_renderer, scores
from ckdsl.reports.position import position_svg, screen_colour
from ckdsl.reports.rules_summary import differences
from ckdsl.session import GameSetup, load_rules, replay_text, save_data, start
from ckdsl.table.attack import last_attack
from ckdsl.table.status import (
    bank_rates,
    counter_line,
    decision_name,
    pending_details,
    source_name,
    title_line,
    turn_name,
)
from ckdsl.table.web.moves import (
    GROUP_NAMES,
    bank_trades,
    good_badge,
    pending_offer,
    shown_options,
)
from ckdsl.table.web.purchases import hand_cards, purchases, track_colours
from ckdsl.table.web.seat_save import is_seat_save, new_key, seat_save, unsealed
from ckdsl.turn.game import Game
from ckdsl.turn.notation import parse_answer

LOG_LINES = 60  # the last lines of the log a page shows
SPECTATOR = -2  # the seat of the plain address: the log masked as at a hot-seat table
# The page's own words, from the locale (``messages.table_*``).
PAGE_WORDS = (
    "vp", "cards", "progress", "knights", "levels", "answers", "you", "players", "log",
    "new", "save", "load", "offer", "over", "titles", "rules", "confirm_new", "confirm_load",
    "give", "get", "close", "discard_title", "points_to_win", "dice", "all_moves", "build",
    "pick_spot", "fit", "bank_trade", "pick_one",
    *(f"group_{name}" for name in GROUP_NAMES),
)  # fmt: skip


class Refused(Exception):
    """A request the room will not carry out: ``status`` for HTTP, ``message`` why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def fresh_seed() -> int:
    """A game's seed nobody can guess: from ``secrets``, 63 bits."""
    return secrets.randbits(63)


@dataclass
class Room:
    """A game, its seats (a bot spec, or None for a person) and the people's tokens."""

    setup: GameSetup
    specs: Sequence[BotSpec | None]
    tokens: dict[str, int] = field(default_factory=dict)  # token -> seat
    host: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    # What seats asked for and the host has not done (a new game, a save loaded, by the
    # save's sha256) -> the seats that asked; forgotten once the game is replaced.
    asked: dict[str, set[int]] = field(default_factory=dict)
    game: Game = field(init=False)
    bots: list[Bot | None] = field(init=False)
    version: int = 0  # bumped on every change, so a page polls cheaply
    lock: threading.Lock = field(default_factory=threading.Lock)
    seal: bytes = field(default_factory=new_key, repr=False)  # seals a seat's save
    # What each seat was last shown, by language, and at which version: a page open twice,
    # or asking again, is not drawn again (drawing is most of a request's time).
    shown: dict[tuple[int, str], tuple[int, dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for seat, spec in enumerate(self.specs):
            if spec is None:
                self.tokens[secrets.token_urlsafe(16)] = seat
        self._begin(start(self.setup))

    def _begin(self, game: Game) -> None:
        seed = self.setup.seed
        self.game = game
        self.asked.clear()
        self.bots = [
            None if spec is None else spec.make(bot_seed(seed, seat))
            for seat, spec in enumerate(self.specs)
        ]
        self.version += 1
        self._bots_play()

    def seat_of(self, token: object) -> int:
        """The seat of ``token``; refused (403) for anything else."""
        if isinstance(token, str):
            for known, seat in self.tokens.items():
                if _same(known, token):
                    return seat
        raise Refused(403, "not a seat at this table (a wrong or missing token)")

    def is_host(self, host: object) -> bool:
        return isinstance(host, str) and _same(self.host, host)

    def _agreed(self, token: object, host: object, what: str) -> list[int]:
        """The human seats still to ask for ``what`` before it is done ([]: do it now,
        asked by the host or by every seat); refused (403) for a stranger."""
        if self.is_host(host):
            return []
        seat = self.seat_of(token)
        asking = self.asked.setdefault(what, set())
        asking.add(seat)
        return sorted(set(self.tokens.values()) - asking)

    def _waiting(self, seats: list[int]) -> dict[str, Any]:
        colours = self.game.rules.names("player_colours")
        return {"version": self.version, "waiting": [colours[s] for s in seats]}

    # --- changes -------------------------------------------------------------------------

    def answer(self, token: object, text: object, lang: object = "en") -> None:
        """The seat's answer, if it is that seat's turn and the answer is legal now; a
        refusal says why in ``lang`` (``ckdsl.l10n.refusals``)."""
        with self.lock:
            seat = self.seat_of(token)
            if not isinstance(text, str) or not text.strip() or len(text) > 500:
                raise Refused(400, "an answer is a text, like 'build road 12-13'")
            catalog = self._catalog(lang)
            game = self.game
            if game.state.over:
                raise Refused(409, render(catalog, "refused_game_over", {}))
            if game.pending.player != seat:
                colour = game.rules.names("player_colours")[game.pending.player]
                said = render(catalog, "refused_not_your_turn", {"player": colour})
                raise Refused(409, said)
            try:
                option = parse_answer(game, text)
                if option not in game.pending.options:  # an open answer (an offer): try it
                    game.clone(log=False).answer(option)
            except IllegalAnswer as exc:
                raise Refused(422, say(catalog, exc)) from None
            game.answer(option)
            self.version += 1
            self._bots_play()

    def _bots_play(self) -> None:
        """The bots answer until a person's turn or the end of the game."""
        game = self.game
        while not game.state.over:
            bot = self.bots[game.pending.player]
            if bot is None:
                return
            game.answer(bot.choose(game.view(game.pending.player)))

    def new_game(self, token: object, host: object = None) -> dict[str, Any]:
        """A new game on a fresh seed, once the host or every seat asked for it; until
        then, ``{"waiting": [the colours still to ask]}``."""
        with self.lock:
            waiting = self._agreed(token, host, "new")
            if waiting:
                return self._waiting(waiting)
            self.setup = replace(self.setup, seed=fresh_seed())
            self._begin(start(self.setup))
            return {"version": self.version}

    def load(self, token: object, content: object, host: object = None) -> dict[str, Any]:
        """Replace the game by an uploaded save (its text), of this table's rules and map,
        once the host or every seat asked to load that very save (as ``new_game``)."""
        with self.lock:
            if not self.is_host(host):
                self.seat_of(token)  # a stranger is refused before anything is read
            if not isinstance(content, str) or len(content) > 2_000_000:
                raise Refused(400, "a save is uploaded as its text (at most 2 MB)")
            content = self._opened(content)
            setup = self.setup

            def offered(saved: GameSetup) -> bool:
                same = (saved.rules, saved.map, saved.players)
                return same == (setup.rules, setup.map, setup.players)

            try:  # checked before it is counted: a seat learns at once what is wrong
                game, saved = replay_text(content, "the uploaded save", offered)
            except CkdslError as err:
                raise Refused(422, "; ".join(d.message for d in err.diagnostics)) from None
            digest = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()
            waiting = self._agreed(token, host, f"load {digest}")
            if waiting:
                return self._waiting(waiting)
            self.setup = saved
            self._begin(game)
            return {"version": self.version}

    def _opened(self, content: str) -> str:
        """An uploaded save's text, a seat's save unsealed (refused, 422, if this table
        did not seal it)."""
        try:
            data = json.loads(content)
        except (ValueError, RecursionError):
            return content  # not JSON: replay_text says so, where
        if not is_seat_save(data):
            return content
        try:
            return unsealed(data, self.seal)
        except ValueError as err:
            raise Refused(422, str(err)) from None

    def save(self, token: object, host: object = None) -> dict[str, Any]:
        """The game as a save file: the host's at any time; a seat's once the game is
        over, and sealed before (``seat_save``: a full save of a game in progress would
        show every hand and the dice to come)."""
        with self.lock:
            if not self.is_host(host):
                seat = self.seat_of(token)
                if not self.game.state.over:
                    return seat_save(self.game, self.setup, seat, self.seal)
            return dict(save_data(self.game, self.setup))

    # --- what a seat sees ----------------------------------------------------------------

    def state(self, token: object, lang: object) -> dict[str, Any]:
        """Everything the seat's page shows, in ``lang``: only what that seat may know."""
        with self.lock:
            seat = self.seat_of(token)
            catalog = self._catalog(lang)
            version, found = self.shown.get((seat, catalog.language), (None, {}))
            if version != self.version:
                found = self._state(seat, catalog)
                self.shown[seat, catalog.language] = (self.version, found)
            return found

    def spectate(self, lang: object) -> dict[str, Any]:
        """What anyone at the plain address sees: the public part of the game only (no
        hand, no progress card, the log's secrets masked), and no answer to give."""
        with self.lock:
            return self._state(SPECTATOR, self._catalog(lang))

    def _catalog(self, lang: object) -> Catalog:
        """The catalog of ``lang`` with the table's rule set's names; refused (400) for a
        language there is none of."""
        if lang not in all_languages():
            raise Refused(400, f"no language {str(lang)[:20]!r}: {', '.join(all_languages())}")
        assert isinstance(lang, str)
        return load_catalog(lang, load_rules(self.setup.rules).ruleset)

    def _state(self, seat: int, catalog: Catalog) -> dict[str, Any]:
        game = self.game
        watching = seat == SPECTATOR
        # A spectator is shown only what every seat sees alike in a view (points, counts,
        # levels): the first seat's view serves for that; its hand is never read.
        view = game.view(0 if watching else seat)
        state, rules = view.state, view.rules
        colours = rules.names("player_colours")
        me = None if watching else state.players[seat]
        renderer = log_renderer(game, catalog)
        log = renderer.lines(visible_event(e, seat) for e in game.events[-4 * LOG_LINES :])
        mine = not state.over and game.pending.player == seat
        players = [
            {
                "colour": colours[p],
                "name": catalog.name("colours", colours[p]),
                "screen": screen_colour(colours[p]),
                "points": state.players[p].points,
                "cards": view.hand_sizes[p],
                "progress": view.progress_counts[p],
                "knights": len(state.players[p].knights),
                "levels": list(state.players[p].levels),
                "breakdown": [
                    {"source": source_name(game, catalog, s), "points": n}
                    for s, n in points_breakdown(game, p).items()
                ],
            }
            for p in range(view.players)
        ]
        ruleset = load_rules(self.setup.rules).ruleset
        colours_of = track_colours(ruleset.data)
        programs = rules.programs
        dice = None
        if state.dice is not None and state.rolled:
            dice = shown_dice(state.dice, rules, catalog, colours_of)
        return {
            "version": self.version,
            "seat": seat,
            "spectator": watching,
            "colour": None if watching else colours[seat],
            "language": catalog.language,
            "languages": list(all_languages()),
            "turn": state.turn,
            "current": state.current,
            "tracks": [catalog.name("tracks", t.id) for t in rules.tracks],
            "players": players,
            "hand": []
            if me is None
            else [
                {
                    "good": g,
                    "name": catalog.good_name(g),
                    "count": me.hand[i],
                    "said": catalog.counted(g, me.hand[i]),  # "2 karty kamienia"
                }
                for i, g in enumerate(rules.goods)
                if me.hand[i]
            ],
            "rates": "" if me is None else bank_rates(game, catalog, me.rates),
            "progress": hand_cards(game, catalog, me.progress if me else [], colours_of, mine),
            "purchases": purchases(game, catalog, None if watching else seat, colours_of),
            "board": position_svg(game, catalog, highlight=mine, seat=None if watching else seat),
            "dice": dice,
            "barbarians": {
                "name": catalog.name("concepts", "barbarians"),
                "at": state.barbarians,
                "track": rules.barbarian_track,
                "strength": programs.barbarian_strength(game),
                "defence": sum(programs.defence_of(game, p) for p in range(view.players)),
                "said": catalog.message(
                    "table_strength",
                    strength=programs.barbarian_strength(game),
                    defence=sum(programs.defence_of(game, p) for p in range(view.players)),
                ),
            },
            # the last attack as it was fought (the live facts say 0 defence after it)
            "attack": last_attack(game, catalog, seat),
            "titles": title_line(game, catalog),
            "counters": counter_line(game, catalog),
            "rules": {
                "name": ruleset.name,
                "description": ruleset.description,
                "points_to_win": ruleset.parameters["points_to_win"],
                "differences": differences(ruleset, load_rules("base").ruleset),
            },
            # every good with a picture for a page that has none of it (a variant's own)
            "goods": [
                {
                    "good": g,
                    "name": catalog.good_name(g),
                    "badge": good_badge(g, catalog.good_name(g)),
                }
                for g in rules.goods
            ],
            "log": log[-LOG_LINES:],
            "heading": self._heading(catalog, seat, mine),
            "pending": {
                "player": game.pending.player,
                "name": catalog.name("colours", colours[game.pending.player])
                if not state.over
                else "",
                "kind": game.pending.kind,
                "yours": mine,
                "options": shown_options(game, catalog, game.pending.options if mine else ()),
                "offers": mine and game.pending.accepts_open("offer"),
                "bank": bank_trades(game, game.pending.options) if mine else [],
                "offer": pending_offer(game, catalog) if mine else None,
                "details": pending_details(game, catalog) if mine else "",
            },
            "over": state.over,
            "scores": scores(game) if state.over else None,
            "final_title": catalog.message("final_scores"),
            "words": {key: catalog.message(f"table_{key}") for key in PAGE_WORDS}
            | {"label": catalog.message("table_label", label="{label}", value="{value}")},
            "winner": colours[state.winner] if state.winner >= 0 else None,
            "winner_said": self._winner(catalog),
        }

    def _winner(self, catalog: Catalog) -> str:
        """Who won and with how many points ("" before the end, or a game stopped
        unfinished), as the log tells the engine's ``win`` event (the player's name in
        the forms the language declares)."""
        game = self.game
        winner = game.state.winner
        if winner < 0:
            return ""
        event = {"event": "win", "player": winner, "points": game.state.players[winner].points}
        return log_renderer(game, catalog).render(event) or ""

    def _heading(self, catalog: Catalog, seat: int, mine: bool) -> str:
        """The line atop the page: the turn, and whose move it is."""
        game = self.game
        colours = game.rules.names("player_colours")
        turn = turn_name(catalog, game.state.turn)
        if seat == SPECTATOR:
            turn = f"{catalog.message('table_spectator')} · {turn}"
        if game.state.over:
            return f"{turn} · {catalog.message('table_over')}"
        who = catalog.name("colours", colours[game.pending.player])
        key = "table_your_move" if mine else "table_playing"
        return f"{turn} · {catalog.message(key, player=who)} ({decision_name(game, catalog)})"


def shown_dice(
    dice: tuple[int, int, str], rules: CompiledRules, catalog: Catalog, colours: dict[str, str]
) -> dict[str, Any]:
    """The roll as the page draws it: the white and red dice's numbers (drawn as pips),
    the event die's face as a picture (``kind``: a ship, a gate in its track's ``colour``,
    or a face a variant added that is neither: its name), and each die's words for a
    tooltip and a screen reader ("Red die: 4"), in the table's language."""
    white, red, face = dice
    gate = rules.face_gate.get(face)
    track = None if gate is None else rules.tracks[gate].id
    kind = "ship" if rules.face_ship.get(face) else "gate" if track else "other"
    event = catalog.name("event_faces", face)

    def said(die: str, value: object) -> str:
        return catalog.message("table_label", label=catalog.name("dice", die), value=value)

    return {
        "white": white,
        "red": red,
        "face": face,
        "event": event,
        "kind": kind,
        "colour": colours.get(track, "#90a4ae") if track else None,
        "said": {
            "white": said("white_die", white),
            "red": said("red_die", red),
            "event": said("event_die", event),
        },
    }


def _same(known: str, given: str) -> bool:
    """``given`` is the token ``known`` (compared in constant time)."""
    return secrets.compare_digest(known.encode(), given.encode("utf-8", "surrogatepass"))
