"""How long a player waits for the luck verdict at the end of a match against the computer.

    python -m benchmarks.match_luck                   # one match against level 6 on each server
    python -m benchmarks.match_luck --level 4 --think 1 --matches 2

A real ``halali serve`` (this checkout's, in a temporary folder, test seeds on so the deals repeat) and
a person over the WebSocket, as the table page plays: a two-game match against a computer level, the
person choosing a random legal action after ``--think`` seconds. When the match is over, the person
asks ``GET /api/games/{id}/match-luck`` at once, as the end-of-match summary does, and the wait until
it answers is timed. The same matches are played again on a server started with
``--no-background-analysis``, where nothing is analysed while the games are played (the baseline: the
whole match is analysed after its last action). The ratio is the baseline's wait over the site's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

from benchmarks.first_start import Start, expect, first_http, stop
from benchmarks.load_common import free_port

TARGET = 5.0  # seconds: issue 40's bound on the wait for the verdict


def serve(data: Path, background: bool) -> Start:
    port = free_port()
    cmd = [sys.executable, "-m", "halali.cli", "serve", "--port", str(port), "--data", str(data),
           "--arena-minutes", "0", "--tables-per-address", "0"]
    if not background:
        cmd.append("--no-background-analysis")
    start = Start(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env={**os.environ, "HALALI_TEST_SEEDS": "1"}, stdin=subprocess.DEVNULL,
                                   start_new_session=True), time.perf_counter(), port)
    start.watch()
    return start


def get(url: str, cookie: str, timeout: float) -> tuple[int, dict]:
    req = urllib.request.Request(url, headers={"Cookie": cookie})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.status, json.loads(r.read())


async def match(port: int, level: int, seed: int, think: float, timeout: float) -> tuple[float, int, dict]:
    """One match; (seconds from the last action to the verdict, actions played, the verdict)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/me", timeout=30) as r:
        cookie = str(r.headers["set-cookie"]).split(";", 1)[0]
    rng = random.Random(seed)
    async with connect(f"ws://127.0.0.1:{port}/ws", additional_headers={"Cookie": cookie}, max_size=2**22,
                       ping_interval=None) as ws:
        await expect(ws, "welcome", timeout)
        await ws.send(json.dumps({"type": "create", "join": True, "seed": seed}))
        table = (await expect(ws, "created", timeout))["table"]
        await ws.send(json.dumps({"type": "open", "table": table}))
        await expect(ws, "table", timeout)
        await ws.send(json.dumps({"type": "bot", "table": table, "level": level}))
        await expect(ws, "table", timeout)
        await ws.send(json.dumps({"type": "start", "table": table, "rated": False}))
        played, acted = 0, (0, -1)
        while True:
            msg = await expect(ws, "game", timeout)
            g = msg["game"]
            if g["over"] and msg["match"]["over"]:
                over = time.perf_counter()
                break
            if g["legal"] and (g["number"], g["ply"]) > acted:
                acted = (g["number"], g["ply"])
                await asyncio.sleep(think)
                await ws.send(json.dumps({"type": "action", "action": rng.choice(g["legal"]), "ply": g["ply"]}))
                played += 1
    status, verdict = await asyncio.to_thread(
        get, f"http://127.0.0.1:{port}/api/games/{g['id']}/match-luck", cookie, timeout)
    if status != 200:
        raise SystemExit(f"match-luck answered {status}")
    return time.perf_counter() - over, played, verdict


def run(background: bool, args: argparse.Namespace) -> list[float]:
    with tempfile.TemporaryDirectory(prefix="halali-luck-") as tmp:
        start = serve(Path(tmp), background)
        try:
            first_http(start, args.timeout)
            waits = []
            for i in range(args.matches):
                t0 = time.perf_counter()
                wait, played, verdict = asyncio.run(match(start.port, args.level, args.seed + i, args.think,
                                                          args.timeout))
                lines = ", ".join(f"{s['key']} {s['params']}" for s in verdict["summary"])
                print(f"  match {i + 1}: {played} actions of the person, {time.perf_counter() - t0:.0f} s, "
                      f"verdict {wait:.2f} s after the last action ({lines})", flush=True)
                waits.append(wait)
        finally:
            _, left, _ = stop(start)
            if left != "nothing":
                print(f"  left behind: {left}")
    return waits


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.match_luck", description=__doc__.split("\n")[0])
    p.add_argument("--level", type=int, default=6, choices=range(1, 7), help="the computer's level (default 6)")
    p.add_argument("--matches", type=int, default=1, help="matches on each server (default 1)")
    p.add_argument("--think", type=float, default=0.5, help="the person's seconds per action (default 0.5)")
    p.add_argument("--seed", type=int, default=40, help="the first match's deal (default 40)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for any one thing")
    args = p.parse_args(argv)
    print(f"level {args.level}, {args.matches} match(es) per server, {args.think} s per action of the person")
    print("the site (games analysed while they are played):")
    site = run(True, args)
    print("baseline (--no-background-analysis: the match analysed after its last action):")
    base = run(False, args)
    s, b = statistics.median(site), statistics.median(base)
    print(f"verdict after the last action: site {s:.2f} s (max {max(site):.2f}), baseline {b:.2f} s "
          f"(max {max(base):.2f}); baseline / site {b / s:.1f}x; target {TARGET:.0f} s: "
          f"{'met' if max(site) <= TARGET else 'missed'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
