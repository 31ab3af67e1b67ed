"""Accounts: register (a guest keeps its games), log in and out, token rotation, CSRF, rate limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from halali.server.settings import Settings
from halali.server.testing import FakeClock, Peer, new_session, running, settings_for_tests

ORIGIN = {"origin": "http://testserver"}
COOKIE = "halali_session"


@pytest.fixture
def server_settings(tmp_path: Path, clock: FakeClock) -> Settings:
    return settings_for_tests(tmp_path, clock=clock, login_failures_per_name=3, login_failures_per_address=5,
                              login_window=600.0, registrations_per_address=3)


def post(client, path: str, body: dict, token: str | None = None, headers: dict | None = None):
    h = dict(ORIGIN if headers is None else headers)
    if token:
        h["cookie"] = f"{COOKIE}={token}"
    response = client.post(path, json=body, headers=h)
    client.cookies.clear()
    return response


def me(client, token: str) -> dict:
    answer = client.get("/api/me", headers={"cookie": f"{COOKIE}={token}"}).json()
    client.cookies.clear()
    return answer


def register(client, name: str = "Ann", password: str = "correct horse") -> tuple[str, dict]:
    guest = new_session(client)
    r = post(client, "/api/register", {"name": name, "password": password}, guest)
    assert r.status_code == 200, r.text
    return r.cookies[COOKIE], r.json()


def test_register_turns_the_guest_into_an_account_with_a_new_token(client):
    guest = new_session(client)
    before = me(client, guest)
    assert before["account"] is False
    r = post(client, "/api/register", {"name": "Ann", "password": "correct horse"}, guest)
    assert r.status_code == 200
    assert r.json() == {"id": before["id"], "name": "Ann", "account": True}
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    token = r.cookies[COOKIE]
    assert token != guest
    assert me(client, token) == {"id": before["id"], "name": "Ann", "account": True}
    assert me(client, guest)["id"] != before["id"]  # the old token is worth nothing now


def test_login_and_logout(client):
    token, ann = register(client)
    other = new_session(client)
    r = post(client, "/api/login", {"name": "ann", "password": "correct horse"}, other)  # names: any case
    assert r.status_code == 200 and r.json()["id"] == ann["id"]
    second = r.cookies[COOKIE]
    assert second not in (token, other)
    assert me(client, second)["id"] == ann["id"] and me(client, token)["id"] == ann["id"]  # two browsers
    assert me(client, other)["id"] != ann["id"]  # the guest session that logged in ended
    r = post(client, "/api/logout", {}, second)
    assert r.status_code == 200 and "Max-Age=0" in r.headers["set-cookie"]
    assert me(client, second)["id"] != ann["id"]
    assert me(client, token)["id"] == ann["id"]


def test_error_keys_for_taken_names_wrong_passwords_and_bad_input(client):
    token, ann = register(client)
    r = post(client, "/api/register", {"name": "ANN", "password": "another one"}, new_session(client))
    assert r.status_code == 409 and r.json()["error"]["key"] == "error.name_taken"
    r = post(client, "/api/register", {"name": "Bob", "password": "another one"}, token)
    assert r.status_code == 409 and r.json()["error"]["key"] == "error.already_registered"
    r = post(client, "/api/register", {"name": "Bob", "password": "short"}, new_session(client))
    error = r.json()["error"]
    assert r.status_code == 400 and (error["key"], error["params"]) == ("error.bad_password", {"reason": "length"})
    assert error["message"] == "A password needs 8 to 128 characters."
    r = post(client, "/api/register", {"name": "x" * 25, "password": "long enough"}, new_session(client))
    assert r.json()["error"]["key"] == "error.bad_name"
    for name, password in (("Ann", "wrong password"), ("Nobody", "correct horse")):
        r = post(client, "/api/login", {"name": name, "password": password}, new_session(client))
        assert r.status_code == 401 and r.json()["error"]["key"] == "error.wrong_password"
        assert COOKIE not in r.cookies or me(client, r.cookies[COOKIE])["id"] != ann["id"]
    # a guest may not take an account's name, nor may another account
    guest = new_session(client)
    r = post(client, "/api/name", {"name": "ann"}, guest)
    assert r.status_code == 409 and r.json()["error"]["key"] == "error.name_taken"
    with Peer(client, guest) as peer:
        assert peer.error({"type": "name", "name": "Ann"})["key"] == "error.name_taken"


def test_an_account_renamed_logs_in_with_its_new_name(client):
    token, ann = register(client)
    assert post(client, "/api/name", {"name": "Annie"}, token).json() == {"id": ann["id"], "name": "Annie",
                                                                           "account": True}
    assert post(client, "/api/login", {"name": "Ann", "password": "correct horse"}).status_code == 401
    assert post(client, "/api/login", {"name": "Annie", "password": "correct horse"}).status_code == 200


def test_failed_logins_are_limited_per_name_and_address_and_per_address(client, clock: FakeClock):
    register(client)
    for _ in range(3):
        assert post(client, "/api/login", {"name": "Ann", "password": "guess guess"}).status_code == 401
    r = post(client, "/api/login", {"name": "Ann", "password": "correct horse"})
    assert r.status_code == 429 and r.json()["error"]["key"] == "error.too_many_attempts"
    assert 0 < r.json()["error"]["params"]["retry_after"] <= 600 and r.headers["retry-after"]
    clock.advance(601)
    assert post(client, "/api/login", {"name": "Ann", "password": "correct horse"}).status_code == 200
    # per address: failures for many names from one address
    for i in range(5):
        assert post(client, "/api/login", {"name": f"x{i}", "password": "whatever1"}).status_code == 401
    r = post(client, "/api/login", {"name": "Ann", "password": "correct horse"})
    assert r.status_code == 429
    clock.advance(601)
    assert post(client, "/api/login", {"name": "Ann", "password": "correct horse"}).status_code == 200


def test_a_restart_does_not_reset_the_login_limit(tmp_path: Path, clock: FakeClock):
    settings = settings_for_tests(tmp_path, clock=clock, login_failures_per_name=3, login_failures_per_address=50,
                                  login_window=600.0)
    with running(settings) as c:
        register(c)
        for _ in range(3):
            assert post(c, "/api/login", {"name": "Ann", "password": "guess guess"}).status_code == 401
    with running(settings) as c:  # a fresh server process on the same database
        r = post(c, "/api/login", {"name": "ann", "password": "correct horse"})
        assert r.status_code == 429 and r.json()["error"]["key"] == "error.too_many_attempts"
        clock.advance(601)
        assert post(c, "/api/login", {"name": "Ann", "password": "correct horse"}).status_code == 200
        for _ in range(2):  # a success cleared the name's count
            assert post(c, "/api/login", {"name": "Ann", "password": "guess guess"}).status_code == 401
        assert post(c, "/api/login", {"name": "Ann", "password": "correct horse"}).status_code == 200


def test_registrations_per_address_are_limited(client):
    for i in range(3):
        register(client, f"P{i}")
    r = post(client, "/api/register", {"name": "P9", "password": "long enough"}, new_session(client))
    assert r.status_code == 429 and r.json()["error"]["key"] == "error.too_many_attempts"


@pytest.mark.parametrize("headers", [
    {},  # neither Origin nor Referer
    {"origin": "http://evil.example"},
    {"origin": "null"},
    {"referer": "http://evil.example/page"},
    {"origin": "https://testserver"},  # another scheme is another origin
])
def test_posts_from_other_sites_change_nothing(client, headers: dict):
    guest = new_session(client)
    r = post(client, "/api/register", {"name": "Mallory", "password": "long enough"}, guest, headers)
    assert r.status_code == 403 and r.json()["error"]["key"] == "error.cross_site"
    r = post(client, "/api/name", {"name": "Mallory"}, guest, headers)
    assert r.status_code == 403
    assert me(client, guest)["name"] != "Mallory" and me(client, guest)["account"] is False


def test_a_same_site_referer_is_enough_and_form_posts_are_refused(client):
    guest = new_session(client)
    r = post(client, "/api/name", {"name": "Ref"}, guest, {"referer": "http://testserver/account"})
    assert r.status_code == 200
    r = client.post("/api/name", content="name=Form", headers={
        **ORIGIN, "cookie": f"{COOKIE}={guest}", "content-type": "application/x-www-form-urlencoded"})
    client.cookies.clear()
    assert r.status_code == 415 and me(client, guest)["name"] == "Ref"


def test_a_cross_site_websocket_is_closed(client):
    token = new_session(client)
    headers = {"cookie": f"{COOKIE}={token}", "origin": "http://evil.example"}
    with client.websocket_connect("/ws", headers=headers) as ws:
        assert ws.receive()["code"] == 4403


def test_logging_out_closes_the_sessions_sockets(client):
    token, _ = register(client)
    peer = Peer(client, token)
    post(client, "/api/logout", {}, token)
    with pytest.raises(ConnectionError, match="4401"):
        peer.expect("never")


def test_a_guest_claims_its_games_by_registering(client):
    guest = new_session(client)
    with Peer(client, guest) as peer:
        peer.send({"type": "create", "rules": {"match": "single"}, "join": True})
        table = peer.expect("created")["table"]
        peer.send({"type": "open", "table": table})
        peer.expect("table")
        peer.send({"type": "bot", "level": 1})
        peer.expect("table", lambda m: m["table"]["seats"][1] is not None)
        peer.send({"type": "start"})
        game = peer.expect("game")["game"]
        while not game["over"]:
            if game["legal"]:
                peer.send({"type": "action", "action": game["legal"][0], "ply": game["ply"]})
            game = peer.expect("game")["game"]
        guest_id = peer.id
    games = client.get(f"/api/players/{guest_id}/games").json()["games"]
    assert [g["id"] for g in games] == [game["id"]]
    r = post(client, "/api/register", {"name": "Claimer", "password": "long enough"}, guest)
    token = r.cookies[COOKIE]
    profile = client.get(f"/api/players/{guest_id}").json()
    assert profile["name"] == "Claimer" and profile["account"] is True
    assert profile["results"]["games"] == 1 and profile["ratings"]["forest"]["matches"] == 1
    assert client.get(f"/api/players/{guest_id}/games").json()["games"][0]["id"] == game["id"]
    assert me(client, token)["id"] == guest_id


def test_passwords_are_kept_as_argon2_hashes(client, tmp_path: Path):
    register(client, "Hashy", "plain text secret")
    data = (tmp_path / "halali.sqlite3").read_bytes() + (tmp_path / "halali.sqlite3-wal").read_bytes()
    assert b"plain text secret" not in data and b"$argon2id$" in data


def test_the_wait_doubles_with_each_further_failure_and_spares_other_addresses(tmp_path: Path,
                                                                                clock: FakeClock) -> None:
    settings = settings_for_tests(tmp_path, clock=clock, login_failures_per_name=3, login_failures_per_address=50,
                                  login_window=600.0, login_delay=10.0)
    with running(settings) as c:
        register(c)
        waits = []
        for _ in range(4):
            while (r := post(c, "/api/login", {"name": "Ann", "password": "guess guess"})).status_code == 401:
                pass
            assert r.status_code == 429
            waits.append(r.json()["error"]["params"]["retry_after"])
            clock.advance(waits[-1])
        assert waits == [10, 20, 40, 80]
    # The same name from another address is not throttled at all.
    from starlette.testclient import TestClient

    from halali.server.app import create_app

    with TestClient(create_app(settings), client=("127.0.0.2", 40000)) as other:
        assert post(other, "/api/login", {"name": "Ann", "password": "correct horse"}).status_code == 200


def test_a_new_password_ends_every_other_session(client):
    """Changing the password asks for the current one; then only the new password logs in, every
    other session of the account is logged out (its sockets closed), and the changer's goes on with a
    new cookie."""
    token, ann = register(client)
    elsewhere = post(client, "/api/login", {"name": "Ann", "password": "correct horse"}, new_session(client))
    thief = elsewhere.cookies[COOKIE]
    watching = Peer(client, thief)
    wrong = post(client, "/api/password", {"current": "not it at all", "password": "a new forest path"}, token)
    assert wrong.status_code == 401 and wrong.json()["error"]["key"] == "error.wrong_current_password"
    short = post(client, "/api/password", {"current": "correct horse", "password": "short"}, token)
    refused = short.json()["error"]
    assert refused["key"] == "error.bad_password" and refused["params"] == {"reason": "length"}
    assert me(client, thief)["id"] == ann["id"]  # refused: nothing changed

    r = post(client, "/api/password", {"current": "correct horse", "password": "a new forest path"}, token)
    assert r.status_code == 200 and r.json()["id"] == ann["id"]
    renewed = r.cookies[COOKIE]
    assert renewed not in (token, thief) and me(client, renewed)["id"] == ann["id"]
    assert me(client, thief)["id"] != ann["id"] and me(client, token)["id"] != ann["id"]
    with pytest.raises(ConnectionError, match="4401"):
        watching.expect("never")
    old = post(client, "/api/login", {"name": "Ann", "password": "correct horse"}, new_session(client))
    assert old.json()["error"]["key"] == "error.wrong_password"
    new = post(client, "/api/login", {"name": "Ann", "password": "a new forest path"}, new_session(client))
    assert new.status_code == 200 and new.json()["id"] == ann["id"]


def test_a_password_change_is_for_accounts_and_is_throttled_as_a_login(client):
    guest = new_session(client)
    r = post(client, "/api/password", {"current": "x" * 8, "password": "y" * 8}, guest)
    assert r.status_code == 400 and r.json()["error"]["key"] == "error.account_needed"
    token, _ = register(client)
    for _ in range(3):  # the limit per name and address (server_settings)
        post(client, "/api/password", {"current": "guessing again", "password": "a new forest path"}, token)
    r = post(client, "/api/password", {"current": "correct horse", "password": "a new forest path"}, token)
    assert r.status_code == 429 and r.json()["error"]["key"] == "error.too_many_attempts"
