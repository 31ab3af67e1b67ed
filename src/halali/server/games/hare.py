"""The hare hunt at the table service: 2 to 6 seats, secret clubs, the server's dice, placings.

A hunt's full state (clubs and the dice secret included) stays in ``table.play``; each seat sees it
only through ``HareGame.view`` for that seat (spectators: ``None``), so a club card leaves the server
only to its owner until it is public. A computer player is shown only its own seat's record.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from halali.ai.hare.registry import TABLE as LEVELS
from halali.ai.hare.registry import choose_action
from halali.games.errors import HalaliError, IllegalAction, NotationError
from halali.games.hare.events import consequences
from halali.games.hare.game import HareGame
from halali.games.hare.record import retell
from halali.games.hare.rules import DEFAULT_RULES
from halali.games.hare.state import HareState
from halali.server.errors import ClientError
from halali.server.games.base import Ending, Notice, Plan, SeatName, Start, TableGame
from halali.server.table import Audience, Table
from halali.store.records import TableSnapshot

GAME = HareGame()
OPTION_KEYS = tuple(o.name for o in GAME.info.options)


def hare_options(value: Any) -> dict[str, str]:
    """Hare rule options from a client (``bush``, ``overshoot``), checked by the engine's own parser."""
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > len(OPTION_KEYS):
        raise ClientError("error.bad_request", field="rules")
    options: dict[str, str] = {}
    for key, v in value.items():
        if key not in OPTION_KEYS:
            raise ClientError("error.bad_rules", reason=f"unknown hare option {str(key)[:32]}")
        if isinstance(v, bool):
            options[key] = "on" if v else "off"
        elif isinstance(v, str) and len(v) <= 16:
            options[key] = v
        else:
            raise ClientError("error.bad_rules", reason=f"bad value for {key}")
    try:
        DEFAULT_RULES.with_options(options)
    except (NotationError, HalaliError, ValueError) as exc:
        raise ClientError("error.bad_rules", reason=str(exc)) from exc
    return options


@dataclass
class HarePlay:
    """A table's running hunt, the one game of its match, and how it ended if it ended off the board;
    with the seat that played each action and what each brought about (``events.consequences``), so
    that the page can tell every action in words."""

    hunt: HareState
    game_id: int = 0
    ending: dict[str, Any] | None = None
    movers: list[int] = field(default_factory=list)
    events: dict[int, dict[str, Any]] = field(default_factory=dict)


def _play(table: Table) -> HarePlay:
    assert isinstance(table.play, HarePlay)
    return table.play


def _hunt(table: Table) -> HareState:
    return _play(table).hunt


class HareTables(TableGame):
    id = "hare"
    min_seats = GAME.min_players
    max_seats = GAME.max_players
    levels = LEVELS
    page = "hare.html"
    message_type = "hare"
    paired = False  # the seats of a hunt are kept one row each, whatever their number
    agreed_rematch = False  # "again" after a hunt starts the next at once, like `start`

    def options(self, value: Any) -> dict[str, Any]:
        return hare_options(value)

    def seat_count(self, value: Any) -> int:
        return 3 if value is None else super().seat_count(value)

    def describe(self) -> dict[str, Any]:
        return {"seats": [self.min_seats, self.max_seats],
                "rules": {o.name: list(o.choices) for o in GAME.info.options}}

    # ---- a hunt ----------------------------------------------------------------------------------
    def draw(self, table: Table) -> Start:
        """Clubs, sides and the dice secret, drawn server-side; the store keeps the full start."""
        seed = table.seed()
        rng = random.Random(seed + table.match_number) if seed is not None else random.SystemRandom()
        hunt = GAME.new({k: str(v) for k, v in table.options.items()}, len(table.seats), rng)
        return Start([hunt.fen()], native=hunt)

    def begin(self, table: Table, start: Start, game_ids: list[int], now: float) -> None:
        table.play = HarePlay(start.native, game_ids[0])

    def restore(self, table: Table, snap: TableSnapshot, now: float) -> None:
        """The hunt replayed from its stored full start and actions, every one checked again."""
        if snap.match is None or not snap.match.games:
            return
        game = snap.match.games[0]
        told = retell(f"{game.deal} ; {' '.join(a.action for a in game.actions)}")
        ending = dict(game.result) if game.termination is not None and game.result is not None else None
        table.play = HarePlay(told.state, game.id, ending, told.movers, told.events)
        table.acted = {a.seat for a in game.actions}

    def to_move(self, table: Table) -> int | None:
        if table.play is None or _play(table).ending is not None:
            return None
        return GAME.to_move(_hunt(table))

    def ply(self, table: Table) -> int:
        return len(_hunt(table).history) if table.play is not None else 0

    def game_id(self, table: Table) -> int:
        return _play(table).game_id

    def plan(self, table: Table, seat: int, text: str, ply: Any, now: float) -> Plan:
        if len(text) > 32:
            raise ClientError("error.bad_request", field="action")
        hunt = _hunt(table)
        if hunt.is_over() or self.to_move(table) is None:
            raise ClientError("error.game_over")
        if GAME.to_move(hunt) != seat:
            raise ClientError("error.not_your_turn")
        text = text.strip()
        if text.startswith("roll") and text != "roll":
            raise ClientError("error.bad_action", reason="send a roll without its outcome: the server rolls")
        try:
            after = GAME.apply(hunt, text)
        except IllegalAction as exc:
            raise ClientError("error.illegal", reason=str(exc), rule=exc.key, rule_params=exc.params) from None
        except (NotationError, HalaliError) as exc:
            raise ClientError("error.bad_action", reason=str(exc)) from None
        over = after.is_over()
        result = {"result": GAME.result(after), "placings": GAME.placings(after)} if over else None
        ranks = tuple(float(x) for x in result["placings"]) if result else None
        event = consequences(hunt, after, after.history[-1])
        return Plan(seat, len(hunt.history), _play(table).game_id, after.history[-1], result, over, ranks=ranks,
                    native=(after, event))

    def apply(self, table: Table, plan: Plan, now: float) -> None:
        play = _play(table)
        play.hunt, event = plan.native
        if event:
            play.events[len(play.movers)] = event
        play.movers.append(plan.seat)

    def end(self, table: Table, termination: str, losers: frozenset[int], now: float) -> Ending:
        """A hunt ended off the board: the losing seats share the last place, everyone else the first."""
        n = len(table.seats)
        result = [0.0 if i in losers else (1.0 if losers else 0.5) for i in range(n)]
        placings = [float(n - len(losers) + 1) if i in losers else 1.0 for i in range(n)]
        game_result = {"result": result, "placings": placings, "termination": termination}
        return Ending(termination, _play(table).game_id, game_result, ranks=tuple(placings), losers=losers)

    def apply_end(self, table: Table, ending: Ending, now: float) -> None:
        _play(table).ending = ending.game_result

    def legal(self, table: Table) -> list[str]:
        return list(GAME.legal_actions(_hunt(table))) if self.to_move(table) is not None else []

    async def bot_answer(self, run: Callable[..., Any], table: Table, seat: int, level: int, movetime: float,
                         seed: int, now: float) -> str:
        """The bot sees only its own seat's record; a roll it asks for is the server's dice."""
        record = GAME.view_record(_hunt(table), seat)
        text: str = await run(choose_action, level, record, movetime, seed)
        return "roll" if text.startswith("roll") else text

    # ---- what is shown ---------------------------------------------------------------------------
    def summary(self, table: Table) -> dict[str, Any]:
        return {"rules": dict(table.options), "game_number": 1 if table.play is not None else 0, "number_of_games": 1,
                "clock": None}

    def view(self, table: Table, seat: Audience, now: float) -> dict[str, Any]:
        """The hunt as ``seat`` may see it (None: a spectator); the legal actions only for the mover."""
        if table.play is None:
            return {"hunt": None}
        hunt = _hunt(table)
        ending = _play(table).ending
        over = hunt.is_over() or ending is not None
        mover = self.to_move(table)
        play = _play(table)
        return {"hunt": {"position": GAME.view(hunt, seat), "actions": list(hunt.history), "ply": len(hunt.history),
                         "movers": play.movers, "events": {str(i): e for i, e in play.events.items()},
                         "to_move": mover, "phase": hunt.phase, "over": over,
                         "legal": self.legal(table) if mover is not None and mover == seat else [],
                         "result": (ending or {}).get("result") or (GAME.result(hunt) if over else None),
                         "replay": f"/hunt/{_play(table).game_id}" if over else None,
                         "placings": (ending or {}).get("placings") or (GAME.placings(hunt) if over else None),
                         "termination": (ending or {}).get("termination")}}

    def chat_mark(self, table: Table) -> dict[str, Any] | None:
        """A line said during a hunt is marked with the hunt and the actions played before it, so the
        page places it among the actions it tells in the chat."""
        return {"match": table.match_number, "ply": self.ply(table)} if table.play is not None else None

    def chat_marks(self, table: Table, snap: TableSnapshot) -> Callable[[datetime], dict[str, Any] | None]:
        if table.play is None or snap.match is None or not snap.match.games:
            return lambda when: None
        times = [a.time for a in snap.match.games[0].actions if a.time is not None]
        number = table.match_number
        return lambda when: {"match": number, "ply": bisect_right(times, when)}

    def started(self, table: Table, name: SeatName) -> list[Notice]:
        return [("chat.hare_started", {"hunt": table.match_number, "rated": table.match_rated})]

    def after_action(self, table: Table, plan: Plan, name: SeatName) -> list[Notice]:
        return []
