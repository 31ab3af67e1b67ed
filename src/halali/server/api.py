"""The JSON API over HTTP: accounts, profiles, the leaderboard, game history, records, analysis.

Every POST passes :func:`posted` first (same-origin and JSON, see ``origin.py``); every refusal is a
``ClientError`` turned into ``{"error": {key, params, message}}`` with a fitting status.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from halali.games.base import GAMES
from halali.server.errors import ClientError, read_json
from halali.server.origin import request_origin, same_origin
from halali.server.services import Services

STATUS = {
    "error.cross_site": 403, "error.wrong_password": 401, "error.wrong_current_password": 401,
    "error.too_many_attempts": 429,
    "error.name_taken": 409, "error.already_registered": 409, "error.not_over": 409, "error.hunt_not_over": 409,
    "error.analysis_queue_full": 429, "error.analysis_busy": 503, "error.analysis_failed": 503,
    "error.no_player": 404, "error.no_game": 404, "error.no_table": 404, "error.no_puzzle": 404,
    "error.no_puzzle_left": 404, "error.no_lesson": 404, "error.no_tournament": 404,
    "error.bad_token": 401, "error.no_token": 404, "error.token_needs_login": 403,
}
Handler = Callable[[Request, Services], Awaitable[Response]]


def error_response(exc: ClientError) -> JSONResponse:
    status = 415 if exc.params.get("field") == "content-type" else STATUS.get(exc.key, 400)
    headers = {"retry-after": str(exc.params["retry_after"])} if "retry_after" in exc.params else None
    return JSONResponse({"error": exc.to_message()}, status_code=status, headers=headers)


def api(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request, request.app.state.server)
        except ClientError as exc:
            return error_response(exc)
    return endpoint


async def posted(request: Request, server: Services, limit: int | None = None) -> dict[str, Any]:
    """The JSON object of a POST from this site's own pages; ClientError otherwise (nothing changed)."""
    origin = request_origin(request.headers)
    bearer = getattr(request.state, "bearer", False)  # no browser sends a bot's token on its own: no CSRF
    if not bearer and not same_origin(origin, request.headers.get("host"), request.url.scheme,
                                      server.settings.allowed_origins):
        raise ClientError("error.cross_site", reason="origin")
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ClientError("error.bad_request", field="content-type")
    body = await request.body()
    if len(body) > (limit or server.settings.max_message):
        raise ClientError("error.too_large", max=limit or server.settings.max_message)
    value = read_json(body or b"{}")
    if not isinstance(value, dict):
        raise ClientError("error.malformed")
    return value


def _token(request: Request) -> str | None:
    return request.state.token


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _int(value: str | None, default: int | None, field: str, lo: int = 0, hi: int = 2**62) -> int | None:
    if value is None:
        return default
    if not (value.isdecimal() and len(value) <= 19 and lo <= int(value) <= hi):
        raise ClientError("error.bad_request", field=field)
    return int(value)


# ---- accounts ------------------------------------------------------------------------------------
async def register(request: Request, server: Services) -> Response:
    body = await posted(request, server)
    token, rec = await server.accounts.register(request.state.player_id, _token(request), body.get("name"),
                                                       body.get("password"), _address(request))
    request.state.session_cookie = token
    return JSONResponse(server.ctx.people.me(rec.id))


async def login(request: Request, server: Services) -> Response:
    body = await posted(request, server)
    token, rec = await server.accounts.login(_token(request), body.get("name"), body.get("password"),
                                                    _address(request))
    request.state.session_cookie = token
    return JSONResponse(server.ctx.people.me(rec.id))


async def password(request: Request, server: Services) -> Response:
    body = await posted(request, server)
    if getattr(request.state, "bearer", False):  # a bot's token is not its owner's password
        raise ClientError("error.token_needs_login")
    token = await server.accounts.change_password(request.state.player_id, _token(request), body.get("current"),
                                                  body.get("password"), _address(request))
    request.state.session_cookie = token
    return JSONResponse(server.ctx.people.me(request.state.player_id))


async def logout(request: Request, server: Services) -> Response:
    await posted(request, server)
    await server.accounts.logout(_token(request))
    request.state.session_cookie = ""
    return JSONResponse({"ok": True})


async def name(request: Request, server: Services) -> Response:
    body = await posted(request, server)
    rec = await server.ctx.people.rename(request.state.player_id, body.get("name"))
    server.ctx.hub.to_player(rec.id, {"type": "you", "you": server.ctx.people.you(rec.id)})
    return JSONResponse(server.ctx.people.me(rec.id))


async def me(request: Request, server: Services) -> Response:
    return JSONResponse(server.ctx.people.me(request.state.player_id))


async def my_turn(request: Request, server: Services) -> Response:
    return JSONResponse({"tables": server.tables.my_turn(request.state.player_id)})


# ---- bot accounts (docs/bots.md) ----------------------------------------------------------------
async def bot_account(request: Request, server: Services) -> Response:
    await posted(request, server)
    return JSONResponse(await server.bot_accounts.mark(request.state.player_id))


async def tokens(request: Request, server: Services) -> Response:
    return JSONResponse({"tokens": await server.bot_accounts.tokens(request.state.player_id)})


async def new_token(request: Request, server: Services) -> Response:
    body = await posted(request, server)
    if getattr(request.state, "bearer", False):  # a leaked token must not outlive its revocation
        raise ClientError("error.token_needs_login")
    return JSONResponse(await server.bot_accounts.create_token(request.state.player_id, body.get("label")))


async def revoke_token(request: Request, server: Services) -> Response:
    await posted(request, server)
    value = request.path_params["token_id"]
    token_id = int(value) if value.isdecimal() and len(value) <= 18 else None
    await server.bot_accounts.revoke(request.state.player_id, token_id)
    return JSONResponse({"ok": True})


# ---- people --------------------------------------------------------------------------------------
async def player(request: Request, server: Services) -> Response:
    return JSONResponse(await server.history.profile(request.path_params["player_id"]))


async def leaderboard(request: Request, server: Services) -> Response:
    q = request.query_params
    game = q.get("game", "forest")
    if game not in GAMES:
        raise ClientError("error.bad_request", field="game")
    limit = _int(q.get("limit"), 50, "limit", 1, 200)
    offset = _int(q.get("offset"), 0, "offset")
    provisional = q.get("provisional", "true")
    if provisional not in ("true", "false"):
        raise ClientError("error.bad_request", field="provisional")
    board = q.get("board", "people")
    if board not in ("people", "bots"):
        raise ClientError("error.bad_request", field="board")
    assert limit is not None and offset is not None
    return JSONResponse(await server.history.leaderboard(game, limit, offset, provisional == "true", board))


# ---- tournaments ---------------------------------------------------------------------------------
async def tournament_list(request: Request, server: Services) -> Response:
    return JSONResponse({"tournaments": await server.tournaments.cards()})


async def tournament(request: Request, server: Services) -> Response:
    t = await server.tournaments.get(request.path_params["tournament_id"])
    return JSONResponse(server.tournaments.message(t, request.state.player_id)["tournament"])


async def arena(request: Request, server: Services) -> Response:
    return JSONResponse(await server.arena.ladder())


# ---- games ---------------------------------------------------------------------------------------
def _game_id(request: Request) -> int:
    value = request.path_params["game_id"]
    if not value.isdecimal() or len(value) > 18:
        raise ClientError("error.no_game")
    return int(value)


async def _known_player(request: Request, server: Services) -> str:
    pid: str = request.path_params["player_id"]
    if await server.ctx.db(server.ctx.store.player_info, pid) is None:
        raise ClientError("error.no_player")
    return pid


def _page(request: Request) -> dict[str, Any]:
    """The ``before`` cursor and the ``limit`` of a list's page."""
    q = request.query_params
    return {"before": _int(q.get("before"), None, "before"), "limit": _int(q.get("limit"), 20, "limit", 1, 100) or 20}


async def player_games(request: Request, server: Services) -> Response:
    pid = await _known_player(request, server)
    return JSONResponse(await server.history.games(player_id=pid, **_page(request)))


async def table_games(request: Request, server: Services) -> Response:
    return JSONResponse(await server.history.games(table_id=request.path_params["table_id"], **_page(request)))


async def player_hunts(request: Request, server: Services) -> Response:
    pid = await _known_player(request, server)
    return JSONResponse(await server.hare_history.hunts(player_id=pid, **_page(request)))


async def table_hunts(request: Request, server: Services) -> Response:
    return JSONResponse(await server.hare_history.hunts(table_id=request.path_params["table_id"], **_page(request)))


async def hunt(request: Request, server: Services) -> Response:
    return JSONResponse(await server.hare_history.hunt(_game_id(request)))


async def hunt_record(request: Request, server: Services) -> Response:
    game_id = _game_id(request)
    text = await server.hare_history.record(game_id)
    return PlainTextResponse(text, headers={"content-disposition": f'inline; filename="hunt-{game_id}.txt"'})


async def game(request: Request, server: Services) -> Response:
    return JSONResponse(await server.history.game(_game_id(request)))


async def game_record(request: Request, server: Services) -> Response:
    game_id = _game_id(request)
    with_luck = request.query_params.get("luck") in ("1", "true")
    luck = await server.luck.game(game_id, _address(request)) if with_luck else None
    text = await server.history.record(game_id, luck)
    return PlainTextResponse(text, headers={"content-disposition": f'inline; filename="halali-{game_id}.txt"'})


async def game_import(request: Request, server: Services) -> Response:
    body = await posted(request, server, limit=2 * 65536)
    return JSONResponse(await server.history.import_record(body.get("record"), request.state.player_id,
                                                                _address(request)))


async def analysis(request: Request, server: Services) -> Response:
    """The game's analysis (the whole, or how far it is, starting it); with ``ply`` one position's part."""
    ply = _int(request.query_params.get("ply"), None, "ply", 0, 10000)
    if ply is None:
        return JSONResponse(await server.analyses.state(_game_id(request), _address(request)))
    return JSONResponse(await server.analyses.ply(_game_id(request), ply, _address(request)))


async def luck(request: Request, server: Services) -> Response:
    return JSONResponse(await server.luck.game(_game_id(request), _address(request)))


async def match_luck(request: Request, server: Services) -> Response:
    return JSONResponse(await server.luck.match(_game_id(request), _address(request)))


def routes() -> list[Route]:
    return [
        Route("/api/me", api(me)),
        Route("/api/name", api(name), methods=["POST"]),
        Route("/api/register", api(register), methods=["POST"]),
        Route("/api/login", api(login), methods=["POST"]),
        Route("/api/logout", api(logout), methods=["POST"]),
        Route("/api/password", api(password), methods=["POST"]),
        Route("/api/my-turn", api(my_turn)),
        Route("/api/bot-account", api(bot_account), methods=["POST"]),
        Route("/api/tokens", api(tokens)),
        Route("/api/tokens", api(new_token), methods=["POST"]),
        Route("/api/tokens/{token_id}/revoke", api(revoke_token), methods=["POST"]),
        Route("/api/players/{player_id}", api(player)),
        Route("/api/players/{player_id}/games", api(player_games)),
        Route("/api/tables/{table_id}/games", api(table_games)),
        Route("/api/players/{player_id}/hunts", api(player_hunts)),
        Route("/api/tables/{table_id}/hunts", api(table_hunts)),
        Route("/api/hunts/{game_id}", api(hunt)),
        Route("/api/hunts/{game_id}/record", api(hunt_record)),
        Route("/api/leaderboard", api(leaderboard)),
        Route("/api/tournaments", api(tournament_list)),
        Route("/api/arena", api(arena)),
        Route("/api/tournaments/{tournament_id}", api(tournament)),
        Route("/api/games/import", api(game_import), methods=["POST"]),
        Route("/api/games/{game_id}", api(game)),
        Route("/api/games/{game_id}/record", api(game_record)),
        Route("/api/games/{game_id}/analysis", api(analysis)),
        Route("/api/games/{game_id}/luck", api(luck)),
        Route("/api/games/{game_id}/match-luck", api(match_luck)),
    ]
