"""An exhaustive search of the final phase, written for the tests on the pure rules engine alone.

It shares nothing with the compiled search that proves the puzzles (``halali.ai.bits``): its own
negamax with alpha-beta over ``Position.legal_actions``/``push``/``pop``, its own transposition
table, its own terminal test and score. What it solves is the points still to be won from a
position: a state's future does not depend on the scores so far, so positions that differ only in
them share one entry. With no face-down tile left, nothing else in the state matters but the board,
the turn, the last own moves, the green lock and the final turns left (the stall rule only forces a
reveal, and none is left).
"""

from __future__ import annotations

from dataclasses import dataclass

from halali.games.forest import Position, parse_position
from halali.games.forest.actions import CAPTURE, EXIT, action_type

INF = 10_000
EXACT, LOWER, UPPER = 0, 1, 2


def _key(pos: Position) -> tuple:
    return (tuple(pos.board), pos.turn, tuple(pos.last_move), pos.lock, pos.final)


class Solver:
    def __init__(self) -> None:
        self.table: dict[tuple, tuple[int, int]] = {}
        self.nodes = 0

    def gain(self, pos: Position, a: int) -> int:
        """Points the player to move wins with ``a``: a capture's or an exit's tile."""
        before = pos.score[pos.turn]
        pos.push(a)
        won = pos.score[pos.turn ^ 1] - before
        pos.pop()
        return won

    def _ordered(self, pos: Position) -> list[int]:
        acts = pos.legal_actions()
        return sorted(acts, key=lambda a: action_type(a) not in (CAPTURE, EXIT))

    def future(self, pos: Position, alpha: int, beta: int) -> int:
        """The points still to be won by the player to move, less the opponent's, within (alpha, beta)."""
        self.nodes += 1
        if pos.is_over():
            return 0
        key = _key(pos)
        found = self.table.get(key)
        if found is not None:
            value, flag = found
            if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                return value
        a0 = alpha
        best = -INF
        for a in self._ordered(pos):
            v = self.child(pos, a, alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        self.table[key] = (best, LOWER if best >= beta else UPPER if best <= a0 else EXACT)
        return best

    def child(self, pos: Position, a: int, alpha: int, beta: int) -> int:
        won = self.gain(pos, a)
        pos.push(a)
        v = won - self.future(pos, won - beta, won - alpha)
        pos.pop()
        return v


@dataclass
class Solution:
    best: str  # the one best first action
    value: int  # its value: the final score difference for the player to move
    margin: int  # over the best other action
    nodes: int


def solve(fen: str, rules: list[str] | None = None) -> Solution:
    """Every first action's value to the end of the game, from a final-phase position."""
    from halali.games.forest.rules import DEFAULT_RULES

    pos = parse_position(fen, DEFAULT_RULES.with_options(rules or []))
    assert pos.final >= 0 and not pos.hidden, "the exhaustive search solves final-phase positions only"
    solver = Solver()
    now = pos.score[pos.turn] - pos.score[pos.turn ^ 1]
    # The best action: alpha-beta at the root, so only a value that beat alpha is exact.
    first, best = None, -INF
    for a in solver._ordered(pos):
        v = solver.child(pos, a, best, INF)
        if v > best:
            first, best = a, v
    # The best of the others, exact: the margin is the difference.
    others = -INF
    for a in solver._ordered(pos):
        if a != first:
            others = max(others, solver.child(pos, a, others, INF))
    return Solution(pos.action_str(first), now + best, best - others, solver.nodes)
