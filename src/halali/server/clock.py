"""Game clocks for live tables: time per player and game, an increment per action, flag on zero.

Times are integer milliseconds; ``now`` is the server's clock in seconds (``time.time`` unless a test
injects another), so a test can move time forward instead of waiting. Only the player to move has a
running clock. After a restart the player to move gets back the time he had when his turn began: a
server that was down costs nobody time (docs/accounts.md, "Clocks").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from halali.server.errors import ClientError

MIN_INITIAL, MAX_INITIAL = 10, 3 * 3600
MAX_INCREMENT = 600
MODES = ("live", "correspondence")


def clock_spec(mode: Any, value: Any) -> dict[str, int] | None:
    """The clock a `create` asks for (seconds), checked; None for no clock."""
    if mode not in MODES:
        raise ClientError("error.bad_request", field="mode")
    if value is None:
        return None
    if mode != "live" or not isinstance(value, dict) or set(value) - {"initial", "increment"}:
        raise ClientError("error.bad_request", field="clock")
    initial, increment = value.get("initial"), value.get("increment", 0)
    if not isinstance(initial, int) or not isinstance(increment, int) or isinstance(initial, bool) \
            or isinstance(increment, bool):
        raise ClientError("error.bad_request", field="clock")
    if not MIN_INITIAL <= initial <= MAX_INITIAL or not 0 <= increment <= MAX_INCREMENT:
        raise ClientError("error.bad_request", field="clock")
    return {"initial": initial, "increment": increment}


@dataclass
class GameClock:
    initial_ms: int
    increment_ms: int
    remaining: list[int] = field(default_factory=list)  # per seat, at the start of the running turn
    running: int | None = None  # the seat whose time runs
    since: float = 0.0  # when the running turn began (server clock, seconds)

    @classmethod
    def start(cls, spec: dict[str, int], seat: int | None, now: float) -> GameClock:
        ms = spec["initial"] * 1000
        return cls(ms, spec["increment"] * 1000, [ms, ms], seat, now)

    def left(self, seat: int, now: float) -> int:
        """Milliseconds this seat has at ``now`` (never below zero)."""
        ms = self.remaining[seat]
        if seat == self.running:
            ms -= int((now - self.since) * 1000)
        return max(0, ms)

    def deadline(self) -> float | None:
        """When the running seat's time is up (server clock), or None when no clock runs."""
        if self.running is None:
            return None
        return self.since + self.remaining[self.running] / 1000

    def expired(self, now: float) -> bool:
        d = self.deadline()
        return d is not None and now >= d

    def after_action(self, seat: int, now: float) -> int:
        """The mover's time after an action at ``now``, increment included (the caller checked expiry)."""
        return self.left(seat, now) + self.increment_ms

    def apply(self, seat: int, ms: int, next_seat: int | None, now: float) -> None:
        self.remaining[seat] = ms
        self.running = next_seat
        self.since = now

    def stop(self, now: float) -> None:
        if self.running is not None:
            self.remaining[self.running] = self.left(self.running, now)
        self.running = None

    def json(self, now: float) -> dict[str, Any]:
        return {"initial": self.initial_ms // 1000, "increment": self.increment_ms // 1000,
                "remaining": [self.left(i, now) for i in range(len(self.remaining))], "running": self.running}
