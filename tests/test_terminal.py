"""The human seat at the terminal (``ckdsl play --players human,...``): a scripted person
plays through the table's commands; a person at a real pseudo-terminal (pexpect) plays a
whole game by keystrokes, and Ctrl-C mid-game offers to save a game that replays."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from ckdsl.bots import bot_seed, make_bot
from ckdsl.cli import cli
from ckdsl.l10n.catalog import load_catalog
from ckdsl.session import GameSetup, load_rules
from ckdsl.table.status import option_lines, status_lines
from ckdsl.table.terminal import play_at_table
from ckdsl.turn.game import Game


class Script:
    """A person who types the given lines, then closes the input; keeps what was said."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = list(lines)
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str:
        self.said.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def catalog(lang: str = "en"):  # type: ignore[no-untyped-def]
    return load_catalog(lang, load_rules("base").ruleset)


def table(lines: Sequence[str], seed: int = 3) -> tuple[Game, Script, int]:
    """A game with a scripted person in red's seat and heuristic bots: the game when the
    script ran out, what was said, the exit code."""
    setup = GameSetup(seed=seed)
    seats = [None, *(make_bot("heuristic", bot_seed(seed, p)) for p in (1, 2, 3))]
    script = Script(lines)
    game, code = play_at_table(
        setup, seats, catalog(), delay=0, save_path=None, make_console=lambda: script
    )
    return game, script, code


def test_a_refusal_says_why_in_the_tables_language() -> None:
    """A refused answer at the terminal is told in the table's language (``--lang``)."""
    setup = GameSetup(seed=3)
    seats = [None, *(make_bot("heuristic", bot_seed(3, p)) for p in (1, 2, 3))]
    script = Script(["build settlement 0", "build settlement 4"])
    play_at_table(setup, seats, catalog("it"), delay=0, save_path=None, make_console=lambda: script)
    said = "\n".join(script.said)
    assert "non ora: prima la strada della preparazione (tocca a Rosso rispondere)" in said


def test_the_tables_own_words_are_in_its_language(tmp_path: Path) -> None:
    """Help, a bad number, undo, the offer to save: in the table's language (issue 17)."""
    setup = GameSetup(seed=3)
    seats = [None, *(make_bot("heuristic", bot_seed(3, p)) for p in (1, 2, 3))]
    script = Script(["help", "99", "undo"])
    play_at_table(setup, seats, catalog("pl"), delay=0, save_path=None, make_console=lambda: script)
    said = "\n".join(script.said)
    assert "Odpowiedz numerem opcji" in said and "nie ma opcji 99: podaj liczbę od 1 do 54" in said
    assert "nie ma czego cofnąć: to twoja pierwsza decyzja" in said
    assert "wejście zamknięte: opuszczasz grę" in said
    assert "Answer with" not in said and "nothing to undo" not in said


def test_numbers_and_written_answers_both_answer() -> None:
    game, _, code = table(["1", "build road 0-4"])
    assert game.history[:2] == [("settlement", 0), ("road", game.topo.edge_id(0, 4))]
    assert code == 0


def test_commands_help_bad_numbers_and_illegal_answers_do_not_answer(tmp_path: Path) -> None:
    board, save = tmp_path / "b.svg", tmp_path / "s.json"
    game, script, _ = table(
        ["help", "99", "build nonsense", "options", "log 2", f"board {board}", f"save {save}"]
    )
    said = "\n".join(script.said)
    assert "undo" in said and "no option 99: give 1 to 54" in said
    assert "'build nonsense' is not a legal answer for Red now" in said
    assert game.history == []  # nothing was answered
    assert board.read_text().startswith("<svg") and save.exists()


def test_undo_takes_back_an_answer_but_not_after_the_dice() -> None:
    # settlement 0, road 0-3, (the bots place theirs) undo at the city: back to the road,
    # road 0-4 instead; city, road; then the roll shows dice: an undo after it is refused
    game, script, _ = table(["1", "1", "undo", "2", "1", "1", "roll", "undo"])
    said = "\n".join(script.said)
    assert "undone" in said and game.history[1] == ("road", game.topo.edge_id(0, 4))
    assert "cannot undo: dice, cards or a steal came out" in said
    assert game.state.rolled


class CardPlayer(Script):
    """A person who gives the first answer until a progress card may be played, plays it,
    then types ``undo``."""

    def __init__(self) -> None:
        super().__init__([])
        self.played = ""
        self.undone = False

    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str:
        self.said.append(prompt)
        if self.undone:
            raise EOFError
        if self.played:
            self.undone = True
            self.said.append("undo")
            return "undo"
        plays = [c for c in completions if c.startswith("play ")]
        if plays:
            self.played = plays[0]
            return plays[0]
        if len(self.said) > 5000:
            raise EOFError
        return "1"


def test_undo_after_a_card_says_a_card_moved_not_the_dice() -> None:
    """A card played goes under its deck: undo is refused for that, and says so (not
    "dice, cards or a steal")."""
    setup = GameSetup(seed=3)
    seats = [None, *(make_bot("heuristic", bot_seed(3, p)) for p in (1, 2, 3))]
    person = CardPlayer()
    play_at_table(setup, seats, catalog(), delay=0, save_path=None, make_console=lambda: person)
    assert person.played == "play Engineer"
    after = person.said[person.said.index("undo") :]
    deck = "cannot undo: a progress card was drawn or went under its deck since your last answer"
    assert deck in after and not any("dice, cards or a steal" in line for line in after)


def test_the_board_command_writes_a_png_for_a_png_name(tmp_path: Path) -> None:
    picture = tmp_path / "b.png"
    _, script, _ = table([f"board {picture}"])
    # (the table says so where no converter works: asked once, not probed first, since a
    # converter may be Chromium, a second each)
    if any("no SVG-to-PNG converter worked" in line for line in script.said):
        pytest.skip("no SVG-to-PNG converter on this machine")
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # a PNG, not SVG text
    assert any(str(picture.resolve()) in line for line in script.said)


def test_status_shows_only_what_the_seat_may_see() -> None:
    from ckdsl.session import start

    game = start(GameSetup(seed=1))
    bots = [make_bot("random", bot_seed(1, p)) for p in range(4)]
    while game.state.turn < 6:
        game.answer(bots[game.pending.player].choose(game.view(game.pending.player)))
    lines = status_lines(game, catalog(), 0)
    own = next(line for line in lines if line.startswith("▶"))
    assert "hand:" in own and "progress cards:" in own
    others = [line for line in lines if line.startswith("  ") and "VP" in line]
    assert len(others) == 3 and all("hand:" not in line and " cards:" in line for line in others)
    polish = status_lines(game, catalog("pl"), 0)
    own = next(line for line in polish if line.startswith("▶"))
    assert polish[0].startswith("tura 6 · ruch: ") and "Czerwony" in own
    assert "ręka:" in own and "hand" not in "\n".join(polish)
    # "label: value" as each language writes it: French with a space before the colon
    french = status_lines(game, catalog("fr"), 0)
    assert french[1].startswith("  titres : Route la plus longue : ")
    own = next(line for line in french if line.startswith("▶"))
    assert " : " in own and not re.search(r"\w: ", own), own


@pytest.mark.parametrize("viewer", range(4))
def test_no_seat_sees_a_card_planted_in_another_hand(viewer: int) -> None:
    """Each seat's status shows its own hand and cards and nobody else's: a card and a
    good planted in every other hand are looked for in what the seat is shown."""
    from ckdsl.session import start

    game = start(GameSetup(seed=2))
    bots = [make_bot("random", bot_seed(2, p)) for p in range(4)]
    while game.state.turn < 3:
        game.answer(bots[game.pending.player].choose(game.view(game.pending.player)))
    rules = game.rules
    for p, player in enumerate(game.state.players):
        player.progress[:] = ["spy"] if p != viewer else ["bishop"]
        player.hand[:] = [0] * len(player.hand)
        player.hand[rules.goods.index("coin" if p != viewer else "wool")] = 3
    game.refresh()
    shown = "\n".join(status_lines(game, catalog(), viewer))
    assert "Bishop" in shown and "3 wool" in shown
    assert "spy" not in shown.lower() and "coin" not in shown.lower()


def test_options_are_numbered_with_localized_names() -> None:
    from ckdsl.session import start

    game = start(GameSetup(seed=1))
    lines = option_lines(game, catalog(), game.pending.options)
    numbers = [int(n) for n in re.findall(r"(\d+)\) build settlement", "\n".join(lines))]
    assert numbers == list(range(1, len(game.pending.options) + 1))
    assert option_lines(game, catalog(), [("play", "bishop")]) == ["  1) play Bishop"]
    assert option_lines(game, catalog("fr"), [("play", "bishop")]) == ["  1) jouer Évêque"]
    polish = option_lines(game, catalog("pl"), game.pending.options[:2])
    assert polish == ["  1) zbuduj osadę na 0", "  2) zbuduj osadę na 1"]


def test_an_answer_typed_as_the_table_shows_it_or_in_english_answers() -> None:
    setup = GameSetup(seed=3)
    seats = [None, *(make_bot("heuristic", bot_seed(3, p)) for p in (1, 2, 3))]
    script = Script(["Zbuduj osadę na 0", "build road 0-4"])
    game, _ = play_at_table(
        setup, seats, catalog("pl"), delay=0, save_path=None, make_console=lambda: script
    )
    assert game.history[:2] == [("settlement", 0), ("road", game.topo.edge_id(0, 4))]


def test_a_bot_name_that_is_not_human_is_still_refused() -> None:
    result = CliRunner().invoke(cli, ["play", "--players", "humann,random,random,random"])
    assert result.exit_code == 2 and "unknown bot 'humann'" in result.output


def _spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", PYTHONUNBUFFERED="1")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "ckdsl", "play", "--players", "human,heuristic,heuristic,heuristic", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 120),
    )
    child.delaybeforesend = 0.005
    return child


@pytest.mark.slow
def test_a_whole_game_by_keystrokes_in_a_terminal() -> None:
    child = _spawn("--seed", "3", "--delay", "0")
    prompts = forced = 0
    while (seen := child.expect([r"\[Red\] >", r"\(the only answer\)", "Final scores"])) < 2:
        if seen == 0:
            prompts += 1
            child.send("1\r")  # the first legal answer, every time
        else:
            forced += 1  # one answer: given for the person, and said
    child.expect(pexpect.EOF)
    child.close()
    scores = re.findall(r"(Red|Blue|White|Orange): (\d+) victory points", child.before)
    assert len(scores) == 4 and max(int(points) for _, points in scores) >= 13
    assert prompts > 30 and forced > 5 and child.exitstatus == 0


@pytest.mark.slow
def test_ctrl_c_offers_to_save_and_the_save_replays(tmp_path: Path) -> None:
    child = _spawn("--seed", "4", "--delay", "0")
    for _ in range(12):
        child.expect(r"\[Red\] >")
        child.send("1\r")
    child.expect(r"\[Red\] >")
    time.sleep(0.5)  # the prompt drawn is not yet the terminal in raw mode, on a busy machine
    for _ in range(5):  # as a person would: Ctrl-C again if the first one came too early
        child.sendintr()
        if child.expect([r"save the game first\? \[y/N\]", pexpect.TIMEOUT], timeout=5) == 0:
            break
    else:
        pytest.fail("Ctrl-C never asked to save")
    child.send("y\r")
    child.expect(r"file \[")
    save = tmp_path / "interrupted.json"
    child.send(f"{save}\r")
    child.expect("saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in child.before
    replayed = CliRunner().invoke(cli, ["replay", str(save), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert '"answers": ' in replayed.output


def test_a_cards_text_is_read_at_the_table_by_id_or_name() -> None:
    setup = GameSetup(seed=3)
    seats = [None, *(make_bot("heuristic", bot_seed(3, p)) for p in (1, 2, 3))]
    script = Script(["card bishop", "card Biskup", "card nope"])
    play_at_table(setup, seats, catalog("pl"), delay=0, save_path=None, make_console=lambda: script)
    said = script.said
    bishop = [line for line in said if line.startswith("Biskup: Przesuń rabusia")]
    assert len(bishop) == 2
    assert "'nope' to nie karta postępu tej gry; `cards` je wymienia" in said


def test_ask_always_asks_the_answers_the_table_otherwise_gives() -> None:
    """`--ask-always`: every single-answer decision (a bot's offer that can only be
    declined, the one city to lose) is a prompt; by default the table gives it and says
    so. The same keystrokes play the same game either way."""
    args = ["play", "--players", "human,heuristic,heuristic,heuristic", "--seed", "3"]
    keys = "1\n" * 200
    given = CliRunner().invoke(cli, [*args, "--delay", "0"], input=keys)
    asked = CliRunner().invoke(cli, [*args, "--delay", "0", "--ask-always"], input=keys)
    assert given.exit_code == asked.exit_code == 0
    forced = given.output.count("(the only answer)")
    assert forced > 5 and "(the only answer)" not in asked.output
    assert asked.output.count("[Red] >") == given.output.count("[Red] >") + forced
    scores = given.output.split("Final scores")[1]
    assert scores == asked.output.split("Final scores")[1] and "victory points" in scores


def test_explain_shows_a_cards_or_an_abilitys_effect_in_the_tables_language() -> None:
    """`explain NAME` at the table says what `ckdsl explain` says (the facts and text in
    the table's language, the effect as the engine reads it), by id or localized name."""
    setup = GameSetup(seed=3)
    seats = [None, *(make_bot("heuristic", bot_seed(3, p)) for p in (1, 2, 3))]
    script = Script(["explain BISKUP", "explain aqueduct", "explain Akwedukt", "explain nope"])
    play_at_table(setup, seats, catalog("pl"), delay=0, save_path=None, make_console=lambda: script)
    said = script.said
    bishop = [text for text in said if text.startswith("Biskup  [bishop]\n")]
    assert len(bishop) == 1
    assert "Karty postępu polityki · 2 egzemplarze" in bishop[0]
    assert "Efekt (rules/base/progress.yaml:" in bishop[0]
    assert "    move robber to t" in bishop[0]
    aqueduct = [text for text in said if text.startswith("Akwedukt  [aqueduct]\n")]
    assert len(aqueduct) == 2 and "Nauka 3" in aqueduct[0]
    assert "'nope' to ani karta, ani zdolność poziomu tej gry; `cards` wymienia karty" in said
    help_text = load_catalog("pl", load_rules("base").ruleset).message("terminal_help")
    assert "explain NAZWA" in help_text


def test_explain_at_a_real_terminal_then_quit() -> None:
    """By keystrokes at a pseudo-terminal: `explain` (completed as a command) prints the
    card's effect, and the game goes on at the same prompt."""
    child = _spawn("--seed", "3", "--delay", "0")
    child.expect(r"\[Red\] >")
    child.send("explain wedding\r")
    child.expect(r"Wedding  \[wedding\]")
    child.expect(r"Effect \(rules/base/progress\.yaml:\d+\):")
    child.expect(r"\[Red\] >")
    child.send("quit\r")
    child.expect(r"save the game first\? \[y/N\]")
    child.send("n\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before
