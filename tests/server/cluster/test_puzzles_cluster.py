"""Puzzles and the course on two nodes of one PostgreSQL and one Redis: both nodes stock the shipped
puzzles at once and each is stored once; a player's first try counts once whichever node rates it;
tries of one puzzle rated on both nodes at the same moment are all counted; the puzzle of the day and
the course's stars are the same everywhere."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from two_nodes import two_nodes

from halali.server.cluster.redis_server import RedisServer
from halali.server.puzzles.service import bundled

ORIGIN = {"origin": "http://testserver"}
COOKIE = "halali_session"


@pytest.fixture
def nodes(tmp_path: Path, redis_server: RedisServer) -> Iterator[tuple[Any, Any]]:
    with two_nodes(tmp_path, redis_server.url, stock_puzzles=True) as pair:
        yield pair


def session(client: Any) -> str:
    client.cookies.clear()
    token = client.get("/api/me").cookies[COOKIE]
    client.cookies.clear()
    return token


def get(client: Any, path: str, token: str) -> Any:
    r = client.get(path, headers={"cookie": f"{COOKIE}={token}"})
    client.cookies.clear()
    return r


def post(client: Any, path: str, body: dict, token: str) -> Any:
    r = client.post(path, json=body, headers={**ORIGIN, "cookie": f"{COOKIE}={token}"})
    client.cookies.clear()
    return r


def stocked(client: Any, count: int) -> None:
    store = client.app.state.server.ctx.store
    for _ in range(600):
        if store.puzzle_count() == count:
            return
        threading.Event().wait(0.05)  # the stock goes in beside the start: wait for the count, not a time
    raise AssertionError(f"{store.puzzle_count()} puzzles stocked, not {count}")


def test_puzzles_on_two_nodes(nodes: tuple[Any, Any]) -> None:
    a, b = nodes
    shipped = bundled()
    stocked(a, len(shipped))
    stocked(b, len(shipped))
    assert a.app.state.server.ctx.store.puzzle_count() == len(shipped)

    ann = session(a)
    daily_a = get(a, "/api/puzzles/daily", ann).json()["puzzle"]
    daily_b = get(b, "/api/puzzles/daily", session(b)).json()["puzzle"]
    assert daily_a["id"] == daily_b["id"] and daily_a["proven"]

    # Ann misses a puzzle on node a; on node b the same puzzle is no longer rated for her. A puzzle of
    # one action, so that its right action ends it (the day's puzzle changes with the date).
    pid = next(p.id for p in a.app.state.server.ctx.store.puzzles_page() if len(p.solution) == 1)
    shown = get(b, f"/api/puzzles/{pid}", session(b)).json()
    solution = post(b, f"/api/puzzles/{pid}/solution", {}, session(b)).json()["solution"]
    wrong = next(x for x in shown["legal"] if x != solution[0] and not x.startswith("?"))
    first = post(a, f"/api/puzzles/{pid}/move", {"moves": [], "action": wrong}, ann).json()
    assert first["correct"] is False and first["rating"]["first"]
    again = post(b, f"/api/puzzles/{pid}/move", {"moves": [], "action": solution[0]}, ann).json()
    assert again["correct"] and not again["rating"]["first"]
    assert get(b, "/api/puzzles/me", ann).json()["rating"]["rating"] == first["rating"]["player"]["after"]

    # Eight players rate the same puzzle at once, four on each node: every try is counted.
    players = [(node, session(node)) for node in (a, b) for _ in range(4)]
    before = a.app.state.server.ctx.store.puzzle(pid)
    answers: list[dict] = []

    def try_it(node: Any, token: str) -> None:
        answers.append(post(node, f"/api/puzzles/{pid}/move", {"moves": [], "action": wrong}, token).json())

    threads = [threading.Thread(target=try_it, args=p) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(answers) == 8 and all(x["rating"]["first"] for x in answers)
    after = a.app.state.server.ctx.store.puzzle(pid)
    assert after.tries == before.tries + 8
    # In turn: each try was rated on the puzzle's rating as the one before it left it.
    assert len({x["rating"]["puzzle"]["before"] for x in answers}) == 8

    # The course: stars earned on node a are the player's on node b.
    done = post(a, "/api/learn/tiles/fox/move", {"moves": [], "action": "d2xd6", "mistakes": 1}, ann).json()
    assert done["done"] and done["stars"] == 2
    lessons = get(b, "/api/learn", ann).json()["lessons"]
    assert lessons[0]["tasks"][0]["stars"] == 2
