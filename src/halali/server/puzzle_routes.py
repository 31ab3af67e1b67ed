"""The HTTP API of the puzzles and the course (docs/protocol.md, "Puzzles" and "Learn"): thin doors to
``PuzzleService`` and ``Course``."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from halali.server.api import _int, api, posted
from halali.server.errors import ClientError
from halali.server.services import Services


def _puzzle_id(request: Request) -> int:
    value = request.path_params["puzzle_id"]
    if not value.isdecimal() or len(value) > 18:
        raise ClientError("error.no_puzzle")
    return int(value)


async def next_puzzle(request: Request, server: Services) -> Response:
    q = request.query_params
    exclude = _int(q.get("after"), None, "after")
    return JSONResponse(await server.puzzles.next(request.state.player_id, q.get("theme") or None,
                                                  q.get("difficulty", "normal"), exclude))


async def puzzle(request: Request, server: Services) -> Response:
    return JSONResponse(await server.puzzles.puzzle(_puzzle_id(request), request.state.player_id))


async def move(request: Request, server: Services) -> Response:
    body = await posted(request, server)
    return JSONResponse(await server.puzzles.move(request.state.player_id, _puzzle_id(request), body.get("moves"),
                                                  body.get("action")))


async def hint(request: Request, server: Services) -> Response:
    body = await posted(request, server)
    return JSONResponse(await server.puzzles.hint(request.state.player_id, _puzzle_id(request), body.get("moves")))


async def solution(request: Request, server: Services) -> Response:
    await posted(request, server)
    return JSONResponse(await server.puzzles.solution(request.state.player_id, _puzzle_id(request)))


async def daily(request: Request, server: Services) -> Response:
    return JSONResponse({"puzzle": await server.puzzles.daily(request.state.player_id)})


async def me(request: Request, server: Services) -> Response:
    return JSONResponse({"rating": await server.puzzles.rating(request.state.player_id),
                         "themes": await server.puzzles.themes()})


async def history(request: Request, server: Services) -> Response:
    q = request.query_params
    limit = _int(q.get("limit"), 20, "limit", 1, 100) or 20
    return JSONResponse(await server.puzzles.history(request.path_params["player_id"], _int(q.get("before"), None,
                                                                                            "before"), limit))


async def lessons(request: Request, server: Services) -> Response:
    return JSONResponse(await server.course.lessons(request.state.player_id))


async def learn_move(request: Request, server: Services) -> Response:
    body = await posted(request, server)
    p = request.path_params
    return JSONResponse(await server.course.move(request.state.player_id, p["lesson"], p["task"], body.get("moves"),
                                                 body.get("action"), body.get("mistakes", 0)))


def routes() -> list[Route]:
    return [
        Route("/api/puzzles/next", api(next_puzzle)),
        Route("/api/puzzles/daily", api(daily)),
        Route("/api/puzzles/me", api(me)),
        Route("/api/puzzles/{puzzle_id}", api(puzzle)),
        Route("/api/puzzles/{puzzle_id}/move", api(move), methods=["POST"]),
        Route("/api/puzzles/{puzzle_id}/hint", api(hint), methods=["POST"]),
        Route("/api/puzzles/{puzzle_id}/solution", api(solution), methods=["POST"]),
        Route("/api/players/{player_id}/puzzles", api(history)),
        Route("/api/learn", api(lessons)),
        Route("/api/learn/{lesson}/{task}/move", api(learn_move), methods=["POST"]),
    ]
