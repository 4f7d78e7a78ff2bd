"""The web table's HTTP side (Starlette, served by uvicorn): a page and a small JSON API.

    GET  /                      the page (static files, nothing loaded from elsewhere)
    GET  /api/state?seat=T&lang=L[&since=V]   what seat T sees ({"version": V} if unchanged);
                                without a seat: what a spectator sees (public, read only)
    POST /api/answer  {"seat": T, "answer": "build road 12-13", "lang": L}  (L: of a refusal)
    POST /api/new     {"seat": T}           a new game (the next seed)
    POST /api/load    {"seat": T, "save": "<a save file's text>"}
    GET  /api/save?seat=T                   the game as a save file (a download)

Every reply is JSON; a refusal is ``{"error": "..."}`` with a 4xx status and changes
nothing. No request names a file: saves travel as content, and the rules and the map are
the ones the server was started with.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ckdsl.table.web.room import Refused, Room

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4_000_000  # bytes: a save of a long game is well under 1 MB


def make_app(room: Room) -> Starlette:
    """The table's application around ``room``."""

    async def refused(request: Request, exc: Exception) -> Response:
        """Every refusal (``Refused``, from any handler) as a JSON error; nothing changed."""
        assert isinstance(exc, Refused)
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def body(request: Request) -> dict[str, Any]:
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            raise Refused(413, f"a request body is at most {MAX_BODY} bytes")
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise Refused(413, f"a request body is at most {MAX_BODY} bytes")
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise Refused(400, "the request is not valid JSON") from None
        if not isinstance(data, dict):
            raise Refused(400, "the request must be a JSON object")
        return data

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

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
        await run_in_threadpool(room.new_game, (await body(request)).get("seat"))
        return JSONResponse({"version": room.version})

    async def load(request: Request) -> Response:
        data = await body(request)
        await run_in_threadpool(room.load, data.get("seat"), data.get("save"))
        return JSONResponse({"version": room.version})

    async def save(request: Request) -> Response:
        data = room.save(request.query_params.get("seat"))
        headers = {"Content-Disposition": 'attachment; filename="ckdsl-game.json"'}
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
