"""A third game, known only to the tests, plays through the real table service, the WebSocket API and
the store, from join to result and a restart, with no change to the server."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from toy_game import CountingTables

from halali.server.games import default_games
from halali.server.testing import Peer, running, settings_for_tests


@contextmanager
def serving(tmp_path: Path) -> Iterator[object]:
    games = {**default_games(), "count": CountingTables()}
    with running(settings_for_tests(tmp_path), games=games) as client:
        yield client


def test_the_counting_game_plays_to_its_result_and_comes_back_after_a_restart(tmp_path: Path):
    with serving(tmp_path) as client:
        ann, bob = Peer(client), Peer(client)
        assert ann.welcome["games"]["count"]["goal"] == 10
        ann.send({"type": "create", "game": "count", "join": True})
        table = ann.expect("created")["table"]
        bob.send({"type": "open", "table": table})
        bob.expect("count")
        bob.send({"type": "chat", "text": "/join"})
        ann.expect("count", lambda m: m["table"]["seats"][1] is not None)
        ann.send({"type": "start"})
        ann.expect("count", lambda m: m["count"] is not None)
        assert bob.error({"type": "action", "action": "+1"})["key"] == "error.not_your_turn"
        assert ann.error({"type": "action", "action": "+3"})["params"]["rule"] == "rule.count"
        peers, ply = [ann, bob], 0
        while True:
            mover = peers[ply % 2]
            mover.send({"type": "action", "action": "+2", "ply": ply})
            state = ann.expect("count", lambda m, p=ply: len(m["count"]["history"]) == p + 1)
            ply += 1
            if state["table"]["state"] == "finished":
                break
        assert state["count"]["total"] == 10 and ply == 5
        over = ann.expect("chat", lambda m: m["line"].get("key") == "chat.match_over")["line"]
        assert over["params"]["winner"] == ann.welcome["you"]["name"]
        lobby = client.get("/api/lobby").json()["tables"]
        assert [t["game"] for t in lobby if t["id"] == table] == ["count"]
    with serving(tmp_path) as client:  # rebuilt from the store, every action checked again
        cy = Peer(client)
        cy.send({"type": "open", "table": table})
        back = cy.expect("count")
        assert back["table"]["state"] == "finished" and back["count"]["history"] == ["+2"] * 5
