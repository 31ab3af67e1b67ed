"""Who is who: display names, session tokens and which players are accounts, cached from the store.

Every part that shows a name asks here, so a rename reaches every table and the lobby through the
listeners that registered for it, without this module knowing what a table is.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from halali.server.errors import ClientError
from halali.server.writer import StoreWriter
from halali.store import NameTaken, PlayerRecord, Store

ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def new_id(prefix: str) -> str:
    return prefix + "".join(secrets.choice(ID_ALPHABET) for _ in range(8))


def clean_name(name: Any) -> str:
    """A display name as people may choose it: 1-24 printable characters, spaces collapsed."""
    if not isinstance(name, str):
        raise ClientError("error.bad_request", field="name")
    name = " ".join(name.split())
    if not 1 <= len(name) <= 24:
        raise ClientError("error.bad_name", reason="length")
    if any(not ch.isprintable() for ch in name):
        raise ClientError("error.bad_name", reason="characters")
    return name


class People:
    def __init__(self, store: Store, writer: StoreWriter) -> None:
        self.store, self.writer = store, writer
        self.names: dict[str, str] = {}
        self.sessions: dict[str, str] = {}  # token -> player id, a cache of the store
        self.accounts: set[str] = set()  # ids of the players that are accounts
        self.bot_accounts: set[str] = set()  # ... of those that are bot accounts (labelled BOT everywhere)
        self.renamed: list[Callable[[str], None]] = []  # told the id of every player with a new name

    def name(self, player_id: str | None) -> str:
        return self.names.get(player_id or "", "?")

    def remember(self, rec: PlayerRecord, rename: bool = True) -> None:
        """Cache what a record says of a player; ``rename=False`` keeps a name already known."""
        if rename or rec.id not in self.names:
            self.names[rec.id] = rec.name
        if rec.account:
            self.accounts.add(rec.id)
        if rec.bot_account:
            self.bot_accounts.add(rec.id)

    def you(self, player_id: str) -> dict[str, Any]:
        """A player as every message names it; a bot account carries ``bot_account: true``."""
        out: dict[str, Any] = {"id": player_id, "name": self.name(player_id)}
        if player_id in self.bot_accounts:
            out["bot_account"] = True
        return out

    def me(self, player_id: str) -> dict[str, Any]:
        return {**self.you(player_id), "account": player_id in self.accounts}

    async def player_for_token(self, token: str | None) -> PlayerRecord | None:
        if not token or len(token) > 128:
            return None
        pid = self.sessions.get(token)
        if pid is not None:
            return PlayerRecord(pid, self.names[pid], pid in self.accounts, None, pid in self.bot_accounts)
        rec = await self.writer.call(self.store.player_by_token, token)
        if rec is not None:
            self.sessions[token] = rec.id
            self.remember(rec)
        return rec

    async def new_player(self) -> tuple[str, PlayerRecord]:
        token = secrets.token_urlsafe(32)
        name = f"Guest {secrets.randbelow(9000) + 1000}"
        rec = await self.writer.call(self.store.create_player, new_id("p_"), token, name)
        self.sessions[token] = rec.id
        self.names[rec.id] = rec.name
        return token, rec

    async def rename(self, player_id: str, name: Any) -> PlayerRecord:
        """A new display name; an account's login changes with it. Nobody may take an account's name."""
        name = clean_name(name)
        login = name.casefold()
        holder = await self.writer.call(self.store.account_by_login, login)
        if holder is not None and holder.player.id != player_id:
            raise ClientError("error.name_taken", name=name)
        try:
            rec = await self.writer.call(self.store.rename_player, player_id, name,
                                         login if player_id in self.accounts else None)
        except NameTaken:
            raise ClientError("error.name_taken", name=name) from None
        self.names_changed(player_id, name)
        return rec

    def names_changed(self, player_id: str, name: str) -> None:
        self.names[player_id] = name
        for listener in self.renamed:
            listener(player_id)
