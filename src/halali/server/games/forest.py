"""The forest game at the table service: its options, its two-game match, clocks, hints, and views.

Every position that leaves the server is built here from ``Position.view()``; the deal of a game is
added only once that game is over (every tile is face up by then, so it tells nothing new).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from halali.ai.registry import TABLE as LEVELS
from halali.ai.registry import choose_action
from halali.games.errors import NotationError
from halali.games.forest.match import colour_of
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.games.forest.tiles import BLUE
from halali.server.clock import clock_spec
from halali.server.errors import ClientError
from halali.server.games.base import Ending, Notice, Outcome, Plan, SeatName, Start, TableGame
from halali.server.games.forest_match import ForestMatch, colour_name, draw_deals, game_result
from halali.server.hub import dumps
from halali.server.table import Audience, Table
from halali.store.records import MatchRecord, TableSnapshot

COLOUR = {0: "blue", 1: "brown"}
MAX_STALL_LIMIT = 1000


def rules_from_request(value: Any) -> Rules:
    """Rule options from a client: a dict of option -> string/bool/int; ClientError when anything is off."""
    if value is None:
        return DEFAULT_RULES
    if not isinstance(value, dict) or len(value) > 8:
        raise ClientError("error.bad_request", field="rules")
    options: dict[str, str] = {}
    for key, v in value.items():
        if isinstance(v, bool):
            options[str(key)] = "true" if v else "false"
        elif isinstance(v, int | str) and len(str(v)) <= 32:
            options[str(key)] = str(v)
        else:
            raise ClientError("error.bad_rules", reason=f"bad value for {key}")
    try:
        rules = DEFAULT_RULES.with_options(options)
    except NotationError as exc:
        raise ClientError("error.bad_rules", reason=str(exc)) from exc
    if rules.stall_limit > MAX_STALL_LIMIT:
        raise ClientError("error.bad_rules", reason=f"stall_limit is at most {MAX_STALL_LIMIT}")
    return rules


@lru_cache(maxsize=256)
def _rules(items: tuple[tuple[str, str], ...]) -> Rules:
    return DEFAULT_RULES.with_options(dict(items))


def rules_of(stored: dict[str, Any]) -> Rules:
    return _rules(tuple(sorted((k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in stored.items())))


def rule_strings(rules: Rules) -> dict[str, str]:
    return dict(item.split("=", 1) for item in rules.to_strings())


def _m(table: Table) -> ForestMatch:
    assert isinstance(table.play, ForestMatch)
    return table.play


class ForestTables(TableGame):
    id = "forest"
    levels = LEVELS
    page = "table.html"
    clocks = True
    hints = True

    def options(self, value: Any) -> dict[str, Any]:
        return rules_from_request(value).to_dict()

    def clock(self, mode: Any, value: Any) -> dict[str, int] | None:
        return clock_spec(mode, value)

    def describe(self) -> dict[str, Any]:
        return {"defaults": DEFAULT_RULES.to_dict(),
                "choices": {"green_lock": ["revealed_or_moved", "revealed_only"], "no_return_neutrals": [True, False],
                            "stall_limit": f"integer 0..{MAX_STALL_LIMIT}", "match": ["match", "single"]}}

    # ---- a match ---------------------------------------------------------------------------------
    def draw(self, table: Table) -> Start:
        return draw_deals(rules_of(table.options), table.seed(), table.match_number)

    def begin(self, table: Table, start: Start, game_ids: list[int], now: float) -> None:
        table.play = ForestMatch(rules_of(table.options), table.match_number, game_ids, list(start.deals),
                                 list(start.salts), list(start.commitments), table.clock_spec)
        table.play.start_clock(now)

    def restore(self, table: Table, snap: TableSnapshot, now: float) -> None:
        """Replayed action by action; a clock comes back as it stood when the running turn began."""
        m = snap.match
        if m is None or not m.games:
            return
        start = Start([g.deal for g in m.games], [g.salt or "" for g in m.games], [g.commitment or "" for g in m.games])
        self.begin(table, start, [g.id for g in m.games], now)
        play = _m(table)
        for g in m.games:
            if g.number - 1 != play.index:
                break
            for act in g.actions:
                plan = play.outcome(act.seat, play.match.position.parse_action(act.action), now, act.clock_ms)
                play.apply(plan, now)
                table.acted.add(act.seat)
            if g.termination is not None and g.result is not None:
                play.apply_end(g.termination, dict(g.result), g.result.get("winner_seat"), now)

    def to_move(self, table: Table) -> int | None:
        return _m(table).to_move() if table.play is not None else None

    def ply(self, table: Table) -> int:
        return _m(table).ply if table.play is not None else 0

    def game_id(self, table: Table) -> int:
        play = _m(table)
        return play.game_ids[play.index]

    def plan(self, table: Table, seat: int, text: str, ply: Any, now: float) -> Plan:
        if not text or len(text) > 16:
            raise ClientError("error.bad_request", field="action")
        return _m(table).plan(seat, text, now)

    def apply(self, table: Table, plan: Plan, now: float) -> None:
        _m(table).apply(plan, now)

    def end(self, table: Table, termination: str, losers: frozenset[int], now: float) -> Ending:
        play = _m(table)
        result, winner = play.end(termination, losers)
        return Ending(termination, play.game_ids[play.index], result, winner, losers=losers)

    def apply_end(self, table: Table, ending: Ending, now: float) -> None:
        assert ending.game_result is not None
        _m(table).apply_end(ending.termination, ending.game_result, ending.winner, now)

    def timeout(self, table: Table, now: float) -> Ending | None:
        play = table.play
        if not isinstance(play, ForestMatch) or play.clock is None or not play.clock.expired(now):
            return None
        seat = play.to_move()
        return None if seat is None else self.end(table, "time", frozenset({seat}), now)

    def legal(self, table: Table) -> list[str]:
        return list(_m(table).public().legal_text) if table.play is not None else []

    async def bot_answer(self, run: Callable[..., Any], table: Table, seat: int, level: int, movetime: float,
                         seed: int, now: float) -> str:
        play = _m(table)
        clock = None
        if play.clock is not None:  # a live clock: the computer spreads its time, never flags
            clock = (play.clock.left(seat, now) / 1000, play.clock.increment_ms / 1000)
        text: str = await run(choose_action, level, play.match.position.view().fen(), rule_strings(play.rules),
                              movetime, seed, clock)
        return text

    def hints_for(self, table: Table, seat: int | None) -> bool:
        """Only a person playing the computer in a match that is not rated, outside a tournament: against
        a person a hint would be the engine playing for one side, a rating must measure the player
        alone, and a tournament is a competition, rated or not."""
        if seat is None or table.seats[seat].bot is not None or table.tournament is not None:
            return False
        return not table.match_rated and all(s.bot is not None for i, s in enumerate(table.seats) if i != seat)

    def analysis_view(self, table: Table) -> tuple[Any, tuple[int, int, int]]:
        public = _m(table).public()
        return public.view, public.key

    # ---- what is shown ---------------------------------------------------------------------------
    def summary(self, table: Table) -> dict[str, Any]:
        rules = rules_of(table.options)
        return {"rules": rules.to_dict(), "game_number": _m(table).index + 1 if table.play is not None else 0,
                "number_of_games": 1 if rules.match == "single" else 2, "clock": table.clock_spec}

    def view(self, table: Table, seat: Audience, now: float) -> dict[str, Any]:
        play = table.play
        if not isinstance(play, ForestMatch):
            return {"games": [], "match": match_json(None)}
        games = [game_json(play, i, now) for i in range(len(play.match.games))]
        if seat is not None and seat == play.to_move():
            games[-1]["legal"] = list(play.public().legal_text)
        return {"games": games, "match": match_json(play)}

    def action_message(self, table: Table, plan: Plan | None, seat: Audience, now: float) -> dict[str, Any] | None:
        play = _m(table)
        index = play.index if plan is None or plan.next_game_id is None else play.index - 1
        game = game_json(play, index, now)
        if seat is not None and index == play.index and seat == play.to_move():
            game["legal"] = list(play.public().legal_text)
        return {"type": "game", "table": table.id, "game": game, "match": match_json(play)}

    def action_texts(self, table: Table, plan: Plan | None, now: float) -> tuple[str, dict[int, str]] | None:
        """One text for everyone, and the same with the legal actions spliced in for the seat to move
        (its one ``"legal":[]``): one JSON encoding per action, however many watch."""
        shared = self.action_message(table, plan, None, now)
        assert shared is not None
        text = dumps(shared)
        play = _m(table)
        mover = play.to_move()
        if mover is None or shared["game"]["number"] != play.index + 1:
            return text, {}
        return text, {mover: text.replace('"legal":[]', '"legal":' + json.dumps(play.public().legal_text), 1)}

    def started(self, table: Table, name: SeatName) -> list[Notice]:
        return [("chat.started", {"match": table.match_number, "rated": table.match_rated}),
                self._game_started(table, name)]

    def _game_started(self, table: Table, name: SeatName) -> Notice:
        i = _m(table).index
        blue = 0 if colour_of(0, i) == BLUE else 1
        return "chat.game_started", {"game": i + 1, "blue": name(blue), "brown": name(1 - blue)}

    def after_action(self, table: Table, plan: Plan, name: SeatName) -> list[Notice]:
        if plan.game_result is None:
            return []
        index = _m(table).index if plan.next_game_id is None else _m(table).index - 1
        winner = plan.game_result.get("winner_seat")
        score = plan.game_result.get("score", {})
        out: list[Notice] = [("chat.game_over", {"game": index + 1, "winner": None if winner is None else name(winner),
                                                 "blue": score.get("blue"), "brown": score.get("brown")})]
        if plan.next_game_id is not None:
            out.append(self._game_started(table, name))
        return out

    def over_notice(self, table: Table, winner: int | None, ranks: tuple[float, ...] | None,
                    name: SeatName) -> Notice:
        return "chat.match_over", {"winner": None if winner is None else name(winner),
                                   "totals": match_json(_m(table))["totals"]}

    def outcome(self, match: MatchRecord, seats: int) -> Outcome:
        """The match's winner (on its points over both games, or off the board) scores 1, a drawn match
        ½ each; a game won counts 1 in ``games``, a drawn game ½; ``tiles`` are the points scored.

        A match that ended off the board (resigned, lost on time, a round's deadline) keeps the points
        scored until then, and each game it did not play goes to the match's winner (½ each when it
        was drawn), as the local events do with a match lost by rule (docs/tournaments.md)."""
        w = match.winner_seat
        games, tiles = [0.0, 0.0], [0, 0]
        for index, g in enumerate(match.games):
            won = g.result.get("winner_seat") if g.result else w  # not played: the match's winner
            for seat in (0, 1):
                games[seat] += 0.5 if won is None else float(won == seat)
                if g.result:
                    tiles[seat] += int(g.result.get("score", {}).get(colour_name(seat, index), 0))
        return Outcome((0.5, 0.5) if w is None else (float(w == 0), float(w == 1)), tuple(games), tuple(tiles))


def game_json(play: ForestMatch, index: int, now: float = 0.0) -> dict[str, Any]:
    """One game of the current match, the same for every connection (legal actions are added per seat).

    The deal and its salt are added only once the game is over; the commitment from its start on.
    """
    pos = play.match.games[index]
    over = play.game_over(index)
    if index == play.index and not over:
        public = play.public()
        view, fen = public.view, public.fen
    else:
        view = pos.view()
        fen = view.fen()
    fields = fen.split(" ")
    history = play.histories[index] if index < len(play.histories) else []
    ply = len(history)
    return {
        "number": index + 1,
        "colours": [COLOUR[colour_of(0, index)], COLOUR[colour_of(1, index)]],
        "position": fen,
        "to_move": None if over else COLOUR[view.turn],
        "seat_to_move": None if over else (0 if colour_of(0, index) == view.turn else 1),
        "ply": ply,
        "last_action": history[-1] if history else None,
        "last_by": ("blue" if (ply - 1) % 2 == 0 else "brown") if history else None,
        "history": list(history),
        "legal": [],
        "score": {"blue": pos.score[0], "brown": pos.score[1]},
        "piles": {"blue": fields[7], "brown": fields[8]},
        "final_turns_left": None if pos.final < 0 else pos.final,
        "over": over,
        "result": (play.ended.get(index) or game_result(pos, index)) if over else None,
        "deal": play.deals[index] if over else None,
        "id": play.game_ids[index] if index < len(play.game_ids) else None,
        "commitment": (play.commitments[index] or None) if index < len(play.commitments) else None,
        "salt": (play.salts[index] or None) if over and index < len(play.salts) else None,
        "termination": play.terminations.get(index),
        "clock": play.clock.json(now) if play.clock is not None and index == play.index else None,
    }


def match_json(play: ForestMatch | None) -> dict[str, Any]:
    if play is None:
        return {"totals": [0, 0], "tiles": [0, 0], "over": False, "winner": None}
    points, tiles = play.match.totals()
    over = play.over()
    return {"totals": points, "tiles": tiles, "over": over, "winner": play.winner() if over else None}
