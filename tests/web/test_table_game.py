"""A whole game in the browser: two people join and start through the chat, play every action by
clicks, taps, mouse drags and finger drags, a third person watches, one player reloads mid-game,
and everyone ends at the summary. The deal is seeded server-side so the game is short."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from board_driver import Player, pick

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

SEED = 10  # with the choices of `pick`, a 75-action game with captures, moves and exits
RULES = {"match": "single", "stall_limit": 4}
KIND = {"B": "bear", "F": "fox", "L": "lumberjack", "N": "hunter", "E": "hunter", "S": "hunter", "W": "hunter",
        "D": "duck", "P": "pheasant", "T": "tree"}


def english() -> dict[str, str]:
    return json.loads((Path(__file__).resolve().parents[2] / "src/halali/web/i18n/en.json").read_text())


def record_frames(page: Any) -> list[dict[str, Any]]:
    """Every message the page's WebSocket receives, parsed."""
    frames: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_ws)
    return frames


def visible_text(page: Any, testid: str) -> str:
    loc = page.locator(f'[data-testid="{testid}"]')
    loc.wait_for(state="visible")
    return loc.inner_text()


def test_two_players_play_a_whole_game(server: Any, open_page: Any, shot: Any) -> None:
    en = english()
    table = server.create_table(RULES, seed=SEED)
    url = f"/table/{table}"
    a = Player(open_page(url))  # desktop, mouse
    b = Player(open_page(url, phone=True), touch=True)  # phone, finger
    for p in (a, b):
        p.page.locator('[data-testid="conn"][data-state="online"]').wait_for(state="attached")

    # Seats and the start, through chat commands.
    a.say("/join")
    a.page.locator('[data-testid="chat-log"] li[data-key="chat.joined"]').first.wait_for()
    b.say("/join")
    b.page.locator('[data-testid="seat-1"].me').wait_for()
    assert "you" in a.page.locator('[data-testid="seat-0"]').inner_text()
    shot(a.page, "table-seated")
    a.say("/help")
    help_line = a.page.locator('[data-testid="chat-log"] li.private').first
    help_line.wait_for()
    assert "/bot" in help_line.inner_text() and "/start" in help_line.inner_text()
    a.say("/start")
    for p in (a, b):
        p.page.locator('[data-testid="status"]', has_text=re.compile("turn|to move")).wait_for()

    watcher = open_page(url)
    frames = record_frames(watcher)
    watcher.reload()
    c = Player(watcher)
    c.page.locator('[data-testid="board"][data-ply]').wait_for(state="attached")

    seat_of = {"brown": a, "blue": b}  # seat 0 (a) plays brown in game 1; blue moves first
    assert b.page.locator('[data-testid="status"]').inner_text().startswith("Your turn")
    assert not a.legal() and b.legal()
    shot(b.page, "phone-start")

    ply = 0
    done = {"illegal": False, "reload": False, "hover": False, "long_press": False, "final": False}
    kinds: dict[str, int] = {"reveal": 0, "move": 0, "capture": 0, "exit": 0, "pass": 0}
    while True:
        for p in (a, b, c):
            p.wait_ply(ply)
        if a.page.locator('[data-testid="summary"]').is_visible():
            break
        movers = [p for p in (a, b) if p.legal()]
        assert len(movers) == 1, "exactly one seat gets legal actions"
        assert not c.legal(), "a spectator never gets legal actions"
        mover = movers[0]
        other = b if mover is a else a
        legal = mover.legal()
        pos = mover.position()
        board = pos.split()[0]

        if not done["hover"] and mover is a and re.search("[BFLNESWDPT]", board):
            check_hover_hint(a, en)
            done["hover"] = True
        if not done["long_press"] and other is b and face_up_squares(b):
            check_long_press_hint(b)
            done["long_press"] = True
        if not done["illegal"] and ply >= 8 and try_illegal_drop(mover, legal, ply):
            done["illegal"] = True
            shot(mover.page, "illegal-drop")
        if not done["reload"] and ply >= 24 and mover is b:
            before = a.position()
            a.page.reload()
            a.wait_ply(ply)
            assert a.position() == before == b.position()
            assert a.page.locator('[data-testid="seat-0"].me').count() == 1
            assert a.page.locator('[data-testid="chat-log"] li[data-key="chat.game_started"]').count() == 1
            done["reload"] = True
        if not done["final"] and pos.split()[5] != "-":
            # Each side's own turns: the count in the position is both players' together.
            left, turn = int(pos.split()[5]), pos.split()[1]
            own, other = (left + 1) // 2, left // 2
            blue, brown = (own, other) if turn == "blue" else (other, own)
            assert visible_text(mover.page, "final-turns") == f"Final phase – turns left: blue {blue}, brown {brown}"
            shot(mover.page, "final-phase")
            done["final"] = True
        if ply == 30:
            shot(a.page, "desktop-midgame")
            shot(b.page, "phone-midgame")
            shot(c.page, "spectator-midgame")

        action = pick(legal, prefer_drag=ply % 5 == 0)
        play(mover, action, legal)
        kinds[kind_of(action)] += 1
        ply += 1
        assert seat_of[pos.split()[1]] is mover

    assert all(done.values()), done
    # The move list holds every action of the game, blue's first.
    history = c.page.locator('[data-testid="history"] li')
    assert history.count() == (ply + 1) // 2
    assert history.first.locator(".h-blue").text_content() == final_history(frames)[0]
    assert kinds["reveal"] == 48 and kinds["move"] and kinds["capture"] and kinds["exit"], kinds
    assert a.drags and b.drags, "both mouse and finger drags were played"

    # The end: every page shows the summary with the server's result.
    final = [f["game"] for f in frames if f.get("type") == "game" and f["game"]["over"]][-1]
    for p in (a, b, c):
        summary = p.page.locator('[data-testid="summary"]')
        summary.wait_for()
        for seat in (0, 1):
            colour = final["colours"][seat]
            row = p.page.locator(f'[data-testid="summary-seat-{seat}"]').inner_text()
            assert str(final["result"]["score"][colour]) in row
    winner = final["result"]["winner_seat"]
    assert winner is not None
    seats = [f for f in frames if f.get("type") == "table"][-1]["table"]["seats"]
    assert visible_text(a.page, "summary-winner") == f"{seats[winner]['name']} wins!"
    shot(a.page, "summary-desktop")
    shot(b.page, "summary-phone")

    # What the spectator was sent: face-down tiles only ever as `?`, the deal only after the end.
    games = [f["game"] for f in frames if f.get("type") == "game"]
    games += [g for f in frames if f.get("type") == "table" for g in f["games"]]
    assert len(games) > 40
    for g in games:
        assert not re.search("[a-z]", g["position"].split()[0]), g["position"]
        assert g["legal"] == []
        assert (g["deal"] is None) == (not g["over"])
    assert c.page.locator('[data-testid="board"] .tile.face-down:not([data-tile="?"])').count() == 0


def final_history(frames: list[dict[str, Any]]) -> list[str]:
    return [f["game"] for f in frames if f.get("type") == "game"][-1]["history"]


def kind_of(action: str) -> str:
    if action == "pass":
        return "pass"
    if action.startswith("?"):
        return "reveal"
    if action[-1] in "NESW":
        return "exit"
    return "capture" if "x" in action else "move"


def play(p: Player, action: str, legal: list[str]) -> None:
    """Play ``action`` the way a person would; check the drag lit the target first."""
    if action == "pass":
        p.page.click('[data-testid="btn-pass"]')
        return
    assert p.page.locator('[data-testid="btn-pass"]').is_hidden()
    if action.startswith("?"):
        p.tap(action[1:3])
        return
    src, dest = action[:2], action[3:]
    lit = p.drag(src, dest, check_targets=True)
    expected = {a[3:] for a in legal if a.startswith(src) and not a.startswith("?")}
    assert set(lit) == expected, (action, lit, expected)


def face_up_squares(p: Player) -> list[str]:
    return p.page.eval_on_selector_all('[data-testid="board"] .tile.face-up', "els => els.map(e => e.dataset.square)")


def check_hover_hint(p: Player, en: dict[str, str]) -> None:
    square = face_up_squares(p)[0]
    letter = p.tile(square).get_attribute("data-tile") or ""
    x, y = p.centre(p.tile(square))
    p.page.mouse.move(x, y)
    hint = p.page.locator('[data-testid="hint"]')
    hint.wait_for(state="visible")
    assert en[f"hint.captures.{KIND[letter]}"] in hint.inner_text()
    p.page.mouse.move(5, 5)
    hint.wait_for(state="hidden")


def check_long_press_hint(p: Player) -> None:
    square = face_up_squares(p)[0]
    p.long_press(square)
    hint = p.page.locator('[data-testid="hint"]')
    assert hint.is_visible()
    assert hint.get_attribute("data-square") == square
    p.release()
    hint.wait_for(state="hidden")


def try_illegal_drop(p: Player, legal: list[str], ply: int) -> bool:
    """Drop a movable tile on a square it may not reach: it snaps back and the page says why."""
    sources = sorted({a[:2] for a in legal if not a.startswith("?")})
    for src in sources:
        allowed = {a[3:] for a in legal if a.startswith(src)}
        wrong = [f + r for f in "abcdefg" for r in "1234567" if f + r != src and f + r not in allowed
                 and f + r != "d4" and (f + r)[0] != src[0] and (f + r)[1] != src[1]]
        if not wrong:
            continue
        before = p.centre(p.tile(src))
        p.drag(src, wrong[0])
        explain = p.page.locator('[data-testid="explain"]')
        explain.wait_for(state="visible")
        assert "straight line" in explain.inner_text()
        p.page.wait_for_timeout(300)  # the snap-back animation
        after = p.centre(p.tile(src))
        assert abs(after[0] - before[0]) < 2 and abs(after[1] - before[1]) < 2
        assert p.ply() == ply
        return True
    return False
