"""How a match ends off the board, on both games' pages (docs/protocol.md, "The table lifecycle"):
a resignation after its confirmation, an abort before everyone has moved, a claim against a player
who left, computer seats for the table's owner only, and the limit of open tables.

The server is one of its own (``server_with``): an abandonment grace of one second, so a claim comes
soon, and one open table per guest. Every wait is for something the page shows."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from board_driver import Player
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SETTINGS = {"abandon_grace": 1, "tables_per_guest": 1, "tables_per_address": 1000}
I18N = Path(__file__).resolve().parents[2] / "src/halali/web/i18n"


def strings(lang: str = "en") -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def fill(text: str, **params: Any) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m[1]]), text)


EN = strings()


@pytest.fixture
def srv(server_with: Any) -> Any:
    return server_with(**SETTINGS)


def by_id(page: Any, name: str) -> Any:
    return page.locator(f'[data-testid="{name}"]')


def notice(page: Any, key: str) -> Any:
    return page.locator(f'[data-testid="chat-log"] li[data-key="{key}"]')


def my_name(page: Any) -> str:
    me = by_id(page, "me-name")
    expect(me).to_have_text(re.compile(r"\S"))  # the name arrives with /api/me or the welcome
    return str(me.inner_text())


def say(page: Any, text: str) -> None:
    box = by_id(page, "chat-input")
    box.fill(text)
    box.press("Enter")


@dataclass(frozen=True)
class Game:
    """What differs between the forest page and the hare page for these tests."""

    name: str

    def create(self, srv: Any) -> str:
        if self.name == "forest":
            return str(srv.create_table({"match": "single", "stall_limit": 4}, seed=10))
        return str(srv.create_table(game="hare", seats=2, seed=11))

    def seated(self, page: Any, seat: int) -> Any:
        if self.name == "forest":
            return page.locator(f'[data-testid="seat-{seat}"].me')
        return by_id(page, f"hare-seat-{seat}").filter(has=page.locator(".you-tag"))

    def seat_name(self, page: Any, seat: int) -> Any:
        return by_id(page, f"seat-{seat}-name" if self.name == "forest" else f"hare-seat-{seat}")

    def started(self, page: Any) -> None:
        if self.name == "forest":
            by_id(page, "status").filter(has_text=re.compile("turn|to move")).wait_for()
        else:
            by_id(page, "hare-own-club").wait_for()

    def over_text(self, page: Any) -> Any:
        """Where the page says how the match ended."""
        return by_id(page, "status" if self.name == "forest" else "hare-result")

    def waiting_again(self, page: Any) -> None:
        """The match is gone: no board position, the table waits for a start."""
        if self.name == "forest":
            by_id(page, "status").filter(has_text=EN["status.ready"]).wait_for()
            assert by_id(page, "board").get_attribute("data-ply") == "0"
        else:
            by_id(page, "status").filter(has_text=EN["hare.status.ready_start"]).wait_for()
            assert by_id(page, "board-host").get_attribute("data-ply") == ""
        by_id(page, "btn-start").wait_for()


GAMES = [Game("forest"), Game("hare")]
IDS = ["forest", "hare"]


def two_people(game: Game, srv: Any, open_page: Any) -> tuple[Any, Any]:
    """Two people sit down at a new table and the first one starts the match."""
    table = game.create(srv)
    a = open_page(f"{srv.url}/table/{table}")
    b = open_page(f"{srv.url}/table/{table}")
    by_id(a, "btn-join").click()
    game.seated(a, 0).wait_for()
    by_id(b, "btn-join").click()
    game.seated(b, 1).wait_for()
    by_id(a, "btn-start").click()
    for p in (a, b):
        game.started(p)
    return a, b


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_resign_asks_first(game: Game, srv: Any, open_page: Any, shot: Any) -> None:
    """Resign → the confirmation bar (its Yes focused) → No leaves the match running; `/resign` in the
    chat brings the same bar from the server and Escape dismisses it; Resign → Yes ends the match,
    and the page says so. The hare page runs on a phone, by taps."""
    phone = game.name == "hare"
    table = game.create(srv)
    page = open_page(f"{srv.url}/table/{table}", phone=phone)
    press = (lambda loc: loc.tap()) if phone else (lambda loc: loc.click())
    me = my_name(page)
    press(by_id(page, "btn-join"))
    game.seated(page, 0).wait_for()
    page.select_option('[data-testid="bot-level"]', "1")
    press(by_id(page, "btn-bot"))
    game.seat_name(page, 1).filter(has_text="random").wait_for()
    press(by_id(page, "btn-start"))
    game.started(page)
    resign, abort, bar = by_id(page, "btn-resign"), by_id(page, "btn-abort"), by_id(page, "confirm-bar")
    resign.wait_for()
    abort.wait_for()  # nobody can have played in both seats yet: the person has not
    if game.name == "forest":
        # The computer (blue) opens; once the person has answered, the match can no longer be aborted.
        board = Player(page)
        page.wait_for_function("() => document.querySelector('[data-testid=\"board\"]').dataset.legal !== ''")
        reveal = next(a for a in board.legal() if a.startswith("?"))
        board.tap(reveal[1:3])
        abort.wait_for(state="hidden")
        assert resign.is_visible()

    press(resign)
    bar.wait_for()
    assert by_id(page, "confirm-text").inner_text() == EN["lifecycle.confirm.resign"]
    assert page.evaluate("() => document.activeElement.dataset.testid") == "confirm-yes"
    shot(page, f"lifecycle-confirm-{game.name}")
    press(by_id(page, "confirm-no"))
    bar.wait_for(state="hidden")
    assert resign.is_visible() and notice(page, "chat.resigned").count() == 0

    say(page, "/resign")  # the server asks; nothing has changed yet
    bar.wait_for()
    assert bar.get_attribute("data-request") == "resign"
    page.keyboard.press("Escape")
    bar.wait_for(state="hidden")
    assert resign.is_visible() and notice(page, "chat.resigned").count() == 0

    press(resign)
    bar.wait_for()
    press(by_id(page, "confirm-yes"))
    notice(page, "chat.resigned").filter(has_text=fill(EN["chat.resigned"], name=me)).wait_for()
    game.over_text(page).filter(has_text=EN["result.resign"]).wait_for()
    resign.wait_for(state="hidden")
    if game.name == "forest":
        by_id(page, "summary").wait_for()
        assert by_id(page, "summary-title").inner_text() == EN["summary.game_over"].format(game=1)
        assert by_id(page, "summary-winner").inner_text() == fill(EN["summary.winner"], name="Computer (random)")
        assert fill(EN["summary.resigned"], name=me) in by_id(page, "summary-note").inner_text()
    else:
        assert by_id(page, "hare-seat-1").locator('[data-testid="hare-winner"]').count() == 1
        assert by_id(page, "hare-seat-0").locator('[data-testid="hare-winner"]').count() == 0
        # The controls and the result fit the phone's width: nothing scrolls sideways.
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
    shot(page, f"lifecycle-resigned-{game.name}")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_abort_before_anyone_has_moved(game: Game, srv: Any, open_page: Any) -> None:
    a, b = two_people(game, srv, open_page)
    for p in (a, b):
        by_id(p, "btn-abort").wait_for()
    name = my_name(a)
    by_id(a, "btn-abort").click()
    # Abort asks first, as Resign does: No keeps the match, with the focus back on Abort.
    assert by_id(a, "confirm-text").inner_text() == EN["lifecycle.confirm.abort"]
    assert a.evaluate("() => document.activeElement.dataset.testid") == "confirm-yes"
    by_id(a, "confirm-no").click()
    assert by_id(a, "confirm-bar").is_hidden()
    assert a.evaluate("() => document.activeElement.dataset.testid") == "btn-abort"
    by_id(a, "btn-abort").click()
    by_id(a, "confirm-yes").click()
    for p in (a, b):
        notice(p, "chat.aborted").filter(has_text=fill(EN["chat.aborted"], name=name)).wait_for()
        game.waiting_again(p)
        assert by_id(p, "btn-resign").is_hidden() and by_id(p, "btn-abort").is_hidden()
        assert by_id(p, "lifecycle").is_hidden()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_claim_the_win_when_the_opponent_has_left(game: Game, srv: Any, open_page: Any, shot: Any) -> None:
    """The second person closes the page; the one who stayed sees the countdown of the grace (one
    second here), then the claim buttons, and claims the win."""
    a, b = two_people(game, srv, open_page)
    gone = my_name(b)
    bar = by_id(a, "claim-bar")
    assert bar.is_hidden()
    b.close()
    bar.filter(has_text=fill(EN["lifecycle.claim_in"], time="1 s")).wait_for()
    assert bar.inner_text().startswith(EN["lifecycle.opponent_away"])
    assert by_id(a, "btn-claim-win").is_hidden()
    a.locator('[data-testid="claim-bar"][data-state="ready"]').wait_for()
    assert EN["lifecycle.claim_now"] in bar.inner_text()
    assert by_id(a, "btn-claim-draw").is_visible()
    shot(a, f"lifecycle-claim-{game.name}")
    by_id(a, "btn-claim-win").click()
    notice(a, "chat.claimed_win").filter(has_text=fill(EN["chat.claimed_win"], name=my_name(a))).wait_for()
    game.over_text(a).filter(has_text=EN["result.abandon"]).wait_for()
    bar.wait_for(state="hidden")
    if game.name == "forest":
        by_id(a, "summary").wait_for()
        assert fill(EN["summary.abandoned"], name=gone) in by_id(a, "summary-note").inner_text()
    else:
        assert by_id(a, "hare-seat-0").locator('[data-testid="hare-winner"]').count() == 1


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_only_the_owner_seats_computer_players(game: Game, srv: Any, open_page: Any) -> None:
    """The owner (who made the table in the lobby and sits at it) sees the computer controls; a
    second visitor does not, and the chat command is refused in their language."""
    fr = strings("fr")
    owner = open_page(f"{srv.url}/")
    owner_name = my_name(owner)
    by_id(owner, "more-forest" if game.name == "forest" else "more-hare").locator("summary").click()
    by_id(owner, "create-table" if game.name == "forest" else "hare-create").click()
    owner.wait_for_url(re.compile(r"/table/t_\w+$"))
    game.seated(owner, 0).wait_for()
    guest = open_page(owner.url, locale="fr-FR")
    game.seat_name(guest, 0).filter(has_text=owner_name).wait_for()
    if game.name == "hare":  # three seats: the guest sits down too, and a seat stays free
        by_id(guest, "btn-join").click()
        by_id(guest, "hare-seat-1").filter(has=guest.locator(".you-tag")).wait_for()
    else:
        by_id(owner, "spectators").locator(".chip").wait_for()
    bot_add = '[data-testid="controls"] .bot-add'
    owner.locator(bot_add).wait_for()
    assert guest.locator(bot_add).is_hidden()

    say(guest, "/bot 1")
    by_id(guest, "toast").filter(has_text=fr["error.not_owner"]).wait_for()

    owner.select_option('[data-testid="bot-level"]', "1")
    by_id(owner, "btn-bot").click()
    seat = 1 if game.name == "forest" else 2
    # One name for the computer: "Ordinateur (random)", with its seat's number at a table of three seats.
    computer = (fill(fr["seat.bot_name"], name="random") if game.name == "forest"
                else fill(fr["seat.bot_name_n"], name="random", number=seat + 1))
    added = fill(fr["chat.bot_added"], by=owner_name, name=computer, level=1, seat=seat + 1)
    notice(guest, "chat.bot_added").filter(has_text=added).wait_for()
    by_id(owner, f"unbot-{seat}").wait_for()
    assert by_id(guest, f"unbot-{seat}").count() == 0
    by_id(owner, f"unbot-{seat}").click()
    removed = fill(fr["chat.bot_removed"], by=owner_name, name=computer, seat=seat + 1)
    notice(guest, "chat.bot_removed").filter(has_text=removed).wait_for()
    owner.locator(bot_add).wait_for()
    assert guest.locator(bot_add).is_hidden()


def test_the_open_table_limit_is_explained(srv: Any, open_page: Any) -> None:
    """One open table per guest here: a second one, forest or hare, is refused in German."""
    de = strings("de")
    page = open_page(f"{srv.url}/", locale="de-DE")
    by_id(page, "more-forest").locator("summary").click()
    by_id(page, "create-table").filter(has_text=de["lobby.create"]).wait_for()
    by_id(page, "create-table").click()
    page.wait_for_url(re.compile(r"/table/t_\w+$"))
    Game("forest").seated(page, 0).wait_for()
    with page.expect_websocket() as opened:
        page.goto(f"{srv.url}/")
    ws = opened.value
    refused = fill(de["error.too_many_tables"], max=1)
    for more in ("more-forest", "more-hare"):
        by_id(page, more).locator("summary").click()
    for button in ("create-table", "hare-create"):
        page.evaluate("() => { document.querySelector('[data-testid=\"toast\"]').hidden = true; }")
        with ws.expect_event("framereceived", predicate=lambda p: '"error.too_many_tables"' in p) as frame:
            by_id(page, button).click()
        error = json.loads(frame.value)
        assert error["params"] == {"max": 1}
        by_id(page, "toast").filter(has_text=refused).wait_for()
    assert page.url == f"{srv.url}/"
