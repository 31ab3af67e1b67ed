"""Plain, immutable records the store hands out, so callers never hold database rows or sessions."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    name: str


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


@dataclass(frozen=True, slots=True)
class ActionRecord:
    ply: int
    action: str
    seat: int


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


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    number: int
    deal: str
    result: dict[str, Any] | None = None
    actions: tuple[ActionRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchRecord:
    id: int
    number: int
    games: tuple[GameRecord, ...] = ()
    winner_seat: int | None = None
    finished: bool = False


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
