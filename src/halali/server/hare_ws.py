"""WebSocket requests for hare tables: `create` with ``"game": "hare"`` and every table request
(open, join, watch, leave, bot, unbot, start, action, chat) whose table is a hare table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from halali.server.chat import command_request
from halali.server.errors import ClientError
from halali.server.hare_service import parse_hare_level
from halali.server.hare_table import HareTable
from halali.server.hub import Connection
from halali.server.service import GameServer

HareHandler = Callable[[GameServer, Connection, HareTable, dict[str, Any]], Awaitable[None]]


async def on_open(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    await server.hare.open(conn, table)


async def on_join(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    await server.hare.join(conn, table)


async def on_watch(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    await server.hare.unseat(conn, table, leave=False)


async def on_leave(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    await server.hare.unseat(conn, table, leave=True)


async def on_bot(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    await server.hare.add_bot(table, parse_hare_level(msg.get("level")))


async def on_unbot(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    await server.hare.remove_bot(table, msg.get("seat"))


async def on_start(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    await server.hare.start(conn, table, msg.get("rated", True))


async def on_action(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    await server.hare.act(conn, table, msg.get("action"), msg.get("ply"))


async def on_help(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    levels = ", ".join(f"{lv} {name}" for lv, name in server.hare.bot_names.items())
    conn.send({"type": "chat", "table": table.id,
               "line": {"key": "chat.help", "params": {"levels": levels}, "private": True}})


async def on_chat(server: GameServer, conn: Connection, table: HareTable, msg: dict[str, Any]) -> None:
    text = msg.get("text")
    if isinstance(text, str) and text.strip().startswith("/"):
        request = command_request(text.strip())
        handler = HANDLERS.get(request["type"])
        if handler is None or request["type"] == "chat":
            raise ClientError("error.unknown_type", type=request["type"])
        await handler(server, conn, table, request)
        return
    await server.say(conn, table, text)  # type: ignore[arg-type]


HANDLERS: dict[str, HareHandler] = {
    "open": on_open, "join": on_join, "watch": on_watch, "leave": on_leave, "bot": on_bot, "unbot": on_unbot,
    "start": on_start, "rematch": on_start, "action": on_action, "chat": on_chat, "help": on_help,
}


async def route(server: GameServer, conn: Connection, msg: dict[str, Any]) -> bool:
    """Handle ``msg`` when it is a hare request; False leaves it to the forest handlers."""
    kind = msg["type"]
    if kind == "create" and msg.get("game") == "hare":
        await server.hare.create(conn, msg)
        return True
    if kind == "create" and msg.get("game") not in (None, "forest"):
        raise ClientError("error.bad_request", field="game")
    handler = HANDLERS.get(kind)
    if handler is None:
        return False
    table_id = msg.get("table", conn.table_id)
    table = server.hare.get(table_id)
    if table is None and isinstance(table_id, str) and table_id not in server.tables:
        await server.load(table_id)  # a stored hare table not in memory comes back to server.hare
        table = server.hare.get(table_id)
    if table is None:
        return False
    await handler(server, conn, table, msg)
    return True
