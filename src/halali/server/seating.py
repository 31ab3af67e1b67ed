"""A new table, and a table whose players are chosen before it exists (a challenge, a pairing).

Part of the one table service (mixed into ``TableService``): the same store calls, seat checks, the
bot accounts' limit and notices as ``create``, ``join`` and ``start``, without a connection asking.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from halali.server.context import Context
from halali.server.games.base import TableGame
from halali.server.people import new_id
from halali.server.table import Seat, Table


class Seating:
    ctx: Context
    tables: dict[str, Table]
    house: random.Random | None

    if TYPE_CHECKING:  # the table service's
        async def set_seat(self, table: Table, seat: int, new: Seat) -> None: ...
        async def notice(self, table: Table, key: str, **params: Any) -> None: ...
        async def begin(self, table: Table, rated: bool) -> None: ...
        def changed(self, table: Table) -> None: ...

    async def new_table(self, owner: str, game: TableGame, options: dict[str, Any], seats: int, rated: bool,
                        mode: str, spec: dict[str, int] | None, seed: int | None = None, address: str = "") -> Table:
        """A table of ``owner``'s, stored and kept here, every seat free (limits are the caller's)."""
        table_id = new_id("t_")
        rec = await self.ctx.db(self.ctx.store.create_table, table_id, game.id, options, owner, seed,
                                seats=seats, rated=rated, mode=mode, clock=spec)
        table = Table(table_id, game.id, options, rec.created_at, owner, test_seed=seed,
                      seats=[Seat() for _ in range(seats)], rated=rated, mode=mode, clock_spec=spec, address=address,
                      events=deque(maxlen=self.ctx.settings.table_events),
                      house_seed=self.house.getrandbits(62) if self.house is not None and seed is None else None)
        table.updated_at = time.monotonic()
        self.tables[table_id] = table
        return table

    async def seat_and_begin(self, table: Table, players: Sequence[str], rated: bool) -> None:
        """Seat these people in order and start the match, as ``join`` and ``start`` would; a refusal
        (a bot account over its limit) frees the seats taken and leaves the table waiting."""
        async with table.lock:
            try:
                for player_id in players:
                    seat = table.plan_join(player_id)
                    await self.set_seat(table, seat, Seat(player_id))
                    await self.notice(table, "chat.joined", name=self.ctx.people.name(player_id), seat=seat)
                table.plan_start(players[0])
            except Exception:
                for i, s in enumerate(table.seats):
                    if s.player_id is not None:
                        await self.set_seat(table, i, Seat())
                self.changed(table)
                raise
            await self.begin(table, rated)
