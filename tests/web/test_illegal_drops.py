"""Illegal drops in the browser: the tile snaps back and the page shows the engine's reason.

The page knows no rules. A drop that is not among the server's legal actions is sent as an ordinary
action, and the page shows the rule named in the server's `error.illegal` (the engine's key and
params), translated. Here two scripted sockets hold the seats of the pages (they carry the pages'
session cookies) and play a seeded game; at each turn the engine finds drops that break the rules
this test wants to see, and the player makes them on an English page (mouse drags) and on a German
page of the same player (taps where the board allows it, else drags). Each time the page must send
exactly that attempt, show the translation of the engine's own key and params, and keep the
position as it was.
"""

from __future__ import annotations

import json
import re
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from board_driver import Player

from halali.games.errors import IllegalAction
from halali.games.forest.match import Match
from halali.games.forest.notation import parse_action
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

SEED = 6  # the wanted rules all come up within about twenty actions of this deal
RULES = {"match": "single"}
WANTED = ("rule.capture_face_down", "rule.blocked", "rule.green_lock", "rule.rifle", "rule.one_square",
          "rule.no_return")
MAX_PLIES = 60
SQUARES = [f + r for r in "1234567" for f in "abcdefg"]
I18N = Path(__file__).resolve().parents[2] / "src/halali/web/i18n"
EXPLAIN = '[data-testid="explain"]'


def strings(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


# The engine's side ---------------------------------------------------------------------------

def board_of(fen: str) -> dict[str, str]:
    board: dict[str, str] = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                board["abcdefg"[file] + str(7 - i)] = ch
                file += 1
    return board


def attempt(board: dict[str, str], src: str, dst: str) -> str:
    """The action a drop stands for, written as docs/web.md says the page writes it."""
    if dst in "NESW":
        return f"{src}-{dst}"
    target = board.get(dst, "")
    return f"{src}x{dst}" if target and target != "?" else f"{src}-{dst}"


def why(pos: Position, text: str) -> tuple[str, dict[str, Any]] | None:
    """The engine's reason, read on the public view exactly as the server reads an action."""
    try:
        parse_action(pos.view(), text)
    except IllegalAction as exc:
        return exc.key, dict(exc.params)
    return None


def wanted_drops(pos: Position, done: set[str]) -> dict[str, str]:
    """One illegal drop for each rule not yet seen that the player to move can break now."""
    view = pos.view()
    legal = {view.action_str(a) for a in view.legal_actions()}
    board = board_of(view.fen())
    found: dict[str, str] = {}
    for src in sorted(board, key=SQUARES.index):
        if board[src] == "?":
            continue
        # Nearer squares first: a bear is best shown two squares away.
        for dst in sorted(SQUARES, key=lambda d: (distance(src, d), SQUARES.index(d))):
            if dst == src:
                continue
            text = attempt(board, src, dst)
            reason = None if text in legal else why(pos, text)
            if reason is None:
                continue
            key, params = reason
            if key not in WANTED or key in done or key in found:
                continue
            if key == "rule.one_square" and params.get("tile") != "bear":
                continue
            found[key] = text
    return found


def distance(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1]) - int(b[1]))


def next_action(pos: Position, legal: list[str], done: set[str]) -> str:
    """Mostly reveals; a move now and then, so that one can be taken back (no return)."""
    quiet = [a for a in legal if "-" in a and a[-1].isdigit()]
    reveals = [a for a in legal if a.startswith("?")]
    if "rule.no_return" not in done and quiet and pos.last_move[pos.turn] < 0:
        return quiet[0]
    return (reveals or legal)[0]


def rule_text(lang: dict[str, str], key: str, params: dict[str, Any]) -> str:
    """The sentence for an engine rule key in one language (tile names, colours, directions translated)."""
    p = dict(params)
    for k in ("tile", "target"):
        if p.get(k):
            p[k] = lang[f"tile.{p[k]}"]
    if key == "rule.cannot_capture":
        p["captures"] = lang[f"hint.captures.{params['tile']}"]
    if key == "rule.one_square":
        p["moves"] = lang[f"hint.moves.{params['tile']}"]
    for k in ("rifle", "direction", "exit"):
        if p.get(k):
            p[k] = lang[f"dir.{p[k]}"]
    if p.get("player"):
        p["player"] = lang[f"colour.{p['player']}"]
    if key == "rule.green_lock":
        key = "rule.green_lock.revealed" if params.get("how") == "revealed" else "rule.green_lock.moved"
    return re.sub(r"\{(\w+)\}", lambda m: str(p.get(m[1], m[0])), lang[key])


# The scripted seats --------------------------------------------------------------------------

class Seat:
    """A socket of the same player as a page (it carries the page's session cookie)."""

    def __init__(self, stack: ExitStack, url: str, cookie: str, table: str) -> None:
        from websockets.sync.client import connect

        self.ws = stack.enter_context(connect(url.replace("http://", "ws://") + "/ws",
                                              additional_headers={"Cookie": f"halali_session={cookie}"}))
        self.send({"type": "open", "table": table})

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def until(self, want: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv(timeout=10))
            assert msg["type"] != "error", msg
            if want(msg):
                return msg
        raise AssertionError("no answer")

    def game(self, ply: int) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "game" and m["game"]["ply"] >= ply)["game"]


def session_cookie(page: Any) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "halali_session")


RECEIVED: dict[int, list[str]] = {}


def sent_actions(page: Any) -> list[str]:
    """Every action the page sends over its WebSocket from now on (the list fills as it goes).

    What the page receives is kept too (``RECEIVED``), to show what it was told when a wait fails.
    """
    actions: list[str] = []
    received = RECEIVED.setdefault(id(page), [])

    def on_ws(ws: Any) -> None:
        def sent(payload: Any) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "action":
                actions.append(msg["action"])

        ws.on("framesent", sent)
        ws.on("framereceived", lambda payload: received.append(str(payload)[:600]))
        ws.on("close", lambda _ws: received.append("-- closed"))

    page.on("websocket", on_ws)
    return actions


class Table:
    """One player's English and German pages, and what each of them sent."""

    def __init__(self, open_page: Any, path: str) -> None:
        self.en = open_page("/api/health")
        self.en_sent = sent_actions(self.en)
        self.en.goto(self.en.url.replace("/api/health", path))
        self.de = open_page("/api/health", locale="de-DE")
        self.de.context.add_cookies([c for c in self.en.context.cookies() if c["name"] == "halali_session"])
        self.de_sent = sent_actions(self.de)
        self.de.goto(self.en.url)


# The test ------------------------------------------------------------------------------------

def test_the_page_shows_the_engines_reason_for_an_illegal_drop(server: Any, open_page: Any, shot: Any) -> None:
    table = server.create_table(RULES, seed=SEED)
    players = [Table(open_page, f"/table/{table}") for _ in (0, 1)]
    with ExitStack() as stack:
        seats = [Seat(stack, server.url, session_cookie(p.en), table) for p in players]
        done, taps = play_and_drop(seats, players, shot)
    assert set(done) == set(WANTED), done
    assert taps, "some attempts were made by tapping the tile and then the square"


def play_and_drop(seats: list[Seat], players: list[Table], shot: Any) -> tuple[dict[str, str], int]:
    """Play the seeded game until every wanted rule was broken on both pages; returns the drops and taps."""
    en, de = strings("en"), strings("de")
    for i, seat in enumerate(seats):
        seat.send({"type": "join"})
        seat.until(lambda m, i=i: m["type"] == "table" and m["table"]["you"]["seat"] == i)
    seats[0].send({"type": "start"})
    games = [seat.game(0) for seat in seats]
    pos = Match(DEFAULT_RULES.with_options(RULES), SEED).position

    done: dict[str, str] = {}
    taps = 0
    not_your_turn = False
    ply = 0
    while len(done) < len(WANTED) and ply < MAX_PLIES:
        assert games[0]["position"] == pos.public_fen()
        mover = games[0]["seat_to_move"]
        me = players[mover]
        for key, text in wanted_drops(pos, set(done)).items():
            reason = why(pos, text)
            assert reason is not None and reason[0] == key
            for page, sent, lang, by_tap in ((me.en, me.en_sent, en, False), (me.de, me.de_sent, de, True)):
                taps += check_drop(page, sent, text, key, rule_text(lang, *reason), ply, by_tap)
            done[key] = text
            if len(done) == 2:
                shot(me.de, "illegal-drop-german")
        if not not_your_turn and ply >= 2:
            other = players[1 - mover]
            check_not_your_turn(other.en, other.en_sent, en["explain.not_your_turn"], ply)
            not_your_turn = True
        action = next_action(pos, games[mover]["legal"], set(done))
        seats[mover].send({"type": "action", "action": action, "ply": ply})
        # Had any attempt been played, this would be refused as stale and `until` would fail.
        games = [seat.game(ply + 1) for seat in seats]
        assert games[0]["ply"] == ply + 1 and games[0]["history"][-1].startswith(action)
        pos.play(games[0]["last_action"])
        ply += 1
    assert not_your_turn
    return done, taps


def check_drop(page: Any, sent: list[str], text: str, key: str, expected: str, ply: int, by_tap: bool) -> bool:
    """Make the attempt ``text`` on the board (True: by taps); the page asks the server and shows ``expected``."""
    p = Player(page)
    p.wait_ply(ply)
    # The mover's legal actions may be drawn a moment after the ply: wait for them, do not race them.
    try:
        page.wait_for_function("() => (document.querySelector('[data-testid=\"board\"]')?.dataset.legal || '').trim()")
    except Exception as exc:
        told = "\n".join(RECEIVED.get(id(page), [])[-8:])
        raise AssertionError(f"no legal actions on the mover's page at ply {ply} ({page.url}); it was told:\n{told}"
                             ) from exc
    legal = p.legal()
    assert legal, "the page of the player to move has legal actions"
    before = p.position()
    src, dst = text[:2], text[3:]
    letter = p.tile(src).get_attribute("data-tile")
    home = p.centre(page.locator(f'[data-testid="board"] rect.cell[data-square="{src}"]'))
    sources = {a[:2] for a in legal if not a.startswith("?")}
    page.eval_on_selector(EXPLAIN, "b => { b.hidden = true; b.textContent = ''; b.dataset.key = ''; }")
    count = len(sent)
    tapped = by_tap and src in sources and dst not in sources
    if tapped:
        p.tap(src)
        page.mouse.click(*p.target_centre(dst))
    else:
        p.drag(src, dst)
    shown = "([sel, k]) => { const b = document.querySelector(sel); return !b.hidden && b.dataset.key === k; }"
    page.wait_for_function(shown, arg=[EXPLAIN, key])
    assert page.locator(EXPLAIN).inner_text() == expected
    assert sent[count:] == [text], "the page sent the attempt as it was made, once"
    # Nothing changed: same position and ply, the tile back on its square.
    assert p.position() == before and p.ply() == ply and p.legal() == legal
    assert p.tile(src).get_attribute("data-tile") == letter
    page.wait_for_timeout(250)  # the snap-back animation
    at = p.centre(p.tile(src))
    assert abs(at[0] - home[0]) < 2 and abs(at[1] - home[1]) < 2
    return tapped


def check_not_your_turn(page: Any, sent: list[str], expected: str, ply: int) -> None:
    """Whose turn it is the page knows itself: a drop out of turn is not sent at all."""
    p = Player(page)
    p.wait_ply(ply)
    tiles = page.eval_on_selector_all('[data-testid="board"] .tile.face-up', "els => els.map(e => e.dataset.square)")
    assert tiles
    count = len(sent)
    dst = next(s for s in SQUARES if s != tiles[0])
    p.drag(tiles[0], dst)
    page.locator(EXPLAIN, has_text=expected).wait_for()
    assert page.locator(EXPLAIN).get_attribute("data-key") == "explain.not_your_turn"
    assert sent[count:] == []
