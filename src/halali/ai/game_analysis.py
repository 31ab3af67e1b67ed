"""A finished forest game analysed as one job: every position's value, every decision's loss against
the best action with its mark, and the luck of every reveal.

The job is cut into chunks of consecutive plies (``chunks``) that run side by side in separate
processes; ``analyse_plies`` does one chunk. How far a position is searched is decided by node
counts (:class:`Budget`), never by the clock, so the same game gives the same numbers on any machine,
at any load, however many processes share the work: the chunks are the same whatever the number of
processes, and each starts from a fresh search (its transposition table lives for the chunk only).

A position is searched by the strongest level with alpha-beta at the root (past the first action the
others are only shown to be worse), deepening until the soft node budget is spent; when the action
played is not the best found, both are then searched on their own, exactly, at the same depth, and
the loss is the difference. That costs a fraction of valuing every action exactly, as the former
per-position analysis did. A hidden-phase position also gets its margin (the best value less the
next best) from an exact depth-2 search, the shallow margin the puzzle miner chooses positions by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from halali.ai.levels import STYLES
from halali.ai.luck import _BASE, Decision, GameLuck, RevealLuck, _searcher, mark, position_value, record_notes
from halali.ai.style import Thought
from halali.games.forest.actions import OUTCOME_SHIFT, REVEAL, TYPE_SHIFT
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES

if TYPE_CHECKING:
    from halali.ai.search_bots import SearchBot

COLOURS = ("blue", "brown")
# The depth of the exact search that gives a hidden-phase position's margin (the best action's value
# less the next best's), by a search of its own: the depth the puzzle miner's shallow search uses.
MARGIN_DEPTH = 2


@dataclass(frozen=True)
class Budget:
    """How far the analysis looks. ``soft_nodes``: a position's search starts no deeper iteration once
    it has searched this many nodes; ``hard_nodes``: an iteration is cut there (the last complete one
    counts); ``luck_depth``: the depth of the searches that weigh a reveal's outcomes; ``chunk``: plies
    per job in the pool. The defaults reach at least the depth the former analysis reached in 0.3 s
    on an idle core, nearly everywhere (docs/ai.md "Game analysis")."""

    soft_nodes: int = 50_000
    hard_nodes: int = 4_000_000
    luck_depth: int = 2
    chunk: int = 4

    def key(self) -> str:
        """Stored with an analysis: a different budget is a different analysis."""
        return f"s{self.soft_nodes}-h{self.hard_nodes}-l{self.luck_depth}-c{self.chunk}"

    def to_list(self) -> list[int]:
        return [self.soft_nodes, self.hard_nodes, self.luck_depth, self.chunk]


DEFAULT_BUDGET = Budget()


def chunks(plies: int, size: int) -> list[tuple[int, int]]:
    """``[first, end)`` ranges of ``size`` plies covering ``plies`` actions."""
    return [(i, min(plies, i + size)) for i in range(0, plies, max(1, size))]


def _think(bot: SearchBot, view: Position, budget: Budget, **kw: Any) -> Thought:
    return bot.think(view, None, nodes=budget.hard_nodes, soft_nodes=budget.soft_nodes, **kw)


def analyse_plies(deal: str, rules: dict[str, str], actions: Sequence[str], first: int, end: int,
                  budget: Budget = DEFAULT_BUDGET) -> list[dict[str, Any]]:
    """The analysis of the positions before actions ``first`` to ``end - 1`` of a game (its deal, the
    full start, and its actions as recorded, a reveal with its outcome), one JSON-ready dict a ply."""
    pos = parse_position(deal, DEFAULT_RULES.with_options(rules))
    for text in actions[:first]:
        pos.play(text)
    from halali.ai.search_bots import SearchBot  # here: the server imports this module, never searches

    bot = SearchBot(STYLES[max(STYLES)], 0)  # one table for the chunk: a position helps the next
    out = []
    for ply in range(first, end):
        if pos.is_over():
            raise ValueError(f"action {ply + 1}: the game is already over")
        view = pos.view()
        played = pos.play(actions[ply])
        out.append(_ply(bot, view, played, pos, ply, budget))
    return out


def _ply(bot: SearchBot, view: Position, played: int, after: Position, ply: int, budget: Budget) -> dict[str, Any]:
    player = view.turn
    base = played & _BASE
    legal = view.legal_actions()
    entry: dict[str, Any] = {"ply": ply, "to_move": COLOURS[player], "played": None}
    t = _think(bot, view, budget, exact=len(legal) == 1)
    best, score = t.action, t.score
    if len(legal) > 1:
        value = score
        if base != best:
            score = _alone(bot, view, legal, best, t.depth)
            value = _alone(bot, view, legal, base, t.depth)
            if value > score:  # searched on its own, with a table the first search filled: no worse
                best, score = base, value
        loss = round(score - value, 3)  # the mark is the shown loss's: 1.9996 shown as 2.0 is an inaccuracy
        entry["played"] = {"action": view.action_str(base), "value": round(value, 3), "loss": loss,
                           "mark": mark(loss)}
        if view.final < 0:
            shallow = _searcher().think(view, None, depth=MARGIN_DEPTH, exact=True).values
            entry["margin"] = round(shallow[0][1] - shallow[1][1], 3)
    entry.update(score=round(score, 3), best=view.action_str(best), depth=t.depth, nodes=t.nodes)
    if base >> TYPE_SHIFT & 7 == REVEAL:
        entry["reveal"] = _luck(view, base | after.board[base & 63] << OUTCOME_SHIFT, player, budget.luck_depth)
    return entry


def _alone(bot: SearchBot, view: Position, legal: list[int], action: int, depth: int) -> float:
    """The exact value of ``action`` searched on its own at ``depth`` (a full window)."""
    return bot.think(view, None, depth=depth, exact=True, exclude=frozenset(a for a in legal if a != action)).score


def _luck(view: Position, outcome: int, player: int, depth: int) -> dict[str, Any]:
    """The reveal's value for the revealer and its expectation over every tile the square could have held."""
    values = {}
    for o, p in view.reveal_outcomes(outcome & 63):
        after = view.copy()
        after.push(o)
        values[o] = (p, position_value(after, player, depth))
    expected = sum(p * v for p, v in values.values())
    value = values[outcome][1]
    return {"action": view.action_str(outcome), "value": round(value, 3), "expected": round(expected, 3),
            "luck": round(value - expected, 3), "outcomes": len(values)}


def game_luck(plies: Sequence[dict[str, Any]], score: tuple[int, int], depth: int) -> GameLuck:
    """The luck and the decisions of a whole game from its plies' analyses."""
    reveals, decisions = [], []
    for e in plies:
        player = COLOURS.index(e["to_move"])
        if e["played"] is not None:
            decisions.append(Decision(e["ply"], player, e["played"]["action"], e["best"], e["played"]["loss"]))
        r = e.get("reveal")
        if r is not None:
            reveals.append(RevealLuck(e["ply"], player, r["action"], r["value"], r["expected"], r["outcomes"]))
    return GameLuck(reveals, decisions, score, depth)


def summary(plies: Sequence[dict[str, Any]], score: tuple[int, int], depth: int) -> dict[str, Any]:
    """The luck and the mistakes of the whole game as the API shows them: every reveal's luck, every
    decision's loss and mark, each side's luck, skill loss and luck-adjusted result, the luckiest and
    unluckiest reveals, the verdict (message keys) and what a record export adds."""
    g = game_luck(plies, score, depth)
    luckiest, unluckiest = g.luckiest(), g.unluckiest()
    headers, comments = record_notes(g)
    return {
        "depth": depth,
        "reveals": [{"ply": r.ply, "player": COLOURS[r.player], "action": r.action, "value": r.value,
                     "expected": r.expected, "luck": round(r.luck, 3)} for r in g.reveals],
        "decisions": [{"ply": d.ply, "player": COLOURS[d.player], "action": d.action, "best": d.best,
                       "loss": d.loss, "mark": mark(d.loss)} for d in g.decisions],
        "sides": {COLOURS[p]: {"score": g.score[p], "luck": round(g.luck(p), 3),
                               "skill_loss": round(g.skill_loss(p), 3), "adjusted": round(g.adjusted(p), 3)}
                  for p in (0, 1)},
        "luckiest": luckiest.ply if luckiest is not None else None,
        "unluckiest": unluckiest.ply if unluckiest is not None else None,
        "summary": [{"key": key, "params": {k: COLOURS[v] if k == "player" else v for k, v in params.items()}}
                    for key, params in g.summary().keys],
        "record": {"headers": headers, "comments": {str(ply): text for ply, text in comments.items()}},
    }
