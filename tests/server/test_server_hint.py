"""Hints: the engine's action for a person's turn, only against the computer in an unrated match."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from halali.server.errors import ClientError
from halali.server.games.forest import ForestTables
from halali.server.table import Seat, Table
from halali.server.testing import Peer, person_against_computer, running, settings_for_tests

FOREST = ForestTables()


def _table(seats: list[Seat], rated: bool) -> Table:
    table = Table("t_hint", "forest", FOREST.options({"match": "single"}), datetime.now(UTC), seats=seats)
    table.begin(1, 1, rated, 0.0)
    FOREST.begin(table, FOREST.draw(table), [1], 0.0)
    return table


def _refusal(table: Table, player: str) -> str:
    with pytest.raises(ClientError) as caught:
        FOREST.plan_hint(table, player)
    return caught.value.key


def test_who_may_have_a_hint_and_when():
    # Seat 0 plays brown in game 1 and blue begins: the computer in seat 1 moves first.
    table = _table([Seat("ann"), Seat(bot=3)], rated=False)
    assert FOREST.hints_for(table, 0) and not FOREST.hints_for(table, 1) and not FOREST.hints_for(table, None)
    assert _refusal(table, "ann") == "error.not_your_turn"
    assert _refusal(table, "bob") == "error.not_seated"
    table.play.match.position.play(table.play.match.position.legal_actions()[0])  # the computer's turn, played
    assert FOREST.plan_hint(table, "ann") == 0

    rated = _table([Seat("ann"), Seat(bot=3)], rated=True)
    assert not FOREST.hints_for(rated, 0) and _refusal(rated, "ann") == "error.no_hints"
    people = _table([Seat("ann"), Seat("bob")], rated=False)
    assert not FOREST.hints_for(people, 0) and not FOREST.hints_for(people, 1)
    assert {_refusal(people, "ann"), _refusal(people, "bob")} == {"error.no_hints"}

    waiting = Table("t_wait", "forest", FOREST.options(None), datetime.now(UTC), seats=[Seat("ann"), Seat(bot=2)])
    assert _refusal(waiting, "ann") == "error.not_started"


def test_a_hint_in_an_unrated_match_against_the_computer(tmp_path: Path):
    with running(settings_for_tests(tmp_path, analysis_movetime=0.05)) as client:
        ann, table, game = person_against_computer(client, rated=False)
        watcher = Peer(client)
        watcher.send({"type": "open", "table": table})
        watcher.expect("table")
        assert watcher.error({"type": "hint", "table": table})["key"] == "error.not_seated"

        ann.send({"type": "hint"})
        # Told to the table first (the first search in a fresh worker loads the engine), then answered.
        notice = ann.expect("chat", lambda m: m["line"].get("key") == "chat.hint", timeout=60)
        hint = ann.expect("hint")
        assert (hint["table"], hint["match"], hint["game"], hint["ply"]) == (table, 1, 1, game["ply"])
        assert hint["action"] in game["legal"] and isinstance(hint["score"], float)
        assert notice["line"]["params"]["name"].startswith("Guest")
        seen = watcher.expect("chat", lambda m: m["line"].get("key") == "chat.hint")
        assert seen["line"]["params"] == notice["line"]["params"]
        watcher.sync()  # after ann's hint came: a copy to the watcher would be in by now
        assert all(m["type"] != "hint" for m in watcher.received)  # the hint itself goes to the asker only

        ann.send({"type": "action", "action": hint["action"], "ply": game["ply"]})
        again = ann.expect("game", lambda m: bool(m["game"]["legal"]) and m["game"]["ply"] > game["ply"])["game"]
        ann.send({"type": "chat", "text": "/hint"})  # the chat command asks for the same thing
        ann.expect("chat", lambda m: m["line"].get("key") == "chat.hint", timeout=30)
        assert ann.expect("hint")["ply"] == again["ply"]


def test_no_hint_in_a_rated_match(client):
    ann, table, _ = person_against_computer(client, rated=True)
    assert ann.error({"type": "hint"})["key"] == "error.no_hints"
    ann.send({"type": "open", "table": table})
    assert ann.expect("table")["table"]["you"]["hints"] is False


def test_hints_are_limited_per_player(tmp_path: Path):
    with running(settings_for_tests(tmp_path, analysis_movetime=0.02, hints_per_player=1)) as client:
        ann, table, game = person_against_computer(client, rated=False)
        ann.send({"type": "open", "table": table})
        assert ann.expect("table")["table"]["you"]["hints"] is True
        ann.send({"type": "hint"})
        first = ann.expect("hint", timeout=60)
        ann.send({"type": "hint"})
        assert ann.expect("hint") == first  # the same position again: from the cache, not counted
        ann.send({"type": "action", "action": first["action"], "ply": game["ply"]})
        later = ann.expect("game", lambda m: bool(m["game"]["legal"]) and m["game"]["ply"] > game["ply"])["game"]
        mark = len(ann.received)
        refused = ann.error({"type": "hint"})
        assert refused["key"] == "error.too_many_attempts" and refused["params"]["retry_after"] > 0
        ann.sync()  # an announcement of the refused hint would be in by now
        assert not [m for m in ann.received[mark:] if m["type"] == "chat"]  # a refused hint is not announced
        assert later["legal"]  # and the turn is still the person's to play
