"""Database rows to plain records, shared by the repository and the history queries."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, overload

from sqlalchemy import CursorResult

from halali.store import schema as s
from halali.store.records import PlayerRecord, TableRecord

PLAYER_COLUMNS = (s.players.c.id, s.players.c.name, s.players.c.login, s.players.c.bot_level,
                  s.players.c.bot_account)


def now() -> datetime:
    return datetime.now(UTC)


@overload
def utc(value: datetime) -> datetime: ...
@overload
def utc(value: None) -> None: ...
def utc(value: datetime | None) -> datetime | None:
    # SQLite gives back naive datetimes; every time the store writes is UTC.
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


def player_record(row: Any) -> PlayerRecord:
    return PlayerRecord(row.id, row.name, row.login is not None, row.bot_level, bool(row.bot_account))


def table_record(row: Any) -> TableRecord:
    return TableRecord(row.id, row.game, dict(row.rules), row.state, utc(row.created_at), utc(row.updated_at),
                       row.created_by, row.test_seed, bool(row.rated), row.mode, row.clock,
                       row.tournament_id)


def inserted_id(result: CursorResult[Any]) -> int:
    """The integer primary key of the one row an ``insert(...).values(...)`` just created."""
    key = result.inserted_primary_key
    if key is None:  # SQLAlchemy's answer when the statement inserted no row
        raise RuntimeError("the INSERT created no row")
    return int(key[0])
