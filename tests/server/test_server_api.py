"""HTTP routes, session cookies, the lobby, seats and chat commands of the game server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from halali.server.settings import Settings
from halali.server.testing import Peer, new_session, running, settings_for_tests


@pytest.fixture
def web(tmp_path: Path) -> Path:
    web = tmp_path / "web"
    web.mkdir()
    for name in ("index.html", "table.html", "how-to-play.html"):
        (web / name).write_text(f"<!doctype html><title>{name}</title>")
    (web / "app.js").write_text("export const x = 1;")
    return web


@pytest.fixture
def server_settings(tmp_path: Path, web: Path) -> Settings:
    return settings_for_tests(tmp_path / "data", web_dir=web)


def open_table(peer: Peer, table_id: str) -> dict:
    peer.send({"type": "open", "table": table_id})
    return peer.expect("table", lambda m: m["table"]["id"] == table_id)


def create(peer: Peer, **fields) -> str:
    peer.send({"type": "create", **fields})
    return peer.expect("created")["table"]


def test_pages_static_files_and_the_session_cookie(client, web):
    r = client.get("/")
    assert r.status_code == 200 and "index.html" in r.text
    cookie = r.headers["set-cookie"]
    assert "halali_session=" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    me = client.get("/api/me").json()
    assert client.get("/api/me").json() == me  # the cookie jar keeps the same player
    assert "set-cookie" not in client.get("/api/me").headers
    assert "how-to-play.html" in client.get("/how-to-play").text
    assert client.get("/static/app.js").text == "export const x = 1;"
    assert client.get("/table/t_nosuchtab").status_code == 404
    assert client.get("/api/health").json() == {"ok": True}


def test_only_the_apps_own_routes_make_a_visitor_a_guest(client, web):
    """A browser asks for /favicon.ico by itself, often while the next page loads: that answer (and a
    file's, a health check's, a crawler's guess) must not carry a second guest's cookie."""
    (web / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    client.cookies.clear()
    for path in ("/favicon.ico", "/static/app.js", "/api/health", "/no/such/page", "/robots.txt"):
        r = client.get(path)
        assert "set-cookie" not in r.headers, path
        assert not client.cookies, path
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert client.get("/no/such/page").status_code == 404
    for path in ("/", "/how-to-play", "/api/me"):
        client.cookies.clear()
        assert "halali_session=" in client.get(path).headers["set-cookie"], path


def test_table_page_exists_once_the_table_does(client):
    with Peer(client) as ann:
        table_id = create(ann)
        r = client.get(f"/table/{table_id}")
        assert r.status_code == 200 and "table.html" in r.text


def test_name_is_checked_and_kept(client):
    token = new_session(client)
    headers = {"cookie": f"halali_session={token}", "origin": "http://testserver"}  # posts come from our pages
    assert client.post("/api/name", json={"name": "  Ann   Lee "}, headers=headers).json()["name"] == "Ann Lee"
    assert client.get("/api/me", headers=headers).json()["name"] == "Ann Lee"
    bad = client.post("/api/name", json={"name": "x" * 25}, headers=headers)
    assert bad.status_code == 400 and bad.json()["error"]["key"] == "error.bad_name"
    assert client.post("/api/name", json={"name": "a\u0007b"}, headers=headers).json()["error"]["params"] == {
        "reason": "characters"}
    with Peer(client, token) as ann:
        assert ann.welcome["you"]["name"] == "Ann Lee"
        ann.send({"type": "name", "name": "Annie"})
        assert ann.expect("you")["you"]["name"] == "Annie"
        assert ann.error({"type": "name", "name": ""})["key"] == "error.bad_name"
    assert client.get("/api/me", headers=headers).json()["name"] == "Annie"


def test_websocket_without_session_is_closed(client):
    client.cookies.clear()
    with client.websocket_connect("/ws") as ws:
        msg = ws.receive()
        assert msg["type"] == "websocket.close" and msg["code"] == 4401


def test_lobby_lists_tables_with_rules_seats_and_online_players(client):
    with Peer(client) as ann, Peer(client) as bob:
        ann.send({"type": "lobby"})
        lobby = ann.expect("lobby")
        assert {p["id"] for p in lobby["online"]} >= {ann.id, bob.id}
        table_id = create(bob, rules={"match": "single", "stall_limit": 12, "no_return_neutrals": True}, join=True)
        summary = ann.expect("lobby_table", lambda m: m["table"]["seats"][0] is not None)["table"]
        assert summary["id"] == table_id and summary["state"] == "waiting"
        assert summary["rules"] == {"green_lock": "revealed_or_moved", "no_return_neutrals": True,
                                    "stall_limit": 12, "match": "single"}
        assert summary["seats"][0]["id"] == bob.id and summary["seats"][1] is None
        assert summary["number_of_games"] == 1
        assert client.get("/api/lobby").json()["tables"][0]["id"] == table_id
        open_table(ann, table_id)
        summary = next(m for m in ann.received if m["type"] == "lobby_table" and m["table"]["spectators"])["table"]
        assert summary["spectators"] == [{"id": ann.id, "name": ann.welcome["you"]["name"]}]
        bob.close()
        online = ann.expect("online", lambda m: bob.id not in {p["id"] for p in m["online"]})
        assert ann.id in {p["id"] for p in online["online"]}


def test_bad_rule_options_are_refused(client):
    with Peer(client) as ann:
        assert ann.error({"type": "create", "rules": {"green_lock": "never"}})["key"] == "error.bad_rules"
        assert ann.error({"type": "create", "rules": {"colour": "red"}})["key"] == "error.bad_rules"
        assert ann.error({"type": "create", "rules": {"stall_limit": 10**6}})["key"] == "error.bad_rules"
        assert ann.error({"type": "create", "rules": ["match=single"]})["key"] == "error.bad_request"
        assert client.get("/api/lobby").json()["tables"] == []


def test_seed_is_refused_outside_test_mode(tmp_path, web):
    with running(settings_for_tests(tmp_path / "d", web_dir=web, test_seeds=False)) as c, Peer(c) as ann:
        assert ann.error({"type": "create", "seed": 3})["key"] == "error.bad_request"
        assert c.get("/api/lobby").json()["tables"] == []


def test_chat_commands_seat_people_and_bots(client):
    with Peer(client) as ann, Peer(client) as bob:
        table_id = create(ann)
        open_table(ann, table_id)
        open_table(bob, table_id)
        ann.send({"type": "chat", "text": "/join"})
        joined = bob.expect("chat", lambda m: m["line"].get("key") == "chat.joined")["line"]
        assert joined["params"] == {"name": ann.welcome["you"]["name"], "seat": 0}
        state = bob.expect("table", lambda m: m["table"]["seats"][0] is not None)
        assert state["table"]["you"] == {"id": bob.id, "seat": None, "hints": False}
        assert ann.error({"type": "chat", "text": "/join"})["key"] == "error.already_seated"
        assert bob.error({"type": "chat", "text": "/bot greedy"})["key"] == "error.not_owner"
        ann.send({"type": "chat", "text": "/bot greedy"})
        added = bob.expect("chat", lambda m: m["line"].get("key") == "chat.bot_added")["line"]["params"]
        assert added == {"name": {"bot": 2, "name": "greedy"}, "level": 2, "seat": 1, "by": ann.welcome["you"]["name"]}
        assert bob.error({"type": "chat", "text": "/join"})["key"] == "error.table_full"
        assert bob.error({"type": "chat", "text": "/bot 99"})["key"] == "error.bad_level"
        assert bob.error({"type": "chat", "text": "/start"})["key"] == "error.not_seated"
        ann.send({"type": "chat", "text": "/frobnicate"})
        help_line = ann.expect("chat", lambda m: m["line"].get("key") == "chat.help")["line"]
        assert help_line["private"] is True and "1 random" in help_line["params"]["levels"]
        bob.send({"type": "chat", "text": "hello <b>all</b>"})
        line = ann.expect("chat", lambda m: "text" in m["line"])["line"]
        assert line["text"] == "hello <b>all</b>" and line["from"]["id"] == bob.id
        ann.send({"type": "chat", "text": "/watch"})
        ann.expect("chat", lambda m: m["line"].get("key") == "chat.watching")
        table = ann.expect("table", lambda m: m["table"]["seats"][0] is None)["table"]
        assert table["you"]["seat"] is None and {"id": ann.id, "name": ann.welcome["you"]["name"]} in table[
            "spectators"]
        assert bob.error({"type": "unbot", "seat": 1})["key"] == "error.not_owner"
        # The chat counts seats from 1, as its notices do: the computer sits in seat 2.
        for wrong in ("/unbot 7", "/unbot 0", "/unbot"):
            refused = ann.error({"type": "chat", "text": wrong})
            assert (refused["key"], refused["params"]) == ("error.bad_request", {"field": "seat"})
        assert ann.error({"type": "chat", "text": "/unbot 1"})["key"] == "error.not_a_bot"
        ann.send({"type": "chat", "text": "/unbot 2"})
        ann.expect("table", lambda m: m["table"]["seats"][1] is None)
        bob.send({"type": "chat", "text": "/leave"})
        assert bob.expect("left")["table"] == table_id


def test_chat_needs_a_table_and_a_sane_length(client):
    with Peer(client) as ann:
        assert ann.error({"type": "chat", "text": "hi"})["key"] == "error.no_table"
        table_id = create(ann)
        open_table(ann, table_id)
        assert ann.error({"type": "chat", "text": "x" * 501})["key"] == "error.bad_chat"
        assert ann.error({"type": "chat", "text": "   "})["key"] == "error.bad_chat"


def test_malformed_and_oversized_messages_are_answered_and_change_nothing(client):
    with Peer(client) as ann:
        assert ann.error("not json")["key"] == "error.malformed"
        assert ann.error("[1, 2]")["key"] == "error.malformed"
        assert ann.error({"kind": "create"})["key"] == "error.malformed"
        assert ann.error({"type": "teleport", "ref": 5}) == {
            "type": "error", "key": "error.unknown_type", "params": {"type": "teleport"},
            "message": "Unknown message type teleport.", "ref": 5}
        big = json.dumps({"type": "create", "rules": {"match": "single"}, "pad": "x" * 5000})
        assert ann.error(big)["key"] == "error.too_large"
        assert ann.error({"type": "open", "table": ["t"]})["key"] == "error.no_table"
        assert client.get("/api/lobby").json()["tables"] == []
        ann.send({"type": "ping"})
        assert ann.expect("pong") == {"type": "pong"}


def test_too_many_messages_are_refused(tmp_path, web):
    settings = settings_for_tests(tmp_path / "d", web_dir=web, rate_burst=5, rate_per_second=0.01)
    with running(settings) as c, Peer(c) as ann:
        for _ in range(5):
            ann.send({"type": "ping"})
            ann.expect("pong")
        assert ann.error({"type": "ping"})["key"] == "error.busy"


def test_every_page_renders_with_the_shared_head_and_top_bar():
    from halali.server.app import Pages

    web = Path(__file__).resolve().parents[2] / "src/halali/web"
    pages = Pages(web)
    names = sorted(p.name for p in web.glob("*.html"))
    assert len(names) >= 10
    for name in names:
        response = pages.response(name)
        html = bytes(response.body).decode("utf-8")
        assert response.status_code == 200 and html.startswith("<!doctype html>"), name
        assert html.count('data-testid="lang-select"') == 1 and html.count('data-testid="toast"') == 1, name
        script = {"index.html": "lobby.js", "how-to-play.html": "howto.js"}.get(name, name.replace(".html", ".js"))
        assert f'src="/static/js/{script}"' in html, name
        assert "{{" not in html and "{%" not in html, name
    table = bytes(pages.response("table.html").body).decode()
    assert 'data-testid="chat-form"' in table and 'target="_blank"' in table  # a game page opens the rules aside
    assert 'aria-current="page"' in bytes(pages.response("history.html").body).decode()
    assert pages.response("nothing.html").status_code == 404
