"""Accounts: argon2 password hashes, login rate limits, and sessions that change hands safely.

A guest is a player with a session cookie; registering gives that same player a login name and a
password, so everything it played comes along. Logging in moves the browser to the account with a
new token (the old one ends), so a token seen before the login is worth nothing after it.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.limits import refuse_while_limited
from halali.server.people import clean_name
from halali.store import NameTaken, PlayerRecord, hash_token

MIN_PASSWORD, MAX_PASSWORD = 8, 128


def check_password(stored: str, password: str) -> bool:
    """Any argon2 hash checks with the cost it was made with, so the cost can change over time."""
    try:
        return PasswordHasher().verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def check_password_text(password: Any) -> str:
    if not isinstance(password, str):
        raise ClientError("error.bad_request", field="password")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ClientError("error.bad_password", reason="length")
    return password


class Accounts:
    """Register, log in, log out; the rate limits live here.

    Failed logins are throttled as OWASP advises against both guessing and locking out: per name *and*
    address, and per address, with a delay that doubles with each further failure. A name alone is
    never locked, so the right password from another address still gets in.
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        st = ctx.settings
        self.by_name = ctx.limiter("login_name_address", st.login_failures_per_name, st.login_window)
        self.by_address = ctx.limiter("login_address", st.login_failures_per_address, st.login_window)
        self.registrations = ctx.limiter("register", st.registrations_per_address, st.registration_window)
        # argon2id; the default cost is the library's (RFC 9106 low-memory profile: 3 passes, 64 MiB)
        self.hasher = PasswordHasher(time_cost=st.argon2_time_cost, memory_cost=st.argon2_memory_kib)
        self._dummy: str | None = None

    def dummy_hash(self) -> str:
        """A hash to check against when the name is unknown, so both failures take the same time."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_hex(16))
        return self._dummy

    async def register(self, player_id: str, old_token: str | None, name: Any, password: Any,
                       address: str) -> tuple[str, PlayerRecord]:
        ctx = self.ctx
        name = clean_name(name)
        password = check_password_text(password)
        if player_id in ctx.people.accounts:
            raise ClientError("error.already_registered")
        refuse_while_limited(await self.registrations.retry_after(address))
        login = name.casefold()
        if await ctx.db(ctx.store.account_by_login, login) is not None:
            raise ClientError("error.name_taken", name=name)
        hashed = await asyncio.to_thread(self.hasher.hash, password)
        token = secrets.token_urlsafe(32)
        try:
            rec = await ctx.db(ctx.store.register, player_id, login, name, hashed, old_token, token)
        except NameTaken:
            raise ClientError("error.name_taken", name=name) from None
        await self.registrations.hit(address)
        ctx.people.accounts.add(player_id)
        self._switch(old_token, token, player_id)
        ctx.people.names_changed(player_id, name)
        return token, rec

    async def login(self, old_token: str | None, name: Any, password: Any, address: str) -> tuple[str, PlayerRecord]:
        ctx = self.ctx
        if not isinstance(name, str) or len(name) > 100:
            raise ClientError("error.bad_request", field="name")
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise ClientError("error.bad_request", field="password")
        login = " ".join(name.split()).casefold()
        pair = f"{login}\n{address}"
        delay = ctx.settings.login_delay
        refuse_while_limited(await self.by_name.backoff(pair, delay), await self.by_address.backoff(address, delay))
        account = await ctx.db(ctx.store.account_by_login, login)
        stored = account.password_hash if account is not None else await asyncio.to_thread(self.dummy_hash)
        ok = await asyncio.to_thread(check_password, stored, password)
        if account is None or not ok:
            await self.by_name.hit(pair)
            await self.by_address.hit(address)
            raise ClientError("error.wrong_password")
        await self.by_name.clear(pair)
        token = secrets.token_urlsafe(32)
        player = account.player
        await ctx.db(ctx.store.switch_session, old_token, player.id, token)
        ctx.people.accounts.add(player.id)
        ctx.people.names[player.id] = player.name
        self._switch(old_token, token, player.id)
        return token, player

    async def change_password(self, player_id: str, token: str | None, current: Any, password: Any,
                              address: str) -> str:
        """A new password for the account, once its current one is given (throttled as a login is). Every
        session of the account ends, on this node at once, and the changer gets a new one (returned)."""
        ctx = self.ctx
        if player_id not in ctx.people.accounts:
            raise ClientError("error.account_needed")
        if not isinstance(current, str) or len(current) > MAX_PASSWORD:
            raise ClientError("error.bad_request", field="current")
        password = check_password_text(password)
        pair = f"{player_id}\n{address}"
        delay = ctx.settings.login_delay
        refuse_while_limited(await self.by_name.backoff(pair, delay), await self.by_address.backoff(address, delay))
        stored = await ctx.db(ctx.store.password_hash_of, player_id)
        if not stored or not await asyncio.to_thread(check_password, stored, current):
            await self.by_name.hit(pair)
            await self.by_address.hit(address)
            raise ClientError("error.wrong_current_password")
        await self.by_name.clear(pair)
        hashed = await asyncio.to_thread(self.hasher.hash, password)
        new = secrets.token_urlsafe(32)
        await ctx.db(ctx.store.change_password, player_id, hashed, new)
        self._switch(token, new, player_id)
        self._end_sessions(player_id, {"keep": hash_token(new)})
        return new

    async def logout(self, token: str | None) -> None:
        if token:
            player_id = self.ctx.people.sessions.get(token)
            await self.ctx.db(self.ctx.store.end_session, token)
            self._switch(token, None, None)
            if player_id is not None:
                self._end_sessions(player_id, {"ended": [hash_token(token)]})

    def _end_sessions(self, player_id: str, which: dict[str, Any]) -> None:
        """Ended sessions forgotten here and, on a cluster, by the other nodes (each keeps the sessions it
        has seen); by their hashes, never the tokens."""
        text = json.dumps(which)
        self.sessions_ended(player_id, text)
        if self.ctx.hub.relay is not None:
            self.ctx.hub.relay("sessions", player_id, text)

    def sessions_ended(self, player_id: str, which: str) -> None:
        """Forget the player's ended sessions (``{"ended": [hashes]}``, or all but ``{"keep": hash}``)
        and close their sockets (4401): told by another node, or after a new password here."""
        said = json.loads(which)
        ended, keep = set(said.get("ended", ())), said.get("keep")
        for token, pid in list(self.ctx.people.sessions.items()):
            key = hash_token(token) if pid == player_id else None
            if key is not None and (key in ended or (keep is not None and key != keep)):
                self._switch(token, None, None)

    def _switch(self, old: str | None, new: str | None, player_id: str | None) -> None:
        """Forget the old session, and close its sockets (code 4401): the page reconnects as the new one."""
        ctx = self.ctx
        if old:
            ctx.people.sessions.pop(old, None)
            for conn in list(ctx.hub.connections):
                if conn.session == old:
                    conn.close(4401)
        if new and player_id:
            ctx.people.sessions[new] = player_id
