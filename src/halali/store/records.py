"""Plain, immutable records the store hands out, so callers never hold database rows or sessions."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    name: str
    account: bool = False
    bot: int | None = None  # the computer level this player stands for
    bot_account: bool = False  # an account run as a program by its owner (docs/bots.md)


@dataclass(frozen=True, slots=True)
class AccountRecord:
    player: PlayerRecord
    password_hash: str


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    player_id: str | None = None
    bot_level: int | None = None


@dataclass(frozen=True, slots=True)
class TableRecord:
    id: str
    game: str
    rules: dict[str, Any]
    state: str
    created_at: datetime
    updated_at: datetime
    created_by: str | None = None
    test_seed: int | None = None
    rated: bool = True
    mode: str = "live"
    clock: dict[str, int] | None = None  # {"initial": seconds, "increment": seconds}
    tournament_id: str | None = None  # the tournament that seated this table


@dataclass(frozen=True, slots=True)
class ActionRecord:
    ply: int
    action: str
    seat: int
    clock_ms: int | None = None
    time: datetime | None = None


@dataclass(frozen=True, slots=True)
class RatingRequest:
    """A finished rated match to rate: who sat where (bots as their players) and how it ended.

    Two seats give ``winner_seat`` (None for a draw); more seats give ``ranks``, one per seat,
    1 for first, ties equal (the hare hunt's placings)."""

    game: str
    match_id: int
    players: tuple[str, ...]
    winner_seat: int | None = None
    ranks: tuple[float, ...] | None = None

    def seat_ranks(self) -> tuple[float, ...]:
        if self.ranks is not None:
            return self.ranks
        if self.winner_seat is None:
            return (1.0,) * len(self.players)
        return tuple(1.0 if seat == self.winner_seat else 2.0 for seat in range(len(self.players)))


@dataclass(frozen=True, slots=True)
class ActionWrite:
    """One played action to store, with the end of its game / match when it ended them."""

    table_id: str
    game_id: int
    ply: int
    action: str
    seat: int
    game_result: dict[str, Any] | None = None
    match_id: int | None = None
    match_winner: int | None = None
    match_over: bool = False
    clock_ms: int | None = None
    next_game_id: int | None = None  # the game that starts when this action ends the previous one
    rating: RatingRequest | None = None  # rate the match in the same transaction as its last action


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    number: int
    deal: str
    result: dict[str, Any] | None = None
    actions: tuple[ActionRecord, ...] = ()
    salt: str | None = None
    commitment: str | None = None
    termination: str | None = None


@dataclass(frozen=True, slots=True)
class MatchRecord:
    id: int
    number: int
    games: tuple[GameRecord, ...] = ()
    winner_seat: int | None = None
    finished: bool = False
    rated: bool = False
    players: tuple[str | None, str | None] = (None, None)


@dataclass(frozen=True, slots=True)
class ChatRecord:
    time: datetime
    player_id: str | None = None
    text: str | None = None
    key: str | None = None
    params: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """Everything needed to rebuild a table after a restart: the current match is replayed from its actions."""

    table: TableRecord
    seats: tuple[SeatRecord, ...]
    players: dict[str, PlayerRecord] = field(default_factory=dict)
    match: MatchRecord | None = None
    chat: tuple[ChatRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class RatingRecord:
    player_id: str
    game: str
    mu: float
    sigma: float
    rating: int
    matches: int
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class RatingPoint:
    time: datetime
    match_id: int
    table_id: str
    mu: float
    sigma: float
    rating: int
    before: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    player_id: str
    before: int
    after: int
    matches: int = 0  # the player's rated matches of this game, this one included


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished (or archived) game as the history lists show it; players per seat of its match."""

    id: int
    table_id: str
    match_id: int
    number: int
    rated: bool
    archived: bool
    players: tuple[PlayerRecord | None, PlayerRecord | None]
    result: dict[str, Any] | None
    termination: str | None
    started_at: datetime | None
    finished_at: datetime | None
    headers: dict[str, str] = field(default_factory=dict)  # an imported record's extra headers


@dataclass(frozen=True, slots=True)
class GameDetail:
    summary: GameSummary
    rules: dict[str, Any]
    deal: str
    salt: str | None
    commitment: str | None
    actions: tuple[str, ...]
    over: bool


@dataclass(frozen=True, slots=True)
class HuntSummary:
    """A finished hare hunt as the history lists show it: its players by seat."""

    id: int  # the hunt's game id
    table_id: str
    match_id: int
    number: int
    rated: bool
    players: tuple[PlayerRecord | None, ...]
    result: dict[str, Any] | None
    started_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class HuntDetail:
    summary: HuntSummary
    start: str  # the full start, dice secret included: for the server's replay only
    actions: tuple[str, ...]
    over: bool


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """A bot account's API token as its owner may see it again: never the token itself."""

    id: int
    label: str
    created_at: datetime
    last_used_at: datetime | None = None
