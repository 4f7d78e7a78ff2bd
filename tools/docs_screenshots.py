"""The screenshots of docs/play.md, taken from the real programs: the web table in a
headless Chromium (Playwright) and the terminal seat in tmux, in English, Polish and
Serbian. Needs Chromium and tmux (Debian: apt-get install chromium tmux).

    python tools/docs_screenshots.py [--out docs/img]
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
        for keys in ["5", "1", "7", "1", "roll"]:  # settle, then to the first main turn
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
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    web(args.out)
    terminal(args.out)


if __name__ == "__main__":
    main()
