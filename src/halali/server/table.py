"""One table in memory, whatever its game: seats, owner, chat, the numbered events, the checks of
every seat request, and the game's running match (``play``, the game adapter's own object).

Nothing here does I/O. A request is first *planned* (checked, nothing changed), the plan is committed
to the store by the caller, and only then *applied*, so memory never runs ahead of the store.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from halali.server.errors import ClientError

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
CLOSED, ARCHIVED = "closed", "archived"
CHAT_LINES = 100
Audience = int | None  # the seat a message is built for; None: a spectator


@dataclass
class Seat:
    player_id: str | None = None
    bot: int | None = None

    @property
    def free(self) -> bool:
        return self.player_id is None and self.bot is None


@dataclass
class Event:
    """One numbered event of a table: the text each audience receives (a seat's own view, or the
    spectators'). Kept for a while, so a client that reconnects gets exactly what it missed."""

    v: int
    texts: dict[Audience, str]
    shared: str | None = None  # the text for an audience not in ``texts`` (the same for everyone)

    def text_for(self, audience: Audience) -> str | None:
        return self.texts.get(audience, self.shared)


@dataclass
class Table:
    id: str
    game: str
    options: dict[str, Any]  # the game's options as stored
    created_at: datetime
    owner: str | None = None  # the creator: only the owner seats and removes computer players
    state: str = WAITING
    test_seed: int | None = None  # a client's seed (test mode): known in advance, so never rated
    house_seed: int | None = None  # the server's own seed (tests only, never sent): deterministic, still rated
    seats: list[Seat] = field(default_factory=list)
    rated: bool = True  # the table's default; each match records its own
    mode: str = "live"
    clock_spec: dict[str, int] | None = None
    play: Any = None  # the game adapter's running match
    match_id: int | None = None
    match_number: int = 0
    match_rated: bool = False
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    rematch: set[int] = field(default_factory=set)
    acted: set[int] = field(default_factory=set)  # seats that have acted in this match (abort rule)
    updated_at: float = 0.0  # loop time of the last change, for eviction
    turn_since: datetime = field(default_factory=lambda: datetime.now(UTC))  # when the mover's turn began
    turn_started: float = 0.0  # the same on the server's clock (correspondence deadlines)
    absent: dict[int, float] = field(default_factory=dict)  # seat -> when its person left the table
    confirm: dict[str, tuple[str, float]] = field(default_factory=dict)  # player -> (request, until)
    address: str = ""  # where the creator connected from (the open-table limit per address)
    version: int = 0
    events: deque[Event] = field(default_factory=lambda: deque(maxlen=200))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    tournament: str | None = None  # the tournament that seated this table: its seats and matches are fixed

    # ---- seats -----------------------------------------------------------------------------------
    def seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id == player_id:
                return i
        return None

    def people(self) -> list[str]:
        return [s.player_id for s in self.seats if s.player_id is not None]

    def free_seat(self) -> int:
        for i, s in enumerate(self.seats):
            if s.free:
                return i
        raise ClientError("error.table_full")

    def check_seat_change(self) -> None:
        if self.tournament is not None:
            raise ClientError("error.tournament_table")
        if self.state == PLAYING:
            raise ClientError("error.game_running")

    def plan_join(self, player_id: str) -> int:
        seat = self.seat_of(player_id)
        if seat is not None:
            raise ClientError("error.already_seated", seat=seat)
        self.check_seat_change()
        return self.free_seat()

    def plan_unseat(self, player_id: str) -> int:
        seat = self.seat_of(player_id)
        if seat is None:
            raise ClientError("error.not_seated")
        self.check_seat_change()
        return seat

    def may_manage(self, player_id: str, present: set[str]) -> bool:
        """Whether this player may seat or remove computer players: the owner; or, while the owner is
        neither seated nor at the table, any seated person. The owner stays the creator (as stored)."""
        if player_id == self.owner:
            return True
        owner_here = self.owner is not None and (self.owner in present or self.seat_of(self.owner) is not None)
        return not owner_here and self.seat_of(player_id) is not None

    def plan_bot(self, player_id: str, present: set[str]) -> int:
        if not self.may_manage(player_id, present):
            raise ClientError("error.not_owner")
        self.check_seat_change()
        return self.free_seat()

    def plan_unbot(self, player_id: str, present: set[str], seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise ClientError("error.bad_request", field="seat")
        if self.seats[seat].bot is None:
            raise ClientError("error.not_a_bot", seat=seat)
        if not self.may_manage(player_id, present):
            raise ClientError("error.not_owner")
        self.check_seat_change()
        return seat

    def state_after_seat_change(self) -> str:
        """Changing seats after a finished match opens the table for a new one."""
        return WAITING if self.state == FINISHED else self.state

    # ---- matches ---------------------------------------------------------------------------------
    def plan_start(self, player_id: str, again: bool = False) -> None:
        """``again``: the game starts its next match from a finished one without a rematch request."""
        if self.tournament is not None:
            raise ClientError("error.tournament_table")
        people = self.people()
        if people and player_id not in people:
            raise ClientError("error.not_seated")  # anyone may start a game between computer players
        if self.state != WAITING and not (again and self.state == FINISHED):
            raise ClientError("error.cannot_start", reason="state")
        if any(s.free for s in self.seats):
            raise ClientError("error.cannot_start", reason="seats")

    def plan_rematch(self, player_id: str) -> bool:
        """Record a rematch wish; True when every seated person has asked (computer players always agree)."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise ClientError("error.not_seated")
        if self.state != FINISHED or any(s.free for s in self.seats) or self.tournament is not None:
            raise ClientError("error.no_rematch")
        wanted = {i for i, s in enumerate(self.seats) if s.bot is None}
        return wanted <= self.rematch | {seat}

    def seed(self) -> int | None:
        """What this table's deals, dice and computer players draw from; None: a secure random source."""
        return self.test_seed if self.test_seed is not None else self.house_seed

    def begin(self, match_id: int, number: int, rated: bool, now: float) -> None:
        self.match_id, self.match_number, self.match_rated = match_id, number, rated
        self.state = PLAYING
        self.rematch, self.acted, self.confirm = set(), set(), {}
        self.turn_since, self.turn_started = datetime.now(UTC), now

    def turn_passed(self, now: float) -> None:
        self.turn_since, self.turn_started = datetime.now(UTC), now

    def abortable(self) -> bool:
        """A match may be aborted (no result, no rating) until every seat has acted in it."""
        return self.state == PLAYING and len(self.acted) < len(self.seats)  # ``acted`` holds seat numbers

    # ---- events ----------------------------------------------------------------------------------
    def add_event(self, texts: dict[Audience, str], shared: str | None = None) -> Event:
        event = Event(self.version, texts, shared)
        self.events.append(event)
        return event

    def next_version(self) -> int:
        self.version += 1
        return self.version

    def missed(self, since: int, audience: Audience) -> list[str] | None:
        """The texts of the events after ``since`` for this audience, or None when they are no longer
        all kept (the client then needs a full resync)."""
        if since >= self.version:
            return []
        if not self.events or self.events[0].v > since + 1:
            return None
        out = []
        for e in self.events:
            if e.v > since:
                text = e.text_for(audience)
                if text is None:
                    return None
                out.append(text)
        return out
