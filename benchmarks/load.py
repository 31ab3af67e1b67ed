"""Load benchmark of the game server: many tables playing random legal actions at full speed.

    python -m benchmarks.load --tables 200 --players 400 --seconds 30     (from the project's folder)

Starts `halali serve` as a subprocess on 127.0.0.1 (a fresh SQLite database in a temporary folder),
connects the players over WebSockets, seats two at each table, and lets every player answer its own
`game` message at once with a random legal action. Prints the actions per second the server
committed and delivered, and the time from sending an action to the opponent receiving it (p50, p99).
Finished matches are followed by a rematch, so every table plays for the whole measuring time.

At full speed every table always has an action on its way, so the time an action takes is the number
of tables divided by the server's throughput (Little's law); `--rate N` paces the players to N actions
per second in all and shows the time an action takes at that load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from benchmarks.load_common import Stats, free_port
from halali.server.cluster.redis_server import dies_with_parent


@dataclass
class Table:
    id: str = ""
    pending: tuple[float, int, int, int] | None = None  # (sent at, game number, ply after it, mover's seat)
    interval: float = 0.0  # with --rate: least seconds between two actions at this table
    next_at: float = 0.0


def start_server(port: int, data: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "halali.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--data", data, "--max-rate", "1000", "--tables-per-address", "0"]
    proc = subprocess.Popen(dies_with_parent(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"the server stopped: {err}") from None
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start within 30 s")


Pids = list[int] | Callable[[], list[int]]  # a part's processes, or how to find them when they come and go


def parts_cpu(parts: dict[str, Pids]) -> dict[str, dict[int, float]]:
    """CPU seconds of every process of every part (a process that is gone is left out); a part given as
    a function is looked up anew each time (PostgreSQL starts a process per connection)."""
    out: dict[str, dict[int, float]] = {}
    for name, pids in parts.items():
        found = pids() if callable(pids) else pids
        out[name] = {p: c for p in found if (c := cpu_seconds(p)) == c}  # NaN != NaN: gone
    return out


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of a process (Linux /proc), or NaN when it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, TypeError):
        return float("nan")


def session(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/me", timeout=10) as r:
        cookie = r.headers["set-cookie"]
    return cookie.split(";", 1)[0]


async def expect(ws: ClientConnection, type_: str) -> dict:
    while True:
        msg = json.loads(await ws.recv())
        if msg["type"] == type_:
            return msg
        if msg["type"] == "error":
            raise RuntimeError(f"setup refused: {msg}")


async def player(ws: ClientConnection, table: Table, seat: int, stats: Stats, rng: random.Random,
                 stop: asyncio.Event) -> None:
    """Answer every own `game` message with a random legal action; time the opponent's deliveries."""
    asked = 0  # the last match this player asked a rematch for
    with contextlib.suppress(ConnectionClosed):
        async for text in ws:
            if stop.is_set():
                return
            now = time.perf_counter()
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "error":
                stats.errors += 1
                stats.error_keys[msg["key"]] = stats.error_keys.get(msg["key"], 0) + 1
            elif kind == "table":
                number = msg["table"]["match_number"]
                if msg["table"]["state"] == "finished" and number > asked:
                    asked = number  # once per match: a later `table` may still show the old state
                    await ws.send(json.dumps({"type": "rematch"}))
            elif kind == "game":
                await on_game(ws, msg["game"], now, table, seat, stats, rng)


async def lag_probe(stats: Stats, stop: asyncio.Event) -> None:
    """The client's own delay: a slow client adds to every measured time, so it is shown beside them."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        if stats.measuring:
            stats.lags.append(time.perf_counter() - t - 0.01)


async def on_game(ws: ClientConnection, g: dict, now: float, table: Table, seat: int, stats: Stats,
                  rng: random.Random) -> None:
    p = table.pending
    if p is not None and p[1:] == (g["number"], g["ply"], 1 - seat):  # the opponent's action arrived
        if stats.measuring:
            stats.latencies.append(now - p[0])
            stats.actions += 1
        table.pending = None
    if g["over"]:
        if seat == 0:
            stats.games += 1
        return
    if g["legal"]:
        if table.interval:
            wait = table.next_at - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            table.next_at = max(time.perf_counter(), table.next_at) + table.interval
        table.pending = (time.perf_counter(), g["number"], g["ply"] + 1, seat)
        await ws.send(json.dumps({"type": "action", "action": rng.choice(g["legal"]), "ply": g["ply"]}))


async def setup_table(ports: list[int], cookies: list[str], table: Table, n: int) -> list[ClientConnection]:
    """Two players at a new table; with two ports (a cluster), each on its own node, and the table
    created on the nodes in turn (as a front spreads the creators), so that each owns half of them."""
    conns = []
    for i, cookie in enumerate(cookies):
        port = ports[(n + i) % len(ports)]
        ws = await connect(f"ws://127.0.0.1:{port}/ws", additional_headers={"Cookie": cookie},
                           max_size=2**22, ping_interval=None)
        await expect(ws, "welcome")
        conns.append(ws)
    a, b = conns
    await a.send(json.dumps({"type": "create", "join": True}))
    table.id = (await expect(a, "created"))["table"]
    await a.send(json.dumps({"type": "open", "table": table.id}))
    await expect(a, "table")
    await b.send(json.dumps({"type": "join", "table": table.id}))
    await expect(b, "table")
    return conns


async def run(args: argparse.Namespace, port: int, server_pid: int | None, ports: list[int] | None = None,
              parts: dict[str, Pids] | None = None) -> Stats:
    stats = Stats()
    ports = ports or [port]
    n_tables = min(args.tables, args.players // 2)
    cookies = [session(port) for _ in range(2 * n_tables)]
    tables = [Table() for _ in range(n_tables)]
    t0 = time.perf_counter()
    conns: list[list[ClientConnection]] = []
    for i in range(0, n_tables, 25):  # connect in batches so the handshakes do not time out
        conns += await asyncio.gather(*(setup_table(ports, cookies[2 * j:2 * j + 2], tables[j], j)
                                        for j in range(i, min(i + 25, n_tables))))
    print(f"connected {2 * n_tables} players to {n_tables} tables in {time.perf_counter() - t0:.1f} s", flush=True)
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    tasks = []
    for table in tables:
        if args.rate:
            table.interval = n_tables / args.rate
            table.next_at = time.perf_counter() + rng.random() * table.interval
    for table, (a, b) in zip(tables, conns, strict=True):
        tasks.append(asyncio.create_task(player(a, table, 0, stats, random.Random(rng.random()), stop)))
        tasks.append(asyncio.create_task(player(b, table, 1, stats, random.Random(rng.random()), stop)))
        await a.send(json.dumps({"type": "start"}))
    tasks.append(asyncio.create_task(lag_probe(stats, stop)))
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    start = time.perf_counter()
    cpu0, own0 = cpu_seconds(server_pid), time.process_time()
    before = parts_cpu(parts or {})
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - start
    stats.server_cpu = cpu_seconds(server_pid) - cpu0
    after = parts_cpu(parts or {})
    # A process that came while measuring (a connection opened meanwhile) counts with all it used.
    stats.parts_cpu = {k: sum(c - before[k].get(p, 0.0) for p, c in v.items()) for k, v in after.items()}
    stats.client_cpu = time.process_time() - own0
    stop.set()
    await asyncio.gather(*(ws.close() for pair in conns for ws in pair))
    await asyncio.gather(*tasks)
    stats.actions_per_second = stats.actions / elapsed
    return stats


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=30.0, help="measuring time")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="pace the players to this many actions/s in all (default 0: full speed)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play before measuring")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' random choices")
    parser.add_argument("--cluster", action="store_true",
                        help="a single node on PostgreSQL, then two nodes on PostgreSQL and Redis behind HAProxy, "
                             "each table's players on different nodes; CPU per action of every part")
    parser.add_argument("--repeat", type=int, default=1,
                        help="--cluster: measure this many pairs (single, cluster) and give the median ratio")
    parser.add_argument("--port", type=int, default=None,
                        help="use a server already running on 127.0.0.1:PORT (started with --max-rate 1000)")
    args = parser.parse_args()
    if args.tables < 1 or args.players < 2 or args.seconds <= 0 or args.rate < 0:
        parser.error("need at least 1 table, 2 players, a positive time and a rate of 0 or more")
    limit = args.seconds + args.warmup + 300
    if args.cluster:
        from benchmarks.load_cluster import measure_cluster

        return measure_cluster(args, run, limit, report)
    if args.port is not None:
        stats = asyncio.run(asyncio.wait_for(run(args, args.port, None), limit))
    else:
        port = free_port()
        with tempfile.TemporaryDirectory(prefix="halali-load-") as data:
            proc = start_server(port, data)
            try:
                stats = asyncio.run(asyncio.wait_for(run(args, port, proc.pid), limit))
            finally:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
    return report(args, stats)


def report(args: argparse.Namespace, stats: Stats) -> int:
    lat = stats.latencies
    pace = f"paced to {args.rate:g} actions/s" if args.rate else "full speed"
    print(f"tables {min(args.tables, args.players // 2)}, players {2 * min(args.tables, args.players // 2)}, "
          f"measured {args.seconds:.0f} s on {os.cpu_count()} cores, {pace}")
    print(f"actions/s        {stats.actions_per_second:,.0f}")
    server_cpu = sum(stats.parts_cpu.values()) if stats.parts_cpu else stats.server_cpu
    per_action = server_cpu / max(1, stats.actions) * 1000
    print(f"server CPU       {server_cpu / args.seconds:.0%} of a core, {per_action:.2f} ms per action")
    print(f"client CPU       {stats.client_cpu / args.seconds:.0%} of a core")
    print(f"latency p50      {percentile(lat, 0.50) * 1000:.1f} ms  (send -> opponent receives)")
    print(f"latency p99      {percentile(lat, 0.99) * 1000:.1f} ms")
    print(f"latency max      {max(lat, default=float('nan')) * 1000:.1f} ms")
    print(f"client lag p99   {percentile(stats.lags, 0.99) * 1000:.1f} ms  (the benchmark's own delay, included above)")
    for name, cpu in stats.parts_cpu.items():
        per = cpu / max(1, stats.actions) * 1000
        print(f"  CPU {name:<12} {cpu / args.seconds:.0%} of a core, {per:.2f} ms per action")
    print(f"games finished   {stats.games}")
    print(f"errors           {stats.errors} {stats.error_keys or ''}")
    return 0 if stats.errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
