"""The web table in a real browser (headless Chromium driven by Playwright): a person
plays a whole game by clicking, a board spot first and then the answer buttons, and the
final scores the page shows are the engine's."""

from __future__ import annotations

import json
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ckdsl.bots import parse_spec
from ckdsl.session import GameSetup
from ckdsl.table.web.room import Room
from ckdsl.table.web.server import make_app

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
BROWSER = next((found for name in BROWSERS if (found := shutil.which(name))), None)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        BROWSER is None,
        reason="no Chromium on this machine (Debian: apt-get install chromium; .ci/run does)",
    ),
]


def serve(room: Room) -> Iterator[str]:
    """The table on a free local port, in a thread, for the test's duration."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(room), port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def room() -> Room:
    specs = [None, *(parse_spec("heuristic") for _ in range(3))]
    return Room(GameSetup(seed=3), specs)


def open_page(room: Room, width: int, height: int) -> Iterator[object]:
    """The first person's seat in headless Chromium, at ``width`` x ``height``."""
    from playwright.sync_api import sync_playwright

    token = next(iter(room.tokens))
    for base in serve(room):
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
            tab = browser.new_page(viewport={"width": width, "height": height})
            tab.goto(f"{base}?seat={token}&lang=en")
            yield tab
            browser.close()


@pytest.fixture
def page(room: Room) -> Iterator[object]:
    yield from open_page(room, 1500, 1000)


@pytest.fixture
def phone(room: Room) -> Iterator[object]:
    yield from open_page(room, 390, 844)


def test_the_page_fits_a_phone_and_a_new_game_asks_first(room: Room, phone) -> None:  # type: ignore[no-untyped-def]
    phone.wait_for_selector("#board svg")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator("#options button").first.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390  # the answers on screen
    game = room.game
    phone.once("dialog", lambda dialog: dialog.dismiss())  # "Start a new game? ..." no
    phone.locator("#new").click()
    phone.wait_for_timeout(300)
    assert room.game is game  # nothing lost
    phone.once("dialog", lambda dialog: dialog.accept())
    version = phone.get_attribute("body", "data-version")
    phone.locator("#new").click()
    phone.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert room.game is not game


def test_a_whole_game_by_clicking(room: Room, page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_selector("#board svg")
    # The first settlement by clicking its place on the board.
    spot = page.locator("#board .option").first
    place = spot.get_attribute("data-answer")
    version = page.get_attribute("body", "data-version")
    spot.click()
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert room.game.history[0] == ("settlement", int(place.split()[-1]))
    clicks = 1
    while page.locator("#final").is_hidden():
        buttons = page.locator("#options button")
        version = page.get_attribute("body", "data-version")
        if buttons.count() == 0:
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
            continue
        buttons.first.click()
        clicks += 1
        page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        assert clicks < 2000
    shown = json.loads(page.get_attribute("#final", "data-scores"))
    engine = {
        room.game.rules.names("player_colours")[p]: player.points
        for p, player in enumerate(room.game.state.players)
    }
    assert room.game.state.over and shown == engine and clicks > 50
    assert "Final scores" in page.inner_text("#final")
    assert page.locator("#message").inner_text() == ""  # no click was refused
