"""A site full of the longest names registration allows, for the tests that walk every page.

Two people with 24-character one-word names of the widest letters — a guest and an account — have
played a rated match and a hare hunt against each other, sit at a forest table and at a hunt that are
both running, and have entered a running tournament. Python plays their moves over the WebSocket API,
as any client would (random legal actions), so every page has their names to show: the lobby, the
tables, the summary of their match, the replays, the histories, the leaderboards, the profiles and the
tournament. A browser then visits as either of them, with the same session cookie.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import loopback

# The longest name registration allows (server/people.py), of the widest letters: a worst case.
GUEST_NAME = "W" * 24
ACCOUNT_PREFIX = "WM" * 9  # and six more characters: account names are unique
PASSWORD = "forest floor 42"
COOKIE = "halali_session"
# A stall limit of 1 makes every quiet move force a reveal: short games.
QUICK = {"match": "match", "stall_limit": 1}


class Person:
    """One person on the site: a session cookie, the HTTP API and sockets as the page would open them."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = loopback.client(base_url=url, headers={"origin": url}, timeout=30)
        self.id = str(self.http.get("/api/me").json()["id"])

    @property
    def cookie(self) -> str:
        return str(self.http.cookies[COOKIE])

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = self.http.post(path, json=body)
        assert r.status_code == 200, (path, r.text)
        return dict(r.json())

    def rename(self, name: str) -> None:
        self.post("/api/name", {"name": name})

    def register(self, name: str) -> None:
        self.post("/api/register", {"name": name, "password": PASSWORD})

    def socket(self) -> Socket:
        return Socket(self.url, self.cookie)


class Socket:
    """A WebSocket of one person: send, and wait for the message that matters."""

    def __init__(self, url: str, cookie: str) -> None:
        from websockets.sync.client import connect

        self.stack = ExitStack()
        self.ws = self.stack.enter_context(
            connect(url.replace("http://", "ws://") + "/ws", additional_headers={"Cookie": f"{COOKIE}={cookie}"}))
        self.welcome = self.expect(lambda m: m["type"] == "welcome")

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def expect(self, where: Callable[[dict[str, Any]], bool], timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            assert msg["type"] != "error" or msg.get("key") in ("error.stale", "error.not_your_turn"), msg
            if where(msg):
                return dict(msg)

    def close(self) -> None:
        self.stack.close()


@dataclass
class World:
    """What the pages show: the ids of the games, tables and tournament the two people share."""

    url: str
    guest: Person
    account: Person
    game: str = ""  # the last game of their finished forest match
    finished_table: str = ""  # its table: the summary opens on a fresh page
    playing_table: str = ""  # a forest match of theirs, running
    waiting_table: str = ""  # a table of the guest's with a seat free
    hunt: str = ""  # their finished hare hunt
    hare_table: str = ""  # a hare hunt of theirs, running
    tournament: str = ""
    extra: dict[str, str] = field(default_factory=dict)


def play(sockets: dict[int, Socket], table: str, until: Callable[[dict[str, Any]], bool], kind: str = "game",
         seed: int = 1) -> dict[str, Any]:
    """Each seat's socket plays random legal actions in its own thread until a message meets ``until``
    (a `game` message for the forest, a `hare` one for the hunt); that message."""
    done = threading.Event()
    result: dict[str, Any] = {}
    errors: list[BaseException] = []

    def seat_loop(seat: int, sock: Socket, rng: random.Random) -> None:
        try:
            while not done.is_set():
                try:
                    msg = sock.expect(lambda m: m["type"] == kind and m.get("table", {}) is not None, timeout=2)
                except TimeoutError:
                    continue
                body = msg["game"] if kind == "game" else msg.get("hunt")
                if kind == "game" and msg.get("table") != table:
                    continue
                if until(msg):
                    result.setdefault("msg", msg)
                    done.set()
                    return
                if body and body.get("legal") and not body.get("over"):
                    sock.send({"type": "action", "action": rng.choice(body["legal"]), "ply": body["ply"]})
        except BaseException as exc:  # handed to the test's thread
            errors.append(exc)
            done.set()

    threads = [threading.Thread(target=seat_loop, args=(seat, sock, random.Random(seed + seat)), daemon=True)
               for seat, sock in sockets.items()]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=300)
    if errors:
        raise errors[0]
    assert "msg" in result, "the game did not reach its end"
    return result["msg"]


def forest_table(guest: Socket, account: Socket, rated: bool = True) -> str:
    """A two-game table with the guest in seat 1 and the account in seat 2, started."""
    guest.send({"type": "create", "rules": QUICK, "join": True, "rated": rated, "mode": "live"})
    table = str(guest.expect(lambda m: m["type"] == "created")["table"])
    account.send({"type": "open", "table": table})
    account.expect(lambda m: m["type"] == "table" and m["table"]["id"] == table)
    account.send({"type": "join"})
    guest.expect(lambda m: m["type"] == "table" and all(m["table"]["seats"]))
    guest.send({"type": "start"})
    return table


def hare_table(guest: Socket, account: Socket, rated: bool = True) -> str:
    """A three-seat hunt: the guest, the account and a computer player, started."""
    guest.send({"type": "create", "game": "hare", "seats": 3, "join": True, "rated": rated})
    table = str(guest.expect(lambda m: m["type"] == "created")["table"])
    account.send({"type": "open", "table": table})
    account.expect(lambda m: m["type"] == "hare" and m["table"]["id"] == table)
    account.send({"type": "join"})
    guest.expect(lambda m: m["type"] == "hare" and sum(1 for s in m["table"]["seats"] if s) == 2)
    guest.send({"type": "bot", "level": 1})
    guest.expect(lambda m: m["type"] == "hare" and all(m["table"]["seats"]))
    guest.send({"type": "start"})
    return table


def build(url: str) -> World:
    guest, account = Person(url), Person(url)
    guest.rename(GUEST_NAME)
    account.register(ACCOUNT_PREFIX + secrets.token_hex(3).upper())
    world = World(url, guest, account)
    g, a = guest.socket(), account.socket()
    try:
        # A whole rated match: its summary, replays, histories, profiles and the leaderboard.
        world.finished_table = forest_table(g, a)
        last = play({0: g, 1: a}, world.finished_table, lambda m: m["game"]["over"] and m["match"]["over"])
        world.game = str(last["game"]["id"])
        # A rated hunt, some actions in and then resigned (random hunters take thousands of actions
        # to finish one): the hunt's replay and the hunts in the histories.
        table = hare_table(g, a)
        play({0: g, 1: a}, table, lambda m: bool(m.get("hunt") and m["hunt"]["ply"] >= 8), kind="hare")
        a.send({"type": "resign", "table": table, "confirm": True})
        over = a.expect(lambda m: m["type"] == "hare" and bool(m.get("hunt") and m["hunt"]["over"]))
        world.hunt = str(over["hunt"]["replay"]).rsplit("/", 1)[-1]
        # A match and a hunt that are running, a few actions in.
        world.playing_table = forest_table(g, a, rated=False)
        play({0: g, 1: a}, world.playing_table, lambda m: m["game"]["ply"] >= 6)
        world.hare_table = hare_table(g, a, rated=False)
        play({0: g, 1: a}, world.hare_table, lambda m: bool(m.get("hunt") and m["hunt"]["ply"] >= 3), kind="hare")
        # A table of the guest's with a seat free: the link to send, the computer's levels.
        g.send({"type": "create", "rules": QUICK, "join": True, "rated": False, "mode": "live"})
        world.waiting_table = str(g.expect(lambda m: m["type"] == "created")["table"])
        world.tournament = tournament(url, [g, a])
    finally:
        g.close()
        a.close()
    return world


def tournament(url: str, entrants: list[Socket]) -> str:
    """A running Swiss tournament (guests may enter) with both people and a computer level in it."""
    director = Person(url)
    director.register(f"Director {director.id[-6:]}")
    ws = director.socket()
    try:
        ws.send({"type": "tournament_create", "name": "Long names' autumn Swiss", "rounds": 2,
                 "entry": {"accounts": False}, "starts_in": 600})
        tid = str(ws.expect(lambda m: m["type"] == "tournament_created")["id"])
        ws.send({"type": "tournament_level", "id": tid, "level": 1})
        for sock in entrants:
            sock.send({"type": "tournament_join", "id": tid})
            sock.send({"type": "tournament_watch", "id": tid})
            sock.expect(lambda m: m["type"] == "tournament" and m["tournament"]["you"]["entered"])
        ws.send({"type": "tournament_watch", "id": tid})
        ws.expect(lambda m: m["type"] == "tournament" and len(m["tournament"]["players"]) == 3)
        ws.send({"type": "tournament_start", "id": tid})
        ws.expect(lambda m: m["type"] == "tournament" and bool(m["tournament"]["pairings"]))
    finally:
        ws.close()
    return tid


def browser_context(browser: Any, world: World, who: str, phone: bool, locale: str) -> Any:
    """A browser context with the session of ``who`` ("guest" or "account")."""
    options: dict[str, Any] = ({"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                                "has_touch": True} if phone else {"viewport": {"width": 1366, "height": 850}})
    ctx = browser.new_context(locale=locale, reduced_motion="reduce", **options)  # as open_page's (conftest)
    ctx.set_default_timeout(20_000)
    person = world.guest if who == "guest" else world.account
    ctx.add_cookies([{"name": COOKIE, "value": person.cookie, "url": world.url}])
    return ctx


def pages(world: World, who: str) -> dict[str, str]:
    """Every page of the site, as this person finds it (their own profile, their tables)."""
    me = world.guest if who == "guest" else world.account
    other = world.account if who == "guest" else world.guest
    return {
        "lobby": "/",
        "table-playing": f"/table/{world.playing_table}",
        "table-finished": f"/table/{world.finished_table}",
        "table-waiting": f"/table/{world.waiting_table}",
        "hare-table": f"/table/{world.hare_table}",
        "replay": f"/replay/{world.game}#12",
        "replay-import": "/replay",
        "hunt": f"/hunt/{world.hunt}#4",
        "history": "/history",
        "history-table": f"/history?table={world.finished_table}",
        "player-me": f"/player/{me.id}",
        "player-other": f"/player/{other.id}",
        "player-bot": "/player/bot_1",
        "leaderboard": "/leaderboard",
        "leaderboard-bots": "/leaderboard?board=bots",
        "arena": "/arena",
        "tournaments": "/tournaments",
        "tournament": f"/tournament/{world.tournament}",
        "account": "/account",
        "how-to-play": "/how-to-play",
        "learn": "/learn",
        "learn-task": "/learn#reveal/lock",
        "learn-hare": "/learn#hare/steps",
        "puzzles": "/puzzles",
        "not-found": "/no/such/page",
    }


# What each page shows once it has what it waits for (besides the `ready` class every page sets).
SETTLED = {
    "table-playing": "() => document.querySelector('[data-testid=\"board\"]')?.dataset.ply > '0'",
    "table-finished": "() => !document.querySelector('[data-testid=\"summary\"]').hidden",
    "table-waiting": "() => document.querySelector('[data-testid=\"seat-0\"]')?.textContent",
    "hare-table": "() => document.querySelector('[data-testid=\"hare-seat-2\"]')",
    "replay": "() => document.querySelector('[data-testid=\"board\"]')?.dataset.ply === '12'",
    "hunt": "() => document.querySelector('[data-testid=\"hunt\"] .move-list li')",
    "tournament": "() => document.querySelector('[data-testid=\"standings\"] tbody tr')",
    "tournaments": "() => document.querySelector('[data-testid=\"tournament-list\"] li')",
    "player-me": "() => document.querySelector('[data-testid=\"games-table\"]')",
    "player-other": "() => document.querySelector('[data-testid=\"games-table\"]')",
    "history": "() => document.querySelector('[data-testid=\"games-table\"]')",
    "history-table": "() => document.querySelector('[data-testid=\"games-table\"]')",
    "leaderboard": "() => document.querySelector('[data-testid=\"leaderboard\"] tbody tr')",
    "lobby": "() => document.querySelector('[data-testid=\"online\"] li')",
    "player-bot": "() => document.querySelector('[data-testid=\"games\"]').childElementCount",
    "arena": "() => document.querySelector('[data-testid=\"arena\"] tbody tr')",
    "account": "() => !document.querySelector('[data-testid=\"me-kind\"]').hidden",
    "learn": "() => document.querySelector('[data-testid=\"lessons\"] .lesson')",
    "learn-task": "() => document.body.dataset.task === 'reveal/lock'",
    "learn-hare": "() => document.body.dataset.task === 'hare/steps'",
    "puzzles": "() => document.body.dataset.puzzle",
}


def settle(page: Any, name: str) -> None:
    """Wait until the page shows what it is about (no fixed waits: the page's own signals)."""
    page.wait_for_function("() => document.body.classList.contains('ready')")
    if name in SETTLED:
        try:
            page.wait_for_function(SETTLED[name])
        except Exception as exc:
            raise AssertionError(f"the page {name} never showed what it is about") from exc
    else:
        page.wait_for_load_state("networkidle")
