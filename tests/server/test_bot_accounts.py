"""Bot accounts: marking (and its refusals), API tokens made, listed, used and revoked, only hashes kept,
a token authenticating HTTP and the WebSocket, a revoked token refused and its socket closed, the BOT
flag in what the server sends, and the bots' own leaderboard."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from halali.server.settings import Settings
from halali.server.testing import Peer, call, computer_match, new_session, server_of, settings_for_tests
from halali.store import hash_token
from halali.store import schema as s

ORIGIN = {"origin": "http://testserver"}
COOKIE = "halali_session"


@pytest.fixture
def server_settings(tmp_path: Path) -> Settings:
    return settings_for_tests(tmp_path, api_tokens_per_account=3)


def post(client, path: str, body: dict, token: str | None = None, bearer: str | None = None):
    headers = dict(ORIGIN)
    if token:
        headers["cookie"] = f"{COOKIE}={token}"
    if bearer:
        headers = {"authorization": f"Bearer {bearer}"}  # a program: no origin, no cookie
    response = client.post(path, json=body, headers=headers)
    client.cookies.clear()
    return response


def get(client, path: str, token: str | None = None, bearer: str | None = None):
    headers = {"cookie": f"{COOKIE}={token}"} if token else {}
    if bearer:
        headers["authorization"] = f"Bearer {bearer}"
    response = client.get(path, headers=headers)
    client.cookies.clear()
    return response


def account(client, name: str) -> tuple[str, str]:
    """A registered account: (its session cookie, its id)."""
    r = post(client, "/api/register", {"name": name, "password": "correct horse"}, new_session(client))
    assert r.status_code == 200, r.text
    return r.cookies[COOKIE], r.json()["id"]


def bot_with_token(client, name: str = "Robo") -> tuple[str, str, str]:
    """A bot account with one token: (the owner's cookie, the bot's id, the token)."""
    cookie, pid = account(client, name)
    assert post(client, "/api/bot-account", {}, cookie).json()["bot_account"] is True
    r = post(client, "/api/tokens", {"label": "laptop"}, cookie)
    assert r.status_code == 200, r.text
    return cookie, pid, r.json()["token"]


def test_an_account_becomes_a_bot_account_and_stays_one(client):
    cookie, pid = account(client, "Robo")
    r = post(client, "/api/bot-account", {}, cookie)
    assert r.status_code == 200
    assert r.json() == {"id": pid, "name": "Robo", "bot_account": True, "account": True}
    assert post(client, "/api/bot-account", {}, cookie).status_code == 200  # again: still one, nothing new
    assert get(client, f"/api/players/{pid}").json()["bot_account"] is True
    assert get(client, "/api/me", cookie).json()["bot_account"] is True


def test_a_guest_or_a_rated_player_cannot_become_a_bot(client):
    guest = new_session(client)
    r = post(client, "/api/bot-account", {}, guest)
    assert r.status_code == 400 and r.json()["error"]["key"] == "error.not_account"
    cookie, pid = account(client, "Person")
    with Peer(client, cookie) as person:  # one rated game as a person, against a computer player
        person.send({"type": "create", "join": True, "rules": {"match": "single"}})
        table = person.expect("created")["table"]
        person.send({"type": "open", "table": table})
        person.send({"type": "bot", "level": 1})
        person.expect("table", lambda m: m["table"]["seats"][1] is not None)
        person.send({"type": "start"})
        person.expect("game")
    r = post(client, "/api/bot-account", {}, cookie)
    assert r.status_code == 400 and r.json()["error"]["key"] == "error.played_rated"
    assert r.json()["error"]["message"].startswith("This account has played rated games")
    assert get(client, f"/api/players/{pid}").json()["bot_account"] is False
    # tokens are only for bot accounts
    r = post(client, "/api/tokens", {"label": "x"}, cookie)
    assert r.status_code == 400 and r.json()["error"]["key"] == "error.not_bot_account"


def test_tokens_are_shown_once_listed_without_the_secret_and_stored_as_hashes(client):
    cookie, _pid, token = bot_with_token(client)
    assert token.startswith("hal_") and len(token) > 40
    listed = get(client, "/api/tokens", cookie).json()["tokens"]
    assert [t["label"] for t in listed] == ["laptop"] and listed[0]["last_used"] is None
    assert token not in str(listed)
    store = server_of(client).ctx.store
    with store.engine.connect() as conn:
        stored = conn.execute(select(s.api_tokens.c.token_hash)).scalars().all()
    assert stored == [hash_token(token)]
    # bad labels and the limit change nothing
    for label in ("", "x" * 41, "a\u0007b", 5):
        r = post(client, "/api/tokens", {"label": label}, cookie)
        assert r.status_code == 400 and r.json()["error"]["params"] == {"field": "label"}
    post(client, "/api/tokens", {"label": "two"}, cookie)
    post(client, "/api/tokens", {}, cookie)
    r = post(client, "/api/tokens", {"label": "four"}, cookie)
    assert r.status_code == 400 and r.json()["error"] == {
        "type": "error", "key": "error.too_many_tokens", "params": {"max": 3},
        "message": "This account has too many API tokens (at most 3); revoke one first."}
    assert [t["label"] for t in get(client, "/api/tokens", cookie).json()["tokens"]] == ["laptop", "two", "bot"]


def test_a_token_authenticates_http_but_makes_no_new_token(client):
    cookie, pid, token = bot_with_token(client)
    r = get(client, "/api/me", bearer=token)
    assert r.json() == {"id": pid, "name": "Robo", "bot_account": True, "account": True}
    assert "set-cookie" not in r.headers  # a program gets no guest session on the side
    assert get(client, "/api/tokens", cookie).json()["tokens"][0]["last_used"] is not None
    assert post(client, "/api/name", {"name": "Robo Two"}, bearer=token).json()["name"] == "Robo Two"
    r = post(client, "/api/tokens", {"label": "more"}, bearer=token)
    assert r.status_code == 403 and r.json()["error"]["key"] == "error.token_needs_login"
    for bad in ("hal_nonsense", "nonsense", " "):
        r = get(client, "/api/me", bearer=bad)
        assert r.status_code == 401 and r.json()["error"]["key"] == "error.bad_token"
    r = client.get("/api/me", headers={"authorization": "Basic eDp5"})  # a proxy's login: not ours to judge
    client.cookies.clear()
    assert r.status_code == 200 and r.json()["id"] != pid


def test_a_token_opens_the_websocket_and_a_revoked_token_is_refused_and_its_socket_closed(client):
    cookie, pid, token = bot_with_token(client)
    _, _, other = bot_with_token(client, "Other")
    with client.websocket_connect("/ws", headers={"authorization": f"Bearer {token}"}) as ws:
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome"
        assert welcome["you"] == {"id": pid, "name": "Robo", "bot_account": True}
        with Peer(client, cookie) as owner:  # the owner's browser, by its cookie, is the same player
            assert owner.id == pid
            token_id = get(client, "/api/tokens", cookie).json()["tokens"][0]["id"]
            r = post(client, f"/api/tokens/{token_id}/revoke", {}, cookie)
            assert r.json() == {"ok": True}
            message = ws.receive()
            assert message["type"] == "websocket.close" and message["code"] == 4401
            owner.sync()  # the cookie's socket stays open
        with Peer(client, cookie):
            pass
    assert get(client, "/api/me", bearer=token).status_code == 401
    with client.websocket_connect("/ws", headers={"authorization": f"Bearer {token}"}) as ws:
        assert ws.receive()["code"] == 4401
    # another bot's token is another bot's: revoking it is not this owner's to do
    r = post(client, f"/api/tokens/{token_id + 1}/revoke", {}, cookie)
    assert r.status_code == 404 and r.json()["error"]["key"] == "error.no_token"
    assert get(client, "/api/me", bearer=other).status_code == 200
    r = post(client, "/api/tokens/abc/revoke", {}, cookie)
    assert r.status_code == 404 and r.json()["error"]["key"] == "error.no_token"


def test_bots_are_flagged_at_the_table_and_in_the_lobby(client):
    cookie, pid, _token = bot_with_token(client)
    with Peer(client, cookie) as bot, Peer(client) as person:
        person.send({"type": "lobby"})
        assert {"id": pid, "name": "Robo", "bot_account": True} in person.expect("lobby")["online"]
        bot.send({"type": "create", "join": True})
        table = bot.expect("created")["table"]
        card = person.expect("lobby_table", lambda m: m["table"]["id"] == table and m["table"]["seats"][0] is not None)
        assert card["table"]["seats"][0] == {"id": pid, "name": "Robo", "bot": None, "online": True,
                                             "bot_account": True}
        person.send({"type": "open", "table": table})
        seats = person.expect("table")["table"]["seats"]
        assert seats[0]["bot_account"] is True
        bot.send({"type": "chat", "table": table, "text": "good luck"})
        line = person.expect("chat", lambda m: "text" in m["line"])["line"]
        assert line["from"] == {"id": pid, "name": "Robo", "bot_account": True}


def test_bot_accounts_have_a_ladder_of_their_own(client):
    cookie, pid, _token = bot_with_token(client)
    with Peer(client, cookie) as bot:
        bot.send({"type": "create", "join": True, "rules": {"match": "single"}})
        table = bot.expect("created")["table"]
        bot.send({"type": "open", "table": table})
        bot.send({"type": "bot", "level": 1})
        bot.expect("table", lambda m: m["table"]["seats"][1] is not None)
        bot.send({"type": "start"})
        bot.expect("game")
        bot.send({"type": "resign", "confirm": True})
        bot.expect("chat", lambda m: m["line"].get("key") == "chat.rating")
    computer_match(client, (1, 2), rules={"match": "single"})  # bot_1 and bot_2 on the people's board
    people = get(client, "/api/leaderboard").json()
    bots = get(client, "/api/leaderboard?board=bots").json()
    assert pid not in [p["id"] for p in people["players"]] and "bot_1" in [p["id"] for p in people["players"]]
    assert bots["board"] == "bots" and [p["id"] for p in bots["players"]] == [pid]
    assert bots["players"][0]["bot_account"] is True and bots["total"] == 1
    assert get(client, f"/api/players/{pid}").json()["ratings"]["forest"]["rank"] == 1
    r = get(client, "/api/leaderboard?board=robots")
    assert r.status_code == 400 and r.json()["error"]["params"] == {"field": "board"}


def test_bot_limits_refuse_a_seat_beyond_them(tmp_path):
    from halali.server.testing import running

    with running(settings_for_tests(tmp_path, bot_games_at_once=1, bot_games_per_day=100)) as client:
        cookie, _pid, _token = bot_with_token(client)
        with Peer(client, cookie) as bot:
            bot.send({"type": "create", "join": True})
            bot.expect("created")
            bot.send({"type": "create", "join": False})
            second = bot.expect("created")["table"]
            error = bot.error({"type": "join", "table": second})
            assert error["key"] == "error.bot_busy" and error["params"] == {"max": 1}
            assert error["message"] == "This bot plays too many games at once (at most 1)."
            assert call(client, server_of(client).tables.table, second).seats[0].player_id is None


def test_bot_daily_limit(tmp_path):
    from halali.server.testing import running

    with running(settings_for_tests(tmp_path, bot_games_per_day=1)) as client:
        cookie, _pid, _token = bot_with_token(client)
        with Peer(client, cookie) as bot:
            bot.send({"type": "create", "join": True, "rules": {"match": "single"}})
            first = bot.expect("created")["table"]
            bot.send({"type": "open", "table": first})
            bot.send({"type": "bot", "level": 1})
            bot.expect("table", lambda m: m["table"]["seats"][1] is not None)
            bot.send({"type": "start"})
            bot.expect("game")
            bot.send({"type": "abort"})  # an aborted match is not counted
            bot.expect("chat", lambda m: m["line"].get("key") == "chat.aborted")
            bot.send({"type": "leave"})
            bot.expect("left")
            bot.send({"type": "join", "table": first})
            bot.send({"type": "start", "table": first})
            bot.expect("game")
            bot.send({"type": "resign", "table": first, "confirm": True})
            bot.expect("chat", lambda m: m["line"].get("key") == "chat.resigned")
            bot.send({"type": "create", "join": False})
            second = bot.expect("created")["table"]
            error = bot.error({"type": "join", "table": second})
            assert error["key"] == "error.bot_daily_limit" and error["params"] == {"max": 1}
