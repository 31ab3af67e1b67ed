"""Tables played on a real cluster while its parts fail, for the seeded fault tests.

Each person plays through his own WebSocket, on a node of his own, as a browser behind the front
does: he sends his action without ``table`` and with its ply, and when his node dies he reconnects to
another and reopens the table with ``since``. Every game any page gets is checked as it comes:
only the public view (no face-down tile), and a history that agrees with every history seen before
at that table (an acknowledged action lost or played twice would contradict it). An action at a
person's ply must be the one that person sent for that ply.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed

from cluster_helpers import Cluster, Player, start_table
from forest_helpers import all_games, assert_public, deals_for


@dataclass
class Person:
    player: Player
    node: str
    seat: int = -1
    view: dict[str, Any] | None = None  # his latest game, as his seat sees it


@dataclass
class Table:
    id: str
    seed: int
    people: dict[int, Person]
    bot: bool
    deals: list[Any] = field(default_factory=list)
    histories: dict[int, list[str]] = field(default_factory=dict)  # game number -> longest history seen
    latest: dict[str, Any] | None = None  # the furthest game seen by anyone
    sent: dict[tuple[int, int], str] = field(default_factory=dict)  # (game, ply) -> the action sent
    over: bool = False  # the match ended: nothing more to play
    watchers: list[Player] = field(default_factory=list)  # spectators' pages

    def key(self) -> tuple[int, int]:
        return (self.latest["number"], self.latest["ply"]) if self.latest else (0, -1)


class Play:
    """The tables of one test, the cluster they run on, and the seeded choices."""

    def __init__(self, cluster: Cluster, rng: random.Random) -> None:
        self.cluster, self.rng = cluster, rng
        self.tables: list[Table] = []

    # ---- setting up --------------------------------------------------------------------------------
    def person(self, node: str) -> Person:
        return Person(Player(self.cluster.url(node)), node)

    def two_people(self, owner: str, other: str, seed: int) -> Table:
        """A table created on ``owner`` by the first person, joined from ``other`` by the second."""
        ann, bob = self.person(owner), self.person(other)
        table_id = start_table(ann.player, bob.player, seed)
        return self._started(Table(table_id, seed, {0: ann, 1: bob}, bot=False))

    def against_level(self, node: str, level: int, seed: int) -> Table:
        me = self.person(node)
        me.player.send({"type": "create", "join": True, "seed": seed})
        table_id = me.player.expect("created")["table"]
        me.player.send({"type": "bot", "level": level})
        me.player.expect("table", lambda m: all(s is not None for s in m["table"]["seats"]))
        me.player.send({"type": "start"})
        return self._started(Table(table_id, seed, {0: me}, bot=True))

    def _started(self, t: Table) -> Table:
        t.deals = deals_for(t.seed)
        for p in t.people.values():
            p.player.expect("game")
            p.seat = self._seat(p, t)
        t.people = {p.seat: p for p in t.people.values()}
        self.tables.append(t)
        return t

    def _seat(self, p: Person, t: Table) -> int:
        tables = [m for m in p.player.received if m["type"] == "table" and m["table"]["id"] == t.id]
        seat = tables[-1]["table"]["you"]["seat"]
        assert isinstance(seat, int), tables[-1]["table"]["you"]
        for m in p.player.received:
            self.seen(t, p, m)
        return seat

    # ---- what the pages get ------------------------------------------------------------------------
    def seen(self, t: Table, p: Person | None, msg: dict[str, Any]) -> None:
        if msg["type"] not in ("game", "table"):
            return
        if (msg["table"]["id"] if msg["type"] == "table" else msg.get("table")) != t.id:
            return
        t.over = t.over or bool((msg.get("match") or {}).get("over"))
        for g in all_games([msg]):
            assert_public(g, t.deals)
            known = t.histories.setdefault(g["number"], [])
            h = g["history"]
            common = min(len(h), len(known))
            assert h[:common] == known[:common], f"table {t.id}: history {h} against {known} seen before"
            if len(h) > len(known):
                t.histories[g["number"]] = list(h)
            for ply, action in enumerate(h):
                mine = t.sent.get((g["number"], ply))
                # (a reveal is recorded with what it showed: ``?g1`` sent, ``?g1=T`` played)
                assert mine is None or action.split("=")[0] == mine, f"table {t.id} ply {ply}: {action}, not {mine}"
            if t.latest is None or (g["number"], g["ply"]) > t.key():
                t.latest = g
            if p is not None and (p.view is None or (g["number"], g["ply"]) >= (p.view["number"], p.view["ply"])):
                p.view = g

    def pump(self, t: Table, wait: float) -> None:
        """What every person of the table has been sent, for up to ``wait`` seconds each."""
        for p in t.people.values():
            try:
                assert p.player.ws is not None
                msg = json.loads(p.player.ws.recv(timeout=wait))
            except TimeoutError:
                continue
            except ConnectionClosed:
                self.reconnect(t, p)
                continue
            p.player.received.append(msg)
            self.seen(t, p, msg)
            if msg["type"] == "error" and msg.get("key") != "error.not_your_turn":
                self.reopen(t, p)
        for w in list(t.watchers):  # a spectator sees only what everyone may see (his node may die: he goes)
            try:
                assert w.ws is not None
                msg = json.loads(w.ws.recv(timeout=0))
            except TimeoutError:
                continue
            except ConnectionClosed:
                t.watchers.remove(w)
                continue
            self.seen(t, None, msg)

    def watch(self, t: Table, node: str) -> None:
        """A spectator opens the table on this node (which may take it over from a dead owner)."""
        w = Player(self.cluster.url(node))
        w.send({"type": "open", "table": t.id})
        t.watchers.append(w)

    def reconnect(self, t: Table, p: Person) -> None:
        """His node died: to another, as the page does through the front, and the table again."""
        live = sorted(self.cluster.nodes)
        p.node = self.rng.choice(live)
        p.player.connect(self.cluster.url(p.node), within=30)
        self.reopen(t, p)

    def reopen(self, t: Table, p: Person) -> None:
        versions = [m["v"] for m in p.player.received if isinstance(m.get("v"), int)]
        self.send(t, p, {"type": "open", "table": t.id, **({"since": max(versions)} if versions else {})})

    def send(self, t: Table, p: Person, msg: dict[str, Any]) -> None:
        """A message from his page; when his node is gone, to another node (he presses again later)."""
        try:
            p.player.send(msg)
        except ConnectionClosed:
            self.reconnect(t, p)

    # ---- playing ------------------------------------------------------------------------------------
    def advance(self, t: Table, within: float = 60.0) -> None:
        """The table plays on by one action (a person's or the computer's), through whatever fails."""
        start = t.key()
        deadline = time.monotonic() + within
        asked: tuple[tuple[int, int], float] | None = None
        while t.key() <= start and not t.over:
            assert time.monotonic() < deadline, f"table {t.id} stalled at {start} (seed in the test's output)"
            g = t.latest
            assert g is not None
            mover = t.people.get(g["seat_to_move"])
            # A person presses again after a while without an answer (its ply keeps it from counting twice).
            if mover is not None and (asked is None or asked[0] != t.key() or time.monotonic() - asked[1] > 5):
                own = mover.view
                if own is None or (own["number"], own["ply"]) != t.key() or not own["legal"]:
                    self.reopen(t, mover)
                else:
                    self.act(t, mover)
                asked = (t.key(), time.monotonic())
            self.pump(t, 0.2)

    def act(self, t: Table, p: Person) -> None:
        assert p.view is not None
        action = t.sent.setdefault(t.key(), self.rng.choice(p.view["legal"]))  # the same one when pressed again
        self.send(t, p, {"type": "action", "action": action, "ply": p.view["ply"]})

    def send_moves(self, tables: list[Table]) -> list[Table]:
        """Each table whose person is to move gets his action sent now (not waited for)."""
        sent = []
        for t in tables:
            g = t.latest
            p = t.people.get(g["seat_to_move"]) if g else None
            if p is None or p.view is None or (p.view["number"], p.view["ply"]) != t.key() or not p.view["legal"]:
                continue
            self.act(t, p)
            sent.append(t)
        return sent
