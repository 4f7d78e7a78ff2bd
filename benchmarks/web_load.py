"""Load test of the web table (``ckdsl serve``) on 127.0.0.1: many clients playing and
saving while idle half-open connections are held.

    nice -n 10 python benchmarks/web_load.py [--clients 200] [--idle 150]
        [--seconds 60] [--requests 400] [--players human,human,human,random]

The table runs in a process of its own, with the server's limits (``ckdsl.table.web.
limits``), so its memory is measured alone. Each client plays as the page does, on a
keep-alive connection of its own: it polls ``/api/state?since=`` every 0.4 s, fetches the
whole state when the version changed, answers its seat's first option when the move is
its seat's (several clients share a seat: a late one is refused, 409 or 422), and
downloads a save every 10th round (the host's link, as a game in progress is saved by the
host). When the game is over, the host starts another. Meanwhile ``--idle`` connections
each send half a request head and nothing more; the server closes each after its
deadline (``limits.REQUEST_SECONDS``) and the holder opens another at once, so that many
are held all along. Bounded: each client stops after ``--requests`` requests, everything
after ``--seconds``. Only loopback addresses are used.

Reports latency percentiles by request kind (from the request's first byte to the whole
answer, connection setup not counted), statuses, the server's resident memory (sampled
every 0.5 s: peak and last) and what happened to the half-open connections.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import quote

HOST = "127.0.0.1"  # loopback only
REPO = Path(__file__).resolve().parent.parent


def serve(port: int, players: str) -> None:
    """The table's process: prints its tokens as one JSON line, then serves."""
    import uvicorn

    from ckdsl.bots import parse_spec
    from ckdsl.session import GameSetup
    from ckdsl.table.web.limits import server_config
    from ckdsl.table.web.room import Room, fresh_seed
    from ckdsl.table.web.server import make_app

    specs = [None if p == "human" else parse_spec(p) for p in players.split(",")]
    room = Room(GameSetup(players=len(specs), seed=fresh_seed()), specs)
    tokens = sorted(room.tokens, key=room.tokens.__getitem__)
    print(json.dumps({"host": room.host, "seats": tokens}), flush=True)
    uvicorn.Server(server_config(make_app(room), HOST, port)).run()


class Client:
    """One keep-alive HTTP/1.1 connection, with the latency of each request kept."""

    def __init__(self, port: int, timings: dict[str, list[float]], statuses: Counter[str]):
        self.port, self.timings, self.statuses = port, timings, statuses
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, kind: str, method: str, path: str, body: bytes = b""
    ) -> tuple[int, bytes]:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: {len(body)}\r\n"
        head += "Content-Type: application/json\r\n\r\n" if body else "\r\n"
        began = time.perf_counter()
        try:
            self.writer.write(head.encode() + body)
            await self.writer.drain()
            status_line = await self.reader.readline()
            status = int(status_line.split()[1])
            length, close = 0, False
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
                if name.lower() == "connection" and "close" in value.lower():
                    close = True
            data = await self.reader.readexactly(length)
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            self.statuses[f"{kind} failed"] += 1
            self.close()
            return 0, b""
        self.timings[kind].append(time.perf_counter() - began)
        self.statuses[f"{kind} {status}"] += 1
        if close:
            self.close()
        return status, data

    def relabel(self, kind: str, as_kind: str) -> None:
        """The last request of ``kind`` counted as ``as_kind`` (known once answered)."""
        self.timings[as_kind].append(self.timings[kind].pop())
        status = next(k for k in reversed(self.statuses) if k.startswith(kind + " "))
        self.statuses[status] -= 1
        self.statuses[as_kind + status[len(kind) :]] += 1

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.writer = None


async def play(
    port: int, seat: str, host: str, rounds: int, stop: float, timings, statuses
) -> None:  # type: ignore[no-untyped-def]
    """One player's page: poll, answer when it is its seat's move, save now and then."""
    client = Client(port, timings, statuses)
    version = None
    state: dict[str, object] = {}
    try:
        for k in range(rounds):
            if time.monotonic() > stop:
                break
            since = "" if version is None else f"&since={version}"
            status, data = await client.request("poll", "GET", f"/api/state?seat={seat}{since}")
            reply = json.loads(data) if status == 200 else {}
            if "players" in reply:  # changed: the whole state came
                client.relabel("poll", "state")
                state, version = reply, reply["version"]
            pending = state.get("pending")
            if isinstance(pending, dict) and pending.get("yours") and pending.get("options"):
                body = json.dumps({"seat": seat, "answer": pending["options"][0]["answer"]})
                await client.request("answer", "POST", "/api/answer", body.encode())
                state = {}
            elif state.get("over"):
                await client.request("new", "POST", "/api/new", json.dumps({"host": host}).encode())
                state = {}
            if k % 10 == 9:
                await client.request("save", "GET", f"/api/save?host={quote(host)}")
            await asyncio.sleep(0.4)
    finally:
        client.close()


async def hold_half_open(port: int, count: int, stop: float, report: dict[str, object]) -> None:
    """Keep ``count`` connections that sent half a request head, opening another as soon
    as the server closes one; report how many it closed and after how long."""
    lives: list[float] = []
    refused = Counter[str]()

    async def one() -> None:
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection(HOST, port)
            except OSError as exc:
                refused[type(exc).__name__] += 1
                await asyncio.sleep(0.5)
                continue
            writer.write(b"GET /api/state?seat=x HTTP/1.1\r\nHost: ")
            opened = time.monotonic()
            try:
                left = max(stop - opened, 0.01)
                got = await asyncio.wait_for(reader.read(1), left)
                if got == b"":  # closed by the server
                    lives.append(time.monotonic() - opened)
            except (TimeoutError, OSError):
                pass
            finally:
                writer.close()

    await asyncio.gather(*(one() for _ in range(count)))
    report["closed by the server"] = len(lives)
    report["held for (s, median)"] = round(statistics.median(lives), 1) if lives else None
    report["connect errors"] = dict(refused)


def rss_kb(pid: int) -> tuple[int, int]:
    """The process's resident memory now and its peak, in kB (Linux /proc)."""
    found = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return found.get("VmRSS", 0), found.get("VmHWM", 0)


async def sample_rss(pid: int, stop: float, samples: list[int]) -> None:
    while time.monotonic() < stop:
        samples.append(rss_kb(pid)[0])
        await asyncio.sleep(0.5)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(p * len(ordered)), len(ordered) - 1)]


async def load(args: argparse.Namespace, port: int, pid: int, host: str, seats: list[str]) -> None:
    timings: dict[str, list[float]] = defaultdict(list)
    statuses: Counter[str] = Counter()
    began = time.monotonic()
    stop = began + args.seconds
    idle: dict[str, object] = {}
    samples: list[int] = []
    rss_before = rss_kb(pid)[0]
    holders = asyncio.create_task(hold_half_open(port, args.idle, stop, idle))
    sampler = asyncio.create_task(sample_rss(pid, stop, samples))
    await asyncio.sleep(1.0)  # the half-open connections first
    clients = [
        play(port, seats[k % len(seats)], host, args.requests, stop, timings, statuses)
        for k in range(args.clients)
    ]
    await asyncio.gather(*clients)
    played = time.monotonic() - began
    await asyncio.gather(holders, sampler)
    everything = [t for kind in timings.values() for t in kind]
    print(f"web table load test on {HOST}: {args.clients} clients, {args.idle} half-open "
          f"connections held, {played:.1f} s (bounded: {args.seconds} s, "
          f"{args.requests} rounds per client); players {args.players}")  # fmt: skip
    print(f"{'request':<8} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind in ("poll", "state", "answer", "save", "new", "all"):
        values = everything if kind == "all" else timings.get(kind, [])
        if values:
            row = [percentile(values, p) * 1000 for p in (0.5, 0.95, 0.99, 1.0)]
            print(f"{kind:<8} {len(values):>7} " + " ".join(f"{v:>8.1f}" for v in row))
    print(f"requests/s: {len(everything) / played:.0f}")
    print("statuses:", ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
    now, peak = rss_kb(pid)
    print(f"server RSS: {rss_before / 1024:.0f} MB before, {max(samples, default=now) / 1024:.0f} "
          f"MB at most while loaded (sampled), {now / 1024:.0f} MB after; peak (VmHWM) "
          f"{peak / 1024:.0f} MB")  # fmt: skip
    print("half-open connections:", json.dumps(idle))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--idle", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--requests", type=int, default=400, help="rounds per client")
    parser.add_argument("--players", default="human,human,human,random")
    parser.add_argument("--serve-port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_port is not None:
        serve(args.serve_port, args.players)
        return 0
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve-port", str(port), "--players", args.players],
        stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        keys = json.loads(server.stdout.readline())
        for _ in range(200):  # until it listens
            with socket.socket() as attempt:
                if attempt.connect_ex((HOST, port)) == 0:
                    break
            time.sleep(0.05)
        asyncio.run(load(args, port, server.pid, keys["host"], keys["seats"]))
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
