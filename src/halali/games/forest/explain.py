"""Why an action is illegal, in words a player understands.

This is the slow path: it runs only after an action was not found among the legal ones, so it can
afford to look at the position rule by rule. It must agree with ``Position.legal_actions``; the
tests check that every action it does not object to is legal.
"""

from __future__ import annotations

from halali.games.errors import IllegalAction
from halali.games.forest.actions import (
    CAPTURE,
    EXIT,
    MOVE,
    OUTCOME_SHIFT,
    REVEAL,
    TYPE_SHIFT,
    Action,
    action_str,
)
from halali.games.forest.position import Position
from halali.games.forest.tiles import (
    CAPTURES,
    DIRECTION_LETTERS,
    EXIT_SQUARE,
    HIDDEN,
    HUNTERS,
    IS_NEUTRAL_MOVER,
    KIND,
    KIND_COUNT,
    KIND_NAMES,
    LETTER,
    MOVABLE,
    NAME,
    OWNER,
    PLAYER_NAMES,
    PREY_KINDS,
    RAYS,
    SQUARE_NAMES,
    STEPS_ONE,
    TREE,
    UNKNOWN,
    direction_between,
)


def _a(code: int) -> str:
    name = NAME[code]
    return ("an " if name[0] in "aeiou" else "a ") + name


def check_reveal_outcome(pos: Position, a: Action) -> Action:
    """A legal reveal: its outcome must match a known tile, or be possible for an unknown one."""
    sq = a & 63
    out = a >> OUTCOME_SHIFT & 31
    v = pos.board[sq]
    name = SQUARE_NAMES[sq]
    if v == UNKNOWN:
        if not out:
            raise IllegalAction(f"?{name}: the tile on {name} is not known here; write its outcome, as in ?{name}=N")
        left = pos.remaining_kinds()
        if left[KIND[out]] <= 0:
            raise IllegalAction(
                f"?{name}={LETTER[out]}: all {KIND_COUNT[KIND[out]]} {KIND_NAMES[KIND[out]]}s are already accounted "
                "for, so none can still be face down"
            )
        return a
    if out and out != v - HIDDEN:
        raise IllegalAction(f"?{name}={LETTER[out]}: the tile on {name} is {_a(v - HIDDEN)}")
    return a & 63


def explain_illegal(pos: Position, a: Action) -> str:
    """The rule ``a`` breaks in ``pos`` (``a`` is known not to be among the legal actions)."""
    text = action_str(a)
    if pos.is_over():
        return f"{text}: the game is over"
    who = PLAYER_NAMES[pos.turn]
    kind = a >> TYPE_SHIFT & 7
    b = pos.board
    if kind == REVEAL:
        sq = a & 63
        if b[sq] == 0:
            return f"{text}: {SQUARE_NAMES[sq]} is empty"
        return f"{text}: the tile on {SQUARE_NAMES[sq]} is already face up"
    limit = pos.rules.stall_limit
    if kind != REVEAL and pos.hidden and limit and pos.stall >= limit:
        return (
            f"{text}: the stall rule: {pos.stall} turns without a reveal, capture or exit, "
            f"so {who} must reveal a tile"
        )
    if kind not in (MOVE, CAPTURE, EXIT):
        return f"{text}: pass is only allowed when no other action is"
    f = a >> 6 & 63
    c = b[f]
    fname = SQUARE_NAMES[f]
    if c == 0:
        return f"{text}: there is no tile on {fname}"
    if c >= HIDDEN:
        return f"{text}: the tile on {fname} is face down; reveal it first"
    if c == TREE:
        return f"{text}: trees never move"
    if not MOVABLE[pos.turn][c]:
        return f"{text}: {who} may not move {_a(c)} (only own-colour tiles, ducks and pheasants)"
    if f == pos.lock:
        last = pos.last_action
        opponent = PLAYER_NAMES[pos.turn ^ 1]
        how = "revealed or moved"
        if last is not None:
            how = "revealed" if last >> TYPE_SHIFT & 7 == REVEAL else "moved"
        return f"{text}: the green lock: {opponent} {how} this {NAME[c]} on the last turn"
    if kind == EXIT:
        return _explain_exit(pos, a, c, text)
    t = a & 63
    d = direction_between(f, t)
    if d < 0:
        return f"{text}: tiles move in a straight line along a rank or file"
    ray = RAYS[f][d]
    steps = ray.index(t) + 1
    if STEPS_ONE[c] and steps > 1:
        return f"{text}: {_a(c)} moves one square"
    for s in ray[: steps - 1]:
        if b[s]:
            return f"{text}: the way is blocked at {SQUARE_NAMES[s]}"
    x = b[t]
    if x:
        if x >= HIDDEN:
            return f"{text}: face-down tiles cannot be captured"
        if not CAPTURES[c][d][x]:
            if c in HUNTERS and KIND[x] in PREY_KINDS[c]:
                return (
                    f"{text}: a hunter captures only along its rifle "
                    f"({DIRECTION_LETTERS[HUNTERS.index(c)]}), not {DIRECTION_LETTERS[d]}"
                )
            return f"{text}: {_a(c)} cannot capture {_a(x)}"
    lm = pos.last_move[pos.turn]
    if lm >= 0 and (lm & 63) == f and (lm >> 6) == t:
        return f"{text}: no return: this {NAME[c]} came from {SQUARE_NAMES[t]} on {who}'s last turn"
    return f"{text}: not a legal action here"


def _explain_exit(pos: Position, a: Action, c: int, text: str) -> str:
    f = a >> 6 & 63
    d = a & 3
    exit_name = DIRECTION_LETTERS[d]
    if pos.final < 0:
        return f"{text}: exits open only in the final phase, after the last tile is revealed"
    if IS_NEUTRAL_MOVER[c] or OWNER[c] != pos.turn:
        return f"{text}: only {PLAYER_NAMES[pos.turn]}'s own tiles may leave the forest"
    ray = RAYS[f][d]
    if f != EXIT_SQUARE[d] and EXIT_SQUARE[d] not in ray:
        return f"{text}: {SQUARE_NAMES[f]} is not on the way to the {exit_name} exit"
    if STEPS_ONE[c] and f != EXIT_SQUARE[d]:
        return f"{text}: {_a(c)} leaves only from the square next to the exit ({SQUARE_NAMES[EXIT_SQUARE[d]]})"
    for s in ray:
        if pos.board[s]:
            return f"{text}: the way to the {exit_name} exit is blocked at {SQUARE_NAMES[s]}"
    return f"{text}: not a legal action here"
