"""The web table's server keeps its limits (issue 29): a chunked body is refused once it
passes the limit, not read whole first; a lone surrogate in a field is a 400, not a 500;
a save waits for the room's lock in a worker thread, so other requests are answered
meanwhile; a request that never finishes arriving is closed after its deadline."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from starlette.testclient import TestClient

from ckdsl.bots import parse_spec
from ckdsl.session import GameSetup
from ckdsl.table.web.limits import server_config
from ckdsl.table.web.room import Room
from ckdsl.table.web.server import MAX_BODY, make_app


def room() -> Room:
    return Room(GameSetup(seed=4), [None, parse_spec("random"), parse_spec("random")])


def token(table: Room) -> str:
    return next(iter(table.tokens))


def test_a_chunked_body_is_refused_once_past_the_limit_not_read_whole() -> None:
    app, sent = make_app(room()), [0]
    chunk = b"x" * 65536

    async def receive() -> dict[str, object]:  # a body of 3 limits, with no Content-Length
        await asyncio.sleep(0)
        sent[0] += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": sent[0] < 3 * MAX_BODY}

    replies: list[dict[str, object]] = []

    async def send(message: dict[str, object]) -> None:
        replies.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/load", "headers": [],
             "query_string": b"", "http_version": "1.1", "scheme": "http",
             "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1), "root_path": ""}  # fmt: skip
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 10))
    assert replies[0]["status"] == 413
    assert sent[0] <= MAX_BODY + len(chunk)  # not one chunk more than the limit


@pytest.mark.parametrize("field", ["answer", "seat", "lang"])
def test_a_lone_surrogate_is_a_bad_request(field: str) -> None:
    table = room()
    client = TestClient(make_app(table), raise_server_exceptions=False)
    fields = {"seat": f'"{token(table)}"', "answer": '"build settlement 0"', "lang": '"en"'}
    fields[field] = '"build \\ud800"'
    body = "{" + ", ".join(f'"{k}": {v}' for k, v in fields.items()) + "}"
    reply = client.post("/api/answer", content=body.encode())
    assert reply.status_code == 400 and "surrogate" in reply.json()["error"]
    assert table.game.history == []


def serving(table: Room, request_seconds: float = 20.0) -> Iterator[int]:
    """The table served on a free local port in a thread, with the server's limits."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = server_config(make_app(table), "127.0.0.1", port, request_seconds)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.02)
    yield port
    server.should_exit = True
    thread.join(10)


def get(port: int, path: str, timeout: float) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        out = b""
        while chunk := conn.recv(65536):
            out += chunk
        return out


def test_a_save_waiting_for_the_lock_does_not_stop_other_requests() -> None:
    table = room()
    for port in serving(table):
        host, seat = table.host, token(table)
        with table.lock:  # a bot's long turn, say
            saving = threading.Thread(target=get, args=(port, f"/api/save?host={host}", 10))
            saving.start()
            time.sleep(0.2)
            started = time.monotonic()
            reply = get(port, f"/api/state?seat={seat}&since={table.version}", 3)
            assert reply.startswith(b"HTTP/1.1 200") and time.monotonic() - started < 2
        saving.join(10)


def test_a_request_that_never_finishes_arriving_is_closed() -> None:
    table = room()
    for port in serving(table, request_seconds=0.5):
        half_head = socket.create_connection(("127.0.0.1", port), timeout=5)
        half_head.sendall(b"GET /api/state?seat=x HTTP/1.1\r\nHost: ")
        half_body = socket.create_connection(("127.0.0.1", port), timeout=5)
        head = "POST /api/answer HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"
        half_body.sendall(head.encode())
        silent = socket.create_connection(("127.0.0.1", port), timeout=5)
        started = time.monotonic()
        for conn in (half_head, half_body, silent):
            with conn:
                assert conn.recv(100) == b""  # closed by the server, without an answer
        assert time.monotonic() - started < 3
        assert get(port, f"/api/state?seat={token(table)}", 3).startswith(b"HTTP/1.1 200")


def test_a_seat_asking_again_at_one_version_is_not_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Drawing a seat's state is most of a request's time: asked again (a page open
    twice) at the same version and language, it is served as drawn."""
    table = room()
    drawn: list[int] = []
    draw = Room._state

    def counted(self: Room, seat: int, catalog: object) -> object:
        drawn.append(seat)
        return draw(self, seat, catalog)  # type: ignore[arg-type]

    monkeypatch.setattr(Room, "_state", counted)
    for lang in ("en", "en", "fr", "en"):
        table.state(token(table), lang)
    assert drawn == [0, 0]  # once in English, once in French
    table.answer(token(table), table.state(token(table), "en")["pending"]["options"][0]["answer"])
    table.state(token(table), "en")
    assert drawn == [0, 0, 0]
