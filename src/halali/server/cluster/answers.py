"""A node's part in the answers between nodes: the owner serving another node's browser's requests
and sending each table event to the nodes with connections at the table, and such a node giving
each of its connections its own audience's text, holding back what an ``open`` it asked for covers.
"""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING, Any

from halali.server.announce import personal
from halali.server.cluster.bus import Bus, Fields, parse_seats
from halali.server.cluster.remote import RemoteConnection
from halali.server.context import Context
from halali.server.hub import Connection

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable


class _Answer:
    """The request another node's browser made that the running task is serving: the first event it
    causes for that node carries the request's id, which then needs no ``done`` of its own."""

    __slots__ = ("origin", "rid", "sent")

    def __init__(self, origin: str, rid: str) -> None:
        self.origin, self.rid, self.sent = origin, rid, False


ANSWERING: contextvars.ContextVar[_Answer | None] = contextvars.ContextVar("answering", default=None)


class Answers:
    ctx: Context
    bus: Bus
    node: str
    tables: Any
    dispatch: Callable[[Connection, str], Awaitable[None]]
    pending: dict[tuple[str, str], list[tuple[int, str]]]
    floor: dict[tuple[str, str], int]
    requests: dict[str, tuple[Connection, str, str, float, float, str]]

    if TYPE_CHECKING:
        def owns(self, table_id: str) -> bool: ...
        def attach(self, proxy: RemoteConnection, table_id: str) -> None: ...

    def table_event(self, table_id: str, v: int, seats: list[str | None], texts: dict[Any, str],
                    shared: str | None) -> None:
        """An event of a table of ours: to its stream, and to the nodes with connections at it, each
        with the texts of its own connections' audiences only (what it cannot pass on, it never gets)."""
        audiences: dict[str, set[str]] = {}  # node -> the audiences of its connections at the table
        for key, player in self.ctx.hub.remote.get(table_id, {}).items():
            node = key.rsplit(":", 1)[0]
            if node != self.node:
                audiences.setdefault(node, set()).add(str(seats.index(player)) if player in seats else "-")
        answer = ANSWERING.get()
        answered = None
        if answer is not None and not answer.sent and answer.origin in audiences:
            answer.sent = True
            answered = (answer.origin, answer.rid)
        self.bus.table_event(table_id, v, seats, texts, shared, audiences, answered)

    def on_table_event(self, table_id: str, fields: Fields) -> None:
        if self.owns(table_id) or fields.get("from") == self.node:
            return
        if "r" in fields:  # the answer to one of this node's requests
            self.requests.pop(fields["r"], None)
        watchers = self.ctx.hub.watchers(table_id)
        if not watchers:
            return
        v = int(fields["v"])
        seats = parse_seats(fields["seats"])
        shared = fields.get("shared") or None
        for conn in list(watchers):
            player = conn.player_id
            # His seat's text, or the one for everyone else (a node gets only its connections' texts).
            text = fields.get(f"t:{seats.index(player)}" if player in seats else "t:-") or shared
            if text is None:
                continue
            text = personal(text, player)
            key = (str(getattr(conn, "cluster_id", "")), table_id)
            held = self.pending.get(key)
            if held is not None:
                held.append((v, text))
            elif v > self.floor.get(key, -1):
                self.floor[key] = v
                conn.send(text)

    def _version(self, table_id: str | None) -> int | None:
        table = self.tables.tables.get(table_id) if table_id is not None else None
        return int(table.version) if table is not None else None

    async def _serve(self, proxy: RemoteConnection) -> None:
        """One other node's browser's requests, one after another as its WebSocket would read them;
        the browsers of other nodes are served side by side (their commits group in the store)."""
        while not proxy.inbox.empty():
            m = proxy.inbox.get_nowait()
            people = self.ctx.people
            if m.get("n") and m["n"] != "?" and people.names.get(m["p"]) != m["n"]:
                people.names_changed(m["p"], m["n"])  # the name its own node knows (it may have just changed)
            if m.get("acc"):
                people.accounts.add(m["p"])
            table_id = m.get("tb")
            if m.get("at") and not m.get("hold") and table_id and self.owns(table_id):
                self.attach(proxy, table_id)  # a request retried to a new owner, say, before the beat
            before = self._version(m.get("tb", proxy.table_id))
            answer = _Answer(m["from"], m.get("r", ""))
            token = ANSWERING.set(answer)
            try:
                await self.dispatch(proxy, m["t"])
            finally:
                ANSWERING.reset(token)
                if m.get("hold") or not answer.sent:
                    # The events up to ``before`` the answer has covered (a resync) or the browser had;
                    # from there on the stream brings them.
                    self.bus.send(m["from"], {"k": "done", "c": m["c"], "r": m.get("r"), "table": proxy.table_id,
                                              "v": "" if before is None else str(before)})
                answer.sent = True  # a task the request started must not answer it later

    def opened(self, conn: Connection, cid: str, table_id: str | None, v: int | None) -> None:
        """The owner has answered a request: events held back for an open older than it are dropped."""
        if table_id is None:
            return
        held = self.pending.pop((cid, table_id), None)
        if held is None:
            return
        floor = v if isinstance(v, int) else -1
        for ev, text in held:
            if ev > floor:
                floor = ev
                conn.send(text)
        self.floor[(cid, table_id)] = floor
