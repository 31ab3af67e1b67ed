"""A page that loses its connection comes back with the number of the last event it had, and gets
only the events it missed (docs/protocol.md, "Events and resync"), on both games' pages.

Two players play over the WebSocket API, scripted by the test; the browser page watches. The page
goes offline (its socket closed, and no new one can open), the players make three actions, the page
comes back online: it must send `open` with `since`, receive `resumed` with exactly those events, and
show the position after them."""

from __future__ import annotations

import contextlib
import json
import re
import time
from typing import Any

import pytest
from sockets import CAPTURE, cut, restore
from websockets.sync.client import ClientConnection, connect

import loopback

pytestmark = pytest.mark.browser


class Scripted:
    """A player over the WebSocket API: its own cookie and socket, and the messages it got."""

    def __init__(self, url: str, stack: contextlib.ExitStack) -> None:
        cookie = loopback.get(f"{url}/api/me").cookies["halali_session"]
        self.ws: ClientConnection = stack.enter_context(connect(
            url.replace("http://", "ws://") + "/ws", additional_headers={"Cookie": f"halali_session={cookie}"}))

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def expect(self, kind: str, where: Any = lambda m: True) -> dict[str, Any]:
        deadline = time.monotonic() + 30  # a bound: a busy machine may be slow
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv(timeout=30))
            if msg["type"] == kind and where(msg):
                return msg
        raise AssertionError(f"no {kind} message")


def seated_pair(url: str, game: str, stack: contextlib.ExitStack) -> tuple[str, list[Scripted]]:
    a, b = Scripted(url, stack), Scripted(url, stack)
    a.send({"type": "create", "game": game, "seed": 7, "join": True, "seats": 2} if game == "hare"
           else {"type": "create", "seed": 7, "join": True})
    table = a.expect("created")["table"]
    b.send({"type": "open", "table": table})
    b.send({"type": "join", "table": table})
    # Two sockets are two queues: b's join may reach the table after a's start, so a start waits
    # until b has its seat.
    b.expect("hare" if game == "hare" else "table", lambda m: m["table"]["you"]["seat"] is not None)
    a.send({"type": "open", "table": table})
    return table, [a, b]


def legal_of(msg: dict[str, Any]) -> tuple[list[str], int]:
    if msg["type"] == "game":
        return msg["game"]["legal"], msg["game"]["ply"]
    return msg["hunt"]["legal"], msg["hunt"]["ply"]


def play(players: list[Scripted], game: str, actions: int, ply: int) -> int:
    """``actions`` actions from ``ply`` on, whoever is to move; the ply reached."""
    kind = "game" if game == "forest" else "hare"
    for _ in range(actions):
        for p in players:
            msg = p.expect(kind, lambda m, at=ply: (kind == "game" or m["hunt"] is not None) and legal_of(m)[1] == at)
            legal, _ = legal_of(msg)
            if legal:
                p.send({"type": "action", "action": legal[0], "ply": ply})
                break
        ply += 1
    return ply


def until(page: Any, condition: Any, seconds: float = 30.0) -> None:
    """Wait for a frame the page's socket receives (Playwright hands frames over while it waits)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the page never received it")
        page.wait_for_timeout(20)


class Followed:
    """A table page in a context of its own, with every frame its sockets send and receive."""

    def __init__(self, browser: Any, url: str, stack: contextlib.ExitStack, locale: str = "en-GB") -> None:
        self.ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale=locale)
        stack.callback(self.ctx.close)
        self.ctx.set_default_timeout(30_000)
        self.page = self.ctx.new_page()
        self.page.add_init_script(CAPTURE)
        self.sent: list[dict[str, Any]] = []
        self.got: list[dict[str, Any]] = []

        def follow(ws: Any) -> None:
            ws.on("framesent", lambda f: self.sent.append(json.loads(f)))
            ws.on("framereceived", lambda f: self.got.append(json.loads(f)))

        self.page.on("websocket", follow)
        self.page.goto(url)
        self.page.wait_for_function("window.__sockets.length === 1 && window.__sockets[0].readyState === 1")

    def offline(self) -> None:
        """The socket closed, and no new one can reach the server."""
        cut(self.page)

    def online(self) -> None:
        restore(self.page)
        self.page.wait_for_function("window.__sockets.some((s, i) => i > 0 && s.readyState === 1)", timeout=30_000)


@pytest.mark.parametrize("game", ["forest", "hare"])
def test_a_page_that_lost_its_connection_gets_only_what_it_missed(server: Any, browser: Any, game: str) -> None:
    with contextlib.ExitStack() as stack:
        watch(server, browser, game, stack)


def watch(server: Any, browser: Any, game: str, stack: contextlib.ExitStack) -> None:
    table, players = seated_pair(server.url, game, stack)
    players[0].send({"type": "start", "table": table})
    ply = play(players, game, 2, 0)

    followed = Followed(browser, f"{server.url}/table/{table}", stack)
    page, sent, got = followed.page, followed.sent, followed.got
    until(page, lambda: any(m["type"] in ("table", "hare") for m in got))
    seen_before = len(got)
    last_v = max(m["v"] for m in got if "v" in m)

    followed.offline()
    ply = play(players, game, 3, ply)
    followed.online()

    until(page, lambda: any(m["type"] == "resumed" for m in got[seen_before:]))
    resumed = next(m for m in got[seen_before:] if m["type"] == "resumed")
    until(page, lambda: any(m.get("v") == resumed["v"] for m in got[got.index(resumed) + 1:]))
    reopen = [m for m in sent if m.get("type") == "open"][-1]
    assert reopen["since"] == last_v
    assert resumed["since"] == last_v and resumed["missed"] >= 3
    after = got[got.index(resumed) + 1:][:resumed["missed"]]
    assert [m["v"] for m in after] == list(range(last_v + 1, last_v + 1 + resumed["missed"]))
    assert not any(m.get("resync") for m in got[seen_before:])  # no whole table was needed
    if game == "forest":
        page.locator(f'[data-testid="board"][data-ply="{ply}"]').wait_for()


def test_a_press_without_a_connection_says_so_and_keeps_what_was_typed(server: Any, browser: Any) -> None:
    """No press goes unanswered: with the socket gone, a chat line is not sent, the page says why in
    its language, and the words stay in the box to be sent once the page is back."""
    table = server.create_table(seed=7)
    with contextlib.ExitStack() as stack:
        followed = Followed(browser, f"{server.url}/table/{table}", stack, locale="de-DE")
        page, sent = followed.page, followed.sent
        box = page.locator('[data-testid="chat-input"]')

        followed.offline()
        box.fill("Hallo Wald")
        box.press("Enter")
        page.locator('[data-testid="toast"]').filter(has_text="Verbindung unterbrochen").wait_for()
        assert box.input_value() == "Hallo Wald"
        assert not any(m.get("type") == "chat" for m in sent)

        followed.online()
        box.press("Enter")
        page.locator('[data-testid="chat-log"] li', has_text="Hallo Wald").wait_for()
        assert box.input_value() == ""
        assert [m["text"] for m in sent if m.get("type") == "chat"] == ["Hallo Wald"]


@pytest.mark.parametrize("arrives", [True, False], ids=["welcomed", "closed"])
def test_a_chat_line_sent_while_the_first_connection_opens(server: Any, browser: Any, arrives: bool) -> None:
    """The chat box works before the page's first welcome: the line waits for it and is said then, or,
    when that first connection closes instead, the page says so and the words come back into the box."""
    table = server.create_table(seed=7)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    try:
        page = ctx.new_page()
        sent: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f))))
        sockets: list[Any] = []

        def socket(ws: Any) -> None:
            """The first socket opens with no server behind it until the test lets it through."""
            sockets.append(ws)
            if len(sockets) > 1:
                ws.connect_to_server()

        page.route_web_socket(re.compile(r"/ws$"), socket)
        page.goto(f"{server.url}/table/{table}")
        until(page, lambda: bool(sockets))
        box = page.locator('[data-testid="chat-input"]')
        box.fill("Hello forest")
        box.press("Enter")
        assert box.input_value() == "" and sent == []  # taken, and waiting for the welcome
        said = page.locator('[data-testid="chat-log"] li', has_text="Hello forest")
        if arrives:
            sockets[0].connect_to_server()
            said.wait_for()
            assert [m["type"] for m in sent][:2] == ["open", "chat"]  # after the page's own subscription
        else:
            sockets[0].close()
            page.locator('[data-testid="toast"]').filter(has_text="Connection lost").wait_for()
            assert box.input_value() == "Hello forest"
            assert not any(m.get("type") == "chat" for m in sent)
            until(page, lambda: any(m.get("type") == "open" for m in sent))  # the next connection is up
            box.press("Enter")
            said.wait_for()
            assert box.input_value() == ""
        assert [m["text"] for m in sent if m.get("type") == "chat"] == ["Hello forest"]
    finally:
        ctx.close()
