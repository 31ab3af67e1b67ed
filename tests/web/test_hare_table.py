"""The hare hunt in the browser: one person and two computer players hunt to the end through the
page's controls, and no message to the person shows another player's club before it is public."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hare_driver import HareHand

import loopback

pytestmark = pytest.mark.browser

SEED = 11


def test_a_hare_hunt_with_two_computer_players_in_the_browser(server: Any, open_page: Any, shot: Any,
                                                                axe_check: Any) -> None:
    table = server.create_table(seed=SEED, game="hare", seats=3)
    page = open_page(f"/table/{table}")
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(json.loads(p))))
    page.reload()
    page.locator('[data-testid="hare-seats"] li').nth(2).wait_for()
    page.click('[data-testid="btn-join"]')
    page.locator('[data-testid="hare-seat-0"]', has=page.locator(".you-tag")).wait_for()
    page.select_option('[data-testid="bot-level"]', "2")
    page.click('[data-testid="btn-bot"]')
    page.locator('[data-testid="hare-seat-1"]', has_text="heuristic").wait_for()
    page.click('[data-testid="btn-bot"]')
    page.locator('[data-testid="hare-seat-2"]', has_text="heuristic").wait_for()
    page.click('[data-testid="btn-start"]')
    page.locator('[data-testid="hare-own-club"]').wait_for()
    own = page.locator('[data-testid="hare-own-club"]').get_attribute("data-club")
    assert own in "RYGBWK"
    assert page.locator('[data-testid="hare-svg"] polygon.cell').count() == 91
    # A private reply (/help) stays in the chat while the hunt goes on (each action redraws the table).
    page.locator('[data-testid="chat-input"]').fill("/help")
    page.locator('[data-testid="chat-input"]').press("Enter")
    page.locator('[data-testid="chat-log"] li.private').wait_for()

    # The person's turns, made on the board (a drag now and then); the board holds still in each.
    hand = HareHand(page, random.Random(SEED), drag_every=2)
    seen_phases: set[str] = set()
    status = page.locator('[data-testid="status"]')
    hand.play_until_over(every=lambda h: seen_phases.add(status.get_attribute("data-phase") or ""))
    actions_sent, dragged = hand.actions, hand.dragged
    shot(page, "hare-over")
    assert page.locator('[data-testid="chat-log"] li.private').count() == 1
    started = page.locator('[data-testid="chat-log"] li[data-key="chat.hare_started"]')
    assert started.inner_text().startswith("Hare hunt 1 begins")
    page.select_option('[data-testid="lang-select"]', "de")  # notices follow the reader's language
    page.wait_for_function("""() => document.querySelector(
        '[data-testid="chat-log"] li[data-key="chat.hare_started"]').textContent.startsWith('Hasenjagd 1 beginnt')""")
    assert page.locator('[data-testid="chat-log"] li.private').count() == 1
    page.select_option('[data-testid="lang-select"]', "en")
    assert actions_sent > 3 and dragged > 0 and len(seen_phases) > 1
    winners = page.locator('[data-testid="hare-winner"]').count()
    assert winners >= 1
    assert "The hunt is over" in page.locator('[data-testid="hare-result"]').inner_text()
    # Every club is public at the end: each seat shows one.
    for i in range(3):
        assert page.locator(f'[data-testid="hare-seat-{i}"]').get_attribute("data-club") in list("RYGBWK")

    hare = [f for f in frames if f.get("type") == "hare" and f.get("hunt")]
    assert hare and hare[-1]["hunt"]["over"]
    for f in hare:
        fields = f["hunt"]["position"].split()
        assert fields[9] == "-"  # never the dice secret
        if f["hunt"]["over"]:
            continue
        for seat, token in enumerate(fields[2].split(",")):
            if seat != 0 and "@" not in token:
                assert token == "?", f["hunt"]["position"]
        clubs_shown = {t.split("@")[0] for t in fields[2].split(",")} - {"?"}
        assert own in clubs_shown
    # No other frame carries a position with clubs (chat, lobby and errors have none).
    for f in frames:
        if f.get("type") != "hare":
            assert "position" not in json.dumps(f)

    # The end links to the replay; the hunt is in the player's history, and its replay steps through it.
    assert re.fullmatch(r"/hunt/\d+", page.locator('[data-testid="hare-replay-link"]').get_attribute("href") or "")
    page.goto(f"{server.url}/history")
    page.locator('[data-testid="hunts-panel"]').wait_for()
    replay_link = page.locator('[data-testid^="hunt-replay-"]')
    assert replay_link.count() == 1
    replay_link.click()
    page.wait_for_url("**/hunt/*")
    page.locator('[data-testid="hunt-player-0"]').wait_for()
    total = len(hare[-1]["hunt"]["actions"])
    assert page.locator('[data-testid="move-list"] li').count() == total
    # Each action in words, the notation kept on its title; the date as every other page writes it.
    first = page.locator('[data-testid="hunt-action-1"] button')
    notation = hare[-1]["hunt"]["actions"][0]
    assert first.get_attribute("title") == notation
    words = first.inner_text()
    assert words != notation and re.search(r"(places the bush|rolls)", words), words
    hunt_id = page.url.split("/hunt/")[1].split("#")[0]
    finished = loopback.get(f"{server.url}/api/hunts/{hunt_id}").json()["finished"]
    expected = page.evaluate("""(iso) => new Intl.DateTimeFormat('en', {dateStyle: 'medium', timeStyle: 'short'})
        .format(new Date(iso))""", finished)
    assert page.locator('[data-testid="hunt-date"]').inner_text().strip(" ·") == expected
    assert page.locator('[data-testid="board-host"]').get_attribute("data-ply") == "0"
    at_ply = """(ply) => document.querySelector('[data-testid="board-host"]').dataset.ply === String(ply)"""
    page.keyboard.press("End")
    page.wait_for_function(at_ply, arg=total)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(at_ply, arg=total - 1)
    page.click('[data-testid="btn-first"]')
    page.wait_for_function(at_ply, arg=0)
    # The clubs as the players knew them: secret at the start (unless its seat is out), all revealed at
    # the end, or all from the start with the switch.
    assert page.locator('[data-testid="hunt-club-1"]').inner_text() == "club secret"
    page.keyboard.press("End")
    page.wait_for_function(at_ply, arg=total)
    clubs = {page.locator(f'[data-testid="hunt-player-{i}"]').get_attribute("data-club") for i in range(3)}
    assert len(clubs) == 3 and clubs <= set("RYGBWK") and own in clubs
    assert "every club is revealed" in page.locator('[data-testid="clubs-note"]').inner_text()
    page.keyboard.press("Home")
    page.wait_for_function(at_ply, arg=0)
    page.check('[data-testid="show-clubs"]')
    assert {page.locator(f'[data-testid="hunt-player-{i}"]').get_attribute("data-club") for i in range(3)} == clubs
    # The record: the start with every club and no dice secret, then every action, as the engine replays it.
    href = page.locator('[data-testid="export-record"]').get_attribute("href") or ""
    record = loopback.get(f"{server.url}{href}").text
    from halali.games.hare import replay

    assert record.split(" ; ")[1].split() == hare[-1]["hunt"]["actions"]
    assert replay(record).is_over() and record.split(" ; ")[0].split()[9] == "-"
    assert page.locator('[data-testid="hare-svg"] polygon.cell').count() == 91
    shot(page, "hare-replay")
    axe_check(page, "the hunt's replay")
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")["id"]
    page.goto(f"{server.url}/player/{me}")
    hunts_row = page.locator('[data-testid="results-hunts"]')
    hunts_row.wait_for()
    assert hunts_row.locator("td").first.inner_text() == "1"
    assert page.locator('[data-testid="results-all"]').count() == 0  # no forest game, no forest rows


def test_how_to_play_explains_the_hare_hunt(open_page: Any) -> None:
    page = open_page("/how-to-play#hare", locale="de-DE")
    section = page.locator('[data-testid="howto-hare"]')
    section.locator("h2", has_text="Die Hasenjagd").wait_for()
    assert "91 Feldern" in section.inner_text()


def test_the_lobby_creates_a_hare_hunt_and_offers_hare_computer_players(open_page: Any) -> None:
    page = open_page("/")
    page.click('[data-testid="more-hare"] > summary')
    page.select_option('[data-testid="hare-opt-seats"]', "4")
    page.uncheck('[data-testid="hare-opt-bush"]')
    page.click('[data-testid="hare-create"]')
    page.wait_for_url("**/table/t_*")
    table = page.url.rstrip("/").split("/")[-1]
    page.locator('[data-testid="hare-seat-3"]').wait_for()
    assert page.locator('[data-testid="hare-seats"] li').count() == 4
    assert page.locator('[data-testid="hare-seat-0"] .you-tag').count() == 1
    assert "no bush" in page.locator('[data-testid="rules-info"]').inner_text()
    # Back in the lobby, the owner's card offers the hare hunt's computer players.
    page.click('[data-testid="link-lobby"]')
    card = page.locator(f'[data-testid="table-{table}"]')
    card.wait_for()
    options = card.locator('[data-testid="lobby-bot-level"] option').all_inner_texts()
    assert any("heuristic" in o for o in options) and any("strong" in o for o in options)


def test_a_hare_hunt_fits_a_phone_screen(server: Any, open_page: Any, shot: Any) -> None:
    table = server.create_table(seed=SEED, game="hare", seats=3)
    page = open_page(f"/table/{table}", phone=True)
    page.locator('[data-testid="btn-join"]').click()
    page.locator('[data-testid="hare-seat-0"]', has=page.locator(".you-tag")).wait_for()
    page.select_option('[data-testid="bot-level"]', "1")
    page.click('[data-testid="btn-bot"]')
    page.locator('[data-testid="hare-seat-1"]', has_text="random").wait_for()
    page.click('[data-testid="btn-bot"]')
    page.locator('[data-testid="hare-seat-2"]', has_text="random").wait_for()
    page.click('[data-testid="btn-start"]')
    page.locator('[data-testid="hare-own-club"]').wait_for()
    shot(page, "hare-phone")
    width = page.evaluate("() => window.innerWidth")
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width  # no sideways scrolling
    box = page.locator('[data-testid="hare-svg"]').bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1 and box["width"] > 0.8 * width
    # The computer players move until the person is to decide: the lobby then lists the hunt as their turn.
    lobby = page.context.new_page()
    lobby.goto(f"{server.url}/")
    entry = lobby.locator(f'[data-testid="my-turn-{table}"]')
    entry.wait_for()
    assert entry.locator('[data-testid="my-turn-game"]').inner_text() == "Hare hunt"
    assert "Computer 2 (random), Computer 3 (random)" in entry.inner_text()


# How the browser joins two items ("2 and 3", "c6 or e6"; Czech keeps a one-letter "a" on the next word).
LIST_JOINS = {"en": (" and ", " or "), "de": (" und ", " oder "), "fr": (" et ", " ou "), "it": (" e ", " o "),
              "cs": (" a\u00a0", " nebo ")}


@pytest.mark.parametrize("lang", ["de", "en", "fr", "it", "cs"])
def test_the_hare_page_reads_every_refusal_in_its_language(server: Any, open_page: Any, lang: str) -> None:
    """Every rule the engine can name, as the server sends it (`error.illegal` with `rule` and
    `rule_params`), reads as the page's translation with its cells, directions and dice filled in."""
    from pathlib import Path

    from hare_helpers import rule_refusals

    strings = json.loads((Path(__file__).resolve().parents[2] / f"src/halali/web/i18n/{lang}.json").read_text())
    conjunction, disjunction = LIST_JOINS[lang]
    errors, expected = [], []
    for exc in rule_refusals():
        p = exc.params
        errors.append({"type": "error", "key": "error.illegal", "message": f"Illegal action: {exc}",
                       "params": {"reason": str(exc), "rule": exc.key, "rule_params": p}})
        key = f"{exc.key}.{p['phase']}" if exc.key == "rule.hare.phase" else exc.key
        fill = {k: str(v) for k, v in p.items()}
        if "facing" in p:
            fill["facing"] = strings[f"hare.dir.{p['facing']}"]
        if "dice" in p:
            fill["dice"] = conjunction.join(map(str, p["dice"]))
        if "allowed" in p:
            fill["allowed"] = disjunction.join(str(p["allowed"]).split(", "))
        expected.append(re.sub(r"\{(\w+)\}", lambda m, f=fill: f[m[1]], strings[key]))  # type: ignore[misc]
    table = server.create_table(seed=SEED, game="hare", seats=2)
    page = open_page(f"/table/{table}", locale=lang)
    page.locator('[data-testid="hare-seats"] li').nth(1).wait_for()
    assert page.locator("html").get_attribute("lang") == lang
    shown = page.evaluate("""async (errors) => {
        const { errorText } = await import('/static/js/common.js');  // the module the page itself uses
        return errors.map(errorText);
    }""", errors)
    assert shown == expected


def test_the_seat_buttons_wait_for_the_tables_state(server: Any, browser: Any) -> None:
    """Until the table's state has come, the page cannot know whether a seat is free: no seat, start
    or computer button shows (a press then would have nowhere to go). Here the socket opens but the
    server never answers it."""
    table = server.create_table(seed=SEED, game="hare", seats=2)
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = ctx.new_page()
        page.route_web_socket(re.compile(r"/ws$"), lambda ws: None)  # opened, never answered
        page.goto(f"{server.url}/table/{table}")
        page.locator('[data-testid="conn"][data-state="online"]').wait_for(state="attached")
        for testid in ("btn-join", "btn-watch", "btn-start", "btn-leave", "btn-bot"):
            assert not page.locator(f'[data-testid="{testid}"]').is_visible(), testid
    finally:
        ctx.close()


def test_a_long_hunt_in_the_chat_keeps_what_people_said(open_page: Any) -> None:
    """The chat shows at most 400 items; past that the oldest actions leave first, so a private reply
    (/help) and what people said stay however long the hunt (the moves list keeps every action). The
    page's own chat module, driven with 600 actions as a long hunt tells them, one by one and again whole."""
    page = open_page("/")
    shown = page.evaluate("""async () => {
        const { Chat } = await import('/static/js/chat.js');
        const log = document.createElement('div');
        log.append(document.createElement('ol'));
        const form = document.createElement('form');
        const chat = new Chat({ log, form, input: document.createElement('input'), send: () => true });
        chat.history([{ from: { name: 'Ann' }, text: 'good hunting' }]);
        chat.add({ from: { name: 'halali' }, text: '/join /start /bot', private: true });
        const acts = Array.from({ length: 600 }, (_, i) => ({ words: `action ${i}`, notation: `a${i}` }));
        const look = () => ({
            items: log.querySelectorAll('li').length,
            said: [...log.querySelectorAll('li.said')].map((li) => li.textContent),
            first: log.querySelector('li.action').dataset.notation,
            last: [...log.querySelectorAll('li.action')].pop().dataset.notation,
        });
        for (let n = 1; n <= 600; n++) chat.setActions(1, acts.slice(0, n));
        const grown = look();
        chat.setActions(1, acts, { redo: true });
        return [grown, look()];
    }""")
    for look in shown:
        assert look["items"] == 400
        assert look["said"] == ["Ann: good hunting", "halali: /join /start /bot"]
        assert (look["first"], look["last"]) == ("a202", "a599")
