"""The WebSocket endpoint: size and shape checks, then one handler per message type, for every game.

A table request finds its table (in memory, or rebuilt from the store) and goes to the one table
service, which asks the table's game adapter for what only that game knows.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket

from halali.server.bot_accounts import bearer_token
from halali.server.chat import command_request
from halali.server.errors import ClientError, read_json
from halali.server.hub import Connection
from halali.server.origin import same_origin
from halali.server.services import Services
from halali.server.table import Table
from halali.store import LeaseLost

log = logging.getLogger("halali.server")
COOKIE = "halali_session"
Handler = Callable[[Services, Connection, dict[str, Any]], Awaitable[None]]


async def endpoint(ws: WebSocket) -> None:
    s: Services = ws.app.state.server
    token = ws.cookies.get(COOKIE)
    api_token = bearer_token(ws.headers)  # a bot account's program (docs/bots.md); else the cookie
    if api_token is not None:
        token = None
        player = await s.bot_accounts.player_for_token(api_token)
    else:
        player = await s.ctx.people.player_for_token(token)
    await ws.accept()
    origin = ws.headers.get("origin")
    if origin is not None and not same_origin(origin, ws.headers.get("host"), ws.url.scheme,
                                              s.settings.allowed_origins):
        await ws.close(code=4403, reason="cross-site WebSocket refused")
        return
    if player is None:
        await ws.close(code=4401, reason="no session: load a page first")
        return
    conn = Connection(ws, player.id, s.settings.rate_per_second, s.settings.rate_burst, token,
                      ws.client.host if ws.client else "")
    s.lobby.connect(conn)
    if api_token:
        s.bot_accounts.opened(conn, api_token)
    try:
        await s.challenges.connected(conn)  # inside: a connection gone meanwhile still leaves the lobby
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await handle(s, conn, message.get("text"))
    finally:
        s.lobby.disconnect(conn)
        s.tournaments.unwatch(conn)
        await conn.finish()


async def handle(s: Services, conn: Connection, text: str | None) -> None:
    """One client message; every refusal is an `error` to this connection and changes nothing."""
    ref = None
    try:
        if not conn.allow():
            raise ClientError("error.busy")
        limit = s.settings.max_message
        if text is None:
            raise ClientError("error.malformed")
        if len(text) > limit or len(text.encode()) > limit:
            raise ClientError("error.too_large", max=limit)
        msg = read_json(text)
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ClientError("error.malformed")
        ref = msg.get("ref")
        if not (ref is None or (isinstance(ref, str | int) and not isinstance(ref, bool) and len(str(ref)) <= 64)):
            ref = None
            raise ClientError("error.bad_request", field="ref")
        handler = HANDLERS.get(msg["type"])
        if handler is None:
            raise ClientError("error.unknown_type", type=msg["type"][:32])
        if s.cluster is not None and await s.cluster.route(conn, msg, text):
            return  # another node owns the table: it answers through this one
        await handler(s, conn, msg)
    except ClientError as exc:
        conn.send(exc.to_message(ref))
    except LeaseLost as exc:  # a node too busy to renew a lease: another node took the table over meanwhile
        log.warning("lost the lease of table %s while handling a message; nothing was written", exc.table_id)
        if s.cluster is not None:
            for table_id in exc.table_id.split(","):
                await s.cluster.drop(table_id)
        conn.send(ClientError("error.table_moved").to_message(ref))
    except Exception:
        log.exception("while handling a message from %s", conn.player_id)
        conn.send({"type": "error", "key": "error.internal", "params": {}, "message": "Server error.",
                   **({"ref": ref} if ref is not None else {})})


async def _table(s: Services, conn: Connection, msg: dict[str, Any]) -> Table:
    return await s.tables.table(msg.get("table", conn.table_id))


async def on_name(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    rec = await s.ctx.people.rename(conn.player_id, msg.get("name"))
    s.ctx.hub.to_player(conn.player_id, {"type": "you", "you": {"id": rec.id, "name": rec.name}})


async def on_lobby(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    s.lobby.subscribe(conn, True)


async def on_unlobby(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    s.lobby.subscribe(conn, False)


async def on_create(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.create(conn, msg, conn.address)


async def on_open(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.open(conn, await s.tables.table(msg.get("table")), msg.get("since"))


async def on_close(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    s.tables.close(conn)


async def on_join(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.join(conn, await _table(s, conn, msg))


async def on_watch(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.unseat(conn, await _table(s, conn, msg), leave=False, confirm=msg.get("confirm"))


async def on_leave(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.unseat(conn, await _table(s, conn, msg), leave=True, confirm=msg.get("confirm"))


async def on_bot(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.add_bot(conn, await _table(s, conn, msg), msg.get("level"))


async def on_unbot(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.remove_bot(conn, await _table(s, conn, msg), msg.get("seat"))


async def on_start(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.start(conn, await _table(s, conn, msg), msg.get("rated", True))


async def on_rematch(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.rematch(conn, await _table(s, conn, msg), msg.get("rated", True))


async def on_action(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.act(conn, await _table(s, conn, msg), msg.get("action"), msg.get("ply"))


async def on_resign(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.resign(conn, await _table(s, conn, msg), msg.get("confirm"))


async def on_abort(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.abort(conn, await _table(s, conn, msg))


async def on_claim(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tables.claim(conn, await _table(s, conn, msg), msg.get("result"))


async def on_hint(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    """The engine's best action for the asker's turn, from the public view only (the same engine
    and cache as a replay's analysis). Everyone at the table is told that a hint was taken."""
    table = await _table(s, conn, msg)
    game = s.tables.game_of(table)
    seat = game.plan_hint(table, conn.player_id)
    view, (match, index, ply) = game.analysis_view(table)
    found = await s.analyst.analyse(view, s.hints, conn.player_id)
    await s.tables.notice(table, "chat.hint", name=s.tables.seat_name(table, seat))
    conn.send({"type": "hint", "table": table.id, "match": match, "game": index + 1, "ply": ply,
               "action": found["best"], "score": found["score"], "depth": found["depth"]})


async def on_chat(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    table = await _table(s, conn, msg)
    text = msg.get("text")
    if isinstance(text, str) and text.strip().startswith("/"):
        request = command_request(text.strip())
        await HANDLERS[request["type"]](s, conn, {**request, "table": table.id})
        return
    await s.tables.say(conn, table, text)


async def on_help(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    table = await _table(s, conn, msg)
    names = s.tables.game_of(table).bot_names()
    levels = ", ".join(f"{lv} {name}" for lv, name in names.items())
    conn.send({"type": "chat", "table": table.id,
               "line": {"key": "chat.help", "params": {"levels": levels}, "private": True}})


async def on_tournament_create(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    t = await s.tournaments.create(conn, msg)
    conn.send({"type": "tournament_created", "id": t.id, **({"ref": msg["ref"]} if "ref" in msg else {})})


async def on_tournament_watch(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tournaments.watch(conn, msg.get("id"))


async def on_tournament_unwatch(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    s.tournaments.unwatch(conn, msg.get("id"))


async def on_tournament_join(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tournaments.join(conn, msg.get("id"))


async def on_tournament_withdraw(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tournaments.withdraw(conn, msg.get("id"))


async def on_tournament_level(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tournaments.add_level(conn, msg.get("id"), msg.get("level"))


async def on_tournament_start(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.tournaments.start_now(conn, msg.get("id"))


async def on_challenge(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.challenges.create(conn, msg)


async def on_accept(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.challenges.accept(conn, msg)


async def on_decline(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.challenges.decline(conn, msg)


async def on_challenge_cancel(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    await s.challenges.cancel(conn, msg)


async def on_ping(s: Services, conn: Connection, msg: dict[str, Any]) -> None:
    conn.send({"type": "pong"})


HANDLERS: dict[str, Handler] = {
    "name": on_name, "lobby": on_lobby, "unlobby": on_unlobby, "create": on_create, "open": on_open,
    "close": on_close, "join": on_join, "watch": on_watch, "leave": on_leave, "bot": on_bot, "unbot": on_unbot,
    "start": on_start, "rematch": on_rematch, "action": on_action, "hint": on_hint, "chat": on_chat, "help": on_help,
    "resign": on_resign, "abort": on_abort, "claim": on_claim, "ping": on_ping,
    "tournament_create": on_tournament_create, "tournament_watch": on_tournament_watch,
    "tournament_unwatch": on_tournament_unwatch, "tournament_join": on_tournament_join,
    "tournament_withdraw": on_tournament_withdraw, "tournament_level": on_tournament_level,
    "tournament_start": on_tournament_start,
    "challenge": on_challenge, "accept": on_accept, "decline": on_decline, "challenge_cancel": on_challenge_cancel,
}
