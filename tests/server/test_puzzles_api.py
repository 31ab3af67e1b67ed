"""The puzzles over HTTP: the next puzzle, moves checked against a solution that never leaves the
server early, rated first tries (and only first tries), hints, the solution, history, the daily puzzle."""

from __future__ import annotations

from halali.puzzles.model import Puzzle
from halali.server.puzzles.records import to_store

ORIGIN = {"origin": "http://testserver"}

TWO_MOVES = Puzzle("F1D1P2/7/7/7/7/7/1N4? blue - - - - 0 - -", ("a7xc7", "b1-b2", "c7xe7"), 5.0, 3.0, False,
                   ("capture", "long"), 6, 1500, (), {"kind": "selfplay", "seed": 1, "ply": 3})
PROVEN = Puzzle("3B3/7/7/7/2F4/7/2N4 blue - - - 1 0 - -", ("d7-N",), 10.0, 5.0, True, ("exit_race",), 1, 1400, (),
                {"kind": "selfplay", "seed": 2, "ply": 9})
REVEAL = Puzzle("7/7/7/7/2F4/7/1N4? blue - - - - 0 - -", ("?g1",), 1.0, 3.0, False, ("reveal",), 6, 1600, (),
                {"kind": "selfplay", "seed": 3, "ply": 1})


def stock(client, *puzzles: Puzzle) -> list[int]:
    store = client.app.state.server.ctx.store
    store.add_puzzles([to_store(p) for p in puzzles])
    return [r.id for r in store.puzzles_page()]


def post(client, path: str, body: dict):
    return client.post(path, json=body, headers=ORIGIN)


def test_a_puzzle_is_solved_move_by_move_and_rated_once(client):
    pid, *_ = stock(client, TWO_MOVES, PROVEN, REVEAL)
    shown = client.get(f"/api/puzzles/{pid}").json()
    assert shown["position"] == TWO_MOVES.position and shown["moves"] == 2 and shown["tried"] is None
    assert "a7xc7" in shown["legal"] and "solution" not in shown
    first = post(client, f"/api/puzzles/{pid}/move", {"moves": [], "action": "a7-c7"}).json()  # -: read as x
    assert first["correct"] and not first["solved"] and first["reply"] == "b1-b2"
    assert first["position"] == "2F1P2/7/7/7/7/1N5/6? blue a7c7 b1b2 - - 1 D -"
    done = post(client, f"/api/puzzles/{pid}/move", {"moves": ["a7xc7", "b1-b2"], "action": "c7xe7"}).json()
    assert done["solved"] and done["rating"]["first"] and done["solution"] == list(TWO_MOVES.solution)
    r = done["rating"]
    assert r["player"]["after"] > r["player"]["before"] == 1500
    assert r["puzzle"]["after"] < r["puzzle"]["before"] == 1500
    again = post(client, f"/api/puzzles/{pid}/move", {"moves": ["a7xc7", "b1-b2"], "action": "c7xe7"}).json()
    assert not again["rating"]["first"] and again["rating"]["player"] == r["player"]
    me = client.get("/api/puzzles/me").json()
    assert me["rating"]["tries"] == 1 and me["rating"]["rating"] == r["player"]["after"]
    assert me["themes"]["capture"] == 1 and me["themes"]["exit_race"] == 1


def test_a_wrong_move_loses_the_first_try_and_an_illegal_one_counts_for_nothing(client):
    _, pid, _ = stock(client, TWO_MOVES, PROVEN, REVEAL)
    illegal = post(client, f"/api/puzzles/{pid}/move", {"moves": [], "action": "d7-d5"})
    assert illegal.status_code == 400 and illegal.json()["error"]["params"]["rule"] == "rule.one_square"
    assert client.get(f"/api/puzzles/{pid}").json()["tried"] is None
    wrong = post(client, f"/api/puzzles/{pid}/move", {"moves": [], "action": "c3-c4"}).json()
    assert wrong["correct"] is False and wrong["rating"]["first"] and not wrong["rating"]["solved"]
    assert wrong["rating"]["player"]["after"] < 1500 < wrong["rating"]["puzzle"]["after"]
    right = post(client, f"/api/puzzles/{pid}/move", {"moves": [], "action": "d7-N"}).json()
    assert right["solved"] and not right["rating"]["first"]  # solved on a later try: nothing changes
    history = client.get(f"/api/players/{client.get('/api/me').json()['id']}/puzzles").json()
    assert [t["puzzle"] for t in history["tries"]] == [pid] and history["tries"][0]["how"] == "wrong"


def test_moves_that_are_not_the_solutions_start_are_refused(client):
    pid, *_ = stock(client, TWO_MOVES)
    for moves in (["a7xb7"], ["a7xc7"], "a7xc7", ["a7xc7", "b1-b2", "c7xe7"]):
        r = post(client, f"/api/puzzles/{pid}/move", {"moves": moves, "action": "c7xe7"})
        assert r.status_code == 400 and r.json()["error"]["params"]["field"] == "moves"
    assert post(client, "/api/puzzles/999/move", {"moves": [], "action": "pass"}).status_code == 404
    assert client.get("/api/puzzles/abc").status_code == 404


def test_a_hint_or_the_solution_ends_the_rated_try(client):
    pid, proven, reveal = stock(client, TWO_MOVES, PROVEN, REVEAL)
    hint = post(client, f"/api/puzzles/{pid}/hint", {"moves": []}).json()
    assert hint["square"] == "a7" and hint["rating"]["first"] and not hint["rating"]["solved"]
    assert post(client, f"/api/puzzles/{reveal}/hint", {"moves": []}).json()["square"] == "g1"
    shown = post(client, f"/api/puzzles/{proven}/solution", {}).json()
    assert shown["solution"] == ["d7-N"] and shown["margin"] == 5.0 and shown["rating"]["first"]
    assert client.get("/api/puzzles/me").json()["rating"]["tries"] == 3


def test_next_picks_untried_puzzles_by_theme_and_rating(client):
    ids = stock(client, TWO_MOVES, PROVEN, REVEAL)
    got = client.get("/api/puzzles/next?theme=reveal").json()
    assert got["id"] == ids[2]
    assert client.get("/api/puzzles/next?difficulty=easier").json()["id"] == ids[1]  # 1400, nearest to 1200
    post(client, f"/api/puzzles/{ids[2]}/solution", {})
    assert client.get("/api/puzzles/next?theme=reveal").status_code == 404
    assert client.get("/api/puzzles/next?theme=luck").status_code == 400
    assert client.get("/api/puzzles/next?difficulty=hardest").status_code == 400


def test_the_daily_puzzle_is_one_proven_puzzle_for_everyone(client):
    assert client.get("/api/puzzles/daily").json()["puzzle"] is None
    ids = stock(client, TWO_MOVES, PROVEN, REVEAL)
    daily = client.get("/api/puzzles/daily").json()["puzzle"]
    assert daily["id"] == ids[1] and daily["proven"]
    client.cookies.clear()
    assert client.get("/api/puzzles/daily").json()["puzzle"]["id"] == ids[1]


def test_the_pages_are_served(client):
    for path in ("/puzzles", "/puzzles/3", "/learn"):
        r = client.get(path)
        assert r.status_code == 200 and "<main" in r.text
