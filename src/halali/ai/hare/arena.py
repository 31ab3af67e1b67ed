"""Many hare hunts between bots: each bot's share of wins and mean placing.

Seats rotate from game to game (game g seats ``bots[(g + i) % len(bots)]`` in seat i), so with as
many games as a multiple of ``len(bots)`` every bot sits in every seat equally often; a bot listed
fewer times than there are seats plays several seats of the same game. A win shared by k players
counts 1/k, so the win rates of one game add up to one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from halali.ai.hare.base import HareBot
from halali.ai.hare.registry import make_bot
from halali.games.hare.rules import DEFAULT_RULES
from halali.games.hare.state import HareState

BotSpec = str | int | Callable[[int | None], HareBot]


@dataclass
class Row:
    bot: str
    seats: int = 0
    wins: float = 0.0
    placing_sum: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def mean_placing(self) -> float:
        return self.placing_sum / self.seats if self.seats else 0.0


@dataclass
class Table:
    """The arena's result: one row per bot (by name), and what was played."""

    players: int
    games: int
    rows: list[Row] = field(default_factory=list)
    turns: int = 0
    seconds: float = 0.0

    def row(self, bot: str) -> Row:
        return next(r for r in self.rows if r.bot == bot)

    def format(self) -> str:
        fair = 1 / self.players
        lines = [f"{self.games} hunts of {self.players} players, {self.turns / max(1, self.games):.1f} turns each "
                 f"({self.seconds:.1f} s); an even share of wins is {fair:.1%}",
                 f"{'bot':<12}{'seats':>7}{'wins':>8}{'win rate':>10}{'mean place':>12}"]
        for r in sorted(self.rows, key=lambda r: (-r.win_rate, r.mean_placing)):
            lines.append(f"{r.bot:<12}{r.seats:>7}{r.wins:>8.1f}{r.win_rate:>10.1%}{r.mean_placing:>12.2f}")
        return "\n".join(lines)


def _name(spec: BotSpec) -> str:
    if isinstance(spec, str | int):
        return make_bot(spec).name
    return getattr(spec, "name", getattr(spec, "__name__", "bot"))


def _make(spec: BotSpec, seed: int) -> HareBot:
    return make_bot(spec, seed) if isinstance(spec, str | int) else spec(seed)


def play_game(bots: Sequence[HareBot], state: HareState, max_actions: int = 200_000) -> HareState:
    """Play a hunt to its end, each seat's bot seeing only that seat's view."""
    for _ in range(max_actions):
        if state.is_over():
            return state
        p = state.to_move
        state.play(bots[p].choose(state.view(p)))
    raise RuntimeError("a hunt did not end")


def run(bots: Sequence[BotSpec], games: int, players: int, seed: int = 0,
        options: dict[str, str] | None = None,
        progress: Callable[[int, HareState, list[str]], None] | None = None) -> Table:
    """Play ``games`` hunts of ``players`` seats between ``bots`` (names, levels or factories)."""
    if not bots:
        raise ValueError("the arena needs at least one bot")
    if not 2 <= players <= 6:
        raise ValueError(f"the hare hunt is for 2 to 6 players, not {players}")
    rules = DEFAULT_RULES.with_options(options or {})
    names = [_name(b) for b in bots]
    table = Table(players, games, [Row(n) for n in dict.fromkeys(names)])
    started = time.perf_counter()
    for g in range(games):
        idx = [(g + i) % len(bots) for i in range(players)]
        rng = random.Random(seed * 1_000_003 + g)
        state = HareState.new(players, rules, rng)
        seats = [_make(bots[k], rng.getrandbits(32)) for k in idx]
        play_game(seats, state)
        winners = state.winners()
        places = state.placings()
        for p, k in enumerate(idx):
            row = table.row(names[k])
            row.seats += 1
            row.placing_sum += places[p]
            if p in winners:
                row.wins += 1 / len(winners)
        table.turns += state.turn
        if progress is not None:
            progress(g, state, [names[k] for k in idx])
    table.seconds = time.perf_counter() - started
    return table
