"""A tournament through the pages: Ann creates one on /tournaments with the form, enters herself and
two computer levels, Bob enters from the list; Ann starts it; both hear "your game is ready" (Bob in
the lobby, Ann on the tournament's page), follow the link, find the tournament named at the table
without a rematch; Ann resigns, Bob plays his match against the computer by clicks to its end (or
wins by Ann's resignation when they meet); the tournament page shows the results, the standings and
the crosstable as they come in, and the countdown to round 2. Also: a guest is shown no form, a
refused form says why next to it, a guest may not enter an accounts-only tournament, the rounds'
tabs answer the arrow keys, a hunt tournament runs to its end, and a page that lost its connection
watches again."""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from board_driver import Player, pick
from sockets import CAPTURE, cut, restore

import loopback

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

PASSWORD = "forest floor 42"


def by_id(page: Any, testid: str) -> Any:
    return page.locator(f'[data-testid="{testid}"]')


def account(open_page: Any, url: str) -> tuple[Any, str]:
    """A fresh browser with a fresh account, registered on the account page."""
    name = f"P{secrets.token_hex(3)}"
    page = open_page(f"{url}/account")
    page.fill('[data-testid="register-name"]', name)
    page.fill('[data-testid="register-password"]', PASSWORD)
    page.fill('[data-testid="register-password2"]', PASSWORD)
    page.click('[data-testid="register-submit"]')
    page.wait_for_url(re.compile(r"/player/"))
    page.locator('[data-testid="me-kind"][data-kind="account"]').wait_for()
    return page, str(by_id(page, "me-name").get_attribute("data-id"))


def api(page: Any, path: str) -> Any:
    return page.evaluate("p => fetch(p).then(r => r.json())", path)


def resign(page: Any) -> None:
    by_id(page, "btn-resign").click()
    by_id(page, "confirm-yes").click()
    by_id(page, "btn-resign").wait_for(state="hidden")


def play_match(page: Any) -> None:
    """Play both games of the match by clicks until the end-of-match summary shows."""
    me = Player(page)
    while True:  # until the summary says the match is over; each turn is waited for
        page.wait_for_function(
            """() => !document.querySelector('[data-testid="summary"]').hidden
                  || document.querySelector('[data-testid="board"]').dataset.legal !== ''""", timeout=30_000)
        if by_id(page, "summary").is_visible():
            if by_id(page, "summary").get_attribute("data-match") == "over":
                return
            by_id(page, "summary-close").click()  # game 1 is over: game 2 follows at once
            continue
        ply = me.ply()
        action = pick(me.legal(), prefer_drag=False)
        if action == "pass":
            by_id(page, "btn-pass").click()
        elif action.startswith("?"):
            me.tap(action[1:3])
        else:
            me.drag(action[:2], action[3:])
        # The ply moves on, or starts again at game 2 when this action ended game 1.
        page.wait_for_function("n => document.querySelector('[data-testid=\"board\"]').dataset.ply !== String(n)",
                               arg=ply)


def bot_bridge(url: str, tid: str, folder: Path) -> subprocess.Popen[bytes]:
    """A bot account with a token, and ``halali bot`` entering it in the tournament, playing with a real
    engine process (level 1)."""
    with loopback.client(base_url=url, headers={"origin": url}) as http:
        http.get("/api/me")
        assert http.post("/api/register", json={"name": f"Robo{secrets.token_hex(2)}",
                                                "password": PASSWORD}).status_code == 200
        assert http.post("/api/bot-account", json={}).json()["bot_account"] is True
        token = http.post("/api/tokens", json={"label": "tournament"}).json()["token"]
    halali = [sys.executable, "-m", "halali.cli"]
    log = (folder / "bot.log").open("wb")
    return subprocess.Popen([*halali, "bot", "--server", url, "--token", token, "--movetime", "0.05",
                             "--tournament", tid, "--", *halali, "engine", "--level", "1"], stderr=log)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_a_tournament_from_the_form_to_the_standings(server_with: Any, open_page: Any, shot: Any, tmp_path: Path,
                                                     request: Any) -> None:
    srv = server_with(tournament_poll=0.2)
    guest = open_page(f"{srv.url}/tournaments")
    by_id(guest, "create-login").wait_for()
    assert not by_id(guest, "tournament-form").is_visible()

    ann, ann_id = account(open_page, srv.url)
    bob, bob_id = account(open_page, srv.url)
    ann.goto(f"{srv.url}/tournaments")
    form = by_id(ann, "tournament-form")
    form.wait_for()
    ann.fill('[data-testid="tf-name"]', "")
    by_id(ann, "tf-create").click()  # no name: refused, and the form says so in a sentence
    by_id(ann, "tf-error").wait_for()
    assert by_id(ann, "tf-error").inner_text() == "The name is missing or too long: at most 80 characters."

    # The hare hunt asks for a table size and has no clock; the forest game the other way round.
    ann.select_option('[data-testid="tf-game"]', "hare")
    by_id(ann, "tf-table-size").wait_for()
    assert not by_id(ann, "tf-clock").is_visible()
    ann.select_option('[data-testid="tf-game"]', "forest")
    by_id(ann, "tf-clock").wait_for()
    name = f"Autumn Swiss {secrets.token_hex(2)}"
    ann.fill('[data-testid="tf-name"]', name)
    ann.fill('[data-testid="tf-rounds"]', "2")
    ann.fill('[data-testid="tf-round-minutes"]', "30")
    ann.fill('[data-testid="tf-starts-in"]', "5")
    ann.fill('[data-testid="tf-stall-limit"]', "1")  # the computers reveal after every quiet move: short games
    ann.uncheck('[data-testid="tf-rated"]')
    shot(ann, "tournament-create")
    by_id(ann, "tf-create").click()
    ann.wait_for_url(re.compile(r"/tournament/s_\w+$"))
    tid = ann.url.rsplit("/", 1)[1]
    by_id(ann, "t-name").filter(has_text=name).wait_for()
    assert by_id(ann, "t-state").inner_text() == "upcoming"
    assert re.fullmatch(r"Starts in [45]:\d\d", by_id(ann, "t-next").inner_text())

    # Ann enters, and enters a computer level; a bot account enters through its bridge: with Bob, four
    # players, no bye.
    by_id(ann, "t-join").click()
    by_id(ann, "t-withdraw").wait_for()
    ann.select_option('[data-testid="t-level"]', "1")
    by_id(ann, "t-add-level").click()
    bot = bot_bridge(srv.url, tid, tmp_path)
    request.addfinalizer(lambda: stop(bot))
    # A bound for a busy machine: the bridge and its engine are two new Python processes to start.
    ann.wait_for_function("() => document.querySelectorAll('[data-testid=\"standings\"] tbody tr').length === 3",
                          timeout=120_000)
    assert "Computer (" in by_id(ann, "standings").inner_text()
    by_id(ann, "standings").locator('[data-testid="bot-account"]').wait_for()  # the bot account, labelled

    # Bob finds it in the list, enters from its page and waits in the lobby, which lists it too.
    bob.goto(f"{srv.url}/tournaments")
    card = by_id(bob, f"tournament-{tid}")
    card.wait_for()
    assert by_id(card, "tournament-state").inner_text() == "upcoming"
    assert not by_id(bob, "t-start").count()
    by_id(card, "tournament-link").click()
    bob.wait_for_url(re.compile(f"/tournament/{tid}$"))
    by_id(bob, "t-join").click()
    by_id(bob, "t-withdraw").wait_for()
    assert by_id(bob, "t-start").is_hidden() and by_id(bob, "t-level-box").is_hidden()  # the creator's
    ann.wait_for_function("() => document.querySelectorAll('[data-testid=\"standings\"] tbody tr').length === 4")
    bob.click('[data-testid="link-lobby"]')
    by_id(bob, "lobby-tournaments").locator(f'[data-testid="tournament-{tid}"]').wait_for()

    by_id(ann, "t-start").click()
    by_id(ann, "t-state").filter(has_text="running").wait_for()
    for page in (ann, bob):  # both hear it: Ann on the tournament page, Bob in the lobby
        by_id(page, "tournament-ready").filter(has_text=f"{name}”, round 1").wait_for()
    by_id(ann, "t-your-table").wait_for()
    by_id(bob, f"tournament-{tid}").locator('[data-testid="tournament-state"]').filter(has_text="running").wait_for()
    shot(bob, "lobby-tournament-ready")
    assert by_id(ann, "t-announce").inner_text() == "Round 1 has begun."
    tab = by_id(ann, "round-tab-1")
    assert tab.get_attribute("aria-selected") == "true"
    assert by_id(ann, "pairings").locator("tbody tr").count() == 2
    assert "being played" in by_id(ann, "pairings").inner_text()
    shot(ann, "tournament-running")

    # Each follows the link to the table: the tournament is named there, and there is no rematch.
    by_id(bob, "ready-link").click()
    bob.wait_for_url(re.compile(r"/table/t_\w+$"))
    by_id(ann, "t-your-table-link").click()
    ann.wait_for_url(re.compile(r"/table/t_\w+$"))
    for page in (ann, bob):
        by_id(page, "tournament-banner").filter(has_text=f"Tournament: {name}, round 1").wait_for()
        by_id(page, "btn-resign").wait_for()
    pairings = api(ann, f"/api/tournaments/{tid}")["pairings"]
    together = any({ann_id, bob_id} <= set(p["players"]) for p in pairings)
    resign(ann)
    if not together:  # Bob plays his match against the computer to its end, by clicks
        play_match(bob)
    # The match's summary offers the way back instead of a rematch.
    by_id(ann, "summary").wait_for()
    assert by_id(ann, "summary-rematch").is_hidden() and by_id(ann, "btn-rematch").is_hidden()
    shot(ann, "tournament-table-summary")

    # Back on the tournament's page: the results, the standings and the crosstable, then the break.
    by_id(ann, "summary-tournament").click()
    ann.wait_for_url(re.compile(f"/tournament/{tid}$"))
    by_id(ann, "t-next").filter(has_text=re.compile(r"Round 2 begins in \d+:\d\d")).wait_for(timeout=120_000)
    results = by_id(ann, "pairings").locator('[data-testid="pairing-result"]').all_inner_texts()
    assert len(results) == 2 and all(re.fullmatch("1 – 0|0 – 1|½ – ½", r) for r in results), results
    scores = {row.get_attribute("data-player"): row.locator('[data-testid="standing-score"]').inner_text()
              for row in by_id(ann, "standings").locator("tbody tr").all()}
    assert scores[ann_id] == "0" and sum({"0": 0, "½": 0.5, "1": 1}[s] for s in scores.values()) == 2, scores
    # Each computer carries its level's badge, which a phone does not cut as it cuts "Computer (…".
    assert by_id(ann, "standings").locator('[data-testid="bot-mark"]').all_inner_texts() == ["level 1"]
    # The last tie-break is the points scored on the boards, and says so (not "tiles": their count).
    assert "Board points" in by_id(ann, "standings").locator("thead").inner_text()
    first = by_id(ann, "standings").locator("tbody tr").first
    assert first.locator('[data-testid="standing-rank"]').inner_text() == "1"
    cross = by_id(ann, f"cross-{ann_id}")
    assert re.fullmatch(r"-\d", cross.locator('[data-testid="cross-cell-1"]').inner_text())
    assert cross.locator('[data-testid="cross-cell-2"]').inner_text() == ""
    shot(ann, "tournament-after-round-1")


def test_a_guest_tournament_page_watches_and_is_told_why_not(server_with: Any, open_page: Any) -> None:
    srv = server_with(tournament_poll=0.2)
    tid = srv.create_tournament("Winter Swiss", levels=(1,), rounds=3, starts_in=3600)
    guest = open_page(f"{srv.url}/tournament/{tid}")
    by_id(guest, "t-name").filter(has_text="Winter Swiss").wait_for()
    assert "registered players only" in by_id(guest, "t-entry").inner_text()
    assert by_id(guest, "t-start").is_hidden()
    by_id(guest, "t-join").click()  # accounts only: the server refuses, the page says why
    by_id(guest, "t-error").filter(has_text="Only registered players").wait_for()
    assert by_id(guest, "standings").locator("tbody tr").count() == 1
    assert by_id(guest, "no-rounds").is_visible()


def test_the_rounds_tabs_from_the_keyboard(server_with: Any, open_page: Any) -> None:
    """Two computer levels in a correspondence tournament: the next round follows the last result at
    once, so two rounds are there without waiting for a clock; the tabs walk them by the arrow keys."""
    srv = server_with(tournament_poll=0.2)
    tid = srv.create_tournament("Keys Swiss", levels=(1, 2), start=True, rounds=2, pace="correspondence",
                                round_days=2, rated=False, rules={"stall_limit": 1})
    page = open_page(f"{srv.url}/tournament/{tid}")
    second = by_id(page, "round-tab-2")
    second.wait_for(timeout=300_000)  # a bound: round 1's match took over 120 s once on a loaded machine
    assert second.get_attribute("aria-selected") == "true"  # the current round is shown
    assert re.fullmatch(r"Round 2 ends in (2 d 0:00:00|1 d 23:5\d:\d\d)", by_id(page, "t-next").inner_text())
    first = by_id(page, "round-tab-1")
    assert first.get_attribute("tabindex") == "-1" and second.get_attribute("tabindex") == "0"
    second.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.activeElement.dataset.testid === 'round-tab-1'")
    assert by_id(page, "round-tab-1").get_attribute("aria-selected") == "true"
    assert by_id(page, "pairing-1-1").locator('[data-testid="pairing-result"]').inner_text() != "being played"
    page.keyboard.press("End")
    page.wait_for_function("() => document.activeElement.dataset.testid === 'round-tab-2'")
    by_id(page, "pairing-2-1").wait_for()
    page.keyboard.press("ArrowRight")  # past the last round: round to the first
    page.wait_for_function("() => document.activeElement.dataset.testid === 'round-tab-1'")
    by_id(page, "pairing-1-1").wait_for()


def test_a_hunt_tournament_of_one_round(server_with: Any, open_page: Any) -> None:
    """The hare hunt through the form: a table of three, the hare page names the tournament, a
    resignation ends the hunt and with it the one round; the tournament is finished, with its points."""
    srv = server_with(tournament_poll=0.2)
    cat, cat_id = account(open_page, srv.url)
    cat.goto(f"{srv.url}/tournaments")
    by_id(cat, "tournament-form").wait_for()
    cat.select_option('[data-testid="tf-game"]', "hare")
    assert by_id(cat, "tf-pace").locator('option[value="correspondence"]').is_disabled()  # the hunt is live
    cat.fill('[data-testid="tf-name"]', "Hare Cup")
    cat.fill('[data-testid="tf-rounds"]', "1")
    cat.select_option('[data-testid="tf-table-size"]', "3")
    by_id(cat, "tf-create").click()
    cat.wait_for_url(re.compile(r"/tournament/s_\w+$"))
    by_id(cat, "t-entry").filter(has_text="tables of 3").wait_for()
    by_id(cat, "t-join").click()
    by_id(cat, "t-withdraw").wait_for()
    for level in ("1", "2"):
        cat.select_option('[data-testid="t-level"]', level)
        by_id(cat, "t-add-level").click()
    cat.wait_for_function("() => document.querySelectorAll('[data-testid=\"standings\"] tbody tr').length === 3")
    by_id(cat, "t-start").click()
    by_id(cat, "ready-link").click()
    cat.wait_for_url(re.compile(r"/table/t_\w+$"))
    by_id(cat, "tournament-banner").filter(has_text="Tournament: Hare Cup, round 1").wait_for()
    resign(cat)
    by_id(cat, "tournament-back").click()
    by_id(cat, "t-state").filter(has_text="finished").wait_for()
    assert by_id(cat, "t-next").inner_text() == "" and by_id(cat, "t-join").is_hidden()
    assert by_id(cat, "pairing-1-1").locator('[data-testid="pairing-result"]').inner_text().count("0.75") == 2
    assert by_id(cat, f"standing-{cat_id}").locator('[data-testid="standing-rank"]').inner_text() == "3"
    cell = by_id(cat, f"cross-{cat_id}").locator('[data-testid="cross-cell-1"]')
    assert re.fullmatch(r"\d,\d 0\.00", cell.inner_text())  # table-mates by number, the points


def guest_enters(url: str, tid: str) -> None:
    """A guest enters over the WebSocket API, and hears the tournament with its entry."""
    from websockets.sync.client import connect

    cookie = loopback.get(f"{url}/api/me").cookies["halali_session"]
    ws_url = url.replace("http://", "ws://") + "/ws"
    with connect(ws_url, additional_headers={"Cookie": f"halali_session={cookie}"}) as ws:
        ws.send(json.dumps({"type": "tournament_watch", "id": tid}))
        ws.send(json.dumps({"type": "tournament_join", "id": tid}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            assert msg["type"] != "error", msg
            if msg["type"] == "tournament" and msg["tournament"]["you"]["entered"]:
                return


def test_the_page_watches_again_after_a_lost_connection(server_with: Any, open_page: Any) -> None:
    srv = server_with(tournament_poll=0.2)
    tid = srv.create_tournament("Night Swiss", levels=(1,), starts_in=3600, entry={"accounts": False})
    page = open_page(f"{srv.url}/tournament/{tid}")
    page.context.add_init_script(CAPTURE)
    page.reload()
    rows = "n => document.querySelectorAll('[data-testid=\"standings\"] tbody tr').length === n"
    page.wait_for_function(rows, arg=1)
    assert "guests too" in by_id(page, "t-entry").inner_text()
    cut(page)
    page.locator('[data-testid="conn"][data-state="offline"]').wait_for()
    guest_enters(srv.url, tid)  # while the page is away: only a new watch can tell it
    restore(page)
    page.locator('[data-testid="conn"][data-state="online"]').wait_for(timeout=20_000)
    page.wait_for_function(rows, arg=2)
