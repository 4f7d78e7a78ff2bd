"""What one connection to the web table may hold, and for how long: the server's limits.

uvicorn's settings bound most of it: a request's head (``h11_max_incomplete_event_size``),
the connections and tasks served at once (``limit_concurrency``: beyond it, 503), an idle
connection between requests (``timeout_keep_alive``). The body is bounded by the
application (``server.MAX_BODY``, counted as it arrives). What uvicorn leaves open is a
request that never finishes arriving: a client that sends half a head, or half a body,
and then nothing, holds its connection forever, and enough of them exhaust the table's
file handles. ``DeadlineProtocol`` (uvicorn's own HTTP/1.1 protocol, with one timer more)
closes a connection whose request has not arrived whole ``REQUEST_SECONDS`` after its
first byte could (the connection's start, or the previous answer).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn import Config
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 20.0
"""How long a request may take to arrive whole (its head and its body; a save is under a
megabyte, sent from a browser nearby)."""

IDLE_SECONDS = 5
"""How long a connection may wait, idle, for its next request."""

MAX_HEAD = 16 * 1024
"""The largest request line and headers, in bytes (a seat's link is under 200)."""

MAX_CONNECTIONS = 500
"""Connections (and requests in progress) served at once; beyond it, 503."""

_ARRIVING = (h11.IDLE, h11.SEND_BODY)
"""The client's states in which its request has not arrived whole."""


class DeadlineProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request has not arrived
    whole within ``request_seconds``."""

    request_seconds: float = REQUEST_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state not in _ARRIVING:  # arrived whole: the answer may take long
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()  # the next request has as long

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.conn.their_state in _ARRIVING and not self.transport.is_closing():
            self.transport.close()


def server_config(
    app: Any, host: str, port: int, request_seconds: float = REQUEST_SECONDS
) -> Config:
    """uvicorn's configuration of the table's server, with its limits."""
    protocol = type("Deadline", (DeadlineProtocol,), {"request_seconds": request_seconds})
    return Config(
        app,
        host=host,
        port=port,
        http=protocol,
        log_level="warning",
        timeout_keep_alive=IDLE_SECONDS,
        limit_concurrency=MAX_CONNECTIONS,
        h11_max_incomplete_event_size=MAX_HEAD,
    )
