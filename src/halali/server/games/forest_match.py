"""A forest table's running match: the two games' deals (secret until each game ends), their fair-deal
salts and commitments, every action as recorded, the clock, and the games that ended off the board.

The deals never leave this object except through the adapter's views, and only once a game is over.
An action is read on the public view, so an error can never tell anything about a face-down tile;
only then is the outcome of a reveal looked up in the deal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from halali.games.forest.actions import REVEAL, action_type, reveal, source
from halali.games.forest.match import Match, seat_of
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position
from halali.games.forest.record import commitment, new_salt
from halali.games.forest.rules import Rules
from halali.games.forest.tiles import BLUE, BROWN, HIDDEN
from halali.server.clock import GameClock
from halali.server.errors import ClientError
from halali.server.games.base import Plan, Start
from halali.server.games.forest_check import read_action


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everyone may know of the position to move in, and what may be played there."""

    key: tuple[int, int, int]  # (match number, game index, ply)
    view: Position
    legal: frozenset[int]
    legal_text: list[str]  # sorted, as the notation writes them
    fen: str


def draw_deals(rules: Rules, test_seed: int | None, match_number: int) -> Start:
    """Deals, and for each a fresh random salt and the commitment published at its start."""
    games = 1 if rules.match == "single" else 2
    if test_seed is None:
        rng: random.Random = random.SystemRandom()
    elif match_number == 0:
        rng = random.Random(test_seed)  # the same deals as Match(rules, seed)
    else:
        rng = random.Random(f"{test_seed}:{match_number + 1}")
    deals = [Position.deal(rules, rng).fen() for _ in range(games)]
    salts = [new_salt() for _ in deals]
    return Start(deals, salts, [commitment(d, salt) for d, salt in zip(deals, salts, strict=True)])


def game_result(pos: Position, game_index: int) -> dict[str, Any]:
    """The end of one game as the store keeps it (the same shape the page gets)."""
    w = pos.winner()
    return {
        "score": {"blue": pos.score[BLUE], "brown": pos.score[BROWN]},
        "tiles": {"blue": pos.ntiles[BLUE], "brown": pos.ntiles[BROWN]},
        "winner": None if w is None else ("blue" if w == BLUE else "brown"),
        "winner_seat": None if w is None else seat_of(w, game_index),
    }


def colour_name(seat: int, game_index: int) -> str:
    return "blue" if seat_of(BLUE, game_index) == seat else "brown"


@dataclass
class ForestMatch:
    rules: Rules
    number: int
    game_ids: list[int]
    deals: list[str]
    salts: list[str]
    commitments: list[str]
    clock_spec: dict[str, int] | None = None
    match: Match = field(init=False)
    histories: list[list[str]] = field(default_factory=lambda: [[]])
    ended: dict[int, dict[str, Any]] = field(default_factory=dict)  # games ended off the board: their results
    terminations: dict[int, str] = field(default_factory=dict)
    forced_winner: int | None = None  # the winning seat of a match ended off the board
    forced_over: bool = False
    clock: GameClock | None = None
    _public: PublicView | None = None

    def __post_init__(self) -> None:
        self.match = Match(self.rules, games=[parse_position(self.deals[0], self.rules)])

    def start_clock(self, now: float) -> None:
        if self.clock_spec is not None:
            self.clock = GameClock.start(self.clock_spec, self.match.seat_to_move(), now)

    @property
    def index(self) -> int:
        return self.match.game_index

    @property
    def ply(self) -> int:
        return len(self.histories[-1])

    def public(self) -> PublicView:
        """The public view of the current position with its legal actions, computed once per ply."""
        key = (self.number, self.index, self.ply)
        cached = self._public
        if cached is None or cached.key != key:
            view = self.match.position.view()
            legal = view.legal_actions()
            cached = PublicView(key, view, frozenset(legal), sorted(view.action_str(a) for a in legal), view.fen())
            self._public = cached
        return cached

    def game_over(self, index: int) -> bool:
        return index in self.ended or self.match.games[index].is_over()

    def over(self) -> bool:
        return self.forced_over or self.match.is_over()

    def winner(self) -> int | None:
        return self.forced_winner if self.forced_over else self.match.winner()

    def to_move(self) -> int | None:
        if self.over() or self.game_over(self.index):
            return None
        return self.match.seat_to_move()

    # ---- actions ---------------------------------------------------------------------------------
    def plan(self, seat: int, text: str, now: float) -> Plan:
        if self.over() or self.game_over(self.index) or (self.clock and self.clock.expired(now)):
            raise ClientError("error.game_over")
        if self.match.seat_to_move() != seat:
            raise ClientError("error.not_your_turn")
        a = read_action(self.public().view, text, self.public().legal)
        return self.outcome(seat, a, now)

    def outcome(self, seat: int, a: int, now: float, clock_ms: int | None = None) -> Plan:
        pos = self.match.position
        if action_type(a) == REVEAL:
            sq = source(a)
            a = reveal(sq, pos.board[sq] - HIDDEN)
        record = pos.action_str(a)
        pos.push(a)
        try:
            over = pos.is_over()
            result = game_result(pos, self.index) if over else None
            match_over = over and self.index == self.match.number_of_games - 1
            winner = self.match.winner() if match_over else None
        finally:
            pos.pop()
        if clock_ms is None and self.clock is not None:
            clock_ms = self.clock.after_action(seat, now)
        next_game = self.game_ids[self.index + 1] if over and not match_over else None
        return Plan(seat, self.ply, self.game_ids[self.index], record, result, match_over, winner,
                    clock_ms=clock_ms, next_game_id=next_game, native=a)

    def apply(self, plan: Plan, now: float) -> None:
        self.match.position.push(plan.native)
        self.histories[-1].append(plan.record)
        if not self.match.position.is_over():
            if self.clock is not None and plan.clock_ms is not None:
                self.clock.apply(plan.seat, plan.clock_ms, self.match.seat_to_move(), now)
            return
        if self.match.can_start_next():
            self.match.start_next(parse_position(self.deals[self.index + 1], self.rules))
            self.histories.append([])
            self.start_clock(now)
        elif self.clock is not None and plan.clock_ms is not None:
            self.clock.apply(plan.seat, plan.clock_ms, None, now)

    # ---- ends off the board ----------------------------------------------------------------------
    def end(self, termination: str, losers: frozenset[int]) -> tuple[dict[str, Any], int | None]:
        """The current game's result when it ends now with these seats losing (none: a draw)."""
        result = game_result(self.match.position, self.index)
        winner = None if len(losers) != 1 else 1 - next(iter(losers))
        result.update(winner=None if winner is None else colour_name(winner, self.index), winner_seat=winner,
                      termination=termination)
        return result, winner

    def apply_end(self, termination: str, result: dict[str, Any], winner: int | None, now: float) -> None:
        self.ended[self.index] = result
        self.terminations[self.index] = termination
        self.forced_winner, self.forced_over = winner, True
        if self.clock is not None:
            running = self.clock.running
            self.clock.stop(now)
            if termination == "time" and running is not None:
                self.clock.remaining[running] = 0
