"""The arena: neighbouring computer levels play rated matches one at a time, and the ladder shows
their ratings and each level's score against the level below."""

from __future__ import annotations

from pathlib import Path

from halali.server.testing import Peer, call, running, server_of, settings_for_tests


def test_an_arena_match_is_rated_and_counted_on_the_ladder(tmp_path: Path):
    with running(settings_for_tests(tmp_path)) as client:
        arena = server_of(client).arena
        assert arena.pairs()[0] == ("forest", (1, 2)) and ("hare", (1, 2, 3)) in arena.pairs()
        table = call(client, arena.play_next)
        assert call(client, arena.play_next) is None  # one at a time: the first still runs
        watcher = Peer(client)
        watcher.send({"type": "open", "table": table})
        first = watcher.expect("table")
        assert first["table"]["rated"] and [s["bot"] for s in first["table"]["seats"]] == [1, 2]
        watcher.expect("table", lambda m: m["table"]["state"] == "finished", timeout=180)
        ladder = client.get("/api/arena").json()
        forest = {r["level"]: r for r in ladder["games"]["forest"]}
        assert forest[1]["matches"] == forest[2]["matches"] == 1 and forest[1]["rating"] is not None
        assert forest[2]["below_matches"] == 1 and forest[2]["below_score"] in (0.0, 0.5, 1.0)
        assert forest[1]["below_score"] is None and ladder["current"] == table
        assert call(client, arena.play_next) not in (None, table)  # the next pair once it is over
