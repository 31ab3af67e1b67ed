"""What a connection is shown: JSON built from public views only.

Every position that leaves the server is produced here from ``Position.view()``; the deal of a game is
added only once that game is over (every tile is face up by then, so it tells nothing new).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from halali.games.forest.match import colour_of
from halali.games.forest.rules import Rules
from halali.server.table import Table, game_result

COLOUR = {0: "blue", 1: "brown"}


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def rules_json(rules: Rules) -> dict[str, Any]:
    return rules.to_dict()


def game_json(table: Table, index: int, now: float = 0.0) -> dict[str, Any]:
    """One game of the current match, the same for every connection (legal actions are added per seat).

    The deal and its salt are added only once the game is over; the commitment from its start on.
    """
    assert table.match is not None
    pos = table.match.games[index]
    over = table.game_over(index)
    if index == table.game_index and not over:
        public = table.public()
        view, fen = public.view, public.fen
    else:
        view = pos.view()
        fen = view.fen()
    fields = fen.split(" ")
    history = table.histories[index] if index < len(table.histories) else []
    ply = len(history)
    seat_to_move = None if over else _seat_of(view.turn, index)
    return {
        "number": index + 1,
        "colours": [COLOUR[colour_of(0, index)], COLOUR[colour_of(1, index)]],
        "position": fen,
        "to_move": None if over else COLOUR[view.turn],
        "seat_to_move": seat_to_move,
        "ply": ply,
        "last_action": history[-1] if history else None,
        "last_by": ("blue" if (ply - 1) % 2 == 0 else "brown") if history else None,
        "history": list(history),
        "legal": [],
        "score": {"blue": pos.score[0], "brown": pos.score[1]},
        "piles": {"blue": fields[7], "brown": fields[8]},
        "final_turns_left": None if pos.final < 0 else pos.final,
        "over": over,
        "result": (table.time_results.get(index) or game_result(pos, index)) if over else None,
        "deal": table.deals[index] if over else None,
        "id": table.game_ids[index] if index < len(table.game_ids) else None,
        "commitment": (table.commitments[index] or None) if index < len(table.commitments) else None,
        "salt": (table.salts[index] or None) if over and index < len(table.salts) else None,
        "termination": "time" if index in table.time_results else None,
        "clock": table.clock.json(now) if table.clock is not None and index == table.game_index else None,
    }


def _seat_of(colour: int, index: int) -> int:
    return 0 if colour_of(0, index) == colour else 1


def legal_for(table: Table) -> list[str]:
    """The legal actions of the seat to move, read on the public view (reveals without outcome)."""
    if table.match is None:
        return []
    return list(table.public().legal_text)


def match_json(table: Table) -> dict[str, Any]:
    if table.match is None:
        return {"totals": [0, 0], "tiles": [0, 0], "over": False, "winner": None}
    points, tiles = table.match.totals()
    over = table.match_over()
    return {"totals": points, "tiles": tiles, "over": over, "winner": table.match_winner() if over else None}


def game_message(table: Table, index: int | None = None, now: float = 0.0) -> dict[str, Any]:
    i = table.game_index if index is None else index
    return {"type": "game", "table": table.id, "game": game_json(table, i, now), "match": match_json(table)}


def seat_json(table: Table, names: dict[str, str], online: set[str], bot_names: dict[int, str]
              ) -> list[dict[str, Any] | None]:
    out: list[dict[str, Any] | None] = []
    for s in table.seats:
        if s.bot is not None:
            out.append({"id": None, "name": bot_names.get(s.bot, f"level {s.bot}"), "bot": s.bot, "online": True})
        elif s.player_id is not None:
            out.append({"id": s.player_id, "name": names.get(s.player_id, "?"), "bot": None,
                        "online": s.player_id in online})
        else:
            out.append(None)
    return out
