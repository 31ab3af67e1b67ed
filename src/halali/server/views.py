"""Small JSON pieces every table shows, whatever its game."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol


class SeatLike(Protocol):
    player_id: str | None
    bot: int | None


Name = str | dict[str, Any]
"""A name as messages carry it: a person's name, or a computer player as ``computer`` builds it."""


def computer_number(bots: Sequence[bool], seat: int) -> int | None:
    """The number a computer seat is called by: its seat's (from 1) at a table of more than two seats
    or with several computers ("Computer 2 (heuristic)"), else none ("Computer (greedy)"). The one
    rule for every message, list and replay; the page words the name (``computerName`` in common.js)."""
    return seat + 1 if len(bots) > 2 or sum(bots) > 1 else None


def computer(level: int, name: str, number: int | None = None) -> dict[str, Any]:
    """A computer player's name as messages carry it: its level, the level's name and its number."""
    return {"bot": level, "name": name, **({"number": number} if number is not None else {})}


def plain_name(name: Name) -> str:
    """A name as plain English text, for programs that read a field rather than a page."""
    if isinstance(name, str):
        return name
    number = f" {name['number']}" if name.get("number") is not None else ""
    return f"Computer{number} ({name['name']})"


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def seat_json(seats: Sequence[SeatLike], names: dict[str, str], online: set[str], bot_names: dict[int, str],
              bot_accounts: set[str] | frozenset[str] = frozenset()) -> list[dict[str, Any] | None]:
    out: list[dict[str, Any] | None] = []
    bots = [s.bot is not None for s in seats]
    for i, s in enumerate(seats):
        if s.bot is not None:
            out.append({"id": None, **computer(s.bot, bot_names.get(s.bot, f"level {s.bot}"), computer_number(bots, i)),
                        "online": True})
        elif s.player_id is not None:
            seat = {"id": s.player_id, "name": names.get(s.player_id, "?"), "bot": None,
                    "online": s.player_id in online}
            if s.player_id in bot_accounts:  # a program run by its owner: the page shows a BOT badge
                seat["bot_account"] = True
            out.append(seat)
        else:
            out.append(None)
    return out
