"""An action acknowledged to a player survives `kill -9` of the server (a real `halali serve` process)."""

from __future__ import annotations

import json
import signal
from contextlib import ExitStack
from pathlib import Path

from websockets.sync.client import ClientConnection, connect

import loopback
from serve_helpers import free_port, serve


def session(port: int) -> str:
    return loopback.get(f"http://127.0.0.1:{port}/api/me", timeout=30).cookies["halali_session"]


def ws(stack: ExitStack, port: int, token: str) -> ClientConnection:
    conn = stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws",
                                       additional_headers={"Cookie": f"halali_session={token}"}))
    assert json.loads(conn.recv(timeout=10))["type"] == "welcome"
    return conn


def expect(conn: ClientConnection, type_: str, where=lambda m: True) -> dict:
    while True:
        msg = json.loads(conn.recv(timeout=10))
        if msg["type"] == type_ and where(msg):
            return msg


def test_acknowledged_actions_survive_kill_9(tmp_path: Path):
    port = free_port()
    proc = serve(tmp_path, port)
    stack = ExitStack()
    try:
        tokens = [session(port), session(port)]
        ann, bob = ws(stack, port, tokens[0]), ws(stack, port, tokens[1])
        ann.send(json.dumps({"type": "create", "seed": 3, "join": True}))
        table_id = expect(ann, "created")["table"]
        for c in (ann, bob):
            c.send(json.dumps({"type": "open", "table": table_id}))
            expect(c, "table")
        bob.send(json.dumps({"type": "join"}))
        expect(ann, "table", lambda m: m["table"]["seats"][1] is not None)
        ann.send(json.dumps({"type": "start"}))
        seats = {0: ann, 1: bob}
        game = expect(bob, "game")["game"]
        acknowledged: list[str] = []
        for _ in range(12):
            mover = seats[game["seat_to_move"]]
            other = seats[1 - game["seat_to_move"]]
            own = game if game["legal"] else None  # the last message came from the mover: its own view
            if own is None:
                own = expect(mover, "game", lambda m, p=game["ply"]: m["game"]["ply"] == p)["game"]
            mover.send(json.dumps({"type": "action", "action": own["legal"][-1], "ply": own["ply"]}))
            game = expect(other, "game", lambda m, p=own["ply"] + 1: m["game"]["ply"] == p)["game"]
            acknowledged = game["history"]  # the opponent has seen it: it must be stored
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc = serve(tmp_path, port)
        again = ws(stack, port, tokens[1])
        again.send(json.dumps({"type": "open", "table": table_id}))
        table = expect(again, "table")
        assert table["games"][0]["history"] == acknowledged and len(acknowledged) == 12
        assert table["table"]["you"]["seat"] == 1
    finally:
        stack.close()
        proc.kill()
        proc.wait(10)
