"""Puzzles found in one game: which positions are tried, and the solution line of each one found.

A game offers a puzzle at a position where its player to move has one clearly best action. Every
final-phase position is tried (the proof decides, and it is exact); before the final phase only
those where a shallow search already sees a margin (``Seen.shallow``: from the self-play's own
search, or from a site game's stored analysis) are judged, since judging every position at two
depths would cost a hundred times as much and find little more. A puzzle's line covers the
positions after it, so those are not tried again, and a game gives at most ``MOST`` puzzles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from halali.games.forest.actions import REVEAL, action_type
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.puzzles import judge as J
from halali.puzzles.model import Puzzle
from halali.puzzles.themes import themes

MOST = 6  # puzzles from one game
MAX_MOVES = 4  # the player's actions in one solution, at most
SHALLOW_MARGIN = 2.0  # points a shallow search must see before the hidden phase's position is judged


@dataclass
class Seen:
    """One position of a game as its player to move saw it, with what a shallow search made of it."""

    ply: int
    view: Position
    shallow: float | None = None  # the best action's margin at a shallow depth, None when unknown


@dataclass
class Budget:
    proof_nodes: int = J.PROOF_NODES
    judge_nodes: int = J.JUDGE_NODES


def rule_options(rules: Rules) -> tuple[str, ...]:
    """The options that differ from the defaults and matter within one game (not ``match``)."""
    default = set(DEFAULT_RULES.to_strings())
    return tuple(r for r in rules.to_strings() if r not in default and not r.startswith("match="))


def estimate_rating(found_at: int, moves: int) -> int:
    """A first guess of a puzzle's rating before anyone tried it: the deeper the search had to look
    before it kept the action, and the more actions the player must find, the harder. Glicko-2 then
    moves it with every first try (docs/puzzles.md)."""
    return max(800, min(2200, 1000 + 150 * found_at + 150 * (moves - 1)))


def solution_line(view: Position, first: J.Verdict, budget: Budget) -> list[str]:
    """The first action, then the opponent's best reply and the player's next clearly best action, as
    long as each of the player's actions is proven (or judged) best by the margin, no reveal stands in
    the way (its outcome is chance), and the game goes on."""
    line = [first.text]
    if action_type(first.action) == REVEAL:
        return line
    pos = view.view()
    pos.push(first.action)
    for _ in range(MAX_MOVES - 1):
        reply = J.best_reply(pos, first.proven, budget.proof_nodes if first.proven else budget.judge_nodes)
        if reply is None or action_type(reply) == REVEAL:
            break
        nxt = pos.copy()
        nxt.push(reply)
        if nxt.is_over():
            break
        found = J.verdict(nxt, budget.proof_nodes, budget.judge_nodes)
        if found is None or action_type(found.action) == REVEAL or found.proven != first.proven:
            break
        line += [pos.action_str(reply), found.text]
        pos = nxt
        pos.push(found.action)
    return line


def puzzle_at(view: Position, budget: Budget, source: dict[str, Any]) -> Puzzle | None:
    """The puzzle this position holds, or None."""
    view = view.view()
    first = J.verdict(view, budget.proof_nodes, budget.judge_nodes)
    if first is None:
        return None
    line = solution_line(view, first, budget)
    moves = (len(line) + 1) // 2
    return Puzzle(view.fen(), tuple(line), round(first.value, 2), round(first.margin, 2), first.proven,
                  tuple(themes(view, line)), first.depth, estimate_rating(first.found_at, moves),
                  rule_options(view.rules), source)


def worth_trying(seen: Seen) -> bool:
    if seen.view.is_over() or len(seen.view.legal_actions()) < 2:
        return False
    if seen.view.final >= 0:
        return True
    return seen.shallow is not None and seen.shallow >= SHALLOW_MARGIN


def puzzles_of_game(positions: Iterable[Seen], budget: Budget, source: dict[str, Any], most: int = MOST,
                    tried: Callable[[Seen, Puzzle | None], None] | None = None) -> list[Puzzle]:
    """Every puzzle of one game, in the order of its plies; ``source`` goes into each with its ply."""
    found: list[Puzzle] = []
    covered = -1  # the last ply the previous puzzle's line reaches
    for seen in positions:
        if len(found) >= most:
            break
        if seen.ply <= covered or not worth_trying(seen):
            continue
        puzzle = puzzle_at(seen.view, budget, {**source, "ply": seen.ply})
        if tried is not None:
            tried(seen, puzzle)
        if puzzle is not None:
            found.append(puzzle)
            covered = seen.ply + len(puzzle.solution)
    return found
