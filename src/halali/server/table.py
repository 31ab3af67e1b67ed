"""One table in memory: seats, the running match, chat, and the checks every request goes through.

Nothing here does I/O. A request is first *planned* (checked, nothing changed), the plan is committed
to the store by the caller, and only then *applied* here, so memory never runs ahead of the store.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from halali.games.errors import IllegalAction, NotationError
from halali.games.forest.actions import CAPTURE, MOVE, REVEAL, TYPE_SHIFT, action_type, reveal, source
from halali.games.forest.match import Match, seat_of
from halali.games.forest.notation import parse_action, parse_action_text, parse_position
from halali.games.forest.position import Position
from halali.games.forest.record import commitment, new_salt
from halali.games.forest.rules import Rules
from halali.games.forest.tiles import BLUE, BROWN, HIDDEN
from halali.server.clock import GameClock
from halali.server.errors import ClientError
from halali.store.records import TableSnapshot

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
CHAT_LINES = 100
MOVE_TO_CAPTURE = (CAPTURE ^ MOVE) << TYPE_SHIFT  # xor turns a move's type into a capture's


@dataclass
class Seat:
    player_id: str | None = None
    bot: int | None = None

    @property
    def free(self) -> bool:
        return self.player_id is None and self.bot is None


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everyone may know of the position to move in, and what may be played there."""

    key: tuple[int, int, int]  # (match number, game index, ply)
    view: Position
    legal: frozenset[int]
    legal_text: list[str]  # sorted, as the notation writes them
    fen: str


@dataclass(frozen=True)
class ActionPlan:
    """A checked action and everything the store must write with it."""

    seat: int
    action: int
    record: str  # the action as recorded: a reveal carries its outcome (`?c3=N`)
    ply: int
    game_id: int
    game_result: dict[str, Any] | None
    match_over: bool
    match_winner: int | None
    clock_ms: int | None = None  # the mover's time left after the action (live tables with a clock)
    now: float = 0.0


@dataclass(frozen=True)
class TimeoutPlan:
    """The running clock reached zero: the game is lost on time, and with it the match."""

    seat: int  # whose time ran out
    game_id: int
    game_result: dict[str, Any]
    match_winner: int


@dataclass(frozen=True)
class Deals:
    """A match's deals with their fair-deal salts and commitments (the salts are as secret as the deals)."""

    deals: list[str]
    salts: list[str]
    commitments: list[str]


class SeatRules:
    """Who may sit down, stand up, or seat and unseat a computer player, and when: the same at a
    forest table and a hare table (``seats`` and ``state`` are the table's)."""

    seats: list[Seat]
    state: str

    def seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id == player_id:
                return i
        return None

    def free_seat(self) -> int:
        for i, s in enumerate(self.seats):
            if s.free:
                return i
        raise ClientError("error.table_full")

    def check_seat_change(self) -> None:
        if self.state == PLAYING:
            raise ClientError("error.game_running")

    def plan_join(self, player_id: str) -> int:
        seat = self.seat_of(player_id)
        if seat is not None:
            raise ClientError("error.already_seated", seat=seat)
        self.check_seat_change()
        return self.free_seat()

    def plan_unseat(self, player_id: str) -> int:
        seat = self.seat_of(player_id)
        if seat is None:
            raise ClientError("error.not_seated")
        self.check_seat_change()
        return seat

    def plan_bot(self) -> int:
        self.check_seat_change()
        return self.free_seat()

    def plan_unbot(self, seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise ClientError("error.bad_request", field="seat")
        if self.seats[seat].bot is None:
            raise ClientError("error.not_a_bot", seat=seat)
        self.check_seat_change()
        return seat

    def state_after_seat_change(self) -> str:
        """Changing seats after a finished match opens the table for a new one."""
        return WAITING if self.state == FINISHED else self.state


@dataclass
class Table(SeatRules):
    id: str
    rules: Rules
    created_at: datetime
    state: str = WAITING
    test_seed: int | None = None
    seats: list[Seat] = field(default_factory=lambda: [Seat(), Seat()])
    match: Match | None = None
    match_id: int | None = None
    match_number: int = 0
    game_ids: list[int] = field(default_factory=list)
    deals: list[str] = field(default_factory=list)  # full starting positions: secret until each game ends
    histories: list[list[str]] = field(default_factory=list)
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_LINES))
    rematch: set[int] = field(default_factory=set)
    updated_at: float = 0.0  # loop time of the last change, for eviction
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    rated: bool = True  # the table's default; each match records its own
    mode: str = "live"
    clock_spec: dict[str, int] | None = None  # {"initial": s, "increment": s}; live tables only
    match_rated: bool = False
    salts: list[str] = field(default_factory=list)  # secret until each game ends
    commitments: list[str] = field(default_factory=list)
    time_results: dict[int, dict[str, Any]] = field(default_factory=dict)  # games lost on time
    forced_winner: int | None = None  # the winning seat of a match ended by a clock
    clock: GameClock | None = None
    turn_since: datetime = field(default_factory=lambda: datetime.now(UTC))  # when the last action was made
    _public: PublicView | None = None

    # ---- matches ---------------------------------------------------------------------------------
    def plan_start(self, player_id: str) -> Deals:
        """Check that a match may start now and draw its deals (full positions, kept server-side)."""
        people = [s.player_id for s in self.seats if s.player_id is not None]
        if people and player_id not in people:
            raise ClientError("error.not_seated")  # anyone may start a game between two computer players
        if self.state != WAITING:
            raise ClientError("error.cannot_start", reason="state")
        if any(s.free for s in self.seats):
            raise ClientError("error.cannot_start", reason="seats")
        return self.draw_deals()

    def plan_rematch(self, player_id: str) -> bool:
        """Record a rematch wish; True when every seated person has asked (computer players always agree)."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise ClientError("error.not_seated")
        if self.state != FINISHED or any(s.free for s in self.seats):
            raise ClientError("error.no_rematch")
        wanted = {i for i, s in enumerate(self.seats) if s.bot is None}
        return wanted <= self.rematch | {seat}

    def draw_deals(self) -> Deals:
        """Deals, and for each a fresh random salt and the commitment published at its start."""
        games = 1 if self.rules.match == "single" else 2
        if self.test_seed is None:
            rng: random.Random = random.SystemRandom()
        elif self.match_number == 0:
            rng = random.Random(self.test_seed)  # the same deals as Match(rules, seed)
        else:
            rng = random.Random(f"{self.test_seed}:{self.match_number + 1}")
        deals = [Position.deal(self.rules, rng).fen() for _ in range(games)]
        salts = [new_salt() for _ in deals]
        return Deals(deals, salts, [commitment(d, salt) for d, salt in zip(deals, salts, strict=True)])

    def begin_match(self, match_id: int, number: int, game_ids: list[int], deals: Deals, rated: bool = False,
                    now: float = 0.0) -> None:
        self.match_id, self.match_number = match_id, number
        self.game_ids, self.deals = list(game_ids), list(deals.deals)
        self.salts, self.commitments = list(deals.salts), list(deals.commitments)
        self.match = Match(self.rules, games=[parse_position(deals.deals[0], self.rules)])
        self.histories = [[]]
        self.rematch = set()
        self.state = PLAYING
        self.match_rated = rated
        self.time_results, self.forced_winner = {}, None
        self.turn_since = datetime.now(UTC)
        self._start_clock(now)

    def _start_clock(self, now: float) -> None:
        if self.clock_spec is None or self.match is None:
            self.clock = None
            return
        self.clock = GameClock.start(self.clock_spec, self.match.seat_to_move(), now)

    def public(self) -> PublicView:
        """The public view of the current position with its legal actions, computed once per ply."""
        assert self.match is not None
        key = (self.match_number, self.game_index, self.ply)
        cached = self._public
        if cached is None or cached.key != key:
            view = self.match.position.view()
            legal = view.legal_actions()
            cached = PublicView(key, view, frozenset(legal), sorted(view.action_str(a) for a in legal), view.fen())
            self._public = cached
        return cached

    @property
    def position(self) -> Position | None:
        return self.match.position if self.match else None

    @property
    def ply(self) -> int:
        return len(self.histories[-1]) if self.histories else 0

    @property
    def game_index(self) -> int:
        return self.match.game_index if self.match else 0

    def seat_to_move(self) -> int | None:
        if self.state != PLAYING or self.match is None or self.game_over(self.game_index):
            return None
        return self.match.seat_to_move()

    def game_over(self, index: int) -> bool:
        """Over by the rules, or lost on time."""
        assert self.match is not None
        return index in self.time_results or self.match.games[index].is_over()

    def match_over(self) -> bool:
        return self.match is not None and (self.forced_winner is not None or self.match.is_over())

    def match_winner(self) -> int | None:
        if self.forced_winner is not None:
            return self.forced_winner
        return self.match.winner() if self.match is not None else None

    @property
    def number_of_games(self) -> int:
        return 1 if self.rules.match == "single" else 2

    # ---- actions ---------------------------------------------------------------------------------
    def hints_for(self, seat: int | None) -> bool:
        """Whether this seat may ask the engine for a hint: only a person playing the computer in a
        match that is not rated. Against a person a hint would be the engine playing for one side, and
        a rating must measure the player alone."""
        if seat is None or self.seats[seat].bot is not None:
            return False
        return not self.match_rated and all(s.bot is not None for i, s in enumerate(self.seats) if i != seat)

    def plan_hint(self, player_id: str) -> int:
        """The seat asking for a hint; ClientError when it may not have one now."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise ClientError("error.not_seated")
        if self.state != PLAYING or self.match is None:
            raise ClientError("error.not_started")
        if not self.hints_for(seat):
            raise ClientError("error.no_hints")
        mover = self.seat_to_move()
        if mover is None:
            raise ClientError("error.game_over")
        if mover != seat:
            raise ClientError("error.not_your_turn")
        return seat

    def plan_action(self, seat: int | None, text: Any, ply: Any = None, now: float = 0.0) -> ActionPlan:
        """Check an action for a seat; raises ClientError and changes nothing when it is refused.

        The action is read on the public view, so an error can never tell anything about a face-down tile;
        only then is the outcome of a reveal looked up in the deal.
        """
        if not isinstance(text, str) or not text or len(text) > 16:
            raise ClientError("error.bad_request", field="action")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise ClientError("error.bad_request", field="ply")
        if seat is None:
            raise ClientError("error.not_seated")
        if self.match is None or self.state == WAITING:
            raise ClientError("error.not_started")
        if self.state == FINISHED or self.game_over(self.game_index) or (self.clock and self.clock.expired(now)):
            raise ClientError("error.game_over")
        if self.match.seat_to_move() != seat:
            raise ClientError("error.not_your_turn")
        if ply is not None and ply != self.ply:
            raise ClientError("error.stale", ply=self.ply)
        if "=" in text:
            raise ClientError("error.bad_action", reason="send a reveal without its outcome, e.g. ?c3")
        public = self.public()
        try:
            a = parse_action_text(text)
            if action_type(a) == MOVE and (a ^ MOVE_TO_CAPTURE) in public.legal:
                a ^= MOVE_TO_CAPTURE  # `c3-c6` onto a tile is the capture `c3xc6`
            if a not in public.legal:  # a reveal is legal without its outcome: that comes from the deal
                a = parse_action(public.view, a)  # raises, naming the rule (from public facts only)
        except IllegalAction as exc:
            raise ClientError("error.illegal", reason=str(exc), rule=exc.key, rule_params=exc.params) from exc
        except NotationError as exc:
            raise ClientError("error.bad_action", reason=str(exc)) from exc
        return self._outcome(seat, a, now)

    def _outcome(self, seat: int, a: int, now: float = 0.0, clock_ms: int | None = None) -> ActionPlan:
        assert self.match is not None
        pos = self.match.position
        if action_type(a) == REVEAL:
            sq = source(a)
            a = reveal(sq, pos.board[sq] - HIDDEN)
        record = pos.action_str(a)
        pos.push(a)
        try:
            over = pos.is_over()
            result = game_result(pos, self.game_index) if over else None
            last_game = self.game_index == self.match.number_of_games - 1
            match_over = over and last_game
            winner = None
            if match_over:
                winner = self.match.winner()
        finally:
            pos.pop()
        if clock_ms is None and self.clock is not None:
            clock_ms = self.clock.after_action(seat, now)
        return ActionPlan(seat, a, record, self.ply, self.game_ids[self.game_index], result, match_over, winner,
                          clock_ms, now)

    def apply_action(self, plan: ActionPlan) -> bool:
        """Play a committed plan; True when it ended a game (the next game, if any, has begun)."""
        assert self.match is not None
        self.match.position.push(plan.action)
        self.histories[-1].append(plan.record)
        self.turn_since = datetime.now(UTC)
        if not self.match.position.is_over():
            if self.clock is not None and plan.clock_ms is not None:
                self.clock.apply(plan.seat, plan.clock_ms, self.match.seat_to_move(), plan.now)
            return False
        if self.match.can_start_next():
            i = self.game_index + 1
            self.match.start_next(parse_position(self.deals[i], self.rules))
            self.histories.append([])
            self._start_clock(plan.now)
        else:
            if self.clock is not None and plan.clock_ms is not None:
                self.clock.apply(plan.seat, plan.clock_ms, None, plan.now)
            if plan.match_over:
                self.state = FINISHED
        return True

    def next_game_id(self, plan: ActionPlan) -> int | None:
        """The game an action starts by ending the one before it (for its start time in the store)."""
        if plan.game_result is None or plan.match_over:
            return None
        return self.game_ids[self.game_index + 1]

    # ---- clocks ----------------------------------------------------------------------------------
    def plan_timeout(self, now: float) -> TimeoutPlan | None:
        """The timeout to commit when the running clock has reached zero at ``now``; else None."""
        seat = self.seat_to_move()
        if seat is None or self.clock is None or not self.clock.expired(now):
            return None
        assert self.match is not None
        result = game_result(self.match.position, self.game_index)
        winner = 1 - seat
        colour = "blue" if colour_of_seat(winner, self.game_index) == BLUE else "brown"
        result.update(winner=colour, winner_seat=winner, termination="time")
        return TimeoutPlan(seat, self.game_ids[self.game_index], result, winner)

    def apply_timeout(self, plan: TimeoutPlan, now: float) -> None:
        self.time_results[self.game_index] = plan.game_result
        self.forced_winner = plan.match_winner
        self.state = FINISHED
        if self.clock is not None:
            self.clock.stop(now)
            self.clock.remaining[plan.seat] = 0

    # ---- rebuilding ------------------------------------------------------------------------------
    @classmethod
    def from_snapshot(cls, snap: TableSnapshot, rules: Rules, now: float = 0.0) -> Table:
        """The table as it was: seats from the store, the newest match replayed action by action.

        Clocks come back as they stood when the running turn began (the time since is not charged).
        """
        rec = snap.table
        table = cls(rec.id, rules, rec.created_at, rec.state, rec.test_seed, rated=rec.rated, mode=rec.mode,
                    clock_spec=rec.clock)
        for s in snap.seats:
            if 0 <= s.seat < len(table.seats):
                table.seats[s.seat] = Seat(s.player_id, s.bot_level)
        m = snap.match
        if m is not None and m.games:
            deals = Deals([g.deal for g in m.games], [g.salt or "" for g in m.games],
                          [g.commitment or "" for g in m.games])
            table.begin_match(m.id, m.number, [g.id for g in m.games], deals, m.rated, now)
            table.state = rec.state
            for g in m.games:
                if g.number - 1 != table.game_index:
                    break
                for act in g.actions:
                    plan = table._outcome(act.seat, _replay_action(table, act.action), now, act.clock_ms)
                    table.apply_action(plan)
                    table.turn_since = act.time or table.turn_since
                if g.termination == "time" and g.result is not None:
                    table.time_results[table.game_index] = dict(g.result)
                    table.forced_winner = g.result.get("winner_seat")
                    if table.clock is not None:
                        table.clock.stop(now)
                        table.clock.remaining[table.match.seat_to_move()] = 0
        if table.match_over():
            table.state = rec.state if rec.state != PLAYING else FINISHED
        return table


def _replay_action(table: Table, text: str) -> int:
    assert table.match is not None
    return table.match.position.parse_action(text)


def colour_of_seat(seat: int, game_index: int) -> int:
    return BLUE if seat_of(BLUE, game_index) == seat else BROWN


def game_result(pos: Position, game_index: int) -> dict[str, Any]:
    """The end of one game as the store keeps it (the same shape the page gets)."""
    w = pos.winner()
    return {
        "score": {"blue": pos.score[BLUE], "brown": pos.score[BROWN]},
        "tiles": {"blue": pos.ntiles[BLUE], "brown": pos.ntiles[BROWN]},
        "winner": None if w is None else ("blue" if w == BLUE else "brown"),
        "winner_seat": None if w is None else seat_of(w, game_index),
    }
