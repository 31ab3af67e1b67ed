"""One hare hunt table in memory: 2 to 6 seats, the running hunt, chat, and the checks of every request.

Like the forest table it does no I/O: a request is planned (checked, nothing changed), committed to
the store by the caller, and only then applied. The full state (clubs and the dice secret included)
never leaves this object except through ``HareGame.view`` for one seat or a spectator.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from halali.games.base import GAMES
from halali.games.errors import HalaliError, IllegalAction, NotationError
from halali.games.hare.rules import DEFAULT_RULES, HareRules
from halali.games.hare.state import HareState
from halali.server.errors import ClientError
from halali.server.table import CHAT_LINES, FINISHED, PLAYING, WAITING, Seat, SeatRules

GAME = GAMES["hare"]
OPTION_KEYS = ("bush", "overshoot")


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
        rules_of(options)
    except (NotationError, HalaliError, ValueError) as exc:
        raise ClientError("error.bad_rules", reason=str(exc)) from exc
    return options


def rules_of(options: dict[str, str]) -> HareRules:
    return DEFAULT_RULES.with_options(options)


def seat_count(value: Any) -> int:
    if value is None:
        return 3
    if not isinstance(value, int) or isinstance(value, bool) or not GAME.min_players <= value <= GAME.max_players:
        raise ClientError("error.bad_request", field="seats")
    return value


@dataclass(frozen=True)
class HarePlan:
    """A checked action: the state after it and the action as the store records it (rolls with outcome)."""

    seat: int
    ply: int
    after: HareState
    record: str
    over: bool


@dataclass
class HareTable(SeatRules):
    id: str
    nseats: int
    options: dict[str, str]
    created_at: datetime
    test_seed: int | None = None
    seats: list[Seat] = field(default_factory=list)
    state: str = WAITING
    hunt: HareState | None = None
    match_number: int = 0
    match_id: int | None = None
    game_id: int | None = None
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    updated_at: float = 0.0
    rated: bool = True  # the table's setting; a hunt is rated when this and its start say so
    match_rated: bool = False
    turn_since: datetime = field(default_factory=lambda: datetime.now(UTC))  # since when the mover is to move
    game = "hare"

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [Seat() for _ in range(self.nseats)]

    @property
    def ply(self) -> int:
        return len(self.hunt.history) if self.hunt is not None else 0

    # ---- the hunt --------------------------------------------------------------------------------
    def plan_start(self, player_id: str) -> HareState:
        """Check that a hunt may start now and draw it (clubs, sides, dice secret: server-side only)."""
        people = [s.player_id for s in self.seats if s.player_id is not None]
        if people and player_id not in people:
            raise ClientError("error.not_seated")
        if self.state == PLAYING:
            raise ClientError("error.cannot_start", reason="state")
        if any(s.free for s in self.seats):
            raise ClientError("error.cannot_start", reason="seats")
        rng = (random.Random(self.test_seed + self.match_number) if self.test_seed is not None
               else random.SystemRandom())
        return GAME.new(self.options, self.nseats, rng)  # type: ignore[no-any-return]

    def begin(self, hunt: HareState, match_id: int, game_id: int, number: int) -> None:
        self.hunt, self.match_id, self.game_id, self.match_number = hunt, match_id, game_id, number
        self.state = PLAYING
        self.turn_since = datetime.now(UTC)

    def seat_to_move(self) -> int | None:
        if self.state != PLAYING or self.hunt is None:
            return None
        return GAME.to_move(self.hunt)

    def plan_action(self, seat: int | None, text: Any, ply: Any) -> HarePlan:
        if not isinstance(text, str) or len(text) > 32:
            raise ClientError("error.bad_request", field="action")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise ClientError("error.bad_request", field="ply")
        if seat is None:
            raise ClientError("error.not_seated")
        if self.hunt is None:
            raise ClientError("error.not_started")
        if self.state != PLAYING or self.hunt.is_over():
            raise ClientError("error.game_over")
        if GAME.to_move(self.hunt) != seat:
            raise ClientError("error.not_your_turn")
        if ply is not None and ply != self.ply:
            raise ClientError("error.stale", ply=self.ply)
        text = text.strip()
        if text.startswith("roll") and text != "roll":
            raise ClientError("error.bad_action", reason="send a roll without its outcome: the server rolls")
        try:
            after = GAME.apply(self.hunt, text)
        except IllegalAction as exc:
            raise ClientError("error.illegal", reason=str(exc), rule=exc.key, rule_params=exc.params) from None
        except (NotationError, HalaliError) as exc:
            raise ClientError("error.bad_action", reason=str(exc)) from None
        return HarePlan(seat, self.ply, after, after.history[-1], after.is_over())

    def apply(self, plan: HarePlan) -> None:
        if self.hunt is None or GAME.to_move(self.hunt) != GAME.to_move(plan.after):
            self.turn_since = datetime.now(UTC)
        self.hunt = plan.after
        if plan.over:
            self.state = FINISHED
