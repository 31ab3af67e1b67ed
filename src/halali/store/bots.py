"""Bot accounts and their API tokens; how many games a bot account began lately.

A mixin of :class:`halali.store.Store` (it uses only ``self.engine``). A token is kept only as its
SHA-256, as sessions are: a copy of the database lets nobody play as a bot.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import Engine, delete, exists, func, insert, or_, select, update

from halali.store import schema as s
from halali.store.accounts import hash_token
from halali.store.records import PlayerRecord, TokenRecord
from halali.store.rows import PLAYER_COLUMNS, inserted_id, now, player_record, utc

TOKEN_TOUCH = timedelta(minutes=1)  # "last used" is written at most this often per token


class NotEligible(Exception):
    """A player that may not become a bot account: ``reason`` is ``account`` (a guest) or ``rated``
    (it has played a rated match as a person)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BotAccountStore:
    engine: Engine

    def make_bot_account(self, player_id: str) -> PlayerRecord:
        """Mark an account as a bot, for good; only one that never sat in a rated match (a running one
        included), so no person's rating history ever moves to the bots' ladder."""
        p, m, ms = s.players, s.matches, s.match_seats
        with self.engine.begin() as conn:
            row = conn.execute(select(*PLAYER_COLUMNS).where(p.c.id == player_id)).first()
            if row is None or row.login is None:
                raise NotEligible("account")
            if row.bot_account:
                return player_record(row)
            seated = or_(m.c.player0 == player_id, m.c.player1 == player_id,
                         m.c.id.in_(select(ms.c.match_id).where(ms.c.player_id == player_id)))
            rated = conn.execute(select(exists().where(m.c.rated.is_(True), m.c.aborted.is_(False), seated))).scalar()
            if rated or conn.execute(select(exists().where(s.ratings.c.player_id == player_id))).scalar():
                raise NotEligible("rated")
            conn.execute(update(p).where(p.c.id == player_id).values(bot_account=True))
        return PlayerRecord(row.id, row.name, True, None, True)

    def add_api_token(self, player_id: str, token: str, label: str, limit: int) -> TokenRecord | None:
        """A new token for a bot account; None when it already has ``limit`` of them."""
        t = now()
        with self.engine.begin() as conn:
            count = conn.execute(select(func.count()).select_from(s.api_tokens)
                                 .where(s.api_tokens.c.player_id == player_id)).scalar_one()
            if count >= limit:
                return None
            token_id = inserted_id(conn.execute(insert(s.api_tokens).values(
                token_hash=hash_token(token), player_id=player_id, label=label, created_at=t)))
        return TokenRecord(token_id, label, t)

    def api_tokens(self, player_id: str) -> list[TokenRecord]:
        a = s.api_tokens
        with self.engine.connect() as conn:
            rows = conn.execute(select(a.c.id, a.c.label, a.c.created_at, a.c.last_used_at)
                                .where(a.c.player_id == player_id).order_by(a.c.id))
            return [TokenRecord(r.id, r.label, utc(r.created_at), utc(r.last_used_at)) for r in rows]

    def revoke_api_token(self, player_id: str, token_id: int) -> str | None:
        """Delete one of the player's tokens; its hash (to close what it opened), None when unknown."""
        a = s.api_tokens
        with self.engine.begin() as conn:
            token_hash = conn.execute(select(a.c.token_hash).where(a.c.id == token_id, a.c.player_id == player_id)
                                      ).scalar()
            if token_hash is None:
                return None
            conn.execute(delete(a).where(a.c.id == token_id))
        return str(token_hash)

    def player_by_api_token(self, token: str) -> PlayerRecord | None:
        """The bot account behind a token (a revoked one is gone), noting when the token was used."""
        a = s.api_tokens
        token_hash = hash_token(token)
        t = now()
        with self.engine.begin() as conn:
            row = conn.execute(select(*PLAYER_COLUMNS, a.c.id.label("token_id"), a.c.last_used_at)
                               .join(s.players, s.players.c.id == a.c.player_id)
                               .where(a.c.token_hash == token_hash, s.players.c.bot_account.is_(True))).first()
            if row is None:
                return None
            last = utc(row.last_used_at)
            if last is None or t - last >= TOKEN_TOUCH:
                conn.execute(update(a).where(a.c.id == row.token_id).values(last_used_at=t))
        return player_record(row)

    def matches_begun_since(self, player_id: str, since: datetime) -> int:
        """Matches (not aborted) a player sat in that began at or after ``since``: a bot's daily count."""
        m, ms = s.matches, s.match_seats
        seated = or_(m.c.player0 == player_id, m.c.player1 == player_id,
                     m.c.id.in_(select(ms.c.match_id).where(ms.c.player_id == player_id)))
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(m)
                                    .where(seated, m.c.started_at >= since, m.c.aborted.is_(False))).scalar_one())
