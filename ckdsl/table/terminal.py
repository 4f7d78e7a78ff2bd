"""A person's seat at the terminal: ``ckdsl play --players human,heuristic,...``.

On each of a human seat's decisions the table prints what happened since (as that seat
saw it), a compact status, and the legal answers numbered; the person types a number
or the answer itself (completed as they type, by prompt_toolkit on a terminal; plain
lines from a pipe), or one of the table's commands: ``help``, ``options``, ``board``,
``map`` (the board drawn in characters, also shown before each set-up decision), ``card``,
``explain`` (a card's or a level's ability's effect, as ``ckdsl explain`` shows it), ``log``,
``undo``, ``save``, ``quit``. Every answer goes through ``Game.answer``; bots
answer their seats from their own view. Ctrl-C offers to save, then leaves.

``undo`` takes back the seat's last answer by replaying the game's answers without it
(games are deterministic, so that is exact), and only while nothing random came out
since: no dice rolled, no card drawn, nothing stolen (the random streams and the decks
are as they were), so a person cannot undo to try their luck again.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ckdsl.bots import Bot
from ckdsl.core.decisions import IllegalAnswer
from ckdsl.core.view import visible_event
from ckdsl.dsl.explain import explain
from ckdsl.l10n.catalog import Catalog
from ckdsl.l10n.refusals import say
from ckdsl.reports.dsl import explain_lines
from ckdsl.reports.game import log_renderer, score_lines
from ckdsl.reports.picture import NoConverter, svg_to_png
from ckdsl.reports.position import position_svg
from ckdsl.session import MAP_IN_USE, GameSetup, file_in_use, load_rules, start, write_save
from ckdsl.table.answers import localized, read_localized
from ckdsl.table.status import option_lines, status_lines, turn_name
from ckdsl.table.textboard import Styled, styled_board
from ckdsl.turn.game import Event, Game
from ckdsl.turn.notation import format_option, parse_answer

COMMANDS = ("help", "options", "board", "map", "card", "explain", "log", "undo", "save", "quit")


MAX_LINE = 10_000
"""The longest answer line read (any answer or command is a few dozen characters)."""

TOO_LONG = "\0too long"
"""What a line longer than ``MAX_LINE`` reads as: no answer, no command."""


class Console(Protocol):
    """Where the table talks to the person: ``ask`` raises EOFError when input ends and
    KeyboardInterrupt on Ctrl-C."""

    def say(self, text: str) -> None: ...

    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str: ...


class LineConsole:
    """Plain lines: for pipes, files and tests (no terminal to edit on)."""

    def say(self, text: str) -> None:
        print(text, flush=True)

    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str:
        """A line of at most ``MAX_LINE`` characters: a longer one (a file pasted, 25 MB on
        one line) is read to its end in pieces, never whole, and answers as ``TOO_LONG``."""
        print(prompt, end="", flush=True)
        line = sys.stdin.readline(MAX_LINE + 1)
        if not line:
            raise EOFError
        if len(line) <= MAX_LINE or line.endswith("\n"):
            return line.rstrip("\n")
        while (rest := sys.stdin.readline(MAX_LINE)) and not rest.endswith("\n"):
            pass  # the rest of the line, dropped as it comes
        return TOO_LONG


class PromptConsole(LineConsole):
    """A terminal: prompt_toolkit's line editor, history and completion of the answers."""

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession

        self._session: PromptSession[str] = PromptSession()

    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str:
        from prompt_toolkit.completion import WordCompleter

        completer = WordCompleter(list(completions), sentence=True, match_middle=True)
        return self._session.prompt(prompt, completer=completer, complete_while_typing=False)

    def show(self, lines: Sequence[Styled]) -> None:
        """Lines with styles (the board's colours), as the terminal can show them (none
        with NO_COLOR set)."""
        from prompt_toolkit import print_formatted_text
        from prompt_toolkit.formatted_text import FormattedText

        runs = [run for line in lines for run in [*line, ("", "\n")]]
        print_formatted_text(FormattedText(runs), end="")


def say_board(console: Console, lines: Sequence[Styled]) -> None:
    """The text board: in colour on a terminal, plain elsewhere (its marks read alike)."""
    if isinstance(console, PromptConsole):
        console.show(lines)
    else:
        console.say("\n".join("".join(text for _, text in line) for line in lines))


def console() -> Console:
    """A line editor on a terminal, plain lines otherwise."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return PromptConsole()
    return LineConsole()


@dataclass
class _Mark:
    """A human seat's decision: how many answers came before it, and what was random
    then (the streams and the decks: if either moved since, something was revealed)."""

    answers: int
    rng: dict[str, int]
    decks: list[list[str]]


@dataclass
class Table:
    """One game at the terminal: seats that are bots or people (None)."""

    game: Game
    setup: GameSetup
    seats: Sequence[Bot | None]
    catalog: Catalog
    console: Console
    delay: float = 0.0
    save_path: Path | None = None
    board_path: Path = Path("ckdsl-board.svg")
    ask_forced: bool = False
    """Ask even when there is one answer (by default it is given, and said)."""
    shown: int = 0  # events already printed
    marks: list[_Mark] = field(default_factory=list)

    def run(self) -> int:
        """Play to the end (or until the person leaves); the exit code: 0, or 130 when
        interrupted."""
        try:
            while not self.game.state.over:
                player = self.game.pending.player
                seat = self.seats[player]
                if seat is None:
                    if not self._human(player):
                        return 0
                else:
                    self.game.answer(seat.choose(self.game.view(player)))
                    self._show_events(pace=True)
            self._show_events()
            self.console.say("\n".join(["", *score_lines(self.game, self.catalog)]))
            return 0
        except KeyboardInterrupt:
            self.console.say("\n" + self.catalog.message("terminal_interrupted"))
            self._offer_save()
            return 130
        except EOFError:
            self.console.say("\n" + self.catalog.message("terminal_input_closed"))
            if self.save_path is not None:
                self._save(self.save_path)
            return 0

    # --- a person's decision ------------------------------------------------------------

    def _human(self, player: int) -> bool:
        """Ask ``player`` until they answer; False when they quit."""
        game = self.game
        self._show_events()
        options = game.pending.options
        if len(options) == 1 and not self.ask_forced:  # nothing to decide: say it, go on
            answer = localized(game, self.catalog, options[0])
            self.console.say(self.catalog.message("terminal_forced", answer=answer))
            game.answer(options[0])
            return True
        decks = [deck[:] for deck in game.state.decks]
        self.marks.append(_Mark(len(game.history), dict(game.state.rng), decks))
        if game.pending.kind.startswith("setup"):  # choose a spot on the board, not a number
            say_board(self.console, [[], *styled_board(game, self.catalog)])
        self.console.say("\n".join(["", *status_lines(game, self.catalog, player)]))
        self.console.say("\n".join(option_lines(game, self.catalog, options)))
        answers = [localized(game, self.catalog, o) for o in options]
        answers += [format_option(game, o) for o in options]  # the notation is understood too
        name = self.catalog.name("colours", game.rules.names("player_colours")[player])
        while True:
            text = " ".join(self.console.ask(f"[{name}] > ", [*answers, *COMMANDS]).split())
            word, _, rest = text.partition(" ")
            if not text:
                continue
            if text == TOO_LONG:
                text = f"{MAX_LINE}+"  # said as any unknown answer, briefly
            if text.isdecimal():  # any digits (², ٣ are not all ASCII): an option number
                number = int(text) if text.isascii() and len(text) <= 6 else 0
                if 1 <= number <= len(options):
                    game.answer(options[number - 1])
                    return True
                self.console.say(
                    self.catalog.message("terminal_no_option", number=text[:12], last=len(options))
                )
            elif word in ("help", "?"):
                self.console.say(self.catalog.message("terminal_help"))
            elif word == "options":
                self.console.say("\n".join(option_lines(game, self.catalog, options)))
            elif word == "board":
                self._write_board(Path(rest) if rest else self.board_path)
            elif word == "map":
                say_board(self.console, styled_board(game, self.catalog))
            elif word == "card":
                self.console.say(self._card_text(rest))
            elif word == "explain":
                self.console.say(self._explanation(rest))
            elif word == "log":
                self._show_log(
                    int(rest) if rest.isascii() and rest.isdigit() and len(rest) <= 6 else 20
                )
            elif word == "undo":
                if self._undo():
                    return True
            elif word == "save":
                self._save(Path(rest) if rest else self._default_save())
            elif word in ("quit", "exit"):
                self._offer_save()
                return False
            else:
                try:
                    shown = read_localized(game, self.catalog, text, options)
                    option = shown if shown is not None else parse_answer(game, text)
                    game.answer(option)
                    return True
                except IllegalAnswer as exc:
                    self.console.say(_short(say(self.catalog, exc)))

    def _undo(self) -> bool:
        """Go back to this seat's previous decision, if nothing random came out since."""
        if len(self.marks) < 2:
            self.console.say(self.catalog.message("terminal_nothing_to_undo"))
            return False
        mark, now = self.marks[-2], self.game.state
        if mark.rng != now.rng:
            self.console.say(self.catalog.message("terminal_cannot_undo"))
            return False
        if mark.decks != now.decks:  # a card drawn, or played and put under its deck
            self.console.say(self.catalog.message("terminal_cannot_undo_deck"))
            return False
        replayed = start(self.setup)
        for option in self.game.history[: mark.answers]:
            replayed.answer(option)
        self.game = replayed
        self.marks = self.marks[:-2]
        self.shown = len(replayed.events)
        self.console.say(self.catalog.message("terminal_undone", answer=len(self.marks) + 1))
        return True

    # --- what the person sees -----------------------------------------------------------

    def _visible(self, events: list[Event]) -> list[Event]:
        """The events as the table's people may see them: one person, as that seat saw
        them; several (hot-seat), with every secret detail masked."""
        people = [p for p, seat in enumerate(self.seats) if seat is None]
        viewer = people[0] if len(people) == 1 else -2
        return [visible_event(e, viewer) for e in events]

    def _show_events(self, pace: bool = False) -> None:
        # A run still going on (the person discarding after a 7, card by card) is held
        # back, to be shown in one line once it ends.
        end = max(self.shown, len(self.game.events) - _unfinished_run(self.game))
        events = self.game.events[self.shown : end]
        self.shown = end
        renderer = log_renderer(self.game, self.catalog)
        for line in renderer.lines(self._visible(events)):
            self.console.say(line)
            if pace and self.delay:
                time.sleep(self.delay)

    def _show_log(self, count: int) -> None:
        renderer = log_renderer(self.game, self.catalog)
        lines = renderer.lines(self._visible(self.game.events))
        self.console.say("\n".join(lines[-count:]))

    def _card_text(self, name: str) -> str:
        """A progress card's name and text, found by its id or its name in any case."""
        wanted = " ".join(name.split()).casefold()
        for card in self.game.rules.cards:
            if wanted in (card.casefold(), self.catalog.card_name(card).casefold()):
                return f"{self.catalog.card_name(card)}: {self.catalog.card_text(card)}"
        return self.catalog.message("terminal_no_card", name=name[:40])

    def _explanation(self, name: str) -> str:
        """What ``ckdsl explain`` says of a card or a level's ability (found by its id or
        its name in the table's language, in any case), in the table's language: the person
        reads a card's effect as the engine does without leaving the game."""
        wanted = " ".join(name.split()).casefold()
        ruleset = load_rules(self.setup.rules).ruleset  # cached: the game's own rules
        named = {card: self.catalog.card_name(card) for card in ruleset.cards}
        for spec in ruleset.section("tracks").values():
            for level in spec["levels"]:
                if "ability" in level:
                    named[level["id"]] = self.catalog.name("levels", level["id"])
        for key, shown in named.items():
            if wanted and wanted in (key.casefold(), shown.casefold()):
                return "\n".join(explain_lines(explain(ruleset, key, self.catalog)))
        return self.catalog.message("terminal_nothing_to_explain", name=name[:40])

    def _write_board(self, path: Path) -> None:
        if self._in_use(path):
            return
        title = turn_name(self.catalog, self.game.state.turn)
        svg = position_svg(self.game, self.catalog, title=title)
        try:
            if path.suffix.lower() == ".png":
                svg_to_png(svg, path)
            else:
                path.write_text(svg, encoding="utf-8")
        except OSError as exc:
            self.console.say(
                self.catalog.message("terminal_cannot_write", file=path, why=exc.strerror)
            )
            return
        except NoConverter as exc:
            self.console.say(str(exc))
            return
        self.console.say(self.catalog.message("terminal_board_written", file=path.resolve()))

    # --- saving ---------------------------------------------------------------------------

    def _default_save(self) -> Path:
        return self.save_path or Path("ckdsl-game.json")

    def _in_use(self, path: Path) -> bool:
        """Whether ``path`` is a file the game reads (said, then): never written over."""
        used = file_in_use(path, self.setup)
        if used is not None:
            key = "terminal_save_on_map" if used == MAP_IN_USE else "terminal_save_on_rules"
            self.console.say(self.catalog.message(key, file=path))
        return used is not None

    def _save(self, path: Path) -> bool:
        if self._in_use(path):
            return False
        try:
            write_save(path, self.game, self.setup)
        except OSError as exc:
            self.console.say(
                self.catalog.message("terminal_cannot_save", file=path, why=exc.strerror)
            )
            return False
        self.console.say(self.catalog.message("terminal_saved", file=path))
        return True

    def _offer_save(self) -> None:
        """Ask whether to save before leaving; a second Ctrl-C or closed input: no."""
        try:
            ask = self.catalog.message("terminal_save_first")
            reply = self.console.ask(ask + " ").strip().lower()
            yes = {"y", "yes", *self.catalog.message("terminal_yes").lower().split()}
            if reply not in yes:
                return
            default = self._default_save()
            where = self.console.ask(self.catalog.message("terminal_file", file=default) + " ")
            self._save(Path(where.strip()) if where.strip() else default)
        except (KeyboardInterrupt, EOFError):
            self.console.say(self.catalog.message("terminal_not_saved"))


def _short(reason: str, limit: int = 400) -> str:
    """A refusal without its list of thirty legal answers (``options`` shows them)."""
    if len(reason) <= limit:
        return reason
    return reason[:limit].rsplit(",", 1)[0] + ", ... (type `options` to see them all)"


def play_at_table(
    setup: GameSetup,
    seats: Sequence[Bot | None],
    catalog: Catalog,
    *,
    delay: float,
    save_path: Path | None,
    make_console: Callable[[], Console] = console,
    game: Game | None = None,
    ask_forced: bool = False,
) -> tuple[Game, int]:
    """Play ``setup``'s game (``game``, if it was started already) with these seats at
    the terminal; the game and exit code. ``ask_forced``: ask the person even when there
    is one answer (a bot's offer they can only decline, the one city to lose)."""
    game = game if game is not None else start(setup)
    table = Table(
        game, setup, seats, catalog, make_console(), delay, save_path, ask_forced=ask_forced
    )
    code = table.run()
    return table.game, code


def _unfinished_run(game: Game) -> int:
    """How many of the last events are a run the decision owed now goes on with: the
    discards of the player who owes another discard (``ckdsl.l10n.events.runs``)."""
    decision = game.peek()
    events = game.events
    if decision is None or decision.kind != "discard" or not events:
        return 0
    n = 0
    for event in reversed(events):
        if event.get("event") != "discard" or event.get("player") != decision.player:
            break
        n += 1
    return n
