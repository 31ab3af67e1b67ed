"""A real cluster for the cluster tests: one fresh PostgreSQL database, one redis-server and ``halali
serve`` nodes in subprocesses (killed with the test), and WebSocket players that talk to a node of
their choosing, as a browser behind the front would."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

import loopback
from halali.server.cluster.redis_server import RedisServer
from serve_helpers import free_port, healthy, launch

LEASE_TTL = 2.0


class Player:
    """One browser: a session cookie (valid on every node: sessions live in PostgreSQL) and a
    WebSocket to one node at a time."""

    def __init__(self, url: str) -> None:
        self.cookie = loopback.get(f"{url}/api/me", timeout=30).cookies["halali_session"]
        self.ws: ClientConnection | None = None
        self.received: list[dict[str, Any]] = []
        self.connect(url)

    def connect(self, url: str, within: float = 20.0) -> None:
        """A WebSocket to ``url``, tried again until it opens, as the page does after losing one."""
        if self.ws is not None:
            self.ws.close()
        deadline = time.monotonic() + within
        while True:
            try:
                self.ws = connect(url.replace("http://", "ws://") + "/ws",
                                  additional_headers={"Cookie": f"halali_session={self.cookie}"})
                break
            except (OSError, InvalidStatus, InvalidHandshake):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        self.expect("welcome")

    def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(msg))

    def expect(self, type_: str, where: Callable[[dict[str, Any]], bool] | None = None,
               timeout: float = 20.0) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            msg = json.loads(self.ws.recv(timeout=timeout))
            self.received.append(msg)
            if msg["type"] == type_ and (where is None or where(msg)):
                return msg

    def last_v(self) -> int:
        return max(m["v"] for m in self.received if isinstance(m.get("v"), int))


@dataclass
class Cluster:
    db: str
    redis: RedisServer
    folder: Path
    nodes: dict[str, tuple[str, subprocess.Popen[bytes]]] = field(default_factory=dict)

    def start_node(self, name: str) -> str:
        return self.start_nodes(name)[0]

    def start_nodes(self, *names: str) -> list[str]:
        """Nodes started side by side; their URLs once all are healthy."""
        started = []
        for name in names:
            port = free_port()
            proc = launch(self.folder / name, port, "--db", self.db, "--redis", self.redis.url, "--node-id", name,
                          "--lease-ttl", str(LEASE_TTL), "--bot-movetime", "0.05", "--bot-delay", "0.05",
                          log=self.folder / f"{name}.log")
            self.nodes[name] = (f"http://127.0.0.1:{port}", proc)
            started.append((port, proc))
        for port, proc in started:
            healthy(proc, port)
        return [self.url(name) for name in names]

    def url(self, name: str) -> str:
        return self.nodes[name][0]

    def kill(self, name: str) -> None:
        _, proc = self.nodes.pop(name)
        proc.kill()
        proc.wait(10)

    def stop(self) -> None:
        for name in list(self.nodes):
            self.kill(name)

    def print_logs(self, lines: int = 80) -> None:
        """The end of every node's log (pytest shows it when the test failed)."""
        for log in sorted(self.folder.glob("*.log")):
            print(f"--- {log.name} ---", *log.read_text(errors="replace").splitlines()[-lines:], sep="\n")


def running_tables(url: str) -> set[str]:
    """The tables a node's lobby lists as waiting or playing."""
    lobby: dict[str, Any] = loopback.get(f"{url}/api/lobby", timeout=10).json()
    return {t["id"] for t in lobby["tables"] if t["state"] in ("waiting", "playing")}


def start_table(ann: Any, bob: Any, seed: int, rules: dict[str, str] | None = None) -> str:
    """Ann creates a seeded table and sits down, Bob opens it and joins, Ann starts the match: its id.
    (Players of this module or ``halali.server.testing.Peer``: the same messages.)"""
    ann.send({"type": "create", "join": True, "seed": seed, **({"rules": rules} if rules else {})})
    table: str = ann.expect("created")["table"]
    bob.send({"type": "open", "table": table})
    bob.expect("table")
    bob.send({"type": "join"})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    ann.send({"type": "start"})
    return table
