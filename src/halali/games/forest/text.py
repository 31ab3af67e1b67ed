"""Forest notation (docs/notation.md) on a position's fields: positions and actions as text, and back.

Formatting is canonical: one position has exactly one string. Parsing accepts that form (and a
few harmless variants such as piles out of order) and rejects anything malformed or impossible
with a message that says what is wrong and where.

It reads and writes a position as the :class:`PositionFields` it is built on (``fields.py``) and
builds one with the constructor it is given, so that ``position.py``, whose text conveniences call
it, is not imported back; ``notation.py`` is the public face, which builds a ``Position``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from halali.games.errors import IllegalAction, NotationError, PositionError
from halali.games.forest import explain, pushpop
from halali.games.forest.actions import (
    CAPTURE,
    MOVE,
    OUTCOME_SHIFT,
    PASS_ACTION,
    TYPE_SHIFT,
    Action,
    exit_,
)
from halali.games.forest.fields import PositionFields
from halali.games.forest.pushpop import FINAL_TURNS
from halali.games.forest.rules import Rules
from halali.games.forest.tiles import (
    BLUE,
    BROWN,
    CODE_OF_LETTER,
    DIRECTION_LETTERS,
    DUCK,
    HIDDEN,
    KIND,
    KIND_COUNT,
    KIND_LETTERS,
    KIND_NAMES,
    LETTER,
    PHEASANT,
    PLAYER_NAMES,
    SQUARE_NAMES,
    SQUARE_OF_NAME,
    UNKNOWN,
    direction_between,
)

_PILE_LETTERS = {c: i for i, c in enumerate(KIND_LETTERS)}
P = TypeVar("P", bound=PositionFields)


# ---- positions ------------------------------------------------------------------------------
def _board_text(board: list[int]) -> str:
    ranks = []
    for r in range(6, -1, -1):
        out = []
        run = 0
        for f in range(7):
            v = board[r * 7 + f]
            if v == 0:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            if v == UNKNOWN:
                out.append("?")
            elif v >= HIDDEN:
                out.append(LETTER[v - HIDDEN].lower())
            else:
                out.append(LETTER[v])
        if run:
            out.append(str(run))
        ranks.append("".join(out))
    return "/".join(ranks)


def _pile_text(captured: list[int], exited: list[int]) -> str:
    caps = "".join(KIND_LETTERS[k] * captured[k] for k in sorted(range(7), key=lambda k: KIND_LETTERS[k]))
    exits = "".join(KIND_LETTERS[k] * exited[k] for k in sorted(range(7), key=lambda k: KIND_LETTERS[k]))
    if not caps and not exits:
        return "-"
    return caps + ("+" + exits if exits else "")


def _last_move_text(value: int) -> str:
    return "-" if value < 0 else SQUARE_NAMES[value >> 6] + SQUARE_NAMES[value & 63]


def format_position(pos: PositionFields) -> str:
    """The position in forest notation (lowercase letters where it knows a face-down tile)."""
    return " ".join(
        (
            _board_text(pos.board),
            PLAYER_NAMES[pos.turn],
            _last_move_text(pos.last_move[BLUE]),
            _last_move_text(pos.last_move[BROWN]),
            "-" if pos.lock < 0 else SQUARE_NAMES[pos.lock],
            "-" if pos.final < 0 else str(pos.final),
            str(pos.stall),
            _pile_text(pos.captured[BLUE], pos.exited[BLUE]),
            _pile_text(pos.captured[BROWN], pos.exited[BROWN]),
        )
    )


def _parse_board(text: str) -> list[int]:
    ranks = text.split("/")
    if len(ranks) != 7:
        raise NotationError(f"the board must have 7 ranks separated by '/', found {len(ranks)}")
    board = [0] * 49
    for i, rank_text in enumerate(ranks):
        rank = 7 - i
        f = 0
        for ch in rank_text:
            if ch.isdecimal():
                n = int(ch)
                if n < 1 or n > 7:
                    raise NotationError(f"rank {rank}: '{ch}' is not a count of 1 to 7 empty squares")
                f += n
            else:
                if f >= 7:
                    raise NotationError(f"rank {rank} ({rank_text!r}) has more than 7 squares")
                if ch == "?":
                    board[(rank - 1) * 7 + f] = UNKNOWN
                elif ch in CODE_OF_LETTER:
                    board[(rank - 1) * 7 + f] = CODE_OF_LETTER[ch]
                elif ch.upper() in CODE_OF_LETTER:
                    board[(rank - 1) * 7 + f] = CODE_OF_LETTER[ch.upper()] + HIDDEN
                else:
                    raise NotationError(
                        f"rank {rank}: unknown letter {ch!r} at {SQUARE_NAMES[(rank - 1) * 7 + f]}"
                        " (tiles are B F L N E S W D P T, lowercase when face down, ? when unknown)"
                    )
                f += 1
            if f > 7:
                raise NotationError(f"rank {rank} ({rank_text!r}) has more than 7 squares")
        if f != 7:
            raise NotationError(f"rank {rank} ({rank_text!r}) has {f} squares, not 7")
    return board


def _parse_last_move(text: str, who: str) -> int:
    if text == "-":
        return -1
    m = re.fullmatch(r"([a-g][1-7])([a-g][1-7])", text)
    if not m:
        raise NotationError(f"{who}'s last move {text!r} must be '-' or two squares such as c3c5")
    f, t = SQUARE_OF_NAME[m.group(1)], SQUARE_OF_NAME[m.group(2)]
    if direction_between(f, t) < 0:
        raise PositionError(f"{who}'s last move {text}: the squares are not on one rank or file")
    return f << 6 | t


def _parse_pile(text: str, who: str) -> tuple[list[int], list[int]]:
    captured, exited = [0] * 7, [0] * 7
    if text == "-":
        return captured, exited
    caps, plus, exits = text.partition("+")
    if plus and not exits:
        raise NotationError(f"{who}'s pile {text!r}: nothing after '+'")
    for part, counts in ((caps, captured), (exits, exited)):
        for ch in part:
            if ch not in _PILE_LETTERS:
                raise NotationError(f"{who}'s pile {text!r}: unknown letter {ch!r} (piles use B F L H D P T)")
            counts[_PILE_LETTERS[ch]] += 1
    return captured, exited


def read_position(text: str, rules: Rules, new: Callable[[Rules], P]) -> P:
    """Read a position into ``new(rules)``; raises NotationError / PositionError saying what is wrong
    and where."""
    if not isinstance(text, str):
        raise NotationError("a position must be text")
    fields = text.split()
    if len(fields) != 9:
        raise NotationError(
            f"a position has 9 fields separated by spaces (board, to move, blue's last move, "
            f"brown's last move, lock, final turns, stall count, blue's pile, brown's pile); found {len(fields)}"
        )
    board_t, turn_t, blue_t, brown_t, lock_t, final_t, stall_t, bpile_t, rpile_t = fields
    pos = new(rules)
    pos.board = _parse_board(board_t)
    if turn_t not in PLAYER_NAMES:
        raise NotationError(f"the player to move must be 'blue' or 'brown', not {turn_t!r}")
    pos.turn = PLAYER_NAMES.index(turn_t)
    pos.last_move = [_parse_last_move(blue_t, "blue"), _parse_last_move(brown_t, "brown")]
    if lock_t == "-":
        pos.lock = -1
    elif lock_t in SQUARE_OF_NAME:
        pos.lock = SQUARE_OF_NAME[lock_t]
    else:
        raise NotationError(f"the green lock must be '-' or a square, not {lock_t!r}")
    if final_t == "-":
        pos.final = -1
    elif final_t.isdecimal() and int(final_t) <= FINAL_TURNS:
        pos.final = int(final_t)
    else:
        raise NotationError(f"final turns left must be '-' or a number from 0 to 10, not {final_t!r}")
    if not stall_t.isdecimal():
        raise NotationError(f"the stall count must be a whole number, not {stall_t!r}")
    pos.stall = int(stall_t)
    pos.captured[BLUE], pos.exited[BLUE] = _parse_pile(bpile_t, "blue")
    pos.captured[BROWN], pos.exited[BROWN] = _parse_pile(rpile_t, "brown")
    _check_position(pos)
    pushpop.recount(pos)
    return pos


def _check_position(pos: PositionFields) -> None:
    b = pos.board
    counts = [0] * 7
    for v in b:
        if v and v != UNKNOWN:
            counts[KIND[v - HIDDEN if v >= HIDDEN else v]] += 1
    for p in (BLUE, BROWN):
        for k in range(7):
            counts[k] += pos.captured[p][k] + pos.exited[p][k]
    for k in range(7):
        if counts[k] > KIND_COUNT[k]:
            raise PositionError(
                f"{counts[k]} {KIND_NAMES[k]}s on the board and in the piles; the game has {KIND_COUNT[k]}"
            )
    total = sum(1 for v in b if v) + sum(sum(pos.captured[p]) + sum(pos.exited[p]) for p in (0, 1))
    if total > 48:
        raise PositionError(f"{total} tiles on the board and in the piles; the game has 48")
    for p, who in ((BLUE, "blue"), (BROWN, "brown")):
        # Bears, foxes, lumberjacks, hunters leave only to their owner's pile by an exit and are
        # captured only by the other side: a pile holding the wrong tiles is impossible.
        cap, ext = pos.captured[p], pos.exited[p]
        own_kinds = (0, 1) if p == BLUE else (2, 3)
        for k in range(7):
            if ext[k] and k not in own_kinds:
                raise PositionError(f"{who}'s pile: a {KIND_NAMES[k]} cannot leave the forest for {who}")
        prey = (2, 3, 4, 5) if p == BLUE else (0, 1, 4, 5, 6)
        for k in range(7):
            if cap[k] and k not in prey:
                raise PositionError(f"{who}'s pile: {who} cannot capture a {KIND_NAMES[k]}")
    hidden = any(v >= HIDDEN for v in b)
    if hidden and pos.final >= 0:
        raise PositionError("final turns are counted only once no face-down tile remains")
    if not hidden and pos.final < 0:
        raise PositionError("no face-down tile remains, so the final turns must be counted (0 to 10)")
    if pos.lock >= 0 and b[pos.lock] not in (DUCK, PHEASANT):
        raise PositionError(f"the green lock is on {SQUARE_NAMES[pos.lock]}, which holds no face-up duck or pheasant")
    # The opponent may move away a duck or pheasant whose move set the last-move field only when
    # moves do not lock it (green_lock=revealed_only): then the field of the player to move may
    # point at an empty square (the no-return rule has nothing left to forbid).
    neutral_moved_away = pos.rules.no_return_neutrals and not pos.rules.lock_on_move
    for p, who in ((BLUE, "blue"), (BROWN, "brown")):
        lm = pos.last_move[p]
        if lm >= 0:
            t = lm & 63
            if b[t] >= HIDDEN or (b[t] == 0 and not (p == pos.turn and neutral_moved_away)):
                raise PositionError(f"{who}'s last move ends on {SQUARE_NAMES[t]}, which holds no face-up tile")


# ---- actions --------------------------------------------------------------------------------
_ACTION_RE = re.compile(
    r"\?(?P<rsq>[a-g][1-7])(?:=(?P<out>[BFLNESWDPT]))?"
    r"|(?P<f>[a-g][1-7])(?P<sep>[-x])(?:(?P<t>[a-g][1-7])|(?P<exit>[NESW]))"
    r"|(?P<pass>pass)"
)


def parse_action_text(text: str) -> Action:
    """Read an action without a position (a move and a capture are told apart by their sign)."""
    if not isinstance(text, str):
        raise NotationError("an action must be text")
    m = _ACTION_RE.fullmatch(text.strip())
    if not m:
        raise NotationError(
            f"{text!r} is not an action (write ?c3, ?c3=N, c3-c6, c3xc6, d5-N or pass)"
        )
    if m.group("pass"):
        return PASS_ACTION
    if m.group("rsq"):
        sq = SQUARE_OF_NAME[m.group("rsq")]
        out = m.group("out")
        return sq | (CODE_OF_LETTER[out] << OUTCOME_SHIFT if out else 0)
    f = SQUARE_OF_NAME[m.group("f")]
    if m.group("exit"):
        if m.group("sep") == "x":
            raise NotationError(f"{text!r}: an exit is written with '-', as in d5-N")
        return exit_(f, DIRECTION_LETTERS.index(m.group("exit")))
    t = SQUARE_OF_NAME[m.group("t")]
    kind = CAPTURE if m.group("sep") == "x" else MOVE
    return kind << TYPE_SHIFT | f << 6 | t


def parse_action(pos: PositionFields, text: str | Action) -> Action:
    """Read an action in a position and check it; raises IllegalAction naming the rule it breaks.

    ``c3-c6`` onto a tile is read as the capture ``c3xc6``.
    """
    a = parse_action_text(text) if isinstance(text, str) else text
    kind = a >> TYPE_SHIFT & 7
    if kind == MOVE and 0 < pos.board[a & 63] < HIDDEN:
        a = CAPTURE << TYPE_SHIFT | (a & 4095)
    if kind == CAPTURE and pos.board[a & 63] == 0:
        sq = SQUARE_NAMES[a & 63]
        raise IllegalAction(f"{text}: there is nothing to capture on {sq}", "rule.nothing_to_capture", {"square": sq})
    return explain.check(pos, a)
