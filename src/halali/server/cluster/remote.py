"""Another node's browser as the owner of a table sees it: its answers go back through Redis to the
node it is connected to, which sends them on its WebSocket."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol

from halali.server.cluster.bus import Bus
from halali.server.hub import Connection, dumps


class Node(Protocol):
    bus: Bus


class RemoteConnection(Connection):
    """A browser connected to another node, as the owner of a table sees it."""

    remote = True

    def __init__(self, node: Node, origin: str, conn_id: str, player_id: str, address: str,
                 session: str | None) -> None:  # no WebSocket here: nothing of Connection's own is used
        self.node, self.origin, self.conn_id = node, origin, conn_id
        self.key = f"{origin}:{conn_id}"
        self.player_id, self.address, self.session = player_id, address, session
        self.table_id: str | None = None
        self.lobby = False
        self.closed = False
        self.close_code = 1000
        self.seen = time.monotonic()
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()  # its requests, served in order
        self.worker: asyncio.Task[None] | None = None

    def send(self, msg: dict[str, Any] | str) -> None:
        text = msg if isinstance(msg, str) else dumps(msg)
        self.node.bus.send(self.origin, {"k": "out", "c": self.conn_id, "t": text})

    def allow(self) -> bool:
        return True  # the node the browser is connected to counts its messages

    def close(self, code: int = 1000) -> None:
        self.node.bus.send(self.origin, {"k": "close", "c": self.conn_id, "code": code})


