"""Is one action clearly the best here, and by how many points: proven, or judged at two depths.

In the final phase no tile is face down, so nothing is left to chance and the search solves the
position to its end (the depth is the number of final turns left): its values are the exact final
score differences, and the margin of the best action over every other is exact. Before the final
phase the values are the strongest level's opinion at a depth; a puzzle is kept only when the same
action stays best by the margin at that depth and at a deeper one.

The margin is found with two searches, not one search of every action with a full window (which
in the final phase costs ten times as much): the first finds the best action and its exact value,
the second the best of the others, searched without it (``SearchBot.think(exclude=...)``), and the
difference of the two values is the margin. Both share one transposition table, so the second is
cheap. A search that runs out of its node budget before its last depth proves or judges nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from halali.ai.levels import STYLES
from halali.ai.search_bots import SearchBot, Thought
from halali.games.forest.actions import Action
from halali.games.forest.position import Position

PROVEN_MARGIN = 2.0  # points: a duck, the least a tile is worth; exact, so nothing can wear it down
JUDGED_MARGIN = 3.0  # points, at both depths: an opinion needs more room than a proof
JUDGE_DEPTH = 5  # about what the strongest level reaches in a second of this machine
CHECK_DEPTH = 6  # the deeper search the judged margin must survive
PROOF_NODES = 4_000_000  # per search: the early final phase can need far more, and is then left out
JUDGE_NODES = 4_000_000
STRONGEST = STYLES[max(STYLES)]


@dataclass(frozen=True)
class Verdict:
    """The best action of a position for its player to move, with its value and margin in points."""

    action: Action
    text: str
    value: float
    margin: float  # the value less that of the best other action
    depth: int  # the depth the values stand on (in the final phase: the turns left, to the end)
    found_at: int  # the shallowest depth from which the search kept this action as its best
    proven: bool


def _search(view: Position, depth: int, nodes: int, bot: SearchBot, exclude: frozenset[Action],
            single: bool, trail: list[Action] | None = None) -> Thought | None:
    def info(t: Thought) -> None:
        if trail is not None:
            trail.append(t.action)

    t = bot.think(view, None, nodes=nodes, depth=depth, exact=single, exclude=exclude, on_info=info)
    return t if t.depth == depth else None


def _two(view: Position, depth: int, nodes: int, proven: bool) -> Verdict | None:
    legal = view.legal_actions()
    if len(legal) < 2:
        return None  # nothing to choose
    bot = SearchBot(STRONGEST, 0)
    trail: list[Action] = []
    best = _search(view, depth, nodes, bot, frozenset(), False, trail)
    if best is None:
        return None
    rest = _search(view, depth, nodes, bot, frozenset([best.action]), len(legal) == 2)
    if rest is None:
        return None
    found = depth
    while found > 1 and trail[found - 2] == best.action:
        found -= 1
    return Verdict(best.action, view.action_str(best.action), best.score, best.score - rest.score, depth, found,
                   proven)


def prove(view: Position, nodes: int = PROOF_NODES) -> Verdict | None:
    """The final phase solved to its end, or None (not the final phase, over, no choice, over budget)."""
    view = view.view()
    if view.final <= 0 or view.is_over():
        return None
    return _two(view, view.final, nodes, True)


def judge(view: Position, depth: int = JUDGE_DEPTH, check: int = CHECK_DEPTH, nodes: int = JUDGE_NODES,
          margin: float = JUDGED_MARGIN) -> Verdict | None:
    """The strongest level's verdict at ``depth``, kept only if the deeper search ``check`` agrees on
    the action and both margins reach ``margin``; the smaller margin is the one given."""
    view = view.view()
    if view.is_over():
        return None
    first = _two(view, depth, nodes, False)
    if first is None or first.margin < margin:
        return None
    deeper = _two(view, check, nodes, False)
    if deeper is None or deeper.action != first.action or deeper.margin < margin:
        return None
    return Verdict(first.action, first.text, deeper.value, min(first.margin, deeper.margin), check, first.found_at,
                   False)


def verdict(view: Position, proof_nodes: int = PROOF_NODES, judge_nodes: int = JUDGE_NODES) -> Verdict | None:
    """A puzzle's first action, if this position has one: proven in the final phase, judged before it."""
    if view.final >= 0:
        found = prove(view, proof_nodes)
        return found if found is not None and found.margin >= PROVEN_MARGIN else None
    return judge(view, nodes=judge_nodes)


def best_reply(view: Position, proven: bool, nodes: int) -> Action | None:
    """The opponent's best answer: the end of the game in the final phase, the judging depth before it."""
    view = view.view()
    if view.is_over():
        return None
    depth = view.final if proven else JUDGE_DEPTH
    t = _search(view, max(1, depth), nodes, SearchBot(STRONGEST, 0), frozenset(), len(view.legal_actions()) == 1)
    return None if t is None else t.action
