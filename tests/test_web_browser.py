"""The web table in a real browser (headless Chromium driven by Playwright): a person
plays a whole game by clicking, a board spot first and then the answer buttons, and the
final scores the page shows are the engine's."""

from __future__ import annotations

import json
import shutil
import socket
import threading
from collections.abc import Iterator

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
    return Room(GameSetup(seed=8), specs)  # a game where red discards after a 7


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
    # set-up is chosen on the board: the list of all moves is folded, and opens on screen
    assert phone.locator("#options button").first.is_hidden()
    board = phone.locator("#board svg").bounding_box()
    assert board is not None and board["x"] + board["width"] <= 390
    phone.locator("#all-moves summary").click()
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


# The kinds of decision answered with the answer buttons (the "all moves" list); every
# other one is answered on the board, in the trade form, or by the discard buttons.
BUTTON_KINDS = {"roll", "main", "respond", "partner", "steal", "choose_resource", "discard"}
BOARD_KINDS = {"setup_settlement", "setup_road", "setup_city", "robber", "pillage"}


def test_a_whole_game_by_clicking(room: Room, page) -> None:  # type: ignore[no-untyped-def]
    """A person plays red's seat as the page offers it: set-up, builds and the robber by
    clicking glowing board spots; offers through the trade form's goods; discards by the
    buttons the page shows with their count; the answer buttons only for a few kinds
    (rolling, ending a turn, answering an offer); the final scores are the engine's."""
    game = room.game
    goods = game.rules.goods
    page.wait_for_selector("#board svg")
    used: dict[str, int] = {"board": 0, "trade": 0, "discard": 0, "button": 0}
    button_kinds: set[str] = set()
    turn_built = (-1, 0)  # (turn, board clicks this turn): two builds a turn at most
    traded_on = -1

    def done(version: str | None) -> None:
        page.wait_for_function(
            f"document.body.dataset.version !== '{version}' || "
            "document.getElementById('message').textContent !== ''"
        )

    while page.locator("#final").is_hidden():
        version = page.get_attribute("body", "data-version")
        pending, state = room.game.pending, room.game.state
        if pending.player != 0 or page.locator("#options-title").is_hidden():
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
            continue
        kind, spots = pending.kind, page.locator("#board .option")
        built = turn_built[1] if turn_built[0] == state.turn else 0
        if spots.count() and (kind != "main" or built < 2):
            # (a click event: a vertical road's line has no width for Playwright's "visible",
            # while the browser hits its stroke) a spot several answers share: they are
            # picked among the buttons below it
            spots.first.dispatch_event("click")
            picked = page.locator("#options button.picked")
            if picked.count():
                picked.first.click()
            used["board"] += 1
            if kind == "main":
                turn_built = (state.turn, built + 1)
        elif kind == "main" and page.locator("#offer").is_visible() and traded_on < state.turn:
            hand = state.players[0].hand
            give = max(range(len(goods)), key=lambda g: hand[g])
            get = min(range(len(goods)), key=lambda g: hand[g])
            traded_on = state.turn
            if hand[give] == 0 or give == get:
                continue
            for box in page.locator("#trade input").all():
                box.fill("0")
            page.fill(f"#trade input[data-side=give][data-good={goods[give]}]", "1")
            page.fill(f"#trade input[data-side=get][data-good={goods[get]}]", "1")
            page.locator("#offer button").click()
            used["trade"] += 1
        elif kind == "discard":
            assert "discard" in page.inner_text("#details").lower()  # how many, said
            page.locator("#options button").first.click()
            used["discard"] += 1
        else:
            assert kind in BUTTON_KINDS and kind not in BOARD_KINDS, kind
            buttons = page.locator("#options button")
            if kind == "main":  # of the main turn's buttons, only "end turn"
                buttons = page.locator('#options button[data-answer="end turn"]')
            buttons.first.click()
            used["button"] += 1
            button_kinds.add(kind)
        done(version)
        assert page.locator("#message").inner_text() == "", page.locator("#message").inner_text()
        assert sum(used.values()) < 2000
    shown = json.loads(page.get_attribute("#final", "data-scores"))
    engine = {
        room.game.rules.names("player_colours")[p]: player.points
        for p, player in enumerate(room.game.state.players)
    }
    assert room.game.state.over and shown == engine
    assert "Final scores" in page.inner_text("#final")
    assert used["board"] >= 4 and used["trade"] >= 3 and used["discard"] >= 1, used
    assert button_kinds <= BUTTON_KINDS
