"""Small JSON pieces every table shows, whatever its game."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol


class SeatLike(Protocol):
    player_id: str | None
    bot: int | None


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def seat_json(seats: Sequence[SeatLike], names: dict[str, str], online: set[str], bot_names: dict[int, str],
              bot_accounts: set[str] | frozenset[str] = frozenset()) -> list[dict[str, Any] | None]:
    out: list[dict[str, Any] | None] = []
    for s in seats:
        if s.bot is not None:
            out.append({"id": None, "name": bot_names.get(s.bot, f"level {s.bot}"), "bot": s.bot, "online": True})
        elif s.player_id is not None:
            seat = {"id": s.player_id, "name": names.get(s.player_id, "?"), "bot": None,
                    "online": s.player_id in online}
            if s.player_id in bot_accounts:  # a program run by its owner: the page shows a BOT badge
                seat["bot_account"] = True
            out.append(seat)
        else:
            out.append(None)
    return out
