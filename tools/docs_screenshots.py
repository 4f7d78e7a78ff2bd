"""The screenshots of docs/play.md, taken from the real programs: the web table in a
headless Chromium (Playwright) and the terminal seat in tmux, in English, Polish and
Serbian; and the web table's moments (set-up, a trade, a 7, a card, a barbarian attack,
the end) at 1400x1000 and on a 390x844 phone, in English and Polish
(``web-MOMENT-SIZE-LANG.png``). Needs Chromium and tmux (Debian: apt-get install
chromium tmux).

    python tools/docs_screenshots.py [--out docs/img] [--only moments]
"""

from __future__ import annotations

import argparse
import html
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


def terminal(out: Path) -> None:
    for lang in LANGUAGES:
        name = f"ckdsl-shot-{lang}"
        command = (
            f"{sys.executable} -m ckdsl play --players human,heuristic,heuristic,heuristic "
            f"--seed 11 --delay 0 --lang {lang}"
        )
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", name, "-x", "118", "-y", "34", command],
            check=True,
            env={
                "PROMPT_TOOLKIT_NO_CPR": "1",
                "TERM": "xterm-256color",
                "PATH": "/usr/bin:/bin",
                "PYTHONPATH": str(ROOT),
                "HOME": str(Path.home()),
            },
        )
        for keys in ["5", "1", "7", "1"]:  # settle (the roll, the only answer, is given)
            time.sleep(1.5)
            subprocess.run(["tmux", "send-keys", "-t", name, keys, "Enter"], check=True)
        time.sleep(2)
        screen = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", name], capture_output=True, text=True, check=True
        ).stdout
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
        (out / f"terminal-{lang}.txt").write_text(screen, encoding="utf-8")
        page = (
            "<html><body style='margin:0;background:#1e1e1e'><pre style='margin:0;padding:10px;"
            "color:#e0e0e0;font:14px DejaVu Sans Mono,monospace'>"
            f"{html.escape(screen)}</pre></body></html>"
        )
        with tempfile.TemporaryDirectory() as folder:
            source = Path(folder) / "screen.html"
            source.write_text(page, encoding="utf-8")
            subprocess.run(
                [BROWSER or "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                 "--hide-scrollbars", f"--screenshot={out / f'terminal-{lang}.png'}",
                 "--window-size=1000,620", source.as_uri()],
                check=True, capture_output=True,
            )  # fmt: skip
        print("wrote", out / f"terminal-{lang}.png")


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
