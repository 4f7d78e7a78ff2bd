"""The web table in a real browser (headless Chromium driven by Playwright): a person
plays a whole game by clicking, a board spot first and then the answer buttons, and the
final scores the page shows are the engine's."""

from __future__ import annotations

import json
import shutil
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from ckdsl.bots import parse_spec
from ckdsl.session import GameSetup
from ckdsl.table.web.room import Room
from ckdsl.table.web.server import make_app
from ckdsl.turn.notation import parse_answer

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
BROWSER = next((found for name in BROWSERS if (found := shutil.which(name))), None)

pytestmark = [
    pytest.mark.slow,
    # one worker: one Chromium for the module, and the tests that mostly wait on the page
    # beside the other worker's busy ones, not two browsers waiting at once
    pytest.mark.xdist_group("browser"),
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
    # A shorter whole game: 10 points to win, not 13 (42 turns instead of 70; each of red's
    # ~85 answers is a few clicks and a redraw of the page)
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


def watch_requests(tab) -> list[str]:  # type: ignore[no-untyped-def]
    """Every address the page asks for, as it asks."""
    urls: list[str] = []
    tab.on("request", lambda request: urls.append(request.url))
    return urls


def assert_local(urls: list[str], base: str) -> None:
    """The page asked nothing of the internet: its own server, or data in the page."""
    assert urls and all(u.startswith((base, "data:")) for u in urls), [
        u for u in urls if not u.startswith((base, "data:"))
    ]


@pytest.fixture
def page_at(browser) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """Opens a seat of a room at a size and language: ``page_at(room, token, w, h, lang)``
    (``touch=True``: a phone's touch screen; ``clock=True``: ``page.clock.run_for`` runs
    the page's time ahead)."""
    servers: list[Iterator[str]] = []
    tabs: list[object] = []
    asked: list[tuple[str, list[str]]] = []

    def open_seat(room: Room, token: str, w: int, h: int, lang: str, touch: bool = False,  # type: ignore[no-untyped-def]
                  clock: bool = False):  # fmt: skip
        served = serve(room)
        servers.append(served)
        base = next(served)
        tab = browser.new_page(viewport={"width": w, "height": h}, has_touch=touch,
                               is_mobile=touch)  # fmt: skip
        tabs.append(tab)
        asked.append((base, watch_requests(tab)))
        if clock:  # the page's timers on Playwright's clock: it runs, and can be run ahead
            tab.clock.install()
        tab.goto(f"{base}?seat={token}&lang={lang}")
        tab.wait_for_selector("#board svg")
        return tab

    yield open_seat
    for tab in tabs:
        tab.close()  # type: ignore[attr-defined]
    for served in servers:
        next(served, None)  # the server stops
    for base, urls in asked:
        assert_local(urls, base)


@pytest.fixture
def page(page_at, room: Room) -> object:  # type: ignore[no-untyped-def]
    """The first person's seat, on a desktop's screen."""
    return page_at(room, next(iter(room.tokens)), 1500, 1000, "en")


@pytest.fixture
def phone(page_at, room: Room) -> object:  # type: ignore[no-untyped-def]
    """The first person's seat, on a phone's screen."""
    return page_at(room, next(iter(room.tokens)), 390, 844, "en")


def test_the_page_fits_a_phone_and_a_new_game_asks_first(room: Room, phone) -> None:  # type: ignore[no-untyped-def]
    phone.wait_for_selector("#board svg")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # set-up is chosen on the board: the list of all moves is folded, and opens on screen
    assert phone.locator("#options button").first.is_hidden()
    # the board's window fits (set-up zooms the board within it: tested below)
    board = phone.locator("#board-area").bounding_box()
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


# The kinds of decision answered with the buttons of the moment (#quick: a roll, the end of
# a turn, an offer's answer, a card's choices) or, when they are too many for that, from the
# "all moves" drawer; every other one is answered on the board, in the trade dialog, or by
# the discard dialog's goods.
BUTTON_KINDS = {"roll", "main", "respond", "partner", "steal", "discard", "choice", "optional"} | {
    f"choose_{what}"  # a card's choice of something not on the board
    for what in ("resource", "commodity", "good", "card", "player", "number", "track", "terrain")
}
BOARD_KINDS = {"setup_settlement", "setup_road", "setup_city", "robber", "pillage"}
# The build bar's pieces that are placed on the board (chosen, then a glowing spot).
ON_BOARD = {"road", "settlement", "city", "city_wall", "knight", "activate", "promote"}


def test_a_whole_game_by_clicking(room: Room, page) -> None:  # type: ignore[no-untyped-def]
    """A person plays red's seat as the page offers it: set-up and the robber by clicking
    glowing board spots, builds by a piece of the build bar and then a spot; offers and
    trades with the bank through the trade dialog's goods; discards by the goods the
    discard dialog shows with their count; the buttons of the moment only for a few kinds
    (rolling, ending a turn, answering an offer, a card's choice), and the "all moves"
    drawer only where those are too many; the final scores are the engine's."""
    game = room.game
    goods = game.rules.goods
    token = next(iter(room.tokens))
    drawer = page.locator("#all-moves")
    page.wait_for_selector("#board svg")
    used = dict.fromkeys(("board", "bar", "trade", "bank", "discard", "button", "drawer"), 0)
    button_kinds: set[str] = set()
    turn_built = (-1, 0)  # (turn, board clicks this turn): two builds a turn at most
    traded_on = -1
    banked_on = -1
    filled: list[str] = []  # the trade dialog's boxes of the last trade (it keeps them)

    def fill_trade(boxes: dict[str, str]) -> None:
        """The trade dialog's goods: the last trade's boxes back to 0 (as a person would; a
        fill of every box cost a second a trade), then these."""
        for box in filled:
            if box not in boxes:
                page.fill(box, "0")
        for box, count in boxes.items():
            page.fill(box, count)
        filled[:] = list(boxes)

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
        bank = room.state(token, "en")["pending"]["bank"]
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
            picked = page.locator("#quick button.picked")
            if picked.count():
                picked.first.click()
            used["board"] += 1
            if kind == "main":
                turn_built = (state.turn, built + 1)
        elif kind == "main" and banked_on < state.turn and bank:
            # a trade with the bank: its goods in the trade dialog, at the seat's rate
            give, count, get = bank[0]["give"], bank[0]["count"], bank[0]["get"]
            banked_on = state.turn
            fill_trade(
                {
                    f"#trade input[data-side=give][data-good={give}]": str(count),
                    f"#trade input[data-side=get][data-good={get}]": "1",
                }
            )
            page.locator("#bank-send").click()
            used["bank"] += 1
        elif kind == "main" and page.locator("#offer").is_visible() and traded_on < state.turn:
            hand = state.players[0].hand
            give = max(range(len(goods)), key=lambda g: hand[g])
            get = min(range(len(goods)), key=lambda g: hand[g])
            traded_on = state.turn
            if hand[give] == 0 or give == get:
                continue
            fill_trade(
                {
                    f"#trade input[data-side=give][data-good={goods[give]}]": "1",
                    f"#trade input[data-side=get][data-good={goods[get]}]": "1",
                }
            )
            page.locator("#offer-send").click()
            used["trade"] += 1
        elif kind == "discard":
            assert "discard" in page.inner_text("#details").lower()  # how many, said
            assert page.locator("#quick button .good-icon").count() >= 1  # the goods drawn
            page.locator("#quick button").first.click()
            used["discard"] += 1
        else:
            assert kind in BUTTON_KINDS and kind not in BOARD_KINDS, kind
            if kind in ("respond", "partner"):  # the offer shown with its goods drawn
                assert page.locator("#details .offer-shown .good").count() >= 2
            buttons = page.locator("#quick button")
            if kind == "main":  # of the main turn's moves, only "end turn" is a button
                assert buttons.count() == 1 and drawer.get_attribute("open") is None
                buttons = page.locator('#quick button[data-answer="end turn"]')
            if buttons.count():
                buttons.first.click()
                used["button"] += 1
            else:  # too many answers for buttons of their own: the drawer, opened for them
                assert drawer.get_attribute("open") is not None, kind
                page.locator("#options button").first.click()
                used["drawer"] += 1
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
    assert used["bank"] >= 1, used
    # the bots' turns were told as they came, one short toast per event
    assert int(page.get_attribute("body", "data-toasts") or 0) > 50
    assert used["bar"] >= 2, used
    assert button_kinds <= BUTTON_KINDS


def red_at_main(seed: int, wanted: str, rules: str = "base", least: int = 0) -> tuple[Room, str]:
    """A table of ``rules`` whose first seat (played by a heuristic bot's choices) is at a
    main turn where an answer starting with ``wanted`` and a road are legal (and at least
    ``least`` answers in all)."""
    from ckdsl.bots import bot_seed, make_bot
    from ckdsl.turn.notation import format_option

    setup = GameSetup(rules=rules, seed=seed)
    room = Room(setup, [None, *(parse_spec("heuristic") for _ in range(3))])
    token = next(iter(room.tokens))
    red = make_bot("heuristic", bot_seed(seed, 0))
    while True:
        game = room.game
        assert not game.state.over
        answers = [format_option(game, o) for o in game.pending.options]
        found = [w for w in (wanted, "build road") if any(a.startswith(w) for a in answers)]
        if game.pending.kind == "main" and len(found) == 2 and len(answers) >= least:
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


def test_all_moves_on_a_phone_is_a_folded_drawer_in_groups(page_at) -> None:  # type: ignore[no-untyped-def]
    """A main turn's every answer, on a phone: the "all moves" drawer is folded at first
    (only "end turn" is a button of its own), and opened it shows the answers in groups
    with their counts, never taller than part of the screen (it scrolls within itself);
    an answer chosen from it, far down its list, is given."""
    room, token = red_at_main(5, "play", least=30)  # more than a phone's drawer shows
    page = page_at(room, token, 390, 844, "en", touch=True)
    options = room.state(token, "en")["pending"]["options"]
    drawer = page.locator("#all-moves")
    assert drawer.get_attribute("open") is None and page.locator("#options").is_hidden()
    assert page.locator("#quick button").all_inner_texts() == ["end turn"]
    assert page.inner_text("#moves-count") == f"({len(options)})"
    drawer.locator("summary").tap()
    groups = {
        g.get_attribute("data-group"): g for g in page.locator("#options section.group").all()
    }
    counts = Counter(o["group"] for o in options)
    assert {g: s.locator("button").count() for g, s in groups.items()} == counts
    assert {"build", "cards", "end"} <= set(groups)
    heads = {g: s.locator("h3").text_content() for g, s in groups.items()}
    assert heads["build"] == f"build ({counts['build']})" and heads["end"] == "end of turn (1)"
    box = page.locator("#options").bounding_box()
    assert box is not None and box["height"] <= 0.45 * 844 + 1 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    inner = page.evaluate("[options.scrollHeight, options.clientHeight]")
    assert inner[0] > inner[1], inner  # more answers than fit: the list scrolls, not the page
    road = groups["build"].locator('button[data-answer^="build road"]').last
    edge = parse_answer(room.game, road.get_attribute("data-answer"))[1]
    version = page.get_attribute("body", "data-version")
    assert room.game.state.road[edge] != 0
    road.tap()
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert room.game.state.road[edge] == 0  # red's road, where the answer chosen said


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
    page.wait_for_function("Number(document.body.dataset.zoom) > 1")  # zoomed by itself
    page.locator("#zoom-fit").click()  # (tested below: set-up zooms on the spots)
    page.wait_for_function("Number(document.body.dataset.zoom) === 1")
    page.wait_for_timeout(400)
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
    width = page.evaluate("document.getElementById('board-svg').getBoundingClientRect().width")
    touch("touchStart", 20)
    for spread in range(30, 140, 10):
        touch("touchMove", spread)
    touch("touchEnd", 0)
    page.wait_for_function("Number(document.body.dataset.zoom) > 1.5")
    zoomed = page.evaluate("document.getElementById('board-svg').getBoundingClientRect().width")
    assert zoomed > 1.5 * width  # the board drawn larger, not only a number changed
    page.locator("#zoom-fit").click()
    page.wait_for_function("Number(document.body.dataset.zoom) === 1")
    page.wait_for_timeout(400)  # the way back is animated (200 ms)
    version = page.get_attribute("body", "data-version")
    spot = page.locator("#board .option").first
    sx, sy = spot_centre(page, spot)
    page.touchscreen.tap(sx, sy)
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert room.game.state.players[0].buildings  # the settlement tapped stands


# A variant with a good of its own, which the page has no picture of: silk, named in
# English and Polish (another initial in each), the price of a city wall.
SILK = """\
extends: base
description: Silk, a good of this variant's own, buys city walls.
add:
  resources:
    silk: {bank: 10}
override:
  pieces:
    city_wall: {cost: {brick: 2, silk: 1}}
names:
  en:
    names:
      resources: {silk: Silk}
  pl:
    names:
      resources: {silk: Jedwab}
"""


@pytest.mark.parametrize("lang, initial", [("en", "S"), ("pl", "J")])
def test_a_variants_own_good_has_a_picture_everywhere(
    page_at, tmp_path, lang: str, initial: str
) -> None:  # type: ignore[no-untyped-def]
    """A good the page has no picture of is drawn as a badge (its initial in the table's
    language, on the colour the server derives from its id) in the build bar's prices, the
    hand and the trade dialog; and no picture on the page points at one it lacks."""
    from ckdsl.table.web.moves import good_badge

    variant = tmp_path / "silk.yaml"
    variant.write_text(SILK, encoding="utf-8")
    room, token = red_at_main(8, "build road", str(variant))
    silk = room.game.rules.good_index["silk"]
    room.game.state.players[0].hand[silk] += 2
    room.version += 1  # (a change made behind the room's back: shown anew)
    page = page_at(room, token, 1400, 1000, lang)
    name = {"en": "Silk", "pl": "Jedwab"}[lang]
    colour = good_badge("silk", name)["colour"]
    places = {
        "price": '.buy[data-kind="city_wall"] .cost',
        "hand": "#hand",
        "give": ".trade-good:has(input[data-side=give][data-good=silk])",
        "get": ".trade-good:has(input[data-side=get][data-good=silk])",
    }
    for where, selector in places.items():
        badge = page.locator(f"{selector} svg.badge[data-good=silk]")
        assert badge.count() == 1, where
        assert badge.locator("text").text_content() == initial, where
        assert badge.locator("circle").get_attribute("fill") == colour, where
    assert name in page.inner_text("#hand")
    missing = page.evaluate(
        "[...document.querySelectorAll('use')].map(u => u.getAttribute('href'))"
        ".filter(h => !document.querySelector(h))"
    )
    assert missing == []


def test_the_roll_is_three_dice_drawn(page_at) -> None:  # type: ignore[no-untyped-def]
    """After a roll the facts bar draws the white die and the red die (red) with as many
    pips as the engine rolled, and the event die as its face (a ship; a gate in its
    track's colour), each named in the table's language (Polish) for a tooltip; no
    picture it uses is missing from the page (nothing fetched for them)."""
    from ckdsl.reports.position import screen_colour

    room, token = red_at_main(8, "play")
    page = page_at(room, token, 1400, 1000, "pl")
    white, red, face = room.game.state.dice
    dice = page.locator("#dice svg.die")
    assert dice.count() == 3
    assert page.locator("#dice svg.white .pip").count() == white
    assert page.locator("#dice svg.red .pip").count() == red
    assert page.locator("#dice svg.white title").text_content() == f"Biała kość: {white}"
    assert page.locator("#dice svg.red title").text_content() == f"Czerwona kość: {red}"
    fill = "getComputedStyle(document.querySelector('#dice svg.red .face')).fill"
    assert page.evaluate(fill) == "rgb(198, 40, 40)"
    picture = page.locator("#dice svg.event use").get_attribute("href")
    assert picture == ("#e-ship" if face == "ship" else "#e-gate")
    # another roll, a gate's: redrawn, the gate in the science track's green
    room.game.state.dice = (6, 1, "science_gate")
    version = page.get_attribute("body", "data-version")
    room.version += 1  # (a change made behind the room's back: shown anew)
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert page.locator("#dice svg.white .pip").count() == 6
    assert page.locator("#dice svg.red .pip").count() == 1
    gate = page.locator("#dice svg.event use")
    assert gate.get_attribute("href") == "#e-gate"
    assert page.locator("#dice svg.event title").text_content() == "Kość wydarzeń: Zamek nauki"
    green = screen_colour("green").lstrip("#")
    rgb = f"rgb({int(green[:2], 16)}, {int(green[2:4], 16)}, {int(green[4:], 16)})"
    assert page.evaluate("document.querySelector('#dice svg.event use').style.color") == rgb
    missing = page.evaluate(
        "[...document.querySelectorAll('#dice use')].map(u => u.getAttribute('href'))"
        ".filter(h => !document.querySelector(h))"
    )
    assert missing == []


def test_a_barbarian_attack_is_told_as_it_was_fought(page_at) -> None:  # type: ignore[no-untyped-def]
    """Red rolls the ship that brings the barbarians (seed 8, turn 13): a note tells the
    attack as it was fought (strength 4 against defence 3, lost, who lost a city) while the
    live facts say defence 0; it stays until it is closed, and the facts bar's line of the
    attack opens it again."""
    from ckdsl.bots import bot_seed, make_bot
    from ckdsl.turn.notation import format_option

    room = Room(GameSetup(seed=8), [None, *(parse_spec("heuristic") for _ in range(3))])
    token = next(iter(room.tokens))
    red = make_bot("heuristic", bot_seed(8, 0))
    track = room.game.rules.barbarian_track
    while not (
        room.game.pending.kind == "roll"
        and room.game.pending.player == 0
        and room.game.state.barbarians == track - 1
        and room.game.state.turn == 13
    ):
        room.answer(token, format_option(room.game, red.choose(room.game.view(0))))
    page = page_at(room, token, 1400, 1000, "en", clock=True)
    assert page.locator("#attack").is_hidden() and page.locator("#attack-note").is_hidden()
    page.locator('#quick button[data-answer="roll"]').click()
    note = page.locator("#attack-note")
    note.wait_for(state="visible")
    assert page.inner_text("#attack-heading") == "Barbarian attack"
    said = page.inner_text("#attack-said")
    assert said.startswith("attack of turn 13: strength 4 against defence 3, lost")
    lines = page.locator("#attack-lines li").all_inner_texts()
    assert lines[0] == "The barbarians attack with strength 4: the defence of 3 is too weak"
    page.wait_for_function("document.getElementById('attack-lines').children.length >= 4")
    assert "a city lost: White, Orange" in page.inner_text("#attack")
    assert "against defence 0" in page.inner_text("#barbarians")  # the facts of now
    page.clock.run_for(4500)  # longer than any toast stays (the page's time: at once)
    page.wait_for_timeout(450)  # the polls of those 4.5 s answered
    assert note.is_visible()
    page.locator("#attack-close").click()
    assert note.is_hidden()
    page.wait_for_timeout(900)  # polls come and go: a closed note stays closed
    assert note.is_hidden()
    page.locator("#attack").click()
    assert note.is_visible()


def test_set_up_on_a_phone_zooms_to_spots_a_finger_can_tap(page_at) -> None:  # type: ignore[no-untyped-def]
    """At 390x844 the set-up's 54 spots are a few pixels wide on the whole board: the board
    zooms by itself until a spot is at least 24 px, and a tap on the first one builds;
    the road's spots that follow are zoomed to as well. A desktop is not zoomed."""
    room = Room(GameSetup(seed=8), [None, *(parse_spec("heuristic") for _ in range(3))])
    token = next(iter(room.tokens))
    desk = page_at(room, token, 1400, 1000, "en")
    desk.wait_for_timeout(500)
    assert desk.evaluate("document.body.dataset.zoom || '1'") in ("1", "1.00")
    page = page_at(room, token, 390, 844, "en", touch=True)
    page.wait_for_function("Number(document.body.dataset.zoom) > 1")
    spot = page.locator("#board .option").first
    box = spot.bounding_box()
    assert box is not None and min(box["width"], box["height"]) >= 24, box
    area = page.locator("#board-area").bounding_box()
    assert area is not None

    def seen(b: dict[str, float] | None) -> bool:  # a spot's centre inside the board's window
        return b is not None and (
            area["x"] < b["x"] + b["width"] / 2 < area["x"] + area["width"]
            and area["y"] < b["y"] + b["height"] / 2 < area["y"] + area["height"]
        )

    shown = [b for b in (s.bounding_box() for s in page.locator("#board .option").all()) if seen(b)]
    assert len(shown) >= 4  # the middle of the board, zoomed: several spots to choose from
    version = page.get_attribute("body", "data-version")
    page.touchscreen.tap(
        shown[0]["x"] + shown[0]["width"] / 2, shown[0]["y"] + shown[0]["height"] / 2
    )
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    assert room.game.state.players[0].buildings  # the settlement tapped stands
    assert room.game.pending.kind == "setup_road"
    page.wait_for_function("document.querySelectorAll('#board .option').length > 0")
    page.wait_for_timeout(300)
    roads = page.locator("#board .option").all()
    sizes = [r.bounding_box() for r in roads]
    assert all(b is not None and max(b["width"], b["height"]) >= 24 for b in sizes), sizes
    assert any(seen(b) for b in sizes)  # the road's spots are in sight, not zoomed off it
