"""Bot accounts in the browser: the owner makes the account a bot and a token on the account page (the
token shown once), a person challenges the bot from its profile (with the BOT badge), the owner accepts
in the lobby, and both land at the started table, where the bot's seat carries the badge; the
leaderboard's bots tab."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest

pytestmark = pytest.mark.browser
PASSWORD = "forest floor 42"


def test_bot_account_token_challenge_and_badges(server: Any, open_page: Any, shot: Any) -> None:
    owner = open_page("/account")
    asked: list[str] = []
    owner.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))  # yes to each question
    name = f"Robo{secrets.token_hex(3)}"
    owner.fill('[data-testid="register-name"]', name)
    owner.fill('[data-testid="register-password"]', PASSWORD)
    owner.fill('[data-testid="register-password2"]', PASSWORD)
    owner.click('[data-testid="register-submit"]')
    owner.wait_for_url(re.compile(r"/player/"))
    bot_id = owner.url.rsplit("/", 1)[1]
    owner.goto(f"{server.url}/account")
    owner.click('[data-testid="bot-make-button"]')
    owner.locator('[data-testid="bot-tokens"]').wait_for()
    owner.fill('[data-testid="token-label"]', "laptop")
    owner.click('[data-testid="token-create"]')
    owner.locator('[data-testid="token-new"]').wait_for()  # shown once the server has answered
    token = owner.locator('[data-testid="token-value"]').inner_text()
    assert token.startswith("hal_")
    assert owner.locator('[data-testid="token"]').inner_text().startswith("laptop")
    shot(owner, "bot-account-token")
    # A second token, revoked at once: asked first, and no longer offered to be copied.
    owner.fill('[data-testid="token-label"]', "old laptop")
    owner.click('[data-testid="token-create"]')
    owner.locator('[data-testid="token"]').nth(1).wait_for()
    assert owner.locator('[data-testid="token-value"]').inner_text() != token
    owner.locator('[data-testid="token"]', has_text="old laptop").locator('[data-testid="token-revoke"]').click()
    owner.locator('[data-testid="token-new"]').wait_for(state="hidden")
    owner.locator('[data-testid="token"]', has_text="old laptop").wait_for(state="detached")
    assert owner.locator('[data-testid="token"]').count() == 1
    assert asked[-1] == "Revoke the token “old laptop”? A program that uses it can no longer play."
    owner.reload()  # shown once: the list never has it again
    owner.locator('[data-testid="token"]').wait_for()
    assert token not in owner.content()
    owner.goto(f"{server.url}/")
    owner.locator('[data-testid="tables"]').wait_for(state="attached")

    person = open_page(f"/player/{bot_id}")
    person.locator('[data-testid="player-name"] [data-testid="bot-account"]', has_text="BOT").wait_for()
    person.click('[data-testid="challenge-open"]')
    person.select_option('[data-testid="challenge-match"]', "single")
    person.select_option('[data-testid="challenge-pace"]', "live")
    person.uncheck('[data-testid="challenge-rated"]')
    person.click('[data-testid="challenge-send"]')
    person.locator('[data-testid="challenge-status"][data-key="challenge.sent"]').wait_for()

    incoming = owner.locator('[data-testid="challenge-in"]')
    incoming.wait_for()
    assert "Single game" in incoming.inner_text() and "unrated" in incoming.inner_text()
    shot(owner, "bot-challenge-incoming")
    incoming.locator('[data-testid="challenge-accept"]').click()
    owner.wait_for_url(re.compile(r"/table/t_"))
    person.wait_for_url(re.compile(r"/table/t_"))
    assert owner.url == person.url
    seat = person.locator('[data-testid="seat-1-name"]')
    seat.locator('[data-testid="bot-account"]').wait_for()
    assert name in seat.inner_text()
    assert person.locator('[data-testid="seat-0-name"] [data-testid="bot-account"]').count() == 0
    shot(person, "bot-seat-badge")

    board = open_page("/leaderboard")
    board.click('[data-testid="lb-board-bots"]')
    board.locator('[data-testid="lb-bots-help"]').wait_for()
    assert board.locator('[data-testid="lb-board-bots"]').get_attribute("aria-selected") == "true"
    assert "board=bots" in board.url
