"""Players, sessions and the attempts that rate limits count: the accounts' part of the store.

Only a hash of a session token (or of a counted key) is stored, so a leaked database hands out no
seats and names no addresses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from halali.store import schema as s
from halali.store.records import AccountRecord, PlayerRecord
from halali.store.rows import PLAYER_COLUMNS, now
from halali.store.rows import player_record as _player


class NameTaken(Exception):
    """Another account already has this login name."""


def hash_token(token: str) -> str:
    """Only a hash of a session token is stored: a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


class AccountStore:
    """Mixed into the Store."""

    engine: Engine

    def player_by_token(self, token: str) -> PlayerRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(*PLAYER_COLUMNS).join(s.sessions, s.sessions.c.player_id == s.players.c.id)
                               .where(s.sessions.c.token_hash == hash_token(token))).first()
        return _player(row) if row else None

    def create_player(self, player_id: str, token: str, name: str) -> PlayerRecord:
        t = now()
        with self.engine.begin() as conn:
            conn.execute(insert(s.players).values(id=player_id, name=name, created_at=t))
            conn.execute(insert(s.sessions).values(token_hash=hash_token(token), player_id=player_id, created_at=t))
        return PlayerRecord(player_id, name)

    def ensure_bots(self, levels: dict[int, str], game: str = "forest") -> dict[int, str]:
        """One player per computer level of a game type (ids ``bot_N`` for the forest game,
        ``GAME_bot_N`` for others), so each level has a rating and a history."""
        prefix = "bot" if game == "forest" else f"{game}_bot"
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":  # the nodes of a cluster start together: one at a time here
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7261002)")
            have = {r.bot_level: r.id for r in conn.execute(
                select(s.players.c.id, s.players.c.bot_level).where(s.players.c.bot_level.is_not(None),
                                                                    s.players.c.bot_game == game))}
            for level, name in levels.items():
                if level not in have:
                    conn.execute(insert(s.players).values(id=f"{prefix}_{level}", name=name, bot_level=level,
                                                          bot_game=game, created_at=now()))
                    have[level] = f"{prefix}_{level}"
                else:
                    conn.execute(update(s.players).where(s.players.c.id == have[level]).values(name=name))
        return {level: have[level] for level in levels}

    def add_session(self, player_id: str, token: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(s.sessions).values(token_hash=hash_token(token), player_id=player_id,
                                                   created_at=now()))

    def end_session(self, token: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(s.sessions).where(s.sessions.c.token_hash == hash_token(token)))

    # ---- rate limits (login and registration attempts) ------------------------------------------
    def attempt_times(self, kind: str, key: str, since: float) -> list[float]:
        """When ``key`` was counted under ``kind`` after ``since``, oldest first."""
        a = s.attempts
        with self.engine.connect() as conn:
            rows = conn.execute(select(a.c.at).where(a.c.kind == kind, a.c.key_hash == hash_token(key),
                                                     a.c.at > since).order_by(a.c.at))
            return [float(t) for t in rows.scalars()]

    def record_attempt(self, kind: str, key: str, at: float, forget_before: float) -> None:
        """Count one attempt, and drop this kind's attempts too old to matter."""
        a = s.attempts
        with self.engine.begin() as conn:
            conn.execute(delete(a).where(a.c.kind == kind, a.c.at <= forget_before))
            conn.execute(insert(a).values(kind=kind, key_hash=hash_token(key), at=at))

    def clear_attempts(self, kind: str, key: str) -> None:
        a = s.attempts
        with self.engine.begin() as conn:
            conn.execute(delete(a).where(a.c.kind == kind, a.c.key_hash == hash_token(key)))

    def switch_session(self, old_token: str | None, player_id: str, new_token: str) -> None:
        """Log in: the old session ends and a new one belongs to ``player_id``, in one transaction."""
        with self.engine.begin() as conn:
            if old_token:
                conn.execute(delete(s.sessions).where(s.sessions.c.token_hash == hash_token(old_token)))
            conn.execute(insert(s.sessions).values(token_hash=hash_token(new_token), player_id=player_id,
                                                   created_at=now()))

    def password_hash_of(self, player_id: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(s.players.c.password_hash).where(s.players.c.id == player_id)).scalar()

    def change_password(self, player_id: str, password_hash: str, new_token: str) -> None:
        """A new password: every session of the account ends (a thief's too) and one new session, the
        changer's, begins, in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(update(s.players).where(s.players.c.id == player_id).values(password_hash=password_hash))
            conn.execute(delete(s.sessions).where(s.sessions.c.player_id == player_id))
            conn.execute(insert(s.sessions).values(token_hash=hash_token(new_token), player_id=player_id,
                                                   created_at=now()))

    def account_by_login(self, login: str) -> AccountRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(*PLAYER_COLUMNS, s.players.c.password_hash)
                               .where(s.players.c.login == login)).first()
        return AccountRecord(_player(row), row.password_hash) if row else None

    def register(self, player_id: str, login: str, name: str, password_hash: str, old_token: str | None,
                 new_token: str) -> PlayerRecord:
        """A guest becomes an account (same id: its games come along); its session token is rotated.

        Raises NameTaken when another account has the login (the unique index decides, so two people
        registering the same name at once cannot both get it).
        """
        try:
            with self.engine.begin() as conn:
                conn.execute(update(s.players).where(s.players.c.id == player_id, s.players.c.login.is_(None))
                             .values(login=login, name=name, password_hash=password_hash, registered_at=now()))
                if old_token:
                    conn.execute(delete(s.sessions).where(s.sessions.c.token_hash == hash_token(old_token)))
                conn.execute(insert(s.sessions).values(token_hash=hash_token(new_token), player_id=player_id,
                                                       created_at=now()))
        except IntegrityError as exc:
            raise NameTaken(login) from exc
        return PlayerRecord(player_id, name, True)

    def rename_player(self, player_id: str, name: str, login: str | None = None) -> PlayerRecord:
        """A new display name; an account's login name changes with it (NameTaken when another has it)."""
        values: dict[str, Any] = {"name": name}
        if login is not None:
            values["login"] = login
        try:
            with self.engine.begin() as conn:
                conn.execute(update(s.players).where(s.players.c.id == player_id).values(**values))
        except IntegrityError as exc:
            raise NameTaken(login or name) from exc
        return PlayerRecord(player_id, name, login is not None)

    def players(self, ids: Iterable[str]) -> dict[str, PlayerRecord]:
        with self.engine.connect() as conn:
            return self._players(conn, ids)

    @staticmethod
    def _players(conn: Connection, ids: Iterable[str | None]) -> dict[str, PlayerRecord]:
        wanted = sorted({i for i in ids if i})
        if not wanted:
            return {}
        rows = conn.execute(select(*PLAYER_COLUMNS).where(s.players.c.id.in_(wanted)))
        return {r.id: _player(r) for r in rows}

