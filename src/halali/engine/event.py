"""A local tournament of engines: rounds of the arena's two-game matches, paired by halali.tournament.

Each round is paired from the results so far (Swiss) or taken from the circle method (round robin),
its matches are played at once on the arena's ``MatchPool``, and only when the whole round is in is
the next one paired, as a Swiss event must. Every match of a round is played on the same deal
(``seed + round - 1``), roles swapped inside the match as in the arena: all players of a round meet
the same luck, so the standings compare play, not deals.

A match becomes a tournament ``Result``: the match score as points, the games each side won as
``games``, the points scored on the boards as ``tiles``; a match lost by rule (an illegal or late
answer) is of kind "forfeit". Every finished match is appended to the results file with the event's
settings; a run resumed on that file replays the pairings from the recorded results, which gives
the same rounds again, and plays only the matches the file does not hold.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from halali.engine.arena import MatchPool, MatchResult, Settings
from halali.engine.client import LATE_GRACE
from halali.engine.results import append_line, read_lines, result_from_dict
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.tournament import Entrant, Result, Round, bye, pair_swiss, round_robin

FORMATS = ("swiss", "round-robin")
Key = tuple[int, str, str]  # round, A's id, B's id


@dataclass(frozen=True)
class Player:
    id: str
    spec: str  # as the arena takes it: a level number, or "cmd:COMMAND"


@dataclass(frozen=True)
class Event:
    players: tuple[Player, ...]
    format: str = "swiss"
    rounds: int = 3
    rules: Rules = DEFAULT_RULES
    movetime: float | None = 1.0
    nodes: int | None = None
    seed: int = 1
    grace: float = LATE_GRACE

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"unknown format {self.format!r}; one of {', '.join(FORMATS)}")
        if len(self.players) < 2:
            raise ValueError("a tournament needs at least two players")
        if len({p.id for p in self.players}) != len(self.players):
            raise ValueError("two players have the same name")
        if self.rounds < 1:
            raise ValueError("--rounds must be 1 or more")

    @property
    def entrants(self) -> list[Entrant]:
        """The players seeded in the order given: the first is the top seed of round 1."""
        n = len(self.players)
        return [Entrant(p.id, 1500.0 + n - i) for i, p in enumerate(self.players)]

    def settings(self, a: Player, b: Player) -> Settings:
        return Settings(a.spec, b.spec, self.rules, self.movetime, self.nodes, self.seed, self.grace)

    def record(self) -> dict[str, Any]:
        """What must agree for a results file to be continued (not the number of rounds: a Swiss
        event can be run again with more of them)."""
        return json.loads(json.dumps({
            "format": self.format, "players": [[p.id, p.spec] for p in self.players],
            "rules": self.rules.to_strings(), "movetime": self.movetime, "nodes": self.nodes, "seed": self.seed,
            "grace": self.grace}))

    def pairing(self, results: list[Result], number: int) -> Round:
        if self.format == "swiss":
            return pair_swiss(self.entrants, results, number)
        schedule = round_robin([p.id for p in self.players])
        return schedule[(number - 1) % len(schedule)]  # more rounds than a cycle: the cycle again

    def matches(self) -> int:
        """How many matches the whole event plays."""
        return self.rounds * (len(self.players) // 2)


def to_result(number: int, a: str, b: str, match: MatchResult) -> Result:
    kind = "forfeit" if match.forfeit else "played"
    return Result(number, (a, b), (match.score, 1.0 - match.score), match.won, match.points, kind)


@dataclass(frozen=True)
class Played:
    """One match of the event as it comes in: its round, players and result; ``resumed`` when it
    was read from the results file rather than played now."""

    round: int
    a: str
    b: str
    match: MatchResult
    resumed: bool = False


def load(path: Path, event: Event) -> dict[Key, MatchResult]:
    """The matches a results file holds for this event; a file of another event is refused."""
    if not path.exists():
        return {}
    want = event.record()
    out: dict[Key, MatchResult] = {}
    for item in read_lines(path, ("event", "round", "a", "b", "result")):
        if item.get("event") != want:
            raise ValueError(f"{path} holds matches of another event ({item.get('event')}); use another file")
        out[item["round"], item["a"], item["b"]] = result_from_dict(item["result"])
    return out


def append(path: Path, event: Event, played: Played) -> None:
    append_line(path, {"event": event.record(), "round": played.round, "a": played.a, "b": played.b,
                       "result": asdict(played.match)})


def play(event: Event, pool: MatchPool, done: dict[Key, MatchResult] | None = None,
         results: list[Result] | None = None) -> Iterator[Played]:
    """Every match of the event, round by round, as it finishes; ``results`` (if given) receives
    every tournament result, byes included, in round order.

    Matches in ``done`` are not played again; one of a round whose pairing does not hold it means
    the file is not this event's, and is refused before that round is played."""
    done = dict(done or {})
    out = results if results is not None else []
    by_id = {p.id: p for p in event.players}
    for number in range(1, event.rounds + 1):
        rnd = event.pairing(out, number)
        tables = [(t[0], t[1]) for t in rnd.tables]
        stray = [k for k in done if k[0] == number and (k[1], k[2]) not in tables]
        if stray:
            raise ValueError(f"the results file holds round {number} matches this pairing does not have: {stray}")
        todo: list[tuple[str, str]] = []
        got: dict[tuple[str, str], MatchResult] = {}
        for a, b in tables:
            if (number, a, b) in done:
                got[a, b] = done[number, a, b]
                yield Played(number, a, b, got[a, b], resumed=True)
            else:
                todo.append((a, b))
        tasks = [(event.settings(by_id[a], by_id[b]), number - 1) for a, b in todo]
        for i, match in pool.play(tasks):
            got[todo[i]] = match
            yield Played(number, *todo[i], match)
        out.extend(to_result(number, a, b, got[a, b]) for a, b in tables)
        if rnd.bye is not None:
            out.append(bye(number, rnd.bye))


def run(event: Event, jobs: int = 1, path: Path | None = None, resume: bool = False,
        on_match: Callable[[Played], None] | None = None) -> list[Result]:
    """The whole event: every result, byes included. With ``path`` each match played is appended to
    it; an existing file is continued only with ``resume`` (so a typo never mixes two events)."""
    done: dict[Key, MatchResult] = {}
    if path is not None and path.exists() and path.stat().st_size > 0:
        if not resume:
            raise ValueError(f"{path} exists; --resume continues it, or choose another file")
        done = load(path, event)
    elif resume:
        raise ValueError("--resume needs --out FILE with the results of the run to continue")
    results: list[Result] = []
    with MatchPool(jobs) as pool:
        for played in play(event, pool, done, results):
            if path is not None and not played.resumed:
                append(path, event, played)
            if on_match is not None:
                on_match(played)
    return results
