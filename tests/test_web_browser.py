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
def room(tmp_path: Path) -> Room:
    specs = [None, *(parse_spec("heuristic") for _ in range(3))]
    # A shorter whole game: 10 points to win, not 13 (66 turns instead of 78; each of red's
    # ~150 answers is a few clicks and a redraw of the page)
    short = tmp_path / "ten_points.yaml"
    short.write_text("extends: base\noverride:\n  parameters:\n    points_to_win: 10\n")
    room = Room(GameSetup(rules=short, seed=8), specs)
    # Red discards after a 7: eight grain more from the bank, and the game's first roll a 7
    state = room.game.state
    grain = room.game.rules.good_index["grain"]
    state.bank[grain] -= 8
    state.players[0].hand[grain] += 8
    state.fixed_rolls.append((3, 4, "ship"))
    room.game.refresh()
    return room


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium for the module's tests (a launch costs a second or more); each
    page is opened in a browser context of its own, as fresh as a new browser's."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        yield launched
        launched.close()


def open_page(browser, room: Room, width: int, height: int) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """The first person's seat in headless Chromium, at ``width`` x ``height``."""
    token = next(iter(room.tokens))
    for base in serve(room):
        tab = browser.new_page(viewport={"width": width, "height": height})
        tab.goto(f"{base}?seat={token}&lang=en")
        yield tab
        tab.close()


@pytest.fixture
def page_at(browser) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """Opens a seat of a room at a size and language: ``page_at(room, token, w, h, lang)``
    (``touch=True``: a phone's touch screen)."""
    servers: list[Iterator[str]] = []
    tabs: list[object] = []

    def open_seat(room: Room, token: str, w: int, h: int, lang: str, touch: bool = False):  # type: ignore[no-untyped-def]
        served = serve(room)
        servers.append(served)
        base = next(served)
        tab = browser.new_page(viewport={"width": w, "height": h}, has_touch=touch,
                               is_mobile=touch)  # fmt: skip
        tabs.append(tab)
        tab.goto(f"{base}?seat={token}&lang={lang}")
        tab.wait_for_selector("#board svg")
        return tab

    yield open_seat
    for tab in tabs:
        tab.close()  # type: ignore[attr-defined]
    for served in servers:
        next(served, None)  # the server stops


@pytest.fixture
def page(browser, room: Room) -> Iterator[object]:  # type: ignore[no-untyped-def]
    yield from open_page(browser, room, 1500, 1000)


@pytest.fixture
def phone(browser, room: Room) -> Iterator[object]:  # type: ignore[no-untyped-def]
    yield from open_page(browser, room, 390, 844)


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
BUTTON_KINDS = {"roll", "main", "respond", "partner", "steal", "discard", "choice", "optional"} | {
    f"choose_{what}"  # a card's choice of something not on the board
    for what in ("resource", "commodity", "good", "card", "player", "number", "track", "terrain")
}
BOARD_KINDS = {"setup_settlement", "setup_road", "setup_city", "robber", "pillage"}
# The build bar's pieces that are placed on the board (chosen, then a glowing spot).
ON_BOARD = {"road", "settlement", "city", "city_wall", "knight", "activate", "promote"}


def test_a_whole_game_by_clicking(room: Room, page) -> None:  # type: ignore[no-untyped-def]
    """A person plays red's seat as the page offers it: set-up and the robber by clicking
    glowing board spots, builds by a piece of the build bar and then a spot; offers
    through the trade form's goods; discards by the buttons the page shows with their
    count; the answer buttons only for a few kinds (rolling, ending a turn, answering an
    offer); the final scores are the engine's."""
    game = room.game
    goods = game.rules.goods
    page.wait_for_selector("#board svg")
    used: dict[str, int] = {"board": 0, "bar": 0, "trade": 0, "discard": 0, "button": 0}
    button_kinds: set[str] = set()
    turn_built = (-1, 0)  # (turn, board clicks this turn): two builds a turn at most
    traded_on = -1
    offered: list[str] = []  # the trade form's boxes of the last offer

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
        pieces = page.locator(".buy:not([disabled])").all()
        placed = [b for b in pieces if b.get_attribute("data-kind") in ON_BOARD]
        if kind == "main" and placed and built < 2:
            # in a turn: a piece of the build bar, then one of the spots that light up
            placed[used["board"] % len(placed)].click()
            page.locator("#board .option.lit").first.dispatch_event("click")
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
            used["board"] += 1
            used["bar"] += 1
            turn_built = (state.turn, built + 1)
        elif spots.count() and (kind != "main" or built < 2):
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
            # the form keeps its numbers: the last offer's two back to 0 (as a person would;
            # a fill of each of its boxes costs a second a trade), then this one's
            for box in offered:
                page.fill(box, "0")
            offered = [
                f"#trade input[data-side=give][data-good={goods[give]}]",
                f"#trade input[data-side=get][data-good={goods[get]}]",
            ]
            for box in offered:
                page.fill(box, "1")
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
    assert used["bar"] >= 2, used
    assert button_kinds <= BUTTON_KINDS


def red_at_main(seed: int, wanted: str) -> tuple[Room, str]:
    """A table whose first seat (played by a heuristic bot's choices) is at a main turn
    where an answer starting with ``wanted`` and a road are legal."""
    from ckdsl.bots import bot_seed, make_bot
    from ckdsl.turn.notation import format_option

    room = Room(GameSetup(seed=seed), [None, *(parse_spec("heuristic") for _ in range(3))])
    token = next(iter(room.tokens))
    red = make_bot("heuristic", bot_seed(seed, 0))
    while True:
        game = room.game
        assert not game.state.over
        answers = [format_option(game, o) for o in game.pending.options]
        found = [w for w in (wanted, "build road") if any(a.startswith(w) for a in answers)]
        if game.pending.kind == "main" and len(found) == 2:
            return room, token
        room.answer(token, format_option(game, red.choose(game.view(0))))


def spot_centre(page, locator) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_build_bar_lights_a_pieces_spots_and_the_board_zooms(page_at) -> None:  # type: ignore[no-untyped-def]
    """The road's picture with its price from the rule set; chosen, only road spots glow;
    the wheel zooms in; a click on a glowing spot of the zoomed board builds the road; a
    drag pans and builds nothing."""
    room, token = red_at_main(8, "play")
    page = page_at(room, token, 1400, 1000, "en")
    rules, goods = room.game.rules, room.game.rules.goods
    road = page.locator('.buy[data-kind="road"]')
    titles = road.locator(".good").evaluate_all("els => els.map(e => e.title)")
    names = {"brick": "Brick", "lumber": "Lumber"}  # en.yaml
    assert titles == [f"{n} × {names[goods[g]]}" for g, n in rules.costs["road"]]
    assert page.locator(".buy").count() == len(room.state(token, "en")["purchases"])
    road.click()
    shown = page.locator("#board .option:not(.off)")
    chosen = shown.evaluate_all("els => els.map(e => e.dataset.chosen)")
    assert chosen and all(a.startswith("build road") for a in chosen)
    roads = [o for o in room.game.pending.options if o[0] == "road"]
    assert len(chosen) == len(roads)
    page.mouse.move(*spot_centre(page, page.locator("#board-area")))
    page.mouse.wheel(0, -800)
    page.wait_for_function("Number(document.body.dataset.zoom) > 1.1")
    version = page.get_attribute("body", "data-version")
    # a drag from a glowing spot pans the board and builds nothing
    x, y = spot_centre(page, shown.first)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y + 40, steps=5)
    page.mouse.up()
    page.wait_for_timeout(300)
    assert page.get_attribute("body", "data-version") == version
    built = sum(1 for owner in room.game.state.road if owner == 0)
    page.mouse.click(*spot_centre(page, shown.first))
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert sum(1 for owner in room.game.state.road if owner == 0) == built + 1


def test_cards_in_hand_are_cards_and_play_from_their_popup(page_at) -> None:  # type: ignore[no-untyped-def]
    """A progress card drawn as a card of its track's colour with its text in the table's
    language (Polish); tapped, it shows whole and is played from its pop-up."""
    from ckdsl.l10n.catalog import load_catalog

    room, token = red_at_main(8, "play")
    page = page_at(room, token, 390, 844, "pl", touch=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    card = next(c for c in room.game.state.players[0].progress)
    pl = load_catalog("pl")
    face = page.locator(f'#cards .card[data-card="{card}"]')
    assert pl.card_name(card) in face.inner_text()
    face.tap()
    assert page.locator("#card-text").inner_text() == pl.card_text(card)
    play = page.locator("#card-play")
    assert play.is_visible() and pl.card_name(card) in play.inner_text()
    version = page.get_attribute("body", "data-version")
    play.tap()
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert any(e["event"] == "card_played" for e in room.game.events[-20:]) or (
        card not in room.game.state.players[0].progress
    )


def test_a_phone_pinches_the_board_and_taps_a_spot(page_at) -> None:  # type: ignore[no-untyped-def]
    """Two fingers spread on the board zoom it (touch events, as a phone sends them); a tap
    on a glowing set-up spot still answers."""
    room = Room(GameSetup(seed=8), [None, *(parse_spec("heuristic") for _ in range(3))])
    token = next(iter(room.tokens))
    page = page_at(room, token, 390, 844, "en", touch=True)
    assert page.locator("#build").is_hidden()  # set-up: the board, not prices, comes first
    x, y = spot_centre(page, page.locator("#board-area"))
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, spread: float) -> None:
        points = (
            []
            if kind == "touchEnd"
            else [{"x": x - spread, "y": y, "id": 1}, {"x": x + spread, "y": y, "id": 2}]
        )
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    # not zoomed, a finger moving up the board scrolls the page
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y + 100}]}
    )
    for step in range(1, 8):
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchMove", "touchPoints": [{"x": x, "y": y + 100 - 25 * step}]},
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("scrollY > 50")
    assert page.evaluate("document.body.dataset.zoom || '1'") in ("1", "1.00")
    page.evaluate("scrollTo(0, 0)")
    touch("touchStart", 20)
    for spread in range(30, 140, 10):
        touch("touchMove", spread)
    touch("touchEnd", 0)
    page.wait_for_function("Number(document.body.dataset.zoom) > 1.5")
    page.locator("#zoom-fit").click()
    page.wait_for_function("Number(document.body.dataset.zoom) === 1")
    page.wait_for_timeout(400)  # the way back is animated (200 ms)
    version = page.get_attribute("body", "data-version")
    spot = page.locator("#board .option").first
    sx, sy = spot_centre(page, spot)
    page.touchscreen.tap(sx, sy)
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert room.game.state.players[0].buildings  # the settlement tapped stands
