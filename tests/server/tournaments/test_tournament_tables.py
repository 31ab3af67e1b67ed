"""A tournament's table: no hints for anyone, even unrated against a computer; its seats stay as paired
after the match (no leaving); and a match resigned early scores its unplayed games to the winner,
keeping the points scored before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from halali.server.games.forest import ForestTables
from halali.server.testing import FakeClock, running
from halali.server.testing import account_peer as account
from halali.store.records import GameRecord, MatchRecord
from tournament_site_helpers import create, settings, state


def _my_turn(msg: dict[str, Any], seat: int) -> bool:
    games = msg.get("games") or [msg.get("game")]
    return bool(games and games[-1] and games[-1].get("seat_to_move") == seat)


def test_no_hints_and_no_leaving_at_a_tournament_table_and_a_match_resigned_in_game_1(tmp_path: Path):
    clock = FakeClock()
    with running(settings(tmp_path, clock, analysis_movetime=0.05)) as client:
        ann = account(client, "Ann")
        tid = create(ann, rated=False, rounds=1)
        ann.send({"type": "tournament_level", "id": tid, "level": 1})
        ann.send({"type": "tournament_join", "id": tid})
        state(ann, lambda t: len(t["players"]) == 2)
        ann.send({"type": "tournament_start", "id": tid})
        (pairing,) = state(ann, lambda t: t["round"] == 1 and t["pairings"])["pairings"]
        table = pairing["table"]
        ann.send({"type": "open", "table": table})
        seen = ann.expect("table", lambda m: m["table"]["id"] == table)
        seat = seen["table"]["you"]["seat"]
        assert seen["table"]["tournament"] == tid and seen["table"]["you"]["hints"] is False
        if not _my_turn(seen, seat):  # the computer moves first: wait for Ann's turn
            ann.expect("game", lambda m: _my_turn(m, seat), timeout=60)
        assert ann.error({"type": "hint", "table": table})["key"] == "error.no_hints"
        ann.send({"type": "resign", "table": table, "confirm": True})
        ann.expect("table", lambda m: m["table"]["id"] == table and m["table"]["state"] == "finished")
        for request in ("leave", "watch"):  # the seats stay as paired once the match is over
            assert ann.error({"type": request, "table": table})["key"] == "error.tournament_table"
        t = state(ann, lambda t: t["state"] == "finished")
        (done,) = t["pairings"]
        mine = done["players"].index(ann.id)
        assert done["points"][mine] == 0.0 and done["points"][1 - mine] == 1.0
        assert done["games"][mine] == 0.0 and done["games"][1 - mine] == 2.0  # game 2, unplayed, to the winner


def _game(number: int, result: dict[str, Any] | None) -> GameRecord:
    return GameRecord(number, number, "deal", result)


def test_what_a_match_ended_off_the_board_scores():
    forest = ForestTables()
    # Seat 0 is brown in game 1 and blue in game 2. Resigned by seat 0 in game 1 at 5 (brown) to 3 (blue):
    resigned = {"score": {"blue": 3, "brown": 5}, "winner_seat": 1, "termination": "resign"}
    first = forest.outcome(MatchRecord(1, 1, (_game(1, resigned), _game(2, None)), 1, True), 2)
    assert (first.points, first.games, first.tiles) == ((0.0, 1.0), (0.0, 2.0), (5, 3))
    # Game 1 won by seat 0 on the board, then seat 0 lost game 2 on time at 4 (blue) to 7 (brown):
    won = {"score": {"blue": 10, "brown": 12}, "winner_seat": 0}
    timed = {"score": {"blue": 4, "brown": 7}, "winner_seat": 1, "termination": "time"}
    second = forest.outcome(MatchRecord(1, 1, (_game(1, won), _game(2, timed)), 1, True), 2)
    assert (second.points, second.games, second.tiles) == ((0.0, 1.0), (1.0, 1.0), (16, 17))
    # A round's deadline in game 1: a drawn match, its unplayed game half each.
    drawn = {"score": {"blue": 2, "brown": 0}, "winner_seat": None, "termination": "deadline"}
    third = forest.outcome(MatchRecord(1, 1, (_game(1, drawn), _game(2, None)), None, True), 2)
    assert (third.points, third.games, third.tiles) == ((0.5, 0.5), (1.0, 1.0), (0, 2))
