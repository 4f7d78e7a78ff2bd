"""The web table's HTTP side (Starlette, served by uvicorn): a page and a small JSON API.

    GET  /                      the page (static files, nothing loaded from elsewhere)
    GET  /api/state?seat=T&lang=L[&since=V]   what seat T sees ({"version": V} if unchanged);
                                without a seat: what a spectator sees (public, read only)
    POST /api/answer  {"seat": T, "answer": "build road 12-13", "lang": L}  (L: of a refusal)
    POST /api/new     {"seat": T | "host": H}             a new game (a fresh seed)
    POST /api/load    {"seat": T | "host": H, "save": "<a save file's text>"}
    GET  /api/save?seat=T | ?host=H          the game as a save file (a download)

Every reply is JSON; a refusal is ``{"error": "..."}`` with a 4xx status and changes
nothing. No request names a file: saves travel as content, and the rules and the map are
the ones the server was started with. A new game or a load asked by a seat, not the host,
waits for every seat (``{"waiting": [colours]}``, 202); a seat's save of a game in
progress is sealed (``seat_save``), the full save comes once it is over (``room.Room``).

Bodies are counted as they arrive and refused past ``MAX_BODY`` (a chunked body names no
length); text that is not Unicode (a lone surrogate) is refused. Whatever takes the room's
lock runs in a worker thread, so a bot's long turn never stalls the event loop: other
seats' polls are answered meanwhile. The server's own limits are in ``limits``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ckdsl.l10n.catalog import all_languages
from ckdsl.table.web.room import Refused, Room
from ckdsl.table.web.seat_save import is_seat_save

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4_000_000  # bytes: a save of a long game is well under 1 MB


def make_app(room: Room) -> Starlette:
    """The table's application around ``room``."""

    async def refused(request: Request, exc: Exception) -> Response:
        """Every refusal (``Refused``, from any handler) as a JSON error; nothing changed."""
        assert isinstance(exc, Refused)
        # A body refused half-read is not read on: the connection closes after the answer.
        headers = {"Connection": "close"} if exc.status == 413 else None
        return JSONResponse({"error": exc.message}, status_code=exc.status, headers=headers)

    async def body(request: Request) -> dict[str, Any]:
        too_big = Refused(413, f"a request body is at most {MAX_BODY} bytes")
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            raise too_big
        raw = bytearray()
        try:
            async for chunk in request.stream():  # counted as it comes: chunked names no size
                raw += chunk
                if len(raw) > MAX_BODY:
                    raise too_big
        except ClientDisconnect:
            raise Refused(400, "the request was not sent whole") from None
        try:
            data = json.loads(raw)
            json.dumps(data, ensure_ascii=False).encode("utf-8")  # a lone surrogate fails
        except UnicodeEncodeError:  # (a ValueError too)
            message = "the request holds text that is not Unicode (a lone surrogate)"
            raise Refused(400, message) from None
        except (ValueError, RecursionError):
            raise Refused(400, "the request is not valid JSON") from None
        if not isinstance(data, dict):
            raise Refused(400, "the request must be a JSON object")
        return data

    async def page(request: Request) -> Response:
        # The page in the language its address asks for from the first byte (<html lang>:
        # screen readers and hyphenation), before its first poll fills in the words.
        lang = request.query_params.get("lang", "en")
        if lang == "en" or lang not in all_languages():
            return FileResponse(STATIC / "index.html")
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        return HTMLResponse(html.replace('<html lang="en">', f'<html lang="{lang}">', 1))

    async def state(request: Request) -> Response:
        query = request.query_params
        since, token = query.get("since"), query.get("seat")
        if since is not None and since == str(room.version):
            if token:  # no token: a spectator (a wrong one is refused)
                room.seat_of(token)
            return JSONResponse({"version": room.version})
        if not token:  # the plain address: the game as anyone may see it
            found = await run_in_threadpool(room.spectate, query.get("lang", "en"))
            return JSONResponse(found)
        found = await run_in_threadpool(room.state, token, query.get("lang", "en"))
        return JSONResponse(found)

    async def answer(request: Request) -> Response:
        data = await body(request)
        lang = data.get("lang", "en")
        await run_in_threadpool(room.answer, data.get("seat"), data.get("answer"), lang)
        return JSONResponse({"version": room.version})

    async def new(request: Request) -> Response:
        data = await body(request)
        return _done(await run_in_threadpool(room.new_game, data.get("seat"), data.get("host")))

    async def load(request: Request) -> Response:
        data = await body(request)
        seat, host = data.get("seat"), data.get("host")
        return _done(await run_in_threadpool(room.load, seat, data.get("save"), host))

    async def save(request: Request) -> Response:
        query = request.query_params
        data = await run_in_threadpool(room.save, query.get("seat"), query.get("host"))
        name = "ckdsl-seat-save.json" if is_seat_save(data) else "ckdsl-game.json"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                        headers=headers)  # fmt: skip

    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/state", state),
            Route("/api/answer", answer, methods=["POST"]),
            Route("/api/new", new, methods=["POST"]),
            Route("/api/load", load, methods=["POST"]),
            Route("/api/save", save),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={Refused: refused},
    )


def _done(reply: dict[str, Any]) -> Response:
    """A change done (200), or waiting for other seats to ask for it too (202)."""
    return JSONResponse(reply, status_code=202 if reply.get("waiting") else 200)
