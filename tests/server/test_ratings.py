"""Ratings: one openskill update per finished rated match, for people and computer levels alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from halali.server.testing import computer_match, fresh_database
from halali.store import RatingRequest, Store
from halali.store.ratings import MU, PROVISIONAL_MATCHES, SIGMA, display, rate_many, rate_pair


def is_rating(msg: dict) -> bool:
    return msg["line"].get("key") == "chat.rating"


def test_a_two_game_match_between_computer_levels_is_rated_once(client):
    peer, table, last = computer_match(client)
    assert last["game"]["number"] == 2
    winner = last["match"]["winner"]  # seat 0 is level 1, seat 1 is level 2
    peer.collect("chat", is_rating, count=2)  # one notice per player, after the match's end
    peer.sync()  # and no more of them
    notices = [m["line"] for m in peer.received if m["type"] == "chat" and is_rating(m)]
    board = client.get("/api/leaderboard").json()
    by_id = {p["id"]: p for p in board["players"]}
    assert set(by_id) == {"bot_1", "bot_2"} and board["total"] == 2
    (mu0, s0), (mu1, s1) = rate_pair((MU, SIGMA), (MU, SIGMA), winner)
    assert by_id["bot_1"]["mu"] == round(mu0, 2) and by_id["bot_1"]["sigma"] == round(s0, 2)
    assert by_id["bot_2"]["rating"] == display(mu1, s1)
    assert all(p["matches"] == 1 and p["provisional"] for p in board["players"])
    assert s0 < SIGMA  # a result makes the estimate surer
    if winner is not None:
        assert by_id[f"bot_{winner + 1}"]["rank"] == 1
    assert sorted(n["params"]["name"]["name"] for n in notices) == ["greedy", "random"]
    assert all("number" not in n["params"]["name"] for n in notices)  # a rating is the level's, not a seat's
    assert all(n["params"]["provisional"] is True for n in notices)  # the first of five rated matches
    profile = client.get("/api/players/bot_2").json()
    history = profile["ratings"]["forest"]["history"]
    assert len(history) == 1 and history[0]["table"] == table and history[0]["before"] == 1000
    assert profile["bot"] == 2 and profile["results"]["games"] == 2 and profile["results"]["matches"]["played"] == 1
    games = client.get(f"/api/tables/{table}/games").json()["games"]
    assert [g["number"] for g in games] == [2, 1] and all(g["rated"] for g in games)


def test_unrated_tables_and_startnosave_change_no_rating(client):
    computer_match(client, rules={"match": "single"}, rated=False)
    computer_match(client, rules={"match": "single"}, nosave=True)
    computer_match(client, rules={"match": "single"}, seed=5)  # test-seeded deals are known in advance
    assert client.get("/api/leaderboard").json() == {"game": "forest", "total": 0, "players": []}
    games = client.get("/api/players/bot_1/games").json()["games"]
    assert len(games) == 3 and not any(g["rated"] for g in games)


def test_the_same_level_against_itself_is_not_rated(client):
    computer_match(client, levels=(1, 1), rules={"match": "single"})
    assert client.get("/api/leaderboard").json()["total"] == 0


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_ratings_in_the_store_leaderboard_and_provisional(kind: str, tmp_path: Path):
    with fresh_database(kind, tmp_path) as url:
        store = Store(url)
        try:
            for pid in ("p_a", "p_b", "p_c"):
                store.create_player(pid, f"token-{pid}", pid.upper())
            store.create_table("t_1", "forest", {}, None)
            for n in range(PROVISIONAL_MATCHES):
                match = store.start_match("t_1", n + 1, ["deal"], players=("p_a", "p_b"), rated=True)
                store.record_action("t_1", match.games[0].id, 0, "pass", 0, game_result={"winner_seat": 0},
                                    match_id=match.id, match_winner=0, match_over=True,
                                    rating=RatingRequest("forest", match.id, ("p_a", "p_b"), 0))
                changes = store.rating_changes(match.id)
                assert [c.player_id for c in changes] == ["p_a", "p_b"]
                assert changes[0].after > changes[0].before and changes[1].after < changes[1].before
            total, rows = store.leaderboard("forest")
            assert total == 2 and [p.id for _, p in rows] == ["p_a", "p_b"]
            assert all(r.matches == PROVISIONAL_MATCHES for r, _ in rows)
            assert store.leaderboard("forest", provisional=False)[0] == 2
            history = store.rating_history("p_a", "forest")
            assert [h.rating for h in history] == sorted(h.rating for h in history) and len(history) == 5
            assert history[0].before == 1000 and history[1].before == history[0].rating
            assert store.rank("forest", rows[1][0].rating) == 2
            assert store.ratings_of("p_c") == []
        finally:
            store.close()


def test_a_hunt_of_several_seats_is_rated_by_placing(tmp_path: Path):
    with fresh_database("sqlite", tmp_path) as url:
        store = Store(url)
        try:
            for pid in ("p_a", "p_b", "p_c"):
                store.create_player(pid, f"token-{pid}", pid.upper())
            bots = store.ensure_bots({2: "heuristic"}, game="hare")
            store.create_table("t_h", "hare", {}, None, seats=4)
            match = store.start_match("t_h", 1, ["start"], rated=True)
            # p_b first, the bot (in two seats: its better place counts) second, p_a and p_c share the last
            seats = ("p_a", "p_b", bots[2], bots[2], "p_c")
            placings = (4.5, 1.0, 2.0, 3.0, 4.5)
            store.record_action("t_h", match.games[0].id, 0, "roll=1,2", 0, game_result={"placings": placings},
                                match_id=match.id, match_over=True,
                                rating=RatingRequest("hare", match.id, seats, ranks=placings))
            changes = {c.player_id: c for c in store.rating_changes(match.id)}
            assert set(changes) == {"p_a", "p_b", "p_c", "hare_bot_2"}  # the bot is rated once
            after = {pid: c.after for pid, c in changes.items()}
            assert after["p_b"] > after["hare_bot_2"] > after["p_a"] == after["p_c"]
            total, rows = store.leaderboard("hare")
            assert total == 4 and rows[0][1].id == "p_b" and store.leaderboard("forest")[0] == 0
            new = rate_many([(MU, SIGMA)] * 4, [4.5, 1.0, 2.0, 4.5])
            assert rows[0][0].mu == pytest.approx(new[1][0])
            # one player in every seat tells nothing: no change
            again = store.start_match("t_h", 2, ["start"], rated=True)
            store.record_action("t_h", again.games[0].id, 0, "roll=1,2", 0, game_result={}, match_id=again.id,
                                match_over=True, rating=RatingRequest("hare", again.id, (bots[2],) * 3,
                                                                      ranks=(1.0, 2.0, 3.0)))
            assert store.rating_changes(again.id) == []
        finally:
            store.close()


def test_the_first_ratings_are_openskills_ordinal_as_intended():
    """1000 -> 1138 for a first win is no slip: the shown number is openskill's ordinal, mu - 3 sigma
    (its conservative estimate, 0 for a new player), scaled by 40. One result makes the estimate
    surer (sigma drops from 8.33 to 8.07), so even a draw lifts both, and a win lifts more; the
    leaderboard and the notices mark these ratings provisional until the fifth match."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    (mu_w, s_w), (mu_l, s_l) = rate_pair((MU, SIGMA), (MU, SIGMA), 0)
    win, loss = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert (mu_w, s_w) == (win[0].mu, win[0].sigma) and (mu_l, s_l) == (loss[0].mu, loss[0].sigma)
    assert display(MU, SIGMA) == 1000 + round(40 * model.rating().ordinal()) == 1000
    assert display(mu_w, s_w) == 1000 + round(40 * win[0].ordinal()) == 1138
    assert display(mu_l, s_l) == 1000 + round(40 * loss[0].ordinal()) == 927
    (mu_d, s_d), _ = rate_pair((MU, SIGMA), (MU, SIGMA), None)
    assert mu_d == MU and display(mu_d, s_d) > 1000
    assert PROVISIONAL_MATCHES == 5
