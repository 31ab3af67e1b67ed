"""Game flow over the WebSocket: whole matches, forged actions, computer players, and no leaked tiles."""

from __future__ import annotations

import json
import random
from typing import Any

from forest_helpers import all_games, assert_public, deals_for
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.server.testing import Peer

Key = tuple[int, int]


def key(msg: dict[str, Any]) -> Key:
    return msg["game"]["number"], msg["game"]["ply"]


class Game:
    """Follows the `game` messages each peer gets and plays random legal actions for the seated peers."""

    def __init__(self, seats: dict[int, Peer], watcher: Peer, rng: random.Random,
                 captures_as_moves: bool = False) -> None:
        self.seats, self.watcher, self.rng = seats, watcher, rng
        self.captures_as_moves = captures_as_moves
        self.latest: dict[int, dict[str, Any]] = {}

    def at_least(self, peer: Peer, k: Key) -> dict[str, Any]:
        msg = self.latest.get(id(peer))
        while msg is None or key(msg) < k:
            got = peer.receive()
            if got["type"] == "game":
                msg = got
            elif got["type"] == "table" and got["games"]:  # a table page opened mid-game
                msg = {"type": "game", "game": got["games"][-1], "match": got["match"]}
            self.latest[id(peer)] = msg
        return msg

    def play(self, stop_after: int | None = None) -> dict[str, Any]:
        """Play until the match ends (or `stop_after` actions); returns the watcher's last `game`."""
        k, played = (1, 0), 0
        while True:
            msg = self.at_least(self.watcher, k)
            k = key(msg)
            g = msg["game"]
            if g["over"]:
                if msg["match"]["over"]:
                    return msg
                k = (g["number"] + 1, 0)
                continue
            if stop_after is not None and played >= stop_after:
                return msg
            mover = self.seats.get(g["seat_to_move"])
            if mover is None:  # a computer player's turn
                k = (k[0], k[1] + 1)
                continue
            own = self.at_least(mover, k)
            assert key(own) == k and own["game"]["legal"], own
            action = self.rng.choice(own["game"]["legal"])
            if self.captures_as_moves:  # `c3-c6` onto a tile must be read as the capture `c3xc6`
                action = action.replace("x", "-")
            mover.send({"type": "action", "action": action, "ply": k[1]})
            played += 1
            k = (k[0], k[1] + 1)


def seated_table(client, seed: int, rules: dict[str, Any] | None = None) -> tuple[str, Peer, Peer, Peer]:
    """Ann (seat 0) and Bob (seat 1) at a started, seeded table, Cy watching."""
    ann, bob, cy = Peer(client), Peer(client), Peer(client)
    ann.send({"type": "create", "rules": rules or {}, "seed": seed, "join": True})
    table_id = ann.expect("created")["table"]
    for p in (ann, bob, cy):
        p.send({"type": "open", "table": table_id})
        p.expect("table")
    bob.send({"type": "join"})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    ann.send({"type": "start"})
    return table_id, ann, bob, cy


def assert_no_secret(peers: list[Peer], deals: list[Position]) -> int:
    """Every position any peer got equals the public view of the true position after its history."""
    checked = 0
    boards = [d.fen().split(" ")[0] for d in deals]
    for peer in peers:
        for g in all_games(peer.received):
            assert_public(g, deals)
            checked += 1
        for raw in peer.raw:  # the deal's board text appears only once that game is over
            for i, board in enumerate(boards):
                if board in raw:
                    games = [g for g in all_games([json.loads(raw)]) if g["number"] == i + 1]
                    assert games and all(g["over"] for g in games)
    return checked


def test_two_people_play_a_whole_match_and_no_message_shows_a_hidden_tile(client):
    table_id, ann, bob, cy = seated_table(client, seed=11)
    last = Game({0: ann, 1: bob}, cy, random.Random(1), captures_as_moves=True).play()
    deals = deals_for(11, DEFAULT_RULES)
    # the server's view of the match matches the engine's replay of the same actions
    games = [g for g in all_games(cy.received) if g["over"]]
    finals = {g["number"]: g for g in games}
    assert set(finals) == {1, 2}
    totals = [0, 0]
    for number, g in finals.items():
        truth = deals[number - 1].copy()
        for a in g["history"]:
            truth.play(a)
        assert truth.is_over()
        blue_seat = 1 if number == 1 else 0  # seat 0 plays brown in game 1, blue in game 2
        assert g["colours"][blue_seat] == "blue"
        totals[blue_seat] += truth.score[0]
        totals[1 - blue_seat] += truth.score[1]
        assert g["result"]["score"] == {"blue": truth.score[0], "brown": truth.score[1]}
    assert last["match"]["over"] and last["match"]["totals"] == totals
    assert any("x" in a for g in finals.values() for a in g["history"])  # captures sent as `-`, kept as `x`
    assert assert_no_secret([ann, bob, cy], deals) > 100
    cy.expect("chat", lambda m: m["line"].get("key") == "chat.match_over")
    keys = [n.get("line", {}).get("key") for n in cy.received if n["type"] == "chat"]
    assert keys.count("chat.game_over") == 2 and keys.count("chat.match_over") == 1
    cy.send({"type": "open", "table": table_id})
    assert cy.expect("table")["table"]["state"] == "finished"


def test_only_the_seat_to_move_gets_legal_actions(client):
    _, ann, bob, cy = seated_table(client, seed=3)
    start = [cy.expect("game"), ann.expect("game"), bob.expect("game")]
    assert [m["game"]["seat_to_move"] for m in start] == [1, 1, 1]  # seat 1 is blue in game 1
    assert start[0]["game"]["legal"] == [] and start[1]["game"]["legal"] == []
    assert len(start[2]["game"]["legal"]) == 48 and start[2]["game"]["colours"] == ["brown", "blue"]


def test_forged_actions_are_refused_and_change_nothing(client):
    table_id, ann, bob, cy = seated_table(client, seed=5)
    first = bob.expect("game")
    assert ann.error({"type": "action", "action": "?a1", "ply": 0})["key"] == "error.not_your_turn"
    assert cy.error({"type": "action", "action": "?a1", "ply": 0})["key"] == "error.not_seated"
    assert bob.error({"type": "action", "action": "?a1=B", "ply": 0})["key"] == "error.bad_action"
    assert bob.error({"type": "action", "action": "?a1", "ply": 3})["params"] == {"ply": 0}
    assert bob.error({"type": "action", "action": "a1-a2"})["key"] == "error.illegal"
    assert bob.error({"type": "action", "action": "?d4"})["key"] == "error.illegal"
    assert bob.error({"type": "action", "action": "fly"})["key"] == "error.bad_action"
    assert bob.error({"type": "action", "action": 7})["key"] == "error.bad_request"
    assert bob.error({"type": "action", "action": "?a1", "ply": "0"})["key"] == "error.bad_request"
    assert bob.error({"type": "action", "action": "x" * 40})["key"] == "error.bad_request"
    assert bob.error({"type": "action", "action": "pass", "ply": 0})["key"] == "error.illegal"
    assert bob.error({"type": "action", "action": "?a1", "table": "t_elsewhere"})["key"] == "error.no_table"
    # nothing moved: a fresh look at the table shows the untouched deal, and the right move still works
    cy.send({"type": "open", "table": table_id})
    fresh = cy.expect("table")["games"][0]
    assert fresh["ply"] == 0 and fresh["position"] == first["game"]["position"]
    bob.send({"type": "action", "action": "?a1", "ply": 0})
    assert cy.expect("game")["game"]["history"][0].startswith("?a1=")


def test_illegal_action_names_the_rule_without_looking_at_hidden_tiles(client):
    _, _ann, bob, _cy = seated_table(client, seed=5)
    bob.expect("game")
    err = bob.error({"type": "action", "action": "b2-b3", "ply": 0})
    assert err["key"] == "error.illegal" and err["params"]["rule"].startswith("rule.")
    truth = deals_for(5, DEFAULT_RULES)[0]
    hidden_name = {1: "bear", 2: "fox", 3: "lumberjack", 8: "duck", 9: "pheasant", 10: "tree"}.get(
        truth.board[8] - 16, "hunter")
    assert hidden_name not in err["params"]["reason"]


def test_actions_before_the_start_and_after_the_end(client):
    with Peer(client) as ann, Peer(client) as bob:
        ann.send({"type": "create", "rules": {"match": "single"}, "seed": 2, "join": True})
        table_id = ann.expect("created")["table"]
        ann.send({"type": "open", "table": table_id})
        ann.expect("table")
        assert ann.error({"type": "start"})["params"] == {"reason": "seats"}
        bob.send({"type": "join", "table": table_id})
        bob.expect("table")
        assert ann.error({"type": "action", "action": "?a1"})["key"] == "error.not_started"
        ann.send({"type": "start"})
        last = Game({0: ann, 1: bob}, ann, random.Random(2)).play()
        assert last["game"]["over"] and last["match"]["over"]
        assert bob.error({"type": "action", "action": "pass"})["key"] == "error.game_over"
        assert ann.error({"type": "action", "action": "pass"})["key"] == "error.game_over"
        assert ann.error({"type": "start"})["params"] == {"reason": "state"}
        assert ann.error({"type": "join"})["key"] == "error.already_seated"


def test_seats_stay_during_a_match_and_leaving_it_is_resigning(client):
    _table_id, ann, _bob, cy = seated_table(client, seed=8)
    ann.send({"type": "leave"})
    assert ann.expect("confirm")["request"] == "leave"  # nothing happens before the confirmation
    assert ann.error({"type": "bot", "level": 1})["key"] == "error.game_running"
    assert cy.error({"type": "bot", "level": 1})["key"] == "error.not_owner"
    assert cy.error({"type": "join"})["key"] == "error.game_running"
    ann.send({"type": "chat", "text": "/leave"})  # the same request again confirms it
    ann.expect("left")
    over = cy.expect("table", lambda m: m["table"]["seats"][0] is None)
    assert over["table"]["state"] == "waiting" and over["match"]["over"] and over["match"]["winner"] == 1
    assert over["games"][-1]["termination"] == "resign"


def test_rematch_starts_a_new_match_when_both_ask(client):
    _table_id, ann, bob, cy = seated_table(client, seed=4, rules={"match": "single"})
    Game({0: ann, 1: bob}, cy, random.Random(4)).play()
    assert cy.error({"type": "rematch"})["key"] == "error.not_seated"
    ann.send({"type": "chat", "text": "/rematch"})
    asked = cy.expect("table", lambda m: m["table"]["rematch"] == [True, False])
    assert asked["table"]["state"] == "finished"
    bob.send({"type": "rematch"})
    started = cy.expect("table", lambda m: m["table"]["match_number"] == 2)
    assert started["table"]["state"] == "playing" and started["games"][0]["ply"] == 0


def test_a_person_plays_a_match_against_a_computer_player(client):
    with Peer(client) as ann:
        ann.send({"type": "create", "seed": 21, "join": True})
        table_id = ann.expect("created")["table"]
        ann.send({"type": "open", "table": table_id})
        ann.send({"type": "bot", "level": 2})
        ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
        ann.send({"type": "start"})
        last = Game({0: ann}, ann, random.Random(21)).play()
        assert last["match"]["over"]
        assert assert_no_secret([ann], deals_for(21, DEFAULT_RULES)) > 50
        histories = {g["number"]: g["history"] for g in all_games(ann.received) if g["over"]}
        for number, history in histories.items():  # the computer player's actions are legal ones
            truth = deals_for(21, DEFAULT_RULES)[number - 1].copy()
            for a in history:
                truth.play(a)
            assert truth.is_over()


def test_two_computer_players_play_a_game_through(client):
    with Peer(client) as cy:
        cy.send({"type": "create", "rules": {"match": "single"}, "seed": 9})
        table_id = cy.expect("created")["table"]
        cy.send({"type": "open", "table": table_id})
        cy.send({"type": "bot", "level": 1})
        cy.send({"type": "bot", "level": "greedy"})
        cy.expect("table", lambda m: None not in m["table"]["seats"])
        cy.send({"type": "start"})
        last = cy.expect("game", lambda m: m["game"]["over"], timeout=60)
        assert last["match"]["over"] and last["game"]["result"]["winner_seat"] in (0, 1, None)
        assert assert_no_secret([cy], deals_for(9, Rules(match="single"))) == len(all_games(cy.received))
