"""A two-game match against a computer player, driven by the table's buttons: game 1, the summary
and the swap of colours, game 2, the end-of-match summary with the totals, and a rematch."""

from __future__ import annotations

import json
from typing import Any

import pytest
from board_driver import Player, pick

import loopback

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

# A stall limit of 1 makes the random computer reveal after every quiet move: short games.
RULES = {"match": "match", "stall_limit": 1}
SEED = 3


def test_match_against_the_computer_and_rematch(server: Any, open_page: Any, shot: Any) -> None:
    table = server.create_table(RULES, seed=SEED)
    page = open_page(f"/table/{table}")
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(json.loads(p))))
    page.reload()
    me = Player(page)
    page.click('[data-testid="btn-join"]')
    page.locator('[data-testid="seat-0"].me').wait_for()
    page.select_option('[data-testid="bot-level"]', "1")
    page.click('[data-testid="btn-bot"]')
    page.locator('[data-testid="seat-1-name"]', has_text="Computer").wait_for()
    # The board holds still: where it is before the start (nobody's turn, no Hint button beside the
    # status), it stays at each of the player's turns (the Hint button there).
    tops = {page.evaluate(BOARD_TOP): "before the start"}
    page.click('[data-testid="btn-start"]')

    summaries = 0
    ply = -1
    hinted = False
    while True:
        page.wait_for_function(
            """() => !document.querySelector('[data-testid="summary"]').hidden
                  || document.querySelector('[data-testid="board"]').dataset.legal !== ''""")
        summary = page.locator('[data-testid="summary"]')
        if summary.is_visible():
            summaries += 1
            games = [f["game"] for f in frames if f.get("type") == "game" and f["game"]["over"]]
            if summaries == 1:
                first = games[-1]
                assert page.locator('[data-testid="summary-title"]').inner_text() == "Game 1 is over"
                assert "Game 2 starts right away" in page.locator('[data-testid="summary-note"]').inner_text()
                assert page.locator('[data-testid="summary-rematch"]').is_hidden()
                shot(page, "summary-game-1")
                page.click('[data-testid="summary-close"]')
                page.locator('[data-testid="match-info"]', has_text="Game 2 of 2").wait_for()
                # Seat 0 played brown in game 1 and plays blue in game 2.
                assert first["colours"] == ["brown", "blue"]
                assert page.locator('[data-testid="seat-0"]').get_attribute("data-colour") == "blue"
                continue
            last = [f for f in frames if f.get("type") == "game"][-1]
            assert last["game"]["number"] == 2 and last["game"]["over"] and last["match"]["over"]
            totals = last["match"]["totals"]
            assert page.locator('[data-testid="summary-title"]').inner_text() == "The match is over"
            assert page.locator('[data-testid="summary-match"]').inner_text().endswith(
                f"{totals[0]} : {totals[1]} Computer (random)")
            winner = page.locator('[data-testid="summary-winner"]').inner_text()
            if last["match"]["winner"] is None:
                assert winner == "The match is drawn."
            else:
                name = "Computer (random)" if last["match"]["winner"] == 1 else me.page.locator(
                    '[data-testid="me-name"]').inner_text()
                assert winner == f"{name} wins the match!"
            assert page.locator('[data-testid="summary-note"]').inner_text().startswith("Game 2: ")
            # Game by game: both players' points and tiles in each, and each game's replay.
            for g in (first, last["game"]):
                n = g["number"]
                heading = page.locator(f'[data-testid="summary-game-{n}"]')
                assert heading.inner_text().startswith(f"Game {n}")
                assert page.get_attribute(f'[data-testid="summary-replay-{n}"]', "href") == f"/replay/{g['id']}"
                for seat in (0, 1):
                    row = page.locator(f'[data-testid="{"summary" if n == 2 else "summary-g1"}-seat-{seat}"]')
                    cells = row.locator("td").all_inner_texts()
                    colour = g["colours"][seat]
                    assert cells[2:] == [str(g["result"]["score"][colour]), str(g["result"]["tiles"][colour])]
            assert "nothing collected yet" not in page.locator('[data-testid="summary-table"]').inner_text()
            # A seeded match is unrated: the dialog says that no rating changed.
            assert page.locator('[data-testid="summary-rating"]').inner_text() == "Unrated: no rating changes."
            game_points = [sum(g["result"]["score"][g["colours"][s]] for g in (first, last["game"])) for s in (0, 1)]
            assert game_points == totals
            # Who was luckier over the match, and who played better: the server's verdict, in words.
            luck_line = page.locator('[data-testid="summary-luck"][data-state="done"]')
            luck_line.wait_for(timeout=120_000)  # a bound: the shared server analyses the match only now
            verdict = loopback.get(f"{server.url}/api/games/{last['game']['id']}/match-luck").json()
            assert len(verdict["games"]) == 2
            names = [me.page.locator('[data-testid="me-name"]').inner_text(), "Computer (random)"]
            expected = []
            for line in verdict["summary"]:
                if line["key"] == "luck.even":
                    expected.append("Both sides were about equally lucky")
                elif line["key"] == "skill.even":
                    expected.append("Both sides played about equally well")
                else:
                    n, who = line["params"]["points"], names[line["params"]["player"]]
                    what = "was luckier" if line["key"] == "luck.luckier" else "played better"
                    expected.append(f"{who} {what} by about {n} point{'s' if n != 1 else ''}")
            assert luck_line.inner_text() == " · ".join(expected)
            shot(page, "summary-match")
            break
        current = me.ply()
        assert current != ply, "the page offers actions only once per turn"
        tops.setdefault(page.evaluate(BOARD_TOP), f"ply {current}")
        ply = current
        legal = me.legal()
        action = pick(legal, prefer_drag=False)
        if not hinted and len(legal) > 1:
            action = take_hint(page, legal)
            shot(page, "table-hint")
            hinted = True
        if action == "pass":
            page.click('[data-testid="btn-pass"]')
        elif action.startswith("?"):
            me.tap(action[1:3])
        else:
            me.drag(action[:2], action[3:])
        # The action shows on the board; one that ends game 1 brings game 2's first position instead.
        page.wait_for_function(
            "n => Number(document.querySelector('[data-testid=\"board\"]').dataset.ply) !== n", arg=ply)

    # Rematch: the computer always agrees, so a new match starts with the same seats.
    page.click('[data-testid="summary-rematch"]')
    page.locator('[data-testid="chat-log"] li[data-key="chat.started"]', has_text="Match 2").wait_for()
    page.locator('[data-testid="match-info"]', has_text="Game 1 of 2").wait_for()
    assert page.locator('[data-testid="summary"]').is_hidden()
    assert page.locator('[data-testid="seat-0"]').get_attribute("data-colour") == "brown"
    assert hinted
    assert len(tops) == 1, f"the board moved on the page (its top in px: when): {tops}"


# The board's top on the page, in px (not in the viewport, which a click may scroll).
BOARD_TOP = """() => { const r = document.querySelector('[data-testid="board"]').getBoundingClientRect();
  return Math.round((r.top + window.scrollY) * 10) / 10; }"""


def take_hint(page: Any, legal: list[str]) -> str:
    """Ask for a hint (the match is unrated: a test seed): the action is shown in words and on the
    board, the table is told, and the button is gone until the next turn."""
    page.click('[data-testid="btn-hint"]')
    text = page.locator('[data-testid="hint-text"]')
    text.wait_for(timeout=60_000)
    action = text.get_attribute("data-action")
    assert action in legal and text.inner_text() == f"Hint: {action}"
    assert page.locator('[data-testid="btn-hint"]').is_hidden()
    best = page.locator('[data-testid="best-layer"]')
    assert best.get_attribute("data-best") == action
    if action.startswith("?"):  # a ring on the square to reveal, else an arrow from the tile to move
        assert best.locator(".best-ring").get_attribute("data-square") == action[1:3]
    else:
        assert best.locator(".best-arrow").get_attribute("data-from") == action[:2]
    page.locator('[data-testid="chat-log"] li[data-key="chat.hint"]').wait_for()
    return action
