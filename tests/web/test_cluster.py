"""Two browsers play a whole match through two different server nodes of a cluster (one PostgreSQL,
one Redis), with a spectator on the first node: every action reaches the other browser and the
spectator, and all three see the same end."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from board_driver import Player, pick
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from websockets.sync.client import connect

import loopback

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

RULES = {"match": "single", "stall_limit": 1}  # a single-game match, kept short by the stall limit
OVER_OR_MY_TURN = """() => !document.querySelector('[data-testid="summary"]').hidden
    || document.querySelector('[data-testid="board"]').dataset.legal !== ''"""


def create_table(url: str) -> str:
    """A table made over the WebSocket API by a creator who takes no seat, on the node at ``url``."""
    cookie = loopback.get(f"{url}/api/me").cookies["halali_session"]
    ws_url = url.replace("http://", "ws://") + "/ws"
    with connect(ws_url, additional_headers={"Cookie": f"halali_session={cookie}"}) as ws:
        ws.send(json.dumps({"type": "create", "rules": RULES, "seed": 5}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            assert msg["type"] != "error", msg
            if msg["type"] == "created":
                return str(msg["table"])


def next_mover(pages: list[Any], within: float = 30.0) -> int | None:
    """The page whose board offers actions, or None once the game is over: each page is asked in turn
    for the event, a quarter of a second at a time."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for i, page in enumerate(pages):
            try:
                page.wait_for_function(OVER_OR_MY_TURN, timeout=250)
            except PlaywrightTimeout:
                continue
            return None if page.locator('[data-testid="summary"]').is_visible() else i
    raise AssertionError("neither browser was offered an action")


def test_two_browsers_on_two_nodes_and_a_spectator(cluster: Any, open_page: Any, shot: Any) -> None:
    a, b = cluster.start_node("a"), cluster.start_node("b")
    table = create_table(a)  # node a owns it
    ann = open_page(f"{a}/table/{table}")
    bob = open_page(f"{b}/table/{table}")
    cy = open_page(f"{a}/table/{table}")
    ann.click('[data-testid="btn-join"]')
    ann.locator('[data-testid="seat-0"].me').wait_for()
    bob.locator('[data-testid="btn-join"]:not([hidden])').wait_for()
    bob.click('[data-testid="btn-join"]')
    bob.locator('[data-testid="seat-1"].me').wait_for()
    cy.locator('[data-testid="seat-1-name"]').wait_for()
    ann.locator('[data-testid="spectators"]', has_text="1").wait_for()  # Cy, on node a; Bob is seated
    ann.click('[data-testid="btn-start"]')
    drivers = [Player(ann), Player(bob)]
    watcher = Player(cy)
    pages = [ann, bob]
    while (mover := next_mover(pages)) is not None:
        page, me = pages[mover], drivers[mover]
        ply = me.ply()
        action = pick(me.legal(), prefer_drag=False)
        if action == "pass":
            page.click('[data-testid="btn-pass"]')
        elif action.startswith("?"):
            me.tap(action[1:3])
        else:
            me.drag(action[:2], action[3:])
        for name, d in zip(("ann (node a)", "bob (node b)", "cy (node a)"), (*drivers, watcher), strict=True):
            try:  # every browser, on either node, sees the action
                d.wait_ply(ply + 1)
            except PlaywrightTimeout:
                raise AssertionError(f"{name} did not see ply {ply + 1}, {action} by seat {mover}") from None
    for page in (ann, bob, cy):
        page.locator('[data-testid="summary"]').wait_for()
    assert len({d.position() for d in (*drivers, watcher)}) == 1
    shot(cy, "cluster-spectator-end")
