"""No process outlives the server, not even after a kill -9.

A real `halali serve` runs a game between two computer players, so its bot pool has started its
worker process (and multiprocessing its resource tracker). The server's whole process tree is read
from /proc, the server gets SIGKILL, and every process of that tree must be gone within the deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from test_durability_kill9 import WORKERS, expect, second_node, send, serve
from websockets.asyncio.client import connect

import loopback
from halali.server.testing import fresh_database
from proc_helpers import alive, process_tree
from serve_helpers import free_port

DEADLINE = 15.0

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process tree from /proc")


async def computers_play(port: int) -> None:
    """A table with two computer players, started; returns once both have moved (through the pool)."""
    token = loopback.get(f"http://127.0.0.1:{port}/api/me", timeout=30).cookies["halali_session"]
    async with connect(f"ws://127.0.0.1:{port}/ws", additional_headers={"Cookie": f"halali_session={token}"}) as ws:
        await send(ws, {"type": "create"})
        table = (await expect(ws, "created"))["table"]
        await send(ws, {"type": "open", "table": table})
        await expect(ws, "table")
        for _ in range(2):
            await send(ws, {"type": "bot", "level": 1})
        await send(ws, {"type": "start"})
        while len((await expect(ws, "game"))["game"]["history"]) < 2:
            pass


@pytest.mark.parametrize("kind", ["sqlite", "cluster"])
def test_kill_9_of_the_server_leaves_no_process_behind(kind: str, tmp_path: Path):
    port = free_port()
    tree: dict[int, tuple[str, str]] = {}
    with fresh_database("sqlite" if kind == "sqlite" else "postgresql", tmp_path) as db, \
            second_node(kind, tmp_path, db) as node:
        proc = serve(tmp_path, port, db, *node)
        try:
            asyncio.run(computers_play(port))
            tree = process_tree(proc.pid)
            if kind == "cluster":  # the node has no pool: the worker process plays, and must not leak either
                worker_tree = process_tree(WORKERS[tmp_path].pid)
                assert len(worker_tree) >= 3, f"the worker and its two children: {worker_tree}"
                tree.update(worker_tree)
                workers = list(worker_tree)
                WORKERS[tmp_path].send_signal(signal.SIGKILL)
            else:
                workers = [pid for pid, (_, cmd) in tree.items() if "--multiprocessing-fork" in cmd]
            assert workers, f"the bot pool has no worker process: {tree}"
            print(f"\nbefore the kill: {len(tree)} processes", *(f"{p} {c[:100]}" for p, (_, c) in tree.items()),
                  sep="\n  ")

            killed = time.monotonic()
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            survivors = dict(tree)
            while survivors and time.monotonic() < killed + DEADLINE:
                time.sleep(0.05)
                survivors = {pid: v for pid, v in survivors.items() if alive(pid, v[0])}
            assert not survivors, f"alive {DEADLINE} s after kill -9 of the server: {survivors}"
            print(f"after the kill: all {len(tree)} processes gone within {time.monotonic() - killed:.2f} s")
        finally:
            proc.kill()
            proc.wait(10)
            for pid, (started, _) in tree.items():  # a failed run leaves nothing behind either
                if alive(pid, started):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
