"""Finished games, replays, records, profiles and the leaderboard, as the JSON API shows them.

Everything a replay shows is rebuilt from the store: the deal and the recorded actions (reveals with
their outcomes). Positions leave here only as public views; the deal and the salt only once the game
is over, exactly as in the `game` message.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from halali.games.errors import NotationError
from halali.games.forest.match import colour_of, seat_of
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position
from halali.games.forest.record import Record, parse_record, record_of, verify
from halali.games.forest.tiles import BLUE, BROWN
from halali.server import views
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.forest import rules_of
from halali.server.games.forest_match import game_result
from halali.server.limits import refuse_while_limited
from halali.store import GameDetail, GameSummary, PlayerRecord
from halali.store.ratings import provisional

GAME = "forest"
MAX_RECORD = 65536
ENDINGS = ("time", "resign", "abandon")  # the ends off the board a record keeps (its Termination header)
CACHE = 512


def remember(cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > CACHE:
        cache.popitem(last=False)


def player_json(p: PlayerRecord | None, name: str | None = None) -> dict[str, Any] | None:
    if p is None:
        return {"id": None, "name": name, "bot": None} if name else None
    return {"id": p.id, "name": p.name, "bot": p.bot, **({"bot_account": True} if p.bot_account else {})}


def seat_players(players: Sequence[PlayerRecord | None]) -> list[dict[str, Any] | None]:
    """A game's players by seat, each computer with the number its seat is called by at the table."""
    bots = [p is not None and p.bot is not None for p in players]
    out = []
    for seat, p in enumerate(players):
        one = player_json(p)
        number = views.computer_number(bots, seat) if one is not None and one["bot"] is not None else None
        out.append({**one, "number": number} if one is not None and number is not None else one)
    return out


def summary_json(g: GameSummary) -> dict[str, Any]:
    """A game as the lists show it, with its players by colour (seat 0 is brown in game 1)."""
    index = g.number - 1
    blue_seat = seat_of(BLUE, index)
    result = dict(g.result) if g.result is not None else None
    if result is not None:
        result["termination"] = g.termination
    return {"id": g.id, "table": g.table_id, "match": g.match_id, "number": g.number, "rated": g.rated,
            "archived": g.archived, "started": g.started_at and views.iso(g.started_at),
            "finished": g.finished_at and views.iso(g.finished_at),
            "blue": seat_players(g.players)[blue_seat] or player_json(None, g.headers.get("Blue")),
            "brown": seat_players(g.players)[1 - blue_seat] or player_json(None, g.headers.get("Brown")),
            "result": result}


def replay(detail: GameDetail) -> tuple[Position, list[Position]]:
    """The start (knowing the deal) and every position after it, replayed from the recorded actions."""
    pos = parse_position(detail.deal, rules_of(detail.rules))
    start = pos.copy()
    out = [pos.copy()]
    for text in detail.actions:
        pos.play(text)
        out.append(pos.copy())
    return start, out


async def game_detail(ctx: Context, game_id: Any) -> GameDetail:
    """A stored game by its id from a request; ClientError ``error.no_game`` for anything else."""
    if not isinstance(game_id, int) or not 0 < game_id < 2**62:
        raise ClientError("error.no_game")
    detail = await ctx.db(ctx.store.game_detail, game_id)
    if detail is None:
        raise ClientError("error.no_game")
    return detail


class History:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._games: OrderedDict[int, dict[str, Any]] = OrderedDict()  # finished games never change
        st = ctx.settings
        self.imports = ctx.limiter("import", st.imports_per_address, st.import_window)

    async def _detail(self, game_id: Any) -> GameDetail:
        return await game_detail(self.ctx, game_id)

    async def games(self, player_id: str | None = None, table_id: str | None = None, before: int | None = None,
                    limit: int = 20) -> dict[str, Any]:
        games, more = await self.ctx.db(self.ctx.store.finished_games, player_id, table_id, before, limit)
        return {"games": [summary_json(g) for g in games], "more": more}

    async def game(self, game_id: Any) -> dict[str, Any]:
        if isinstance(game_id, int) and game_id in self._games:
            return self._games[game_id]
        detail = await self._detail(game_id)
        out = await asyncio.to_thread(self._game_json, detail)
        if detail.over:
            remember(self._games, detail.summary.id, out)
        return out

    @staticmethod
    def _game_json(detail: GameDetail) -> dict[str, Any]:
        _, positions = replay(detail)
        g = detail.summary
        return {**summary_json(g), "rules": dict(detail.rules), "over": detail.over,
                "actions": list(detail.actions),
                "positions": [p.view().fen() for p in positions],
                "scores": [{"blue": p.score[0], "brown": p.score[1]} for p in positions],
                "commitment": detail.commitment,
                "deal": detail.deal if detail.over else None,
                "salt": detail.salt if detail.over else None,
                "headers": dict(g.headers)}

    async def record(self, game_id: Any, luck: dict[str, Any] | None = None) -> str:
        """The game's record; with ``luck`` (``Luck.game``'s answer) its headers and comments too."""
        detail = await self._detail(game_id)
        return await asyncio.to_thread(self._record_text, detail, luck)

    @staticmethod
    def _record_text(detail: GameDetail, luck: dict[str, Any] | None = None) -> str:
        g = detail.summary
        start, positions = replay(detail)
        game = summary_json(g)
        headers = {k: v for k, v in g.headers.items()}
        for colour in ("blue", "brown"):
            if game[colour] is not None:
                headers[colour.capitalize()] = game[colour]["name"]
        if g.started_at is not None:
            headers.setdefault("Date", g.started_at.strftime("%Y-%m-%d"))
        if detail.commitment:
            headers["Commitment"] = detail.commitment
        if detail.over:
            headers["Deal"] = detail.deal
            if detail.salt:
                headers["Salt"] = detail.salt
        pos = start.copy()
        actions = []
        for text in detail.actions:
            a = pos.parse_action(text)
            actions.append(a)
            pos.push(a)
        rec = record_of(start, actions, headers)
        if g.termination in ENDINGS and g.result is not None:
            final = positions[-1]
            rec.headers.update(Result=g.result.get("winner") or "draw", Score=f"{final.score[0]}-{final.score[1]}",
                               Termination=g.termination)
        if luck is not None:
            rec.headers.update(luck["record"]["headers"])
            rec.comments = {int(ply): text for ply, text in luck["record"]["comments"].items()}
        return rec.format()

    async def import_record(self, text: Any, player_id: str, address: str) -> dict[str, Any]:
        if not isinstance(text, str) or not text.strip():
            raise ClientError("error.bad_request", field="record")
        if len(text.encode()) > MAX_RECORD:
            raise ClientError("error.bad_record", reason=f"a record has at most {MAX_RECORD} bytes")
        refuse_while_limited(await self.imports.retry_after(address))
        await self.imports.hit(address)  # a refused record was replayed too: it counts
        checked = await asyncio.to_thread(self._check_record, text)
        rec, start, final = checked
        result: dict[str, Any] | None = None
        termination = rec.headers.get("Termination") if rec.headers.get("Termination") in ENDINGS else None
        if final.is_over():
            result = game_result(final, 0)
            termination = None
        elif termination and rec.headers.get("Result") in ("blue", "brown", "draw"):
            winner = rec.headers["Result"]
            seat = None if winner == "draw" else seat_of(BLUE if winner == "blue" else BROWN, 0)
            result = {**game_result(final, 0), "winner": None if seat is None else winner, "winner_seat": seat,
                      "termination": termination}
        else:
            termination = None
        extra = {k: v for k, v in rec.headers.items()
                 if k not in ("Game", "Rules", "Deal", "Salt", "Commitment", "Position", "Result", "Score")}
        table_id = "t_" + secrets.token_hex(4)
        game_id = await self.ctx.db(self.ctx.store.import_game, table_id, player_id, rec.rules.to_dict(),
                                       start.fen(), list(rec.actions), result, extra, rec.headers.get("Salt"),
                                       rec.headers.get("Commitment"), termination)
        return {"game": game_id, "table": table_id}

    @staticmethod
    def _check_record(text: str) -> tuple[Record, Position, Position]:
        """Parse and replay a record; ClientError naming the first problem."""
        try:
            rec = parse_record(text)
            start = rec.start()
            if not start.knows_deal():
                raise ClientError("error.bad_record", reason="it needs its deal (a Deal header, or a Position "
                                                              "that knows every face-down tile)")
            positions = rec.positions()
        except NotationError as exc:
            raise ClientError("error.bad_record", reason=str(exc)) from exc
        except ValueError as exc:
            raise ClientError("error.bad_record", reason=str(exc)) from exc
        if rec.headers.get("Commitment") or rec.headers.get("Salt"):
            problems = verify(rec)
            if problems:
                raise ClientError("error.bad_record", reason=problems[0])
        return rec, start, positions[-1]

    # ---- people ----------------------------------------------------------------------------------
    async def profile(self, player_id: Any) -> dict[str, Any]:
        ctx = self.ctx
        if not isinstance(player_id, str) or len(player_id) > 16:
            raise ClientError("error.no_player")
        info = await ctx.db(ctx.store.player_info, player_id)
        if info is None:
            raise ClientError("error.no_player")
        player, since = info
        ratings: dict[str, Any] = {}
        for r in await ctx.db(ctx.store.ratings_of, player_id):
            history = await ctx.db(ctx.store.rating_history, player_id, r.game)
            ratings[r.game] = {
                **rating_json(r.rating, r.mu, r.sigma, r.matches), "rank": await ctx.db(ctx.store.rank, r.game,
                                                                                         r.rating, player.bot_account),
                "history": [{"time": views.iso(h.time), "rating": h.rating, "before": h.before,
                             "mu": round(h.mu, 2), "sigma": round(h.sigma, 2), "match": h.match_id,
                             "table": h.table_id} for h in history]}
        games, _ = await ctx.db(ctx.store.finished_games, player_id, None, None, None)
        matches = await ctx.db(ctx.store.match_results, player_id)
        hunts = await ctx.db(ctx.store.hunt_results, player_id)
        return {"id": player.id, "name": player.name, "account": player.account, "bot": player.bot,
                "bot_account": player.bot_account,
                "since": views.iso(since), "ratings": ratings,
                "results": {**results_json(player_id, games, matches), "hunts": hunts_json(hunts)}}

    async def leaderboard(self, game: str, limit: int, offset: int, with_provisional: bool, board: str = "people"
                          ) -> dict[str, Any]:
        """``board``: ``people`` (people and the computer levels) or ``bots`` (the bot accounts' own)."""
        ctx = self.ctx
        bots = board == "bots"
        total, rows = await ctx.db(ctx.store.leaderboard, game, limit, offset, with_provisional, bots)
        return {"game": game, **({"board": board} if bots else {}), "total": total,
                "players": [{"rank": offset + i + 1, "id": p.id, "name": p.name, "bot": p.bot, "account": p.account,
                             **({"bot_account": True} if bots else {}),
                             **rating_json(r.rating, r.mu, r.sigma, r.matches)}
                            for i, (r, p) in enumerate(rows)]}


def rating_json(rating: int, mu: float, sigma: float, matches: int) -> dict[str, Any]:
    return {"rating": rating, "mu": round(mu, 2), "sigma": round(sigma, 2), "matches": matches,
            "provisional": provisional(matches)}


def _tally() -> dict[str, int]:
    return {"games": 0, "won": 0, "lost": 0, "drawn": 0}


def hunts_json(results: list[float]) -> dict[str, int]:
    """Hare hunts played, won, won together with others (as a draw), lost."""
    return {"played": len(results), "won": sum(1 for r in results if r == 1.0),
            "drawn": sum(1 for r in results if 0.0 < r < 1.0), "lost": sum(1 for r in results if r == 0.0)}


def results_json(player_id: str, games: list[GameSummary], matches: list[tuple[int, int | None]]) -> dict[str, Any]:
    """Games won, lost and drawn, in all and per colour, and matches."""
    total, by_colour = _tally(), {"blue": _tally(), "brown": _tally()}
    for g in games:
        if g.result is None:
            continue
        seat = 0 if g.players[0] is not None and g.players[0].id == player_id else 1
        colour = "blue" if colour_of(seat, g.number - 1) == BLUE else "brown"
        winner = g.result.get("winner_seat")
        outcome = "drawn" if winner is None else ("won" if winner == seat else "lost")
        for t in (total, by_colour[colour]):
            t["games"] += 1
            t[outcome] += 1
    m = {"played": 0, "won": 0, "lost": 0, "drawn": 0}
    for seat, winner in matches:
        m["played"] += 1
        m["drawn" if winner is None else ("won" if winner == seat else "lost")] += 1
    return {**total, **by_colour, "matches": m}
