"""The account pages' steps, shared by the browser tests of accounts and replays."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

# A stall limit of 1 makes the random computer reveal after every quiet move: a short game.
RULES = {"match": "single", "stall_limit": 1}
PASSWORD = "forest floor 42"
WEB = Path(__file__).resolve().parents[2] / "src/halali/web"


def unique(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def register(page: Any, name: str, password: str = PASSWORD) -> None:
    page.fill('[data-testid="register-name"]', name)
    page.fill('[data-testid="register-password"]', password)
    page.fill('[data-testid="register-password2"]', password)
    page.click('[data-testid="register-submit"]')


def login(page: Any, name: str, password: str = PASSWORD) -> None:
    page.fill('[data-testid="login-name"]', name)
    page.fill('[data-testid="login-password"]', password)
    page.click('[data-testid="login-submit"]')


def api(page: Any, path: str) -> Any:
    """The server's answer with this page's cookie (what the page itself would get)."""
    return page.evaluate("p => fetch(p).then(r => r.json())", path)


def start_against_the_computer(page: Any) -> None:
    """Seated at the table: a level-1 computer takes the other seat, and the game starts."""
    page.locator('[data-testid="seat-0"].me').wait_for()
    page.select_option('[data-testid="bot-level"]', "1")
    page.click('[data-testid="btn-bot"]')
    page.locator('[data-testid="seat-1-name"]', has_text="Computer").wait_for()
    page.click('[data-testid="btn-start"]')
