"""The WebSocket endpoint: size and shape checks, then one handler per message type."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket

from halali.server import hare_ws
from halali.server.bots import parse_level
from halali.server.chat import command_request
from halali.server.errors import ClientError
from halali.server.hub import Connection
from halali.server.origin import same_origin
from halali.server.service import GameServer
from halali.server.table import Table

log = logging.getLogger("halali.server")
COOKIE = "halali_session"
Handler = Callable[[GameServer, Connection, dict[str, Any]], Awaitable[None]]


async def endpoint(ws: WebSocket) -> None:
    server: GameServer = ws.app.state.server
    token = ws.cookies.get(COOKIE)
    player = await server.player_for_token(token)
    await ws.accept()
    origin = ws.headers.get("origin")
    if origin is not None and not same_origin(origin, ws.headers.get("host"), ws.url.scheme,
                                              server.settings.allowed_origins):
        await ws.close(code=4403, reason="cross-site WebSocket refused")
        return
    if player is None:
        await ws.close(code=4401, reason="no session: load a page first")
        return
    conn = Connection(ws, player.id, server.settings.rate_per_second, server.settings.rate_burst, token)
    server.connect(conn)
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await handle(server, conn, message.get("text"))
    finally:
        server.disconnect(conn)
        await conn.finish()


async def handle(server: GameServer, conn: Connection, text: str | None) -> None:
    """One client message; every refusal is an `error` to this connection and changes nothing."""
    ref = None
    try:
        if not conn.allow():
            raise ClientError("error.busy")
        limit = server.settings.max_message
        if text is None:
            raise ClientError("error.malformed")
        if len(text) > limit or len(text.encode()) > limit:
            raise ClientError("error.too_large", max=limit)
        try:
            msg = json.loads(text)
        except ValueError:
            raise ClientError("error.malformed") from None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ClientError("error.malformed")
        ref = msg.get("ref")
        if not (ref is None or (isinstance(ref, str | int) and not isinstance(ref, bool) and len(str(ref)) <= 64)):
            ref = None
            raise ClientError("error.bad_request", field="ref")
        if await hare_ws.route(server, conn, msg):
            return
        handler = HANDLERS.get(msg["type"])
        if handler is None:
            raise ClientError("error.unknown_type", type=msg["type"][:32])
        await handler(server, conn, msg)
    except ClientError as exc:
        conn.send(exc.to_message(ref))
    except Exception:
        log.exception("while handling a message from %s", conn.player_id)
        conn.send({"type": "error", "key": "error.internal", "params": {}, "message": "Server error.",
                   **({"ref": ref} if ref is not None else {})})


async def _table(server: GameServer, conn: Connection, msg: dict[str, Any]) -> Table:
    table_id = msg.get("table", conn.table_id)
    table = await server.load(table_id) if table_id is not None else None
    if table is None:
        raise ClientError("error.no_table")
    return table


async def on_name(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    rec = await server.rename(conn.player_id, msg.get("name"))
    server.hub.to_player(conn.player_id, {"type": "you", "you": {"id": rec.id, "name": rec.name}})


async def on_lobby(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    server.subscribe_lobby(conn, True)


async def on_unlobby(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    server.subscribe_lobby(conn, False)


async def on_create(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.create(conn, msg.get("rules"), msg.get("join", False), msg.get("seed"), msg.get("rated", True),
                        msg.get("mode", "live"), msg.get("clock"))


async def on_open(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.open(conn, msg.get("table"))


async def on_close(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    server.close(conn)


async def on_join(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.join(conn, await _table(server, conn, msg))


async def on_watch(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.unseat(conn, await _table(server, conn, msg), leave=False)


async def on_leave(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.unseat(conn, await _table(server, conn, msg), leave=True)


async def on_bot(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    table = await _table(server, conn, msg)
    await server.add_bot(table, parse_level(msg.get("level")))


async def on_unbot(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.remove_bot(await _table(server, conn, msg), msg.get("seat"))


async def on_start(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.start_match(conn, await _table(server, conn, msg), msg.get("rated", True))


async def on_rematch(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.rematch(conn, await _table(server, conn, msg))


async def on_action(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.act(conn, await _table(server, conn, msg), msg.get("action"), msg.get("ply"))


async def on_hint(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    await server.hint(conn, await _table(server, conn, msg))


async def on_chat(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    table = await _table(server, conn, msg)
    text = msg.get("text")
    if isinstance(text, str) and text.strip().startswith("/"):
        request = command_request(text.strip())
        if request["type"] != "help":
            await HANDLERS[request["type"]](server, conn, {**request, "table": table.id})
            return
        await on_help(server, conn, {"table": table.id})
        return
    await server.say(conn, table, text)


async def on_help(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    levels = ", ".join(f"{lv} {name}" for lv, name in server.bot_names.items())
    conn.send({"type": "chat", "table": msg.get("table", conn.table_id),
               "line": {"key": "chat.help", "params": {"levels": levels}, "private": True}})


async def on_ping(server: GameServer, conn: Connection, msg: dict[str, Any]) -> None:
    conn.send({"type": "pong"})


HANDLERS: dict[str, Handler] = {
    "name": on_name, "lobby": on_lobby, "unlobby": on_unlobby, "create": on_create, "open": on_open,
    "close": on_close, "join": on_join, "watch": on_watch, "leave": on_leave, "bot": on_bot, "unbot": on_unbot,
    "start": on_start, "rematch": on_rematch, "action": on_action, "hint": on_hint, "chat": on_chat, "help": on_help,
    "ping": on_ping,
}
