"""What a puzzle's solution does, in a few words: the themes a player can pick puzzles by.

Each theme is read off the position and the solution with the rules engine, never guessed from the
search: a capture, an exit race, saving a tile, a defence, the choice of a reveal; a solution of
two moves or more is ``long``, and a solution that is none of the first five is a ``quiet`` move.
"""

from __future__ import annotations

from halali.games.forest.actions import CAPTURE, EXIT, MOVE, action_type, source, target
from halali.games.forest.position import Position
from halali.games.forest.tiles import VALUE

THEMES = ("capture", "exit_race", "save", "defence", "reveal", "long", "quiet")


def threats(pos: Position) -> dict[int, int]:
    """Square -> points, for every face-up tile the other side could capture if it moved now."""
    other = pos.copy()
    other.turn ^= 1
    other.lock = -1  # the green lock binds the player who is really to move, not the other one
    if other.is_over():
        return {}
    out: dict[int, int] = {}
    for a in other.legal_actions():
        if action_type(a) == CAPTURE:
            sq = target(a)
            out[sq] = VALUE[pos.board[sq]]
    return out


def _after(pos: Position, action: str) -> Position:
    nxt = pos.copy()
    nxt.play(action)
    return nxt


def _can_exit(pos: Position, square: int, player: int) -> bool:
    """Could the tile on ``square`` leave through an exit on its owner's next turn (the way is clear)?"""
    mine = pos.copy()
    mine.turn = player
    mine.lock = -1
    return not mine.is_over() and any(action_type(a) == EXIT and source(a) == square for a in mine.legal_actions())


def themes(view: Position, solution: list[str]) -> list[str]:
    """The themes of ``solution`` (the player's actions at even indices) played from ``view``."""
    pos = view.view()
    player = pos.turn
    if solution[0].startswith("?"):
        return ["reveal"]  # its outcome is chance: the solution ends with it
    mine = [pos.parse_action(solution[0])]
    walk = pos.copy()
    for i, text in enumerate(solution):
        a = walk.play(text)
        if i % 2 == 0 and i:
            mine.append(a)
    first = mine[0]
    kind = action_type(first)
    out: set[str] = set()
    if any(action_type(a) == CAPTURE for a in mine):
        out.add("capture")
    after = _after(pos, solution[0])
    if pos.final >= 0 and (any(action_type(a) == EXIT for a in mine)
                           or (kind == MOVE and _can_exit(after, target(first), player))):
        out.add("exit_race")
    # Saving and defending are against a reply: an action that ends the game has none to meet.
    before = {} if after.is_over() else threats(pos)
    now = _threats_after(after)
    moved_from = source(first) if kind in (MOVE, CAPTURE, EXIT) else -1
    if moved_from in before and (kind == EXIT or target(first) not in now):
        out.add("save")
    others_before = max((v for sq, v in before.items() if sq != moved_from), default=0)
    if others_before and max(now.values(), default=0) < others_before and "save" not in out:
        out.add("defence")
    if not out:
        out.add("quiet")
    if len(mine) > 1:
        out.add("long")
    return [t for t in THEMES if t in out]


def _threats_after(after: Position) -> dict[int, int]:
    """What the opponent, now really to move, may capture."""
    if after.is_over():
        return {}
    return {target(a): VALUE[after.board[target(a)]] for a in after.legal_actions() if action_type(a) == CAPTURE}
