"""Bot accounts (docs/bots.md): an account its owner runs as a program, and the API tokens it uses.

As on lichess, an account becomes a bot only while it has played no rated match as a person, and it
stays one: a bot's ratings never mix with a person's. Its program proves who it is with a token
(``Authorization: Bearer hal_...``) instead of a browser's cookie; the token is shown once and stored
only as its SHA-256, and revoking it closes at once every WebSocket it opened.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from halali.server import views
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.hub import Connection
from halali.store import NotEligible, PlayerRecord, TokenRecord, hash_token

TOKEN_PREFIX = "hal_"
MAX_LABEL = 40


def bearer_token(headers: Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, None without one: a request with it is the
    bot's, never the cookie's. Other schemes are left alone (a proxy's Basic login in front of the site
    must not lock people out)."""
    scheme, _, token = headers.get("authorization", "").strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def token_json(rec: TokenRecord) -> dict[str, Any]:
    return {"id": rec.id, "label": rec.label, "created": views.iso(rec.created_at),
            "last_used": views.iso(rec.last_used_at) if rec.last_used_at is not None else None}


class BotAccounts:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.sockets: dict[str, set[Connection]] = {}  # token hash -> the WebSockets it opened
        # Hashes revoked while this server runs: a socket whose token was looked up just before its
        # revocation, and registered just after, is closed all the same (a revoked token never returns).
        self.revoked: set[str] = set()
        ctx.hub.removed.append(self._forget)

    async def player_for_token(self, token: str | None) -> PlayerRecord | None:
        """The bot account behind an API token; None for anything else (a revoked token included)."""
        if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 128:
            return None
        rec = await self.ctx.db(self.ctx.store.player_by_api_token, token)
        if rec is not None:
            self.ctx.people.remember(rec)
        return rec

    def opened(self, conn: Connection, token: str) -> None:
        key = hash_token(token)
        if key in self.revoked:
            conn.close(4401)
            return
        self.sockets.setdefault(key, set()).add(conn)

    def _forget(self, conn: Connection) -> None:
        for key, conns in list(self.sockets.items()):
            conns.discard(conn)
            if not conns:
                del self.sockets[key]

    async def mark(self, player_id: str) -> dict[str, Any]:
        """Make the account a bot account (for good); every table and the lobby show the new badge."""
        try:
            rec = await self.ctx.db(self.ctx.store.make_bot_account, player_id)
        except NotEligible as exc:
            raise ClientError("error.not_account" if exc.reason == "account" else "error.played_rated") from None
        people = self.ctx.people
        people.remember(rec)
        people.names_changed(rec.id, rec.name)
        return people.me(rec.id)

    def _bot(self, player_id: str) -> None:
        if player_id not in self.ctx.people.bot_accounts:
            raise ClientError("error.not_bot_account")

    async def create_token(self, player_id: str, label: Any) -> dict[str, Any]:
        """A new token, returned this once; the store keeps only its hash."""
        self._bot(player_id)
        if label is None:
            label = "bot"
        if not isinstance(label, str) or not 1 <= len(" ".join(label.split())) <= MAX_LABEL \
                or any(not ch.isprintable() for ch in label):
            raise ClientError("error.bad_request", field="label")
        label = " ".join(label.split())
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        limit = self.ctx.settings.api_tokens_per_account
        rec = await self.ctx.db(self.ctx.store.add_api_token, player_id, token, label, limit)
        if rec is None:
            raise ClientError("error.too_many_tokens", max=limit)
        return {**token_json(rec), "token": token}

    async def tokens(self, player_id: str) -> list[dict[str, Any]]:
        self._bot(player_id)
        return [token_json(t) for t in await self.ctx.db(self.ctx.store.api_tokens, player_id)]

    async def revoke(self, player_id: str, token_id: Any) -> None:
        """The token is refused from now on, and the WebSockets it opened are closed (code 4401)."""
        self._bot(player_id)
        if not isinstance(token_id, int) or isinstance(token_id, bool) or not 0 < token_id < 2**62:
            raise ClientError("error.no_token")
        token_hash = await self.ctx.db(self.ctx.store.revoke_api_token, player_id, token_id)
        if token_hash is None:
            raise ClientError("error.no_token")
        self.revoked.add(token_hash)
        for conn in list(self.sockets.pop(token_hash, ())):
            conn.close(4401)
