"""What a tournament looks like to the page and the API: settings, players, rounds, standings, crosstable.

Pairings and standings come from ``halali.tournament``, as the local tournaments' do. Nothing here is
secret: a tournament's tables show their own views to whoever opens them.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from halali.store.tournaments import PairingRecord, TournamentRecord
from halali.tournament import Entrant, Result, crosstable, standings


def iso(seconds: float | None) -> str | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


def entrants(t: TournamentRecord, ratings: dict[str, float] | None = None) -> list[Entrant]:
    ratings = ratings or {}
    return [Entrant(e.player_id, ratings.get(e.player_id, 1500.0), e.withdrawn) for e in t.entries]


def results(t: TournamentRecord) -> list[Result]:
    return [result_of(p) for p in t.pairings if p.points is not None]


def result_of(p: PairingRecord) -> Result:
    assert p.points is not None
    return Result(p.round, p.players, p.points, p.games or p.points, p.tiles or (0,) * len(p.players), p.kind)


def you_json(t: TournamentRecord, you: str | None) -> dict[str, Any]:
    """The asker's part: entered or not, and their table of the running round while it is played."""
    mine = next((p.table_id for p in t.pairings if p.round == t.round and you in p.players and not p.done), None)
    return {"entered": any(e.player_id == you and not e.withdrawn for e in t.entries), "table": mine}


def tournament_json(t: TournamentRecord, now: float, names: dict[str, str], bots: set[str]) -> dict[str, Any]:
    """The whole tournament, the same for everyone (``you_json`` adds the asker's part)."""
    people = entrants(t)
    done = results(t)
    table = standings(people, done)
    next_at = t.next_at if t.state in ("upcoming", "running") else None
    return {
        "id": t.id, "game": t.game, "name": t.name, "state": t.state, "round": t.round, "rounds": t.rounds,
        "pace": t.pace, "clock": t.clock, "interval": t.interval, "rated": t.rated, "entry": t.entry,
        "table_size": t.table_size, "rules": t.rules, "created_by": t.created_by,
        "starts_at": iso(t.starts_at), "next_at": iso(next_at),
        "next_in": None if next_at is None else max(0, round(next_at - now)),
        "players": [{"id": e.player_id, "name": names.get(e.player_id, e.name), "account": e.account,
                     "level": e.bot_level, "bot": e.bot_account or e.player_id in bots, "withdrawn": e.withdrawn,
                     "joined_round": e.joined_round} for e in t.entries],
        "pairings": [{"round": p.round, "board": p.board, "players": list(p.players), "table": p.table_id,
                      "kind": p.kind, "points": None if p.points is None else list(p.points),
                      "games": None if p.games is None else list(p.games),
                      "tiles": None if p.tiles is None else list(p.tiles)} for p in t.pairings],
        "standings": [asdict(s) for s in table],
        "crosstable": [asdict(row) for row in crosstable(people, done, t.rounds)],
    }


def card_json(t: TournamentRecord, now: float) -> dict[str, Any]:
    """A tournament in a list."""
    next_at = t.next_at if t.state in ("upcoming", "running") else None
    return {"id": t.id, "game": t.game, "name": t.name, "state": t.state, "round": t.round, "rounds": t.rounds,
            "pace": t.pace, "rated": t.rated, "players": sum(1 for e in t.entries if not e.withdrawn),
            "starts_at": iso(t.starts_at), "next_in": None if next_at is None else max(0, round(next_at - now))}
