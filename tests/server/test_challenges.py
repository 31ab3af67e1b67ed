"""Challenges: sent and seen (also by a connection that comes later), accepted into a started table with
both seated, declined with a reason, called off, expired on the server's clock, and refused when bad
or beyond the limits, changing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from halali.server.settings import Settings
from halali.server.testing import FakeClock, Peer, call, server_of, settings_for_tests


@pytest.fixture
def server_settings(tmp_path: Path, clock: FakeClock) -> Settings:
    return settings_for_tests(tmp_path, clock=clock, challenges_per_player=2)


def challenge(ann: Peer, bob: Peer, **fields) -> dict:
    ann.send({"type": "challenge", "to": bob.id, **fields})
    sent = ann.expect("challenge")["challenge"]
    got = bob.expect("challenge")["challenge"]
    assert got == sent
    return got


def test_a_challenge_accepted_starts_a_table_with_both_seated(client):
    with Peer(client) as ann, Peer(client) as bob:
        c = challenge(ann, bob, rules={"match": "single"}, rated=False, clock={"initial": 300, "increment": 2})
        assert c["from"] == {"id": ann.id, "name": ann.welcome["you"]["name"]} and c["to"]["id"] == bob.id
        assert (c["game"], c["rated"], c["mode"], c["clock"]) == ("forest", False, "live", {"initial": 300,
                                                                                          "increment": 2})
        assert c["rules"]["match"] == "single" and c["expires_in"] == 60
        bob.send({"type": "accept", "challenge": c["id"]})
        accepted = bob.expect("challenge_accepted")
        assert ann.expect("challenge_accepted") == accepted and accepted["challenge"] == c["id"]
        table = call(client, server_of(client).tables.table, accepted["table"])
        assert [s.player_id for s in table.seats] == [ann.id, bob.id] and table.state == "playing"
        assert table.owner == ann.id and table.clock_spec == {"initial": 300, "increment": 2} and not table.rated
        bob.send({"type": "open", "table": accepted["table"]})
        game = bob.expect("table")["games"][-1]
        assert game["colours"][1] == "blue" and game["legal"]  # seat 1 plays blue in game 1 and moves first
        assert bob.error({"type": "accept", "challenge": c["id"]})["key"] == "error.no_challenge"  # once only


def test_declined_with_a_reason_and_canceled(client):
    with Peer(client) as ann, Peer(client) as bob:
        c = challenge(ann, bob)
        assert ann.error({"type": "accept", "challenge": c["id"]})["key"] == "error.no_challenge"  # not ann's
        error = bob.error({"type": "decline", "challenge": c["id"], "reason": "because"})
        assert error["key"] == "error.bad_request" and error["params"] == {"field": "reason"}
        bob.send({"type": "decline", "challenge": c["id"], "reason": "rated"})
        declined = ann.expect("challenge_declined")
        assert declined == {"type": "challenge_declined", "challenge": c["id"], "reason": "rated",
                            "key": "decline.rated", "by": {"id": bob.id, "name": bob.welcome["you"]["name"]}}
        assert bob.expect("challenge_declined") == declined
        c = challenge(ann, bob)
        assert bob.error({"type": "challenge_cancel", "challenge": c["id"]})["key"] == "error.no_challenge"
        ann.send({"type": "challenge_cancel", "challenge": c["id"]})
        assert bob.expect("challenge_canceled")["challenge"] == c["id"]
        assert call(client, server_of(client).challenges.open_for, ann.id) == []


def test_a_player_who_connects_later_sees_open_challenges(client):
    with Peer(client) as ann:
        bob_token = Peer(client)
        bob_id = bob_token.id
        bob_token.close()
        ann.send({"type": "challenge", "to": bob_id, "mode": "correspondence"})
        c = ann.expect("challenge")["challenge"]
        assert c["expires_in"] == 86400
        with Peer(client, bob_token.token) as bob:
            assert bob.expect("challenge")["challenge"]["id"] == c["id"]


def test_challenges_expire(client, clock: FakeClock):
    with Peer(client) as ann, Peer(client) as bob:
        c = challenge(ann, bob)
        clock.advance(61)
        assert ann.expect("challenge_expired")["challenge"] == c["id"]
        assert bob.expect("challenge_expired")["challenge"] == c["id"]
        assert bob.error({"type": "accept", "challenge": c["id"]})["key"] == "error.no_challenge"


def test_bad_challenges_are_refused_and_change_nothing(client):
    with Peer(client) as ann, Peer(client) as bob:
        cases = [({"to": ann.id}, "error.challenge_self"), ({"to": "p_nobody"}, "error.no_player"),
                 ({"to": "bot_1"}, "error.no_player"), ({"to": 5}, "error.bad_request"),
                 ({"to": bob.id, "rated": "yes"}, "error.bad_request"),
                 ({"to": bob.id, "mode": "blitz"}, "error.bad_request"),
                 ({"to": bob.id, "rules": {"stall_limit": -1}}, "error.bad_rules"),
                 ({"to": bob.id, "clock": {"initial": 1}}, "error.bad_request")]
        for fields, key in cases:
            assert ann.error({"type": "challenge", **fields})["key"] == key, fields
        challenge(ann, bob)
        challenge(ann, bob)
        error = ann.error({"type": "challenge", "to": bob.id})
        assert error["key"] == "error.too_many_challenges" and error["params"] == {"max": 2}
        assert len(call(client, server_of(client).challenges.open_for, ann.id)) == 2
        bob.sync()
        assert len([m for m in bob.received if m["type"] == "challenge"]) == 2


def test_a_bot_account_over_its_limit_cannot_be_challenged(tmp_path):
    from test_bot_accounts import bot_with_token

    from halali.server.testing import running

    with running(settings_for_tests(tmp_path, bot_games_at_once=1)) as client:
        cookie, pid, _token = bot_with_token(client)
        with Peer(client, cookie) as bot, Peer(client) as ann, Peer(client) as bob:
            ann.send({"type": "challenge", "to": pid})
            first = bot.expect("challenge")["challenge"]
            bob.send({"type": "challenge", "to": pid})
            second = bot.expect("challenge")["challenge"]
            bot.send({"type": "accept", "challenge": first["id"]})
            bot.expect("challenge_accepted")
            error = bob.error({"type": "challenge", "to": pid})
            assert error["key"] == "error.bot_busy" and error["params"] == {"max": 1}
            error = bot.error({"type": "accept", "challenge": second["id"]})
            assert error["key"] == "error.bot_busy"
            still = call(client, server_of(client).challenges.open_for, pid)
            assert second["id"] in [c.id for c in still]  # still open: it may be taken later


def test_an_open_challenge_outlives_a_restart(tmp_path):
    from halali.server.testing import running

    settings = settings_for_tests(tmp_path)
    with running(settings) as client, Peer(client) as ann, Peer(client) as bob:
        c = challenge(ann, bob, mode="correspondence")
        bob_token = bob.token
    with running(settings) as client, Peer(client, bob_token) as bob:
        assert bob.expect("challenge")["challenge"]["id"] == c["id"]
        bob.send({"type": "accept", "challenge": c["id"]})
        assert bob.expect("challenge_accepted")["challenge"] == c["id"]


def test_a_connection_whose_challenges_cannot_be_read_still_plays_and_leaves(client, monkeypatch):
    """The open challenges are read from the store as a connection opens; if that fails, the
    connection goes on without them, and when it closes its player is no longer online."""
    server = server_of(client)

    async def broken(player_id: str) -> list:
        raise RuntimeError("the store is away")

    monkeypatch.setattr(server.challenges, "open_for", broken)
    with Peer(client) as ann:
        ann.send({"type": "ping"})
        ann.expect("pong")
        assert call(client, _online, server) == {ann.id}
    assert ann.id not in call(client, _online, server)


async def _online(server) -> set:
    return set(server.ctx.hub.online())
