"""What a game brings to the one table service: a small adapter per game.

The table service does everything that is the same for every game: seats, owner, chat, computer
players, the order "check → store → apply → announce", numbered events, resign, abort, abandonment,
ratings and the lobby. An adapter says only what differs: the game's options, how a match starts and
what the store keeps of it, how an action is checked (by the game's rules engine) and applied, and
what each seat and each spectator is shown. That last one, ``view``, is the one place where the
adapter removes the game's secrets; nothing reaches a client without passing through it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from halali.ai.base import LevelTable
from halali.server.errors import ClientError
from halali.server.hub import dumps
from halali.server.table import PLAYING, Audience, Table
from halali.server.views import Name
from halali.store.records import MatchRecord, TableSnapshot
from halali.tournament import placing_points

SeatName = Callable[[int], Name]
Notice = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Start:
    """A match drawn and ready to be stored: every game's full start (secret), and what goes with it."""

    deals: list[str]
    salts: list[str] = field(default_factory=list)
    commitments: list[str] = field(default_factory=list)
    native: Any = None  # what the adapter needs to begin it


@dataclass(frozen=True)
class Plan:
    """A checked action and everything the store must write with it."""

    seat: int
    ply: int
    game_id: int
    record: str  # the action as recorded (a reveal or a roll with its outcome)
    game_result: dict[str, Any] | None = None
    match_over: bool = False
    winner: int | None = None  # the winning seat of a two-seat match, once over
    ranks: tuple[float, ...] | None = None  # placings per seat (1 first), for games of more seats
    clock_ms: int | None = None
    next_game_id: int | None = None
    native: Any = None


@dataclass(frozen=True)
class Ending:
    """A match ended outside its rules: a clock, a resignation, an abandonment claim."""

    termination: str  # "time", "resign", "abandon"
    game_id: int
    game_result: dict[str, Any] | None
    winner: int | None = None
    ranks: tuple[float, ...] | None = None
    losers: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Outcome:
    """A finished match as a tournament scores it, per seat (docs/tournaments.md)."""

    points: tuple[float, ...]  # the tournament points
    games: tuple[float, ...]  # games won inside the match (the second tie-break)
    tiles: tuple[int, ...]  # points collected on the board (the third)


class TableGame(ABC):
    id: str
    min_seats: int = 2
    max_seats: int = 2
    levels: LevelTable[Any]
    page: str  # the template of this game's table page
    message_type = "table"  # the type of the message that carries a whole table
    clocks: bool = False  # live clocks per seat
    hints: bool = False  # the engine may hint a person playing the computer unrated
    paired: bool = True  # a two-seat match whose players the store keeps as player0 and player1
    agreed_rematch: bool = True  # a next match needs every seated person's request (else: start again)

    def bot_names(self) -> dict[int, str]:
        return self.levels.names_by_level()

    # ---- a new table -----------------------------------------------------------------------------
    @abstractmethod
    def options(self, value: Any) -> dict[str, Any]:
        """The options a `create` asks for, checked (ClientError), as the store keeps them."""

    def clock(self, mode: Any, value: Any) -> dict[str, int] | None:
        """The clock a `create` asks for; a game without clocks takes live tables without one."""
        if mode != "live" or value is not None:
            raise ClientError("error.bad_request", field="mode" if mode != "live" else "clock")
        return None

    def seat_count(self, value: Any) -> int:
        if value is None:
            return self.min_seats
        if not isinstance(value, int) or isinstance(value, bool) or not self.min_seats <= value <= self.max_seats:
            raise ClientError("error.bad_request", field="seats")
        return value

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """What a page needs to offer a new table of this game (in the `welcome` message)."""

    # ---- a match ---------------------------------------------------------------------------------
    @abstractmethod
    def draw(self, table: Table) -> Start:
        """Draw a new match (from the table's test seed if it has one)."""

    @abstractmethod
    def begin(self, table: Table, start: Start, game_ids: list[int], now: float) -> None:
        """Set ``table.play`` to the new match, once the store has it."""

    @abstractmethod
    def restore(self, table: Table, snap: TableSnapshot, now: float) -> None:
        """Rebuild ``table.play`` from the store, every stored action checked again by the rules."""

    @abstractmethod
    def to_move(self, table: Table) -> int | None:
        """The seat to move, or None (no match, over, or waiting for nobody)."""

    @abstractmethod
    def ply(self, table: Table) -> int: ...

    @abstractmethod
    def game_id(self, table: Table) -> int:
        """The stored id of the game being played."""

    @abstractmethod
    def plan(self, table: Table, seat: int, text: str, ply: Any, now: float) -> Plan:
        """Check an action with the rules engine; ClientError (with the rule's key) and nothing changed."""

    @abstractmethod
    def apply(self, table: Table, plan: Plan, now: float) -> None:
        """Play a committed plan."""

    @abstractmethod
    def end(self, table: Table, termination: str, losers: frozenset[int], now: float) -> Ending:
        """The result of a match ended now with these seats losing (none: a draw)."""

    @abstractmethod
    def apply_end(self, table: Table, ending: Ending, now: float) -> None: ...

    def timeout(self, table: Table, now: float) -> Ending | None:
        """The ending a running clock at zero forces, if any."""
        return None

    @abstractmethod
    def legal(self, table: Table) -> list[str]:
        """The legal actions of the seat to move, in notation, as that seat may see them."""

    @abstractmethod
    async def bot_answer(self, run: Callable[..., Any], table: Table, seat: int, level: int, movetime: float,
                         seed: int, now: float) -> str:
        """Ask a computer player (``run`` puts a function into the worker pool), showing it only its view;
        ``movetime`` is the server's thinking time, which a running game clock may shorten (``now``)."""

    # ---- what is shown ---------------------------------------------------------------------------
    @abstractmethod
    def summary(self, table: Table) -> dict[str, Any]:
        """The game's own fields of a lobby card."""

    @abstractmethod
    def view(self, table: Table, seat: Audience, now: float) -> dict[str, Any]:
        """The match as this seat (None: a spectator) may see it, as fields of the `table` message."""

    def action_message(self, table: Table, plan: Plan | None, seat: Audience, now: float) -> dict[str, Any] | None:
        """The message an action (None: the start of a match) sends to this audience; None sends the
        whole table view instead."""
        return None

    def action_texts(self, table: Table, plan: Plan | None, now: float) -> tuple[str, dict[int, str]] | None:
        """An action's message as JSON text: the spectators' (and every seat's that sees the same), and
        the seats' own where they differ; None sends the whole table view instead."""
        shared = self.action_message(table, plan, None, now)
        if shared is None:
            return None
        own = {}
        for seat in range(len(table.seats)):
            msg = self.action_message(table, plan, seat, now)
            if msg is not None and msg != shared:
                own[seat] = dumps(msg)
        return dumps(shared), own

    @abstractmethod
    def started(self, table: Table, name: SeatName) -> list[Notice]: ...

    @abstractmethod
    def after_action(self, table: Table, plan: Plan, name: SeatName) -> list[Notice]:
        """Notices an applied action brings (a game over, the next game begun)."""

    def over_notice(self, table: Table, winner: int | None, ranks: tuple[float, ...] | None,
                    name: SeatName) -> Notice:
        if ranks is not None:
            return "chat.hare_over", {"winners": [name(i) for i, r in enumerate(ranks) if r == 1]}
        return "chat.match_over", {"winner": None if winner is None else name(winner)}

    def chat_mark(self, table: Table) -> dict[str, Any] | None:
        """Where in the running game a chat line is said, for pages that weave the game's actions
        into the chat (the hare hunt's); None for a game that does not."""
        return None

    def chat_marks(self, table: Table, snap: TableSnapshot) -> Callable[[datetime], dict[str, Any] | None]:
        """``chat_mark`` for the stored lines of a table rebuilt after a restart, by their times."""
        return lambda when: None

    def hints_for(self, table: Table, seat: int | None) -> bool:
        return False

    def plan_hint(self, table: Table, player_id: str) -> int:
        """The seat asking for a hint; ClientError when it may not have one now."""
        seat = table.seat_of(player_id)
        if seat is None:
            raise ClientError("error.not_seated")
        if table.state != PLAYING or table.play is None:
            raise ClientError("error.not_started")
        if not self.hints_for(table, seat):
            raise ClientError("error.no_hints")
        mover = self.to_move(table)
        if mover is None:
            raise ClientError("error.game_over")
        if mover != seat:
            raise ClientError("error.not_your_turn")
        return seat

    def analysis_view(self, table: Table) -> tuple[Any, tuple[int, int, int]]:
        raise ClientError("error.no_hints")

    def outcome(self, match: MatchRecord, seats: int) -> Outcome:
        """By the last game's placings where the game has them (the hare hunt: placing points), else
        by the match's winner; a game with more to count (the forest's tiles) says so itself."""
        last = match.games[-1].result if match.games else None
        if last and last.get("placings"):
            points = placing_points([float(r) - 1 for r in last["placings"]])
            return Outcome(points, points, (0,) * seats)
        w = match.winner_seat
        points = tuple(0.5 if w is None else float(i == w) for i in range(seats))
        return Outcome(points, points, (0,) * seats)
