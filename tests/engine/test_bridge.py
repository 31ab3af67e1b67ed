"""The bot bridge for real: ``halali bot`` as a process, a real ``halali serve`` and a real engine process.

A person (this test, over its own WebSocket) challenges the bot account; the bridge accepts, starts
``halali engine --level 1`` for the table and plays the match to its end, through a restart of the
server in the middle (the bridge reconnects and resumes). A challenge its owner's policy does not
allow is declined with the reason. When the bridge is stopped, or killed outright, no engine process is
left behind.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

import loopback
from halali.engine.bridge import Policy, ws_url
from proc_helpers import children, running
from serve_helpers import free_port, serve

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process tree from /proc"),
              pytest.mark.heavy]
HALALI = [sys.executable, "-m", "halali.cli"]
COOKIE = "halali_session"
HTTP = 30.0  # seconds: a bound for a busy machine (registering hashes a password), not a test of speed


class Person:
    """A person's browser, reduced to its WebSocket; reconnects when the server comes back."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookie = loopback.get(f"{base}/api/me", timeout=HTTP).cookies[COOKIE]
        self.ws = self.connect()
        self.id: str = self.expect("welcome")["you"]["id"]

    def connect(self) -> ClientConnection:
        url = self.base.replace("http://", "ws://") + "/ws"
        deadline = time.monotonic() + 60
        while True:
            try:
                return connect(url, additional_headers={"Cookie": f"{COOKIE}={self.cookie}"}, legacy=True)
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def expect(self, kind: str, where: Callable[[dict[str, Any]], bool] | None = None,
               timeout: float = 60.0, also: str | None = None) -> dict[str, Any]:
        """The next message of this type (or of type ``also``) that passes ``where``."""
        deadline = time.monotonic() + timeout
        while True:
            msg = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if msg["type"] in (kind, also) and (where is None or where(msg)):
                return msg


def bot_account(base: str, name: str) -> tuple[str, str, str]:
    """A registered bot account with a token: (its id, the token, the owner's session cookie)."""
    with loopback.client(base_url=base, headers={"origin": base}, timeout=HTTP) as http:
        http.get("/api/me")
        r = http.post("/api/register", json={"name": name, "password": "correct horse"})
        assert r.status_code == 200, r.text
        assert http.post("/api/bot-account", json={}).json()["bot_account"] is True
        return r.json()["id"], http.post("/api/tokens", json={"label": "test"}).json()["token"], \
            http.cookies[COOKIE]


@contextlib.contextmanager
def bridge(base: str, token: str, log: Path, *options: str) -> Iterator[subprocess.Popen[bytes]]:
    """``halali bot`` for this token; what it says goes to ``log`` (printed when the test fails)."""
    with log.open("wb") as out:
        proc = subprocess.Popen([*HALALI, "bot", "--server", base, "--token", token, "--movetime", "0.05", "-v",
                                 *options, "--", *HALALI, "engine", "--level", "1"], stderr=out)
        try:
            yield proc
        except BaseException:
            print(log.read_text())
            raise
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def play_until_over(person: Person, table: str, stop_after: int | None = None) -> dict[str, Any] | None:
    """Play the person's seat with the first legal action each turn; the last `game` once the match is
    over, or None after ``stop_after`` of the person's actions."""
    actions = 0
    while True:  # a whole `table` (when opened) or a `game`, whichever comes
        msg = person.expect("game", lambda m: m["table"] == table or m.get("table", {}).get("id") == table,
                            timeout=120, also="table")
        if msg["type"] == "table":
            if not msg["games"]:
                continue
            msg = {"game": msg["games"][-1], "match": msg["match"]}
        if msg["match"]["over"]:
            return msg
        game = msg["game"]
        if game["legal"]:
            if stop_after is not None and actions >= stop_after:
                return None
            person.send({"type": "action", "table": table, "action": game["legal"][0], "ply": game["ply"]})
            actions += 1


def test_the_bridge_accepts_a_challenge_and_plays_the_match_through_a_server_restart(tmp_path: Path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(tmp_path / "data", port)
    try:
        bot_id, token, _ = bot_account(base, "Robo")
        with bridge(base, token, tmp_path / "bot.log", "--unrated", "--modes", "live") as bot:
            person = Person(base)
            person.send({"type": "lobby"})
            # a rated challenge: this bot plays unrated only, and says so
            person.send({"type": "challenge", "to": bot_id, "rules": {"match": "single"}, "rated": True})
            declined = person.expect("challenge_declined")
            assert (declined["reason"], declined["key"]) == ("casual", "decline.casual")
            person.send({"type": "challenge", "to": bot_id, "rules": {"match": "single"}, "rated": False,
                         "clock": {"initial": 600, "increment": 2}})  # the engine is told both clocks
            table = person.expect("challenge_accepted")["table"]
            engines = set()
            deadline = time.monotonic() + 60
            while not engines and time.monotonic() < deadline:  # the table's own engine process
                engines = children(bot.pid)
                time.sleep(0.05)
            assert len(engines) == 1
            person.send({"type": "open", "table": table})
            assert play_until_over(person, table, stop_after=3) is None
            server.send_signal(signal.SIGTERM)  # the server goes away mid-game ...
            server.wait(timeout=30)
            server = serve(tmp_path / "data", port)  # ... and comes back, the table rebuilt from the store
            person.ws = person.connect()
            person.send({"type": "open", "table": table})
            last = play_until_over(person, table)
            assert last is not None and last["game"]["over"] and last["match"]["over"]
            assert len(last["game"]["history"]) > 6  # both sides played, before and after the restart
            seats = loopback.get(f"{base}/api/lobby", timeout=HTTP).json()["tables"]
            card = next(c for c in seats if c["id"] == table)
            assert card["seats"][1]["id"] == bot_id and card["seats"][1]["bot_account"] is True
            deadline = time.monotonic() + 30
            while any(running(p) for p in engines) and time.monotonic() < deadline:  # the match over, its engine ends
                time.sleep(0.05)
            assert not any(running(p) for p in engines)
            # a second match, then the bridge stops in the middle of it: its engine goes with it
            person.send({"type": "challenge", "to": bot_id, "rules": {"match": "single"}, "rated": False})
            second = person.expect("challenge_accepted")["table"]
            deadline = time.monotonic() + 60
            while not (engines := children(bot.pid)) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert engines
            bot.send_signal(signal.SIGTERM)
            assert bot.wait(timeout=30) == 0
            assert not any(running(p) for p in engines), second
        # killed outright, the bridge cannot tell its engine anything: the engine sees its input end
        with bridge(base, token, tmp_path / "bot2.log") as bot:
            person.send({"type": "challenge", "to": bot_id, "rules": {"match": "single"}, "rated": False})
            person.expect("challenge_accepted")
            deadline = time.monotonic() + 60
            while not (engines := children(bot.pid)) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert engines
            bot.kill()
            bot.wait()
            deadline = time.monotonic() + 15
            while any(running(p) for p in engines) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not any(running(p) for p in engines)
        person.ws.close()
    finally:
        server.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=30)
        if server.poll() is None:
            server.kill()


def test_a_revoked_token_stops_the_bridge(tmp_path: Path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(tmp_path / "data", port)
    try:
        proc = subprocess.run([*HALALI, "bot", "--server", base, "--token", "hal_wrong", "--", *HALALI, "engine"],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 1 and "refused the token" in proc.stderr
        bot_id, token, cookie = bot_account(base, "Robo")
        with bridge(base, token, tmp_path / "bot.log") as bot:
            deadline = time.monotonic() + 60
            while bot_id not in [p["id"] for p in loopback.get(f"{base}/api/lobby", timeout=HTTP).json()["online"]]:
                assert time.monotonic() < deadline and bot.poll() is None
                time.sleep(0.05)
            with loopback.client(base_url=base, headers={"origin": base}, cookies={COOKIE: cookie},
                                 timeout=HTTP) as owner:
                token_id = owner.get("/api/tokens").json()["tokens"][0]["id"]
                assert owner.post(f"/api/tokens/{token_id}/revoke", json={}).json() == {"ok": True}
            assert bot.wait(timeout=30) == 1  # closed at once, and no point in trying again
        assert "refused the token" in (tmp_path / "bot.log").read_text()
    finally:
        server.kill()
        server.wait()


def test_the_policy_and_the_address():
    forest = {"game": "forest", "rated": False, "mode": "live", "rules": {"match": "single", "stall_limit": 30}}
    policy = Policy(rated=False, modes=frozenset({"live"}), max_games=2, rules={"match": "single"})
    assert policy.refusal(forest, playing=0) is None
    assert policy.refusal({**forest, "rated": True}, 0) == "casual"
    assert policy.refusal({**forest, "mode": "correspondence"}, 0) == "mode"
    assert policy.refusal({**forest, "rules": {"match": "match"}}, 0) == "rules"
    assert policy.refusal({**forest, "game": "hare"}, 0) == "generic"
    assert policy.refusal(forest, playing=2) == "later"
    assert Policy(rules={"no_return_neutrals": "true"}).refusal(
        {**forest, "rules": {"no_return_neutrals": True}}, 0) is None  # as the command line writes it
    assert ws_url("http://127.0.0.1:8000") == "ws://127.0.0.1:8000/ws"
    assert ws_url("https://halali.example/") == "wss://halali.example/ws"
    assert ws_url("halali.example:8000") == "ws://halali.example:8000/ws"
    assert ws_url("wss://halali.example/ws") == "wss://halali.example/ws"


def test_the_engine_hears_both_clocks_and_an_illegal_answer_is_replaced():
    from halali.engine.bridge import Bridge, TablePlayer
    from halali.engine.client import GoResult

    class Engine:
        def __init__(self, answer: str) -> None:
            self.answer, self.calls = answer, []

        def set_rules(self, rules):
            self.rules = rules

        def go(self, position, movetime=None, hard_timeout=None, extra=()):
            self.calls.append((position, movetime, hard_timeout, list(extra)))
            return GoResult(self.answer, 0.01)

    player = TablePlayer(Bridge("http://127.0.0.1:1", "hal_x", ["engine"]), "t_x")
    player.rules = {"match": "single", "stall_limit": 10}
    game = {"number": 1, "ply": 4, "position": "P", "legal": ["?a1", "?a2"], "colours": ["brown", "blue"],
            "seat_to_move": 1, "clock": {"initial": 300, "increment": 2, "remaining": [250000, 280000], "running": 1}}
    player.engine = engine = Engine("?a2")  # type: ignore[assignment]
    assert player.think(game, time.monotonic()) == "?a2"
    position, movetime, hard, extra = engine.calls[0]
    assert position == "P" and movetime is None and 60 < hard <= 70
    assert extra[:4] == ["browntime", "250000", "browninc", "2000"] and extra[4:6][0] == "bluetime"
    assert 279000 < int(extra[5]) <= 280000 and extra[6:] == ["blueinc", "2000"]
    assert engine.rules.stall_limit == 10
    player.engine = engine = Engine("c3xc6")  # type: ignore[assignment]
    assert player.think({**game, "clock": None}, time.monotonic()) == "?a1"  # not legal: a legal one instead
    assert engine.calls[0][1] == 1.0 and engine.calls[0][3] == []  # no clock: the bridge's movetime


def test_the_bridge_enters_a_tournament_and_plays_its_round(tmp_path: Path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(tmp_path / "data", port)
    try:
        bot_id, token, _ = bot_account(base, "Robo")
        with loopback.client(base_url=base, headers={"origin": base}, timeout=HTTP) as http:  # Ann, an account, runs it
            http.get("/api/me")
            assert http.post("/api/register", json={"name": "Ann", "password": "correct horse"}).status_code == 200
            cookie = http.cookies[COOKIE]
        ann = Person.__new__(Person)
        ann.base, ann.cookie = base, cookie
        ann.ws = ann.connect()
        ann.id = ann.expect("welcome")["you"]["id"]
        ann.send({"type": "tournament_create", "name": "Bots welcome", "rounds": 1, "starts_in": 600,
                  "rules": {"match": "single"}})
        tid = ann.expect("tournament_created")["id"]
        ann.send({"type": "tournament_watch", "id": tid})
        ann.send({"type": "tournament_join", "id": tid})
        with bridge(base, token, tmp_path / "bot.log", "--tournament", tid):
            t = ann.expect("tournament", lambda m: len(m["tournament"]["players"]) == 2)["tournament"]
            assert {p["id"]: p["bot"] for p in t["players"]} == {ann.id: False, bot_id: True}
            ann.send({"type": "tournament_start", "id": tid})
            table = ann.expect("tournament_game", timeout=30)["table"]
            ann.send({"type": "open", "table": table})
            assert play_until_over(ann, table, stop_after=3) is None  # the bot answers each time
            ann.send({"type": "resign", "table": table, "confirm": True})
            done = ann.expect("tournament", lambda m: m["tournament"]["state"] == "finished")["tournament"]
            assert {s["id"]: s["score"] for s in done["standings"]} == {bot_id: 1.0, ann.id: 0.0}
        ann.ws.close()
    finally:
        server.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=30)
        if server.poll() is None:
            server.kill()
