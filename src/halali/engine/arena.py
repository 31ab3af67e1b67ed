"""The arena: two engines play two-game matches, and the result comes with its uncertainty.

Both games of a match use the same deal with the roles swapped, so the luck of the deal cancels
out: what is left is play. Every engine is spoken to through the engine protocol, the project's
own levels through the in-process adapter, others as programs (``cmd:COMMAND``). An illegal action,
an answer later than the movetime plus 100 ms, or an engine that dies mid-game, loses the game and
so the match; the points scored until then are kept, and a dead engine is started again for its
next match, so one crash costs one match, never the whole run.

A match is the unit of work, so ``--jobs`` runs matches in a process pool (``MatchPool``); each
worker keeps its engines for all the matches it plays, whoever they are paired with, which is what
lets ``halali tournament`` play round after round of different pairs on the same pool. A run at a
real time control takes hours, so each finished match can be appended to a results file (JSON
lines); a run started again on the same file plays only the matches it does not hold yet, and
refuses a file written with other settings.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import multiprocessing.util
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from halali.engine.client import LATE_GRACE, EngineClient, EngineError, open_engine
from halali.engine.lifeline import exit_with_parent
from halali.games.errors import HalaliError
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.games.forest.tiles import BLUE, BROWN

SIDES = ("A", "B")


@dataclass
class MatchResult:
    """One match from A's side."""

    index: int
    score: float  # 1 win, 0.5 draw, 0 loss for A
    points: tuple[int, int]  # A, B over both games
    tiles: tuple[int, int]
    forfeit: str | None = None  # what lost the match by rule, if anything
    forfeit_side: str | None = None
    forfeit_kind: str | None = None  # "illegal", "late" or "crash" (the engine died or broke the protocol)
    actions: int = 0
    slowest: tuple[float, float] = (0.0, 0.0)
    answers: tuple[int, int] = (0, 0)
    late: tuple[int, int] = (0, 0)  # answers later than movetime + 100 ms (a forfeit unless grace allows)
    games: list[list[str]] = field(default_factory=list)
    won: tuple[float, float] = (0.0, 0.0)  # games won by A and B (a drawn game half each; a forfeit
    # gives the other side the game it happened in and the ones after it)


@dataclass
class Settings:
    spec_a: str
    spec_b: str
    rules: Rules = DEFAULT_RULES
    movetime: float | None = 1.0
    nodes: int | None = None
    seed: int = 1
    grace: float = LATE_GRACE  # an answer later than movetime + grace loses


_ENGINES: dict[str, EngineClient] = {}


def _engine(side: str, spec: str, rules: Rules) -> EngineClient:
    """The engine playing ``side``, started on first use and kept for the next matches."""
    key = f"{side}:{spec}"
    client = _ENGINES.get(key)
    if client is None:
        client = open_engine(spec, rules)
        _ENGINES[key] = client
    client.set_rules(rules)
    return client


def _worker_init(parent: int) -> None:
    exit_with_parent(parent)  # a killed arena leaves no worker playing on
    multiprocessing.util.Finalize(None, close_engines, exitpriority=10)


def close_engines() -> None:
    while _ENGINES:
        _, client = _ENGINES.popitem()
        with contextlib.suppress(EngineError, OSError):
            client.close()


def play_match(settings: Settings, index: int) -> MatchResult:
    """Match ``index``: A is blue in game 1 and brown in game 2, both on deal ``seed + index``."""
    clients = (_engine("A", settings.spec_a, settings.rules), _engine("B", settings.spec_b, settings.rules))
    points = [0, 0]
    tiles = [0, 0]
    slowest = [0.0, 0.0]
    answers = [0, 0]
    late = [0, 0]
    won = [0.0, 0.0]
    actions = 0
    records: list[list[str]] = []
    for game in (0, 1):
        pos = Position.deal(settings.rules, seed=settings.seed + index)
        colour_a = BLUE if game == 0 else BROWN
        record: list[str] = []
        records.append(record)
        while not pos.is_over():
            side = 0 if pos.turn == colour_a else 1
            name = SIDES[side]
            try:
                answer = clients[side].go(pos.view().fen(), settings.movetime, settings.nodes,
                                          hard_timeout=(settings.movetime or 10.0) + settings.grace + 2.0)
            except EngineError as exc:  # it died: it loses, and starts afresh for its next match
                _drop_engine(SIDES[side], (settings.spec_a, settings.spec_b)[side])
                kept = _kept(points, tiles, pos, colour_a)
                return _forfeit(index, name, "crash", f"{name} failed in game {game + 1}: {exc}", actions,
                                slowest, records, answers, late, _forfeit_won(won, side, game), *kept)
            slowest[side] = max(slowest[side], answer.seconds)
            actions += 1
            answers[side] += 1
            late[side] += answer.late(settings.movetime)
            if answer.late(settings.movetime, settings.grace):
                took = "no answer" if answer.bestmove is None else f"{answer.seconds * 1000:.0f} ms"
                return _forfeit(index, name, "late", f"{name} answered late in game {game + 1} ({took})",
                                actions, slowest, records, answers, late, _forfeit_won(won, side, game),
                                *_kept(points, tiles, pos, colour_a))
            text = answer.bestmove or ""
            try:
                if "=" in text:
                    raise HalaliError("a reveal must be written without its outcome")
                a = pos.play(text)
            except HalaliError as exc:
                return _forfeit(index, name, "illegal", f"{name} played {text!r} in game {game + 1}: {exc}",
                                actions, slowest, records, answers, late, _forfeit_won(won, side, game),
                                *_kept(points, tiles, pos, colour_a))
            record.append(pos.action_str(a))
        points[0] += pos.score[colour_a]
        points[1] += pos.score[colour_a ^ 1]
        tiles[0] += pos.ntiles[colour_a]
        tiles[1] += pos.ntiles[colour_a ^ 1]
        game_won = _decide(pos.score[colour_a], pos.score[colour_a ^ 1], pos.ntiles[colour_a], pos.ntiles[colour_a ^ 1])
        won[0] += game_won
        won[1] += 1.0 - game_won
    if points[0] != points[1]:
        score = 1.0 if points[0] > points[1] else 0.0
    elif tiles[0] != tiles[1]:
        score = 1.0 if tiles[0] > tiles[1] else 0.0
    else:
        score = 0.5
    return MatchResult(index, score, (points[0], points[1]), (tiles[0], tiles[1]), actions=actions,
                       slowest=(slowest[0], slowest[1]), games=records, answers=(answers[0], answers[1]),
                       late=(late[0], late[1]), won=(won[0], won[1]))


def _decide(points_a: int, points_b: int, tiles_a: int, tiles_b: int) -> float:
    """A's score in one game by the match rules: more points, then more tiles collected."""
    if points_a != points_b:
        return 1.0 if points_a > points_b else 0.0
    if tiles_a != tiles_b:
        return 1.0 if tiles_a > tiles_b else 0.0
    return 0.5


def _forfeit_won(won: list[float], side: int, game: int) -> tuple[float, float]:
    """Games won after ``side`` lost the match by rule in ``game``: the other side has that game and
    the ones after it."""
    out = [won[0], won[1]]
    out[1 - side] += 2 - game
    return out[0], out[1]


def _kept(points: list[int], tiles: list[int], pos: Position, colour_a: int) -> tuple[tuple[int, int],
                                                                                      tuple[int, int]]:
    """The points and tiles A and B scored before a match was lost by rule: the games before and the
    one it happened in, as far as it went (docs/tournaments.md: what was scored is kept)."""
    return ((points[0] + pos.score[colour_a], points[1] + pos.score[colour_a ^ 1]),
            (tiles[0] + pos.ntiles[colour_a], tiles[1] + pos.ntiles[colour_a ^ 1]))


def _drop_engine(side: str, spec: str) -> None:
    """Forget an engine that failed, so that its next match starts it again."""
    client = _ENGINES.pop(f"{side}:{spec}", None)
    if client is not None:
        with contextlib.suppress(EngineError, OSError):
            client.close()


def _forfeit(index: int, side: str, kind: str, text: str, actions: int, slowest: list[float],
             records: list[list[str]], answers: list[int], late: list[int],
             won: tuple[float, float] = (0.0, 0.0), points: tuple[int, int] = (0, 0),
             tiles: tuple[int, int] = (0, 0)) -> MatchResult:
    return MatchResult(index, 0.0 if side == "A" else 1.0, points, tiles, forfeit=text, forfeit_side=side,
                       forfeit_kind=kind, actions=actions, slowest=(slowest[0], slowest[1]), games=records,
                       answers=(answers[0], answers[1]), late=(late[0], late[1]), won=won)


class MatchPool:
    """Where matches are played: in this process with one job, else in a pool of ``jobs`` worker
    processes that live as long as the pool, so engines started for one batch of matches serve the
    next ones too (a tournament's rounds). Use it as a context manager: leaving it closes every
    engine."""

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise ValueError("--jobs must be 1 or more")
        self.jobs = jobs
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> MatchPool:
        if self.jobs > 1:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=ctx, initializer=_worker_init,
                                             initargs=(os.getpid(),))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is None:
            close_engines()
        else:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def play(self, tasks: Sequence[tuple[Settings, int]]) -> Iterator[tuple[int, MatchResult]]:
        """Each task's position in ``tasks`` and its result, as the matches finish (in any order with
        several jobs)."""
        if self._pool is None:
            for i, (settings, index) in enumerate(tasks):
                yield i, play_match(settings, index)
            return
        futures = {self._pool.submit(play_match, settings, index): i for i, (settings, index) in enumerate(tasks)}
        for future in as_completed(futures):
            yield futures[future], future.result()


def run_matches(settings: Settings, matches: int, jobs: int = 1,
                skip: frozenset[int] = frozenset()) -> Iterator[MatchResult]:
    """Results as matches finish (in any order with several jobs); matches in ``skip`` are not played."""
    if matches < 1:
        raise ValueError("--matches must be 1 or more")
    todo = [(settings, i) for i in range(matches) if i not in skip]
    with MatchPool(jobs) as pool:
        for _, result in pool.play(todo):
            yield result


# ---- statistics -------------------------------------------------------------------------------
@dataclass
class Summary:
    matches: int
    wins: int
    draws: int
    losses: int
    rate: float
    low: float  # 95% confidence interval of the score rate
    high: float

    @property
    def elo(self) -> float:
        return elo(self.rate)

    @property
    def elo_low(self) -> float:
        return elo(self.low)

    @property
    def elo_high(self) -> float:
        return elo(self.high)


def elo(rate: float) -> float:
    """The Elo difference that predicts this score rate (infinite at 0 and 1)."""
    if rate <= 0.0:
        return -math.inf
    if rate >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / rate - 1.0)


def summarize(scores: list[float]) -> Summary:
    """W-D-L, score rate and its 95% interval.

    The interval is Wilson's score interval, which stays honest where the plain normal
    approximation collapses: 25 wins of 25 say "at least 87%", not "exactly 100%". Draws count
    half, which makes it a little wider than it needs to be, never narrower."""
    n = len(scores)
    if n == 0:
        raise ValueError("no match was played")
    wins = sum(1 for s in scores if s == 1.0)
    draws = sum(1 for s in scores if s == 0.5)
    rate = sum(scores) / n
    low, high = wilson(rate, n)
    return Summary(n, wins, draws, n - wins - draws, rate, low, high)


def wilson(rate: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a rate observed over ``n`` trials (95% with the default ``z``)."""
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (rate + z2 / (2 * n)) / denom
    half = z * math.sqrt(rate * (1.0 - rate) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def format_elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def report(settings: Settings, results: list[MatchResult], write: Callable[[str], None] = print) -> Summary:
    s = summarize([r.score for r in results])
    n = s.matches
    write(f"{settings.spec_a} (A) vs {settings.spec_b} (B): {n} matches of two games on one deal, roles swapped")
    write(f"matches A won-drawn-lost: {s.wins}-{s.draws}-{s.losses}")
    write(f"score rate of A: {s.rate:.3f} (95% interval {s.low:.3f} .. {s.high:.3f})")
    write(f"Elo difference A - B: {format_elo(s.elo)} (95% interval {format_elo(s.elo_low)} .. "
          f"{format_elo(s.elo_high)})")
    played = [r for r in results if r.forfeit is None]
    if len(played) < len(results):
        p = summarize([r.score for r in played]) if played else None
        decided = f"{p.wins}-{p.draws}-{p.losses}, score rate {p.rate:.3f}" if p else "none"
        write(f"matches played to the end without a forfeit: {len(played)}, A won-drawn-lost {decided}")
    if played:
        pa = sum(r.points[0] for r in played) / len(played)
        pb = sum(r.points[1] for r in played) / len(played)
        write(f"points per match played to the end: A {pa:.1f}, B {pb:.1f}")
    for side in SIDES:
        lost = [r for r in results if r.forfeit_side == side]
        if lost:
            write(f"{side} lost {len(lost)} match(es) by rule: " + "; ".join(r.forfeit or "" for r in lost[:3]))
    slow_a = max(r.slowest[0] for r in results)
    slow_b = max(r.slowest[1] for r in results)
    write(f"slowest answer: A {slow_a * 1000:.0f} ms, B {slow_b * 1000:.0f} ms")
    if settings.movetime is not None:
        counts = [(sum(r.late[i] for r in results), sum(r.answers[i] for r in results)) for i in (0, 1)]
        rule = "each lost its match" if settings.grace <= LATE_GRACE else \
            f"allowed here up to movetime + {settings.grace * 1000:.0f} ms"
        write(f"answers later than movetime + {LATE_GRACE * 1000:.0f} ms: A {counts[0][0]} of {counts[0][1]}, "
              f"B {counts[1][0]} of {counts[1][1]} ({rule})")
    return s
