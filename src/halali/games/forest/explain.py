"""Whether an action is legal, and why not, in words a player understands.

``check`` looks the action up among the legal ones; only when it is not there does the slow path
run, which can afford to look at the position rule by rule. It must agree with
``movegen.legal_actions``; the tests check that every action it does not object to is legal. It
reads a position as its :class:`PositionFields`, so that ``position.py``, whose ``check`` calls it,
is not imported back.
"""

from __future__ import annotations

from halali.games.errors import IllegalAction
from halali.games.forest import chance, movegen
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
from halali.games.forest.fields import PositionFields
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


def check(pos: PositionFields, a: Action) -> Action:
    """Return ``a`` if legal here (a reveal of an unknown tile must carry a possible outcome); raise
    :class:`IllegalAction` naming the rule it breaks if not."""
    base = a & ((1 << OUTCOME_SHIFT) - 1)
    if base in movegen.legal_actions(pos):
        if a >> TYPE_SHIFT & 7 == REVEAL:
            return check_reveal_outcome(pos, a)
        return a
    raise explain_illegal(pos, a)


def check_reveal_outcome(pos: PositionFields, a: Action) -> Action:
    """A legal reveal: its outcome must match a known tile, or be possible for an unknown one."""
    sq = a & 63
    out = a >> OUTCOME_SHIFT & 31
    v = pos.board[sq]
    name = SQUARE_NAMES[sq]
    if v == UNKNOWN:
        if not out:
            raise _no("rule.outcome_missing",
                      f"?{name}: the tile on {name} is not known here; write its outcome, as in ?{name}=N",
                      action=f"?{name}", square=name)
        left = chance.remaining_kinds(pos)
        if left[KIND[out]] <= 0:
            raise _no(
                "rule.outcome_impossible",
                f"?{name}={LETTER[out]}: all {KIND_COUNT[KIND[out]]} {KIND_NAMES[KIND[out]]}s are already accounted "
                "for, so none can still be face down",
                action=f"?{name}={LETTER[out]}", tile=KIND_NAMES[KIND[out]],
            )
        return a
    if out and out != v - HIDDEN:
        raise _no("rule.outcome_mismatch", f"?{name}={LETTER[out]}: the tile on {name} is {_a(v - HIDDEN)}",
                  action=f"?{name}={LETTER[out]}", square=name, tile=NAME[v - HIDDEN])
    return a & 63


def _no(key: str, message: str, **params: object) -> IllegalAction:
    return IllegalAction(message, key, params)


def explain_illegal(pos: PositionFields, a: Action) -> IllegalAction:
    """The rule ``a`` breaks in ``pos`` (``a`` is known not to be among the legal actions)."""
    text = action_str(a)
    if movegen.is_over(pos):
        return _no("rule.game_over", f"{text}: the game is over", action=text)
    who = PLAYER_NAMES[pos.turn]
    kind = a >> TYPE_SHIFT & 7
    b = pos.board
    if kind == REVEAL:
        sq = SQUARE_NAMES[a & 63]
        if b[a & 63] == 0:
            return _no("rule.reveal_empty", f"{text}: {sq} is empty", action=text, square=sq)
        return _no("rule.reveal_face_up", f"{text}: the tile on {sq} is already face up", action=text, square=sq)
    limit = pos.rules.stall_limit
    if pos.hidden and limit and pos.stall >= limit:
        return _no(
            "rule.stall",
            f"{text}: the stall rule: {pos.stall} turns without a reveal, capture or exit, so {who} must reveal a tile",
            action=text, turns=pos.stall, player=who,
        )
    if kind not in (MOVE, CAPTURE, EXIT):
        return _no("rule.pass", f"{text}: pass is only allowed when no other action is", action=text)
    f = a >> 6 & 63
    c = b[f]
    fname = SQUARE_NAMES[f]
    if c == 0:
        return _no("rule.no_tile", f"{text}: there is no tile on {fname}", action=text, square=fname)
    if c >= HIDDEN:
        return _no("rule.face_down", f"{text}: the tile on {fname} is face down; reveal it first",
                   action=text, square=fname)
    if c == TREE:
        return _no("rule.tree", f"{text}: trees never move", action=text)
    if not MOVABLE[pos.turn][c]:
        return _no("rule.not_yours",
                   f"{text}: {who} may not move {_a(c)} (only own-colour tiles, ducks and pheasants)",
                   action=text, player=who, tile=NAME[c])
    if f == pos.lock:
        last = pos.last_action
        opponent = PLAYER_NAMES[pos.turn ^ 1]
        how = "revealed or moved"
        if last is not None:
            how = "revealed" if last >> TYPE_SHIFT & 7 == REVEAL else "moved"
        return _no("rule.green_lock", f"{text}: the green lock: {opponent} {how} this {NAME[c]} on the last turn",
                   action=text, player=opponent, how=how, tile=NAME[c])
    if kind == EXIT:
        return _explain_exit(pos, a, c, text)
    t = a & 63
    d = direction_between(f, t)
    if d < 0:
        return _no("rule.straight", f"{text}: tiles move in a straight line along a rank or file", action=text)
    ray = RAYS[f][d]
    steps = ray.index(t) + 1
    if STEPS_ONE[c] and steps > 1:
        return _no("rule.one_square", f"{text}: {_a(c)} moves one square", action=text, tile=NAME[c])
    for s in ray[: steps - 1]:
        if b[s]:
            return _no("rule.blocked", f"{text}: the way is blocked at {SQUARE_NAMES[s]}",
                       action=text, square=SQUARE_NAMES[s])
    x = b[t]
    if x:
        if x >= HIDDEN:
            return _no("rule.capture_face_down", f"{text}: face-down tiles cannot be captured", action=text)
        if not CAPTURES[c][d][x]:
            if c in HUNTERS and KIND[x] in PREY_KINDS[c]:
                rifle = DIRECTION_LETTERS[HUNTERS.index(c)]
                return _no("rule.rifle",
                           f"{text}: a hunter captures only along its rifle ({rifle}), not {DIRECTION_LETTERS[d]}",
                           action=text, rifle=rifle, direction=DIRECTION_LETTERS[d])
            return _no("rule.cannot_capture", f"{text}: {_a(c)} cannot capture {_a(x)}",
                       action=text, tile=NAME[c], target=NAME[x])
    elif kind == CAPTURE:
        return _no("rule.nothing_to_capture", f"{text}: there is nothing to capture on {SQUARE_NAMES[t]}",
                   action=text, square=SQUARE_NAMES[t])
    lm = pos.last_move[pos.turn]
    if lm >= 0 and (lm & 63) == f and (lm >> 6) == t:
        return _no("rule.no_return",
                   f"{text}: no return: this {NAME[c]} came from {SQUARE_NAMES[t]} on {who}'s last turn",
                   action=text, tile=NAME[c], square=SQUARE_NAMES[t], player=who)
    if x and kind == MOVE:  # an integer move onto a tile it may capture: the action has the wrong type
        capture = f"{fname}x{SQUARE_NAMES[t]}"
        return _no("rule.illegal", f"{text}: {SQUARE_NAMES[t]} is taken; capturing there is {capture}",
                   action=text, capture=capture)
    return _no("rule.illegal", f"{text}: not a legal action here", action=text)


def _explain_exit(pos: PositionFields, a: Action, c: int, text: str) -> IllegalAction:
    f = a >> 6 & 63
    d = a & 3
    exit_name = DIRECTION_LETTERS[d]
    if pos.final < 0:
        return _no("rule.exit_final_phase",
                   f"{text}: exits open only in the final phase, after the last tile is revealed", action=text)
    if IS_NEUTRAL_MOVER[c] or OWNER[c] != pos.turn:
        who = PLAYER_NAMES[pos.turn]
        return _no("rule.exit_own", f"{text}: only {who}'s own tiles may leave the forest", action=text, player=who)
    ray = RAYS[f][d]
    if f != EXIT_SQUARE[d] and EXIT_SQUARE[d] not in ray:
        return _no("rule.exit_line", f"{text}: {SQUARE_NAMES[f]} is not on the way to the {exit_name} exit",
                   action=text, square=SQUARE_NAMES[f], exit=exit_name)
    if STEPS_ONE[c] and f != EXIT_SQUARE[d]:
        nxt = SQUARE_NAMES[EXIT_SQUARE[d]]
        return _no("rule.exit_next", f"{text}: {_a(c)} leaves only from the square next to the exit ({nxt})",
                   action=text, tile=NAME[c], square=nxt)
    for s in ray:
        if pos.board[s]:
            return _no("rule.exit_blocked", f"{text}: the way to the {exit_name} exit is blocked at {SQUARE_NAMES[s]}",
                       action=text, exit=exit_name, square=SQUARE_NAMES[s])
    return _no("rule.illegal", f"{text}: not a legal action here", action=text)
