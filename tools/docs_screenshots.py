"""The screenshots of docs/play.md, taken from the real programs: the web table in a
headless Chromium (Playwright) and the terminal seat in tmux, in English, Polish and
Serbian; and the web table's moments (set-up, a build, a trade, a 7, a card, a barbarian
attack, the end) at 1400x1000 and on a 390x844 phone, in English and Polish
(``web-MOMENT-SIZE-LANG.png``; ``build``: a road chosen in the build bar, its spots
lit, the phone's board zoomed in); the terminal's text board in colour
(``terminal-map-LANG.png``). Needs Chromium and tmux (Debian: apt-get install
chromium tmux), and rich (the sim extra) for the terminal's colours.

    python tools/docs_screenshots.py [--out docs/img] [--only moments]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

LANGUAGES = ("en", "pl", "sr")
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")


def web(out: Path) -> None:
    from playwright.sync_api import sync_playwright
    from test_web_browser import serve

    from ckdsl.bots import parse_spec
    from ckdsl.session import GameSetup
    from ckdsl.table.web.room import Room
    from ckdsl.turn.notation import format_option

    room = Room(GameSetup(seed=11), [None, *(parse_spec("heuristic") for _ in range(3))])
    token = next(iter(room.tokens))
    while room.game.state.turn < 9:  # mid-game: the first option, turn after turn
        options = room.game.pending.options
        last = [o for o in options if o[0] != "end"] or list(options)
        room.answer(token, format_option(room.game, last[0]))
    for base in serve(room):
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1500, "height": 1020})
            for lang in LANGUAGES:
                page.goto(f"{base}?seat={token}&lang={lang}")
                page.wait_for_selector("#board svg")
                page.screenshot(path=str(out / f"web-{lang}.png"))
                print("wrote", out / f"web-{lang}.png")
            browser.close()


MOMENT_LANGUAGES = ("en", "pl")
SIZES = {"desktop": (1400, 1000), "phone": (390, 844)}


def moments(out: Path) -> None:
    """Red (a person, whose answers a heuristic bot gives) plays a game on the web table;
    at each moment the table is shown at both sizes and in both languages."""
    from playwright.sync_api import sync_playwright
    from test_web_browser import serve

    from ckdsl.bots import bot_seed, make_bot, parse_spec
    from ckdsl.session import GameSetup
    from ckdsl.table.web.room import Room
    from ckdsl.turn.notation import format_option

    room = Room(GameSetup(seed=8), [None, *(parse_spec("heuristic") for _ in range(3))])
    token = next(iter(room.tokens))
    red = make_bot("heuristic", bot_seed(8, 0))  # the person's answers between the moments
    game = room.game
    goods = game.rules.goods
    taken: set[str] = set()
    attacks = 0

    def due() -> str | None:
        """The moment the game is at now, if not yet shot."""
        g, pending = room.game, room.game.pending
        if g.state.over:
            return "end"
        if pending.player != 0:
            return None
        found = [e for e in g.events if e["event"] == "attack"]
        if pending.kind == "setup_settlement" and "setup" not in taken:
            return "setup"
        if pending.kind == "discard" and "seven" not in taken:
            return "seven"
        if len(found) > attacks and "attack" not in taken:
            return "attack"
        roads = any(o[0] == "road" for o in pending.options)
        if pending.kind == "main" and roads and g.state.turn > 3 and "build" not in taken:
            return "build"
        if pending.kind == "main" and g.state.players[0].progress and "card" not in taken:
            return "card"
        if pending.kind == "main" and pending.accepts_open("offer") and "trade" not in taken:
            hand = g.state.players[0].hand
            return "trade" if max(hand) >= 2 else None
        return None

    def shoot(moment: str, page: object, size: str, lang: str) -> None:
        page.goto(f"{base}?seat={token}&lang={lang}")  # type: ignore[attr-defined]
        page.wait_for_selector("#board svg")  # type: ignore[attr-defined]
        page.wait_for_timeout(300)  # type: ignore[attr-defined]
        if moment == "trade":
            hand = room.game.state.players[0].hand
            give = max(range(len(goods)), key=lambda g: hand[g])
            get = min(range(len(goods)), key=lambda g: hand[g])
            page.fill(f"#trade input[data-side=give][data-good={goods[give]}]", "2")  # type: ignore[attr-defined]
            page.fill(f"#trade input[data-side=get][data-good={goods[get]}]", "1")  # type: ignore[attr-defined]
            page.locator("#offer").scroll_into_view_if_needed()  # type: ignore[attr-defined]
        if moment == "build":  # a road chosen in the build bar: its spots glow
            page.locator('.buy[data-kind="road"]').click()  # type: ignore[attr-defined]
            if size == "phone":  # zoomed in, as a thumb would
                for _ in range(2):
                    page.locator("#zoom-in").click()  # type: ignore[attr-defined]
                page.wait_for_timeout(500)  # type: ignore[attr-defined]
                page.evaluate("window.scrollTo(0, 0)")  # type: ignore[attr-defined]
        if moment == "card":
            page.locator("#cards .card").first.click()  # type: ignore[attr-defined]
        if moment in ("seven", "attack") and size == "phone":
            page.locator("#details").scroll_into_view_if_needed()  # type: ignore[attr-defined]
        path = out / f"web-{moment}-{size}-{lang}.png"
        page.screenshot(path=str(path))  # type: ignore[attr-defined]
        print("wrote", path)

    for base in serve(room):  # noqa: B007 (``shoot`` reads it)
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
            pages = {
                size: browser.new_page(viewport={"width": w, "height": h})
                for size, (w, h) in SIZES.items()
            }
            while True:
                moment = due()
                if moment is not None:
                    for lang in MOMENT_LANGUAGES:
                        for size, page in pages.items():
                            shoot(moment, page, size, lang)
                    taken.add(moment)
                if room.game.state.over:
                    break
                g = room.game
                attacks = len([e for e in g.events if e["event"] == "attack"])
                text = format_option(g, red.choose(g.view(0)))
                room.answer(token, text)
            browser.close()


def tmux_screen(name: str, command: str, keys: list[str], size: tuple[int, int]) -> str:
    """What a terminal of ``size`` (columns, lines) shows after ``keys``, with its colours
    (ANSI escapes: ``capture-pane -e``)."""
    subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]), command],
        check=True,
        env={
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "TERM": "xterm-256color",
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "HOME": str(Path.home()),
        },
    )
    for key in keys:
        time.sleep(1.5)
        subprocess.run(["tmux", "send-keys", "-t", name, key, "Enter"], check=True)
    time.sleep(2)
    screen = subprocess.run(
        ["tmux", "capture-pane", "-e", "-p", "-t", name],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
    return screen


def terminal_png(screen: str, path: Path, size: tuple[int, int]) -> None:
    """The screen (with its ANSI colours) as a PNG: rich turns it into HTML, Chromium
    takes the picture."""
    from rich.console import Console
    from rich.terminal_theme import MONOKAI
    from rich.text import Text

    console = Console(record=True, width=200, file=open(os.devnull, "w"), color_system="truecolor")  # noqa: SIM115
    console.print(Text.from_ansi(screen), soft_wrap=True)
    page = console.export_html(theme=MONOKAI, inline_styles=True, code_format=(
        "<html><body style='margin:0;background:{background}'><pre style='margin:0;"
        "padding:10px;color:{foreground};font:14px DejaVu Sans Mono,monospace'>{code}</pre>"
        "</body></html>"
    ))  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "screen.html"
        source.write_text(page, encoding="utf-8")
        subprocess.run(
            [BROWSER or "chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--hide-scrollbars", f"--screenshot={path}",
             f"--window-size={size[0]},{size[1]}", source.as_uri()],
            check=True, capture_output=True,
        )  # fmt: skip
    print("wrote", path)


def terminal(out: Path) -> None:
    for lang in LANGUAGES:
        command = (
            f"{sys.executable} -m ckdsl play --players human,heuristic,heuristic,heuristic "
            f"--seed 11 --delay 0 --lang {lang}"
        )
        # settle (the roll, the only answer, is given)
        screen = tmux_screen(f"ckdsl-shot-{lang}", command, ["5", "1", "7", "1"], (118, 34))
        plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
        (out / f"terminal-{lang}.txt").write_text(plain, encoding="utf-8")
        terminal_png(screen, out / f"terminal-{lang}.png", (1030, 620))
    for lang in MOMENT_LANGUAGES:  # the text board, as set-up shows it, a few turns in
        command = (
            f"{sys.executable} -m ckdsl play --players human,heuristic,heuristic,heuristic "
            f"--seed 11 --delay 0 --lang {lang}"
        )
        screen = tmux_screen(f"ckdsl-map-{lang}", command, ["5", "1", "7", "1", "map"], (104, 58))
        terminal_png(screen, out / f"terminal-map-{lang}.png", (900, 1000))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--only", choices=["web", "moments", "terminal"], default=None)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, make in (("web", web), ("moments", moments), ("terminal", terminal)):
        if args.only in (None, name):
            make(args.out)


if __name__ == "__main__":
    main()
