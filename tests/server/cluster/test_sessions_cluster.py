"""Sessions on two nodes: each node keeps the sessions it has seen, so a session ended on one node (a
logout, or every session of an account after a new password) must be forgotten on the other too,
its sockets closed there; otherwise a thief's cookie would go on working through another node."""

from __future__ import annotations

import time
from typing import Any

import pytest

from halali.server.testing import Peer, new_session

ORIGIN = {"origin": "http://testserver"}
COOKIE = "halali_session"




def post(client: Any, path: str, body: dict, token: str) -> Any:
    r = client.post(path, json=body, headers={**ORIGIN, "cookie": f"{COOKIE}={token}"})
    client.cookies.clear()
    return r


def who(client: Any, token: str) -> str:
    r = client.get("/api/me", headers={"cookie": f"{COOKIE}={token}"})
    client.cookies.clear()
    return str(r.json()["id"])


def until_not(client: Any, token: str, player: str) -> None:
    """Wait (bounded) until the node no longer takes ``token`` for ``player``: the word crosses Redis."""
    deadline = time.monotonic() + 30
    while who(client, token) == player:
        assert time.monotonic() < deadline, "the other node still takes the ended session"
        time.sleep(0.05)


def test_a_session_ended_on_one_node_ends_on_the_other(nodes: tuple[Any, Any]) -> None:
    a, b = nodes
    r = post(a, "/api/register", {"name": "Ann", "password": "correct horse"}, new_session(a))
    first, ann = r.cookies[COOKIE], r.json()["id"]
    second = post(b, "/api/login", {"name": "Ann", "password": "correct horse"}, new_session(b)).cookies[COOKIE]
    third = post(a, "/api/login", {"name": "Ann", "password": "correct horse"}, new_session(a)).cookies[COOKIE]
    for node in (a, b):  # each node has seen each session
        assert who(node, first) == who(node, second) == who(node, third) == ann
    listening = Peer(b, first)

    post(a, "/api/logout", {}, first)  # on node a; node b had it too
    until_not(b, first, ann)
    with pytest.raises(ConnectionError, match="4401"):
        listening.expect("never")
    assert who(b, second) == ann  # the other sessions go on

    changed = post(b, "/api/password", {"current": "correct horse", "password": "a new forest path"}, second)
    assert changed.status_code == 200
    renewed = changed.cookies[COOKIE]
    until_not(a, third, ann)  # every other session, on every node
    assert who(a, renewed) == who(b, renewed) == ann
