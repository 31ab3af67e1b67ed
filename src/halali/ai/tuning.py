"""Duels between search variants, to decide what a level uses (``python -m halali.ai.tuning``).

The arena plays the registered levels through the protocol; this plays unregistered variants in
process, same match format (two games on one deal, roles swapped, total points then tiles). A
variant is ``BASE[:key=value,...]``: ``BASE`` one of :data:`BASES` (or ``greedy``), keys the
evaluation weights by name (:data:`WEIGHT_NAMES`) or all of them from ``file`` (a weights file of
``halali train``), ``nodes`` (budget per action), ``mt`` (seconds per action), ``depth``, ``share``
(of the movetime), ``pat`` (patience), ``margin`` (the Star2 margin, in points); ``s2f`` is level 6 with
its weights (``weights.STRONGEST``), the other bases start from the hand-set ones. The frozen
baseline is not a variant: it plays from a worktree of its commit, through the arena (docs/ai.md).
Example, as in docs/ai.md::

    python -m halali.ai.tuning s2id:mt=0.1 qid:mt=0.1 40
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from halali.ai.bits import search_parts as S
from halali.ai.bits import weights as E
from halali.ai.search_bots import SearchBot, Style
from halali.ai.simple import GreedyBot
from halali.ai.training import read_weights
from halali.games.forest.position import Position

WEIGHT_NAMES = E.WEIGHT_NAMES
_ALL = S.PRUNE | S.QSEARCH | S.STAR2
BASES: dict[str, tuple[int, int]] = {  # name -> (flags, maximum depth)
    "plain2": (0, 2),
    "q2": (S.PRUNE | S.QSEARCH, 2),
    "qid": (S.PRUNE | S.QSEARCH, 60),
    "s2id": (_ALL, 60),
    "s2h": (_ALL | S.HISTORY, 60),
    "s2m": (_ALL | S.HISTORY | S.MERGE, 60),
    "s2t": (_ALL | S.HISTORY | S.MERGE | S.TT, 60),
    "s2f": (_ALL | S.HISTORY | S.MERGE | S.TT | S.FRONTIER, 60),  # level 6
}


@dataclass
class Variant:
    spec: str
    style: Style | None  # None: the greedy bot
    nodes: int | None = None
    movetime: float | None = None


def parse(spec: str) -> Variant:
    base, _, rest = spec.partition(":")
    if base == "greedy":
        return Variant(spec, None)
    if base not in BASES:
        raise ValueError(f"unknown base {base!r} (one of {', '.join(BASES)}, greedy)")
    flags, depth = BASES[base]
    weights = (E.STRONGEST if base == "s2f" else E.WEIGHTS).copy()  # s2f is level 6, with its weights
    nodes = movetime = None
    share = patience = 1.0
    margin = 0.0
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        if key in WEIGHT_NAMES:
            weights[WEIGHT_NAMES.index(key)] = float(value)
        elif key == "file":  # a weights file of `halali train`
            weights = read_weights(Path(value))
        elif key == "nodes":
            nodes = int(value)
        elif key == "mt":
            movetime = float(value)
        elif key == "depth":
            depth = int(value)
        elif key == "share":
            share = float(value)
        elif key == "pat":
            patience = float(value)
        elif key == "margin":
            margin = float(value)
        else:
            raise ValueError(f"unknown key {key!r}")
    return Variant(spec, Style(spec, flags, weights, depth, share, patience, margin), nodes, movetime)


def play_match(a: Variant, b: Variant, seed: int) -> tuple[float, int]:
    """(score of a, a's points minus b's) for the match on deal ``seed``."""
    points = [0, 0]
    tiles = [0, 0]
    for game in (0, 1):
        pos = Position.deal(seed=seed)
        players = (a, b) if game == 0 else (b, a)  # players[colour]
        bots = [GreedyBot(seed) if v.style is None else SearchBot(v.style, seed + c) for c, v in enumerate(players)]
        while not pos.is_over():
            bot, v = bots[pos.turn], players[pos.turn]
            if isinstance(bot, SearchBot):
                action = bot.think(pos.view(), v.movetime, nodes=v.nodes).action
            else:
                action = bot.choose(pos.view())
            pos.push(action)
        for colour in (0, 1):
            who = 0 if players[colour] is a else 1
            points[who] += pos.score[colour]
            tiles[who] += pos.ntiles[colour]
    if points[0] != points[1]:
        return (1.0 if points[0] > points[1] else 0.0), points[0] - points[1]
    if tiles[0] != tiles[1]:
        return (1.0 if tiles[0] > tiles[1] else 0.0), 0
    return 0.5, 0


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__)
        return 2
    a, b, n = parse(argv[0]), parse(argv[1]), int(argv[2])
    first = int(argv[3]) if len(argv) > 3 else 5000
    start = time.time()
    scores, diffs = [], []
    for i in range(n):
        s, d = play_match(a, b, first + i)
        scores.append(s)
        diffs.append(d)
    rate = sum(scores) / n
    half = 1.96 * math.sqrt(sum((x - rate) ** 2 for x in scores) / max(1, n - 1) / n)
    print(f"{a.spec} vs {b.spec}: {rate:.3f} ± {half:.3f} ({sum(scores)}/{n}) "
          f"points {sum(diffs) / n:+.1f} per match, {time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
