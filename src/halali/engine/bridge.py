"""The bot bridge: a bot account's program on a Halali! server, its moves from any engine-protocol engine.

It connects outward (a WebSocket with the account's API token), so a bot needs no open port of its
own. One connection listens for challenges (accepted when they fit the owner's policy, declined with a
reason otherwise) and for the tables where the bot is seated (the lobby's cards and "your turn", as a
person's page hears of them, so tournament games are played like challenge games). Every table it
plays gets a connection of its own, because a connection sees one table at a time and a seated
player whose connection is away from a live table may be claimed against.

Each table gets its own engine process: games run side by side, each engine keeps its own rules and
thinks on its own clock, and an engine that crashes loses one game, not all. The engines end with
their table, and all of them end with the bridge (an engine also ends when its input closes, so not
even a killed bridge leaves one running).

A dropped connection is opened again with a growing pause (1 s doubling to 60 s, with jitter); a
table's connection then asks for what it missed since the last event it saw (``open`` with
``since``), which the server answers with exactly those events or the whole table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from halali.engine.client import EngineClient, EngineError, ProcessTransport
from halali.games.forest.rules import DEFAULT_RULES, Rules

log = logging.getLogger("halali.bot")
REFUSED = 4401  # the server's close code for a token it does not know (or no longer knows)
MAX_PAUSE = 60.0


class TokenRefused(Exception):
    """The server does not take this token: trying again would not help."""


@dataclass
class Policy:
    """Which challenges the owner lets the bot accept (``halali bot`` options)."""

    rated: bool = True  # accept rated challenges (unrated ones always)
    modes: frozenset[str] = frozenset({"live", "correspondence"})
    max_games: int = 4  # games at once the bot takes on by challenge (the server has its own limit)
    rules: dict[str, str] = field(default_factory=dict)  # rule options a challenge must have, as KEY=VALUE text
    movetime: float = 1.0  # seconds per action in a game without a clock

    def refusal(self, challenge: dict[str, Any], playing: int) -> str | None:
        """Why to decline this challenge (a reason the server knows), or None to accept it."""
        if challenge.get("game") != "forest":
            return "generic"
        if challenge.get("rated") and not self.rated:
            return "casual"  # "send me an unrated challenge instead"
        if challenge.get("mode") not in self.modes:
            return "mode"
        wanted = challenge.get("rules") or {}
        if any(_text(wanted.get(key)) != value for key, value in self.rules.items()):
            return "rules"
        if playing >= self.max_games:
            return "later"
        return None


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def ws_url(server: str) -> str:
    """``http://host:port`` (or ``ws://...``) to the server's WebSocket address."""
    server = server.rstrip("/")
    for http, ws in (("https://", "wss://"), ("http://", "ws://")):
        if server.startswith(http):
            server = ws + server[len(http):]
    if not server.startswith(("ws://", "wss://")):
        server = "ws://" + server
    return server if server.endswith("/ws") else server + "/ws"


class Link:
    """One WebSocket that comes back after a drop, with the token, pausing longer after each failure."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.failures = 0

    async def open(self) -> ClientConnection:
        while True:
            try:
                ws = await connect(self.url, additional_headers={"Authorization": f"Bearer {self.token}"},
                                   max_size=2**20)
            except InvalidStatus as exc:
                if exc.response.status_code == 401:
                    raise TokenRefused() from exc
                log.warning("connection refused (%s); trying again", exc)
            except (TimeoutError, OSError, InvalidHandshake) as exc:
                log.warning("cannot connect to %s (%s); trying again", self.url, exc)
            else:
                return ws
            await self.pause()

    async def pause(self) -> None:
        self.failures += 1
        wait = min(MAX_PAUSE, 2.0 ** (self.failures - 1))
        await asyncio.sleep(wait * random.uniform(0.75, 1.25))


async def receive(ws: ClientConnection) -> dict[str, Any]:
    try:
        text = await ws.recv()
    except ConnectionClosed as exc:
        if exc.rcvd is not None and exc.rcvd.code == REFUSED:
            raise TokenRefused() from exc
        raise
    msg = json.loads(text)
    return msg if isinstance(msg, dict) else {}


async def send(ws: ClientConnection, msg: dict[str, Any]) -> None:
    await ws.send(json.dumps(msg))


def rules_of(options: dict[str, Any]) -> Rules:
    return DEFAULT_RULES.with_options({k: _text(v) for k, v in options.items()})


class TablePlayer:
    """Plays the bot's seat at one table until its match is over, with an engine of its own."""

    def __init__(self, bridge: Bridge, table_id: str) -> None:
        self.bridge, self.table_id = bridge, table_id
        self.v: int | None = None  # the last event seen: what to resume from
        self.rules: dict[str, Any] = {}
        self.game: dict[str, Any] | None = None
        self.over = False
        self.played: set[tuple[int, int]] = set()  # (game number, ply) already answered
        self.engine: EngineClient | None = None

    async def run(self) -> None:
        link = Link(self.bridge.url, self.bridge.token)
        try:
            self.engine = self.bridge.new_engine()  # the process runs from here on: closed below, always
            await asyncio.to_thread(self.engine.start)
            while not self.over:
                ws = await link.open()
                try:
                    await self.follow(ws)
                    link.failures = 0
                except ConnectionClosed:
                    log.info("table %s: connection lost; resuming", self.table_id)
                    await link.pause()
                finally:
                    await ws.close()
        finally:
            if self.engine is not None:
                await asyncio.to_thread(self.engine.close)
            log.info("table %s: done", self.table_id)

    async def follow(self, ws: ClientConnection) -> None:
        await receive(ws)  # welcome
        opening: dict[str, Any] = {"type": "open", "table": self.table_id}
        if self.v is not None:
            opening["since"] = self.v
        await send(ws, opening)
        while not self.over:
            msg = await receive(ws)
            kind = msg.get("type")
            if isinstance(msg.get("v"), int):
                self.v = msg["v"]
            if kind == "table":
                self.rules = msg["table"].get("rules") or {}
                if msg.get("games"):
                    self.game = msg["games"][-1]
                self.over = msg["table"].get("state") == "finished" or bool((msg.get("match") or {}).get("over"))
            elif kind == "game":
                self.game = msg["game"]
                self.over = bool((msg.get("match") or {}).get("over"))
            elif kind == "error":
                if msg.get("key") == "error.no_table":
                    self.over = True
                elif msg.get("key") == "error.illegal" and self.game:  # the engine went wrong: any legal action
                    log.warning("table %s: %s", self.table_id, msg.get("message"))
                    await send(ws, {"type": "action", "table": self.table_id, "action": self.game["legal"][0],
                                    "ply": self.game["ply"]})
                continue
            elif kind == "left":
                self.over = True
            if not self.over and kind in ("table", "game"):
                await self.maybe_move(ws)

    async def maybe_move(self, ws: ClientConnection) -> None:
        game = self.game
        if not game or game.get("over") or not game.get("legal"):
            return
        key = (int(game["number"]), int(game["ply"]))
        if key in self.played:
            return
        self.played.add(key)
        action = await asyncio.to_thread(self.think, game, time.monotonic())
        await send(ws, {"type": "action", "table": self.table_id, "action": action, "ply": game["ply"]})

    def think(self, game: dict[str, Any], seen: float) -> str:
        """The engine's action for this position, passing the clock; any legal action if it fails."""
        legal: list[str] = game["legal"]
        engine = self.engine
        if engine is None:
            return legal[0]
        extra: list[str] = []
        movetime: float | None = self.bridge.policy.movetime
        hard: float | None = None
        clock = game.get("clock")
        if clock:
            movetime = None
            lag = int((time.monotonic() - seen) * 1000)
            for seat, colour in enumerate(game["colours"]):
                left = int(clock["remaining"][seat]) - (lag if clock.get("running") == seat else 0)
                extra += [f"{colour}time", str(max(0, left)), f"{colour}inc", str(int(clock["increment"]) * 1000)]
            mine = int(clock["remaining"][game["seat_to_move"]])
            hard = max(0.2, mine / 1000 / 4)
        try:
            engine.set_rules(rules_of(self.rules))
            answer = engine.go(game["position"], movetime=movetime, hard_timeout=hard, extra=extra).bestmove
        except (EngineError, ValueError) as exc:
            log.warning("table %s: the engine failed (%s); a legal action instead", self.table_id, exc)
            return legal[0]
        return answer if answer in legal else legal[0]


class Bridge:
    """The bot on the server: challenges, tables, one ``TablePlayer`` per table being played."""

    def __init__(self, server: str, token: str, engine: Sequence[str], policy: Policy | None = None,
                 tournaments: Sequence[str] = ()) -> None:
        self.url, self.token = ws_url(server), token
        self.tournaments = list(tournaments)  # to enter on connecting (an error if entered already: harmless)
        self.engine_command = list(engine)
        self.policy = policy or Policy()
        self.me: str | None = None
        self.players: dict[str, asyncio.Task[None]] = {}
        self.done: set[str] = set()

    def new_engine(self) -> EngineClient:
        """A new engine process, not yet introduced (``start`` it)."""
        return EngineClient(ProcessTransport(shlex.join(self.engine_command)))

    @property
    def playing(self) -> int:
        return sum(1 for t in self.players.values() if not t.done())

    async def run(self) -> None:
        """Until cancelled (or the token is refused): listen, accept, play; every engine ends with it."""
        link = Link(self.url, self.token)
        try:
            while True:
                ws = await link.open()
                try:
                    await self.listen(ws)
                except ConnectionClosed:
                    log.info("connection lost; connecting again")
                    await link.pause()
                else:
                    link.failures = 0
                finally:
                    await ws.close()
        finally:
            tasks = list(self.players.values())
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task

    async def listen(self, ws: ClientConnection) -> None:
        welcome = await receive(ws)
        self.me = welcome["you"]["id"]
        log.info("connected as %s (%s)", welcome["you"]["name"], self.me)
        await send(ws, {"type": "lobby"})
        for tid in self.tournaments:
            await send(ws, {"type": "tournament_join", "id": tid})
        while True:
            msg = await receive(ws)
            kind = msg.get("type")
            if kind == "challenge":
                await self.answer(ws, msg["challenge"])
            elif kind == "challenge_accepted" or (kind == "tournament_game" and msg.get("game") == "forest"):
                self.play(msg["table"])
            elif kind == "my_turn":
                for entry in msg.get("tables", []):
                    if entry.get("game") == "forest":
                        self.play(entry["id"])
            elif kind in ("lobby", "lobby_table"):
                cards = msg.get("tables", []) if kind == "lobby" else [msg["table"]]
                for card in cards:
                    seated = any(s and s.get("id") == self.me for s in card.get("seats", []))
                    if seated and card.get("game") == "forest" and card.get("state") == "playing":
                        self.play(card["id"])
            elif kind == "error":
                log.warning("server: %s", msg.get("message"))

    async def answer(self, ws: ClientConnection, challenge: dict[str, Any]) -> None:
        if challenge.get("to", {}).get("id") != self.me:
            return  # one of ours, to someone else
        reason = self.policy.refusal(challenge, self.playing)
        if reason is None:
            log.info("accepting challenge %s from %s", challenge["id"], challenge["from"]["name"])
            await send(ws, {"type": "accept", "challenge": challenge["id"]})
        else:
            log.info("declining challenge %s from %s: %s", challenge["id"], challenge["from"]["name"], reason)
            await send(ws, {"type": "decline", "challenge": challenge["id"], "reason": reason})

    def play(self, table_id: str) -> None:
        if table_id in self.done or (table_id in self.players and not self.players[table_id].done()):
            return
        log.info("playing at table %s", table_id)
        task = asyncio.create_task(TablePlayer(self, table_id).run())
        self.players[table_id] = task
        task.add_done_callback(lambda t: self._finished(table_id, t))

    def _finished(self, table_id: str, task: asyncio.Task[None]) -> None:
        self.done.add(table_id)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: %s", table_id, task.exception())
