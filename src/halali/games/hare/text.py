"""Hare notation (docs/hare-notation.md) on a state's fields: positions and actions as text, and back.

Formatting is canonical: one position has exactly one string. Parsing accepts exactly that form
(hunters of a club in any order) and rejects anything malformed or impossible with a message that
names the field and what is wrong with it.

It reads and writes a state as the :class:`StateFields` it is built on (``fields.py``) and builds
one with the constructor it is given, so that ``state.py``, whose text conveniences call it, is not
imported back; ``notation.py`` is the public face, which builds a ``StateFields``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from halali.games.errors import IllegalAction, NotationError, PositionError
from halali.games.hare.actions import Action, parse_action_text
from halali.games.hare.board import (
    BUSH_CELLS,
    CENTRE,
    DIRECTION_NAMES,
    DIRECTION_OF_NAME,
    INDEX_OF_NAME,
    NAMES,
)
from halali.games.hare.clubs import CLUB_LETTERS, NCLUBS, NHUNTERS, PER_CLUB, UNKNOWN
from halali.games.hare.fields import StateFields
from halali.games.hare.legality import check_action
from halali.games.hare.phases import PH_AIM, PH_ASSIGN, PH_BUSH, PH_MOVE, PH_OVER, PH_ROLL, PH_SHOOT, PHASES
from halali.games.hare.rules import DEFAULT_RULES, SAFEGUARD_ROUNDS, HareRules
from halali.games.hare.shots import pending

FIELDS = ("hunters", "bush", "seats", "to move", "phase", "detail", "quiet turns", "turn", "options", "dice secret")
_RE_HUNTER = re.compile(r"([a-k](?:1[01]|[1-9]))(NE|NW|SE|SW|E|W)")
_RE_SEAT = re.compile(r"([RYGBWK?])(?:@(\d+))?")
_RE_SECRET = re.compile(r"([0-9a-f]{32}):(\d+)")
S = TypeVar("S", bound=StateFields)


# ---- formatting -----------------------------------------------------------------------------
def _cells(st: StateFields, hunters: list[int]) -> str:
    return ",".join(NAMES[c] for c in sorted(st.hcell[h] for h in hunters)) or "-"


def format_position(st: StateFields) -> str:
    clubs = []
    for club in range(NCLUBS):
        hs = sorted((st.hcell[h], st.hface[h]) for h in range(club * PER_CLUB, (club + 1) * PER_CLUB)
                    if st.hcell[h] >= 0)
        clubs.append(",".join(f"{NAMES[c]}{DIRECTION_NAMES[f]}" for c, f in hs) or "-")
    seats = []
    for p in range(st.nplayers):
        c = st.clubs[p]
        token = "?" if c == UNKNOWN else CLUB_LETTERS[c]
        seats.append(token if st.out[p] < 0 else f"{token}@{st.out[p]}")
    ph = st.phase
    if ph == PH_ASSIGN:
        assert st.dice is not None  # each phase holds what it was entered with
        detail = f"{st.dice[0]},{st.dice[1]}"
    elif ph == PH_MOVE:
        assert st.assign is not None
        n, p = st.assign
        cur = f"{NAMES[st.hcell[st.cur]]}:{st.cur_points}" if st.cur >= 0 else "-"
        detail = f"{n}x{p}/{st.left}/{cur}/{_cells(st, st.done)}"
    elif ph == PH_SHOOT:
        assert st.shot is not None
        a, b = st.shot
        detail = f"{a},{b}" + (f"/{_cells(st, st.chosen)}" if st.chosen else "")
    else:
        detail = "-"
    return " ".join((
        "/".join(clubs),
        NAMES[st.bush] if st.bush >= 0 else "-",
        ",".join(seats),
        "-" if ph == PH_OVER else str(st.to_move + 1),
        ph,
        detail,
        str(st.quiet),
        str(st.turn),
        ",".join(st.rules.to_strings()) or "-",
        f"{st.secret:032x}:{st.rolls}" if st.secret is not None else "-",
    ))


# ---- parsing --------------------------------------------------------------------------------
def _err(i: int, msg: str, cls: type[NotationError] = NotationError) -> NotationError:
    return cls(f"field {i + 1} ({FIELDS[i]}): {msg}")


def _cell(name: str, i: int) -> int:
    if name not in INDEX_OF_NAME:
        raise _err(i, f"{name!r} is not a cell of the board (files a-k, ranks 1-11)")
    return INDEX_OF_NAME[name]


def _number(text: str, i: int) -> int:
    if not text.isdecimal():
        raise _err(i, f"expected a whole number, got {text!r}")
    return int(text)


def read_position(text: str, rules: HareRules | None, new: Callable[[int, HareRules], S]) -> S:
    """The state ``new(seats, options)`` filled from its notation; ``rules`` (if given) must agree
    with the position's options field."""
    parts = text.split()
    if len(parts) != len(FIELDS):
        raise NotationError(f"a hare position has {len(FIELDS)} fields separated by spaces "
                            f"({', '.join(FIELDS)}); got {len(parts)}")
    try:
        opts = DEFAULT_RULES if parts[8] == "-" else DEFAULT_RULES.with_options(parts[8])
    except NotationError as exc:
        raise _err(8, str(exc)) from exc
    if rules is not None and rules != opts:
        raise _err(8, f"the position says {parts[8]!r} but the rules given are "
                      f"{','.join(rules.to_strings()) or 'the defaults'}")
    if parts[8] != "-" and parts[8] != ",".join(opts.to_strings()):
        raise _err(8, f"write {','.join(opts.to_strings()) or '-'!r} (only options that differ from the defaults,"
                      " in the order bush, overshoot)")
    seats = parts[2].split(",")
    if not 2 <= len(seats) <= 6:
        raise _err(2, f"2 to 6 seats, comma-separated; got {len(seats)}")
    st = new(len(seats), opts)
    _parse_hunters(st, parts[0])
    _parse_bush(st, parts[1])
    _parse_seats(st, seats)
    _parse_tail(st, parts)
    _validate(st)
    return st


def _parse_hunters(st: StateFields, field: str) -> None:
    groups = field.split("/")
    if len(groups) != NCLUBS:
        raise _err(0, f"six clubs ({'/'.join(CLUB_LETTERS)}) separated by '/'; got {len(groups)}")
    for club, group in enumerate(groups):
        if group == "-":
            continue
        items = group.split(",")
        if len(items) > PER_CLUB:
            raise _err(0, f"club {CLUB_LETTERS[club]} has {len(items)} hunters, at most {PER_CLUB}", PositionError)
        for k, item in enumerate(items):
            m = _RE_HUNTER.fullmatch(item)
            if not m:
                raise _err(0, f"club {CLUB_LETTERS[club]}: {item!r} is not CELL+FACING (like e1NE)")
            c = _cell(m[1], 0)
            if c == CENTRE:
                raise _err(0, f"a hunter on {m[1]}, the hare's cell", PositionError)
            if st.occ[c] >= 0:
                raise _err(0, f"two hunters on {m[1]}", PositionError)
            h = club * PER_CLUB + k
            st.hcell[h] = c
            st.hface[h] = DIRECTION_OF_NAME[m[2]]
            st.occ[c] = h


def _parse_bush(st: StateFields, field: str) -> None:
    if field == "-":
        return
    c = _cell(field, 1)
    if c not in BUSH_CELLS:
        raise _err(1, f"the bush on {field} is not at distance 2 or 3 from the hare", PositionError)
    if st.occ[c] >= 0:
        raise _err(1, f"the bush and a hunter on {field}", PositionError)
    if not st.rules.bush:
        raise _err(1, "a bush in a game with bush=off", PositionError)
    st.bush = c


def _parse_seats(st: StateFields, seats: list[str]) -> None:
    for p, token in enumerate(seats):
        m = _RE_SEAT.fullmatch(token)
        if not m:
            raise _err(2, f"seat {p + 1}: {token!r} is not a club letter ({CLUB_LETTERS}) or '?', "
                          "optionally followed by @TURN")
        st.clubs[p] = UNKNOWN if m[1] == "?" else CLUB_LETTERS.index(m[1])
        st.out[p] = int(m[2]) if m[2] is not None else -1
    known = [c for c in st.clubs if c != UNKNOWN]
    if len(set(known)) != len(known):
        raise _err(2, "two seats hold the same club card", PositionError)


def _parse_tail(st: StateFields, parts: list[str]) -> None:
    ph = parts[4]
    if ph not in PHASES:
        raise _err(4, f"{ph!r} is not one of {', '.join(PHASES)}")
    st.phase = ph
    if ph == PH_OVER:
        if parts[3] != "-":
            raise _err(3, "'-' once the hunt is over")
    else:
        n = _number(parts[3], 3)
        if not 1 <= n <= st.nplayers:
            raise _err(3, f"a seat number 1..{st.nplayers}, got {n}")
        st.to_move = n - 1
    _parse_detail(st, parts[5])
    st.quiet = _number(parts[6], 6)
    st.turn = _number(parts[7], 7)
    if parts[9] != "-":
        m = _RE_SECRET.fullmatch(parts[9])
        if not m:
            raise _err(9, "'-' or 32 lowercase hex digits, ':' and the number of rolls made")
        st.secret = int(m[1], 16)
        st.rolls = int(m[2])


def _dice(text: str, i: int) -> tuple[int, int]:
    m = re.fullmatch(r"([0-4]),([0-4])", text)
    if not m:
        raise _err(i, f"expected two dice faces A,B (0..4), got {text!r}")
    a, b = int(m[1]), int(m[2])
    if a > b:
        raise _err(i, f"write the dice smaller first: {b},{a}")
    return a, b


def _hunter_at(st: StateFields, name: str, i: int) -> int:
    c = _cell(name, i)
    h = st.occ[c]
    if h < 0:
        raise _err(i, f"no hunter on {name}", PositionError)
    return h


def _cell_list(st: StateFields, text: str, i: int) -> list[int]:
    if text == "-":
        return []
    hs = [_hunter_at(st, name, i) for name in text.split(",")]
    if len(set(hs)) != len(hs):
        raise _err(i, f"a hunter listed twice in {text!r}")
    if [st.hcell[h] for h in hs] != sorted(st.hcell[h] for h in hs):
        raise _err(i, f"list the cells of {text!r} in board order")
    return hs


def _parse_detail(st: StateFields, text: str) -> None:
    ph = st.phase
    if ph in (PH_BUSH, PH_ROLL, PH_AIM, PH_OVER):
        if text != "-":
            raise _err(5, f"'-' in the {ph} phase, got {text!r}")
        return
    if ph == PH_ASSIGN:
        a, b = _dice(text, 5)
        if a == 0 or a == b:
            raise _err(5, f"no choice to make with the dice {a},{b}", PositionError)
        st.dice = (a, b)
        return
    if ph == PH_MOVE:
        m = re.fullmatch(r"([1-4])x([1-4])/([0-4])/(-|[a-k](?:1[01]|[1-9]):[0-4])/(\S+)", text)
        if not m:
            raise _err(5, f"in the move phase write NxP/LEFT/CELL:POINTS/CELLS (like 2x3/1/e5:2/-), got {text!r}")
        n, p, left = int(m[1]), int(m[2]), int(m[3])
        st.assign = (n, p)
        st.left = left
        if m[4] != "-":
            name, pts = m[4].split(":")
            st.cur = _hunter_at(st, name, 5)
            st.cur_points = int(pts)
            if st.cur_points > p:
                raise _err(5, f"{st.cur_points} points left of {p}", PositionError)
        st.done = _cell_list(st, m[5], 5)
        if st.cur in st.done:
            raise _err(5, "the hunter moving now is also listed as done", PositionError)
        used = len(st.done) + (st.cur >= 0)
        if used + left != n:
            raise _err(5, f"{used} hunters moved and {left} left do not make the {n} the dice allow", PositionError)
        if st.cur < 0 and st.done:
            raise _err(5, "hunters are done but none is the last one moved", PositionError)
        if st.cur_points == 0 and left == 0 and st.cur >= 0:
            raise _err(5, "every point is spent: the movement is over", PositionError)
        return
    a_, _, chosen = text.partition("/")
    st.shot = _dice(a_, 5)
    st.chosen = _cell_list(st, chosen, 5) if chosen else []
    if chosen == "-":
        raise _err(5, "write no '/-' when nobody has been chosen")


def _validate(st: StateFields) -> None:
    """Consistency a hand-written position must have (the engine never produces anything else)."""
    ph = st.phase
    if ph == PH_BUSH:
        if not st.rules.bush:
            raise _err(4, "no bush to place in a game with bush=off", PositionError)
        if st.bush >= 0:
            raise _err(1, "the bush is already placed in the bush phase", PositionError)
    elif st.rules.bush and st.bush < 0:
        raise _err(1, "the bush is placed before the first roll (or play with bush=off)", PositionError)
    for p in range(st.nplayers):
        c = st.clubs[p]
        if st.out[p] >= 0:
            if st.out[p] >= st.turn:
                raise _err(2, f"seat {p + 1} out in turn {st.out[p]}, but this is turn {st.turn}", PositionError)
            if c != UNKNOWN and st.club_count(c) > 0:
                raise _err(2, f"seat {p + 1} is out but club {CLUB_LETTERS[c]} has hunters", PositionError)
        elif c != UNKNOWN and st.club_count(c) == 0:
            raise _err(2, f"seat {p + 1} plays on without hunters of club {CLUB_LETTERS[c]}", PositionError)
    ins = st.players_in()
    if ph == PH_OVER:
        if len(ins) > 1 and st.quiet < SAFEGUARD_ROUNDS * len(ins):
            raise _err(4, "over, but several players are still in and the safeguard has not been reached",
                       PositionError)
        return
    if not ins or st.out[st.to_move] >= 0:
        raise _err(3, f"seat {st.to_move + 1} is out and cannot be to move", PositionError)
    if len(ins) < 2:
        raise _err(4, "only one player is left: the hunt is over", PositionError)
    if st.quiet >= SAFEGUARD_ROUNDS * len(ins):
        raise _err(6, f"{st.quiet} quiet turns reach the safeguard: the hunt is over", PositionError)
    if ph == PH_AIM and not st.aiming():
        raise _err(4, "nobody aims at the hare: there is no shot to roll", PositionError)
    if ph == PH_SHOOT:
        if not st.aiming():
            raise _err(4, "nobody aims at the hare: there is no shot", PositionError)
        if st.shot == (0, 0):
            if st.chosen:
                raise _err(5, "after an explosion one hunter is removed and the turn ends", PositionError)
            return
        for k, h in enumerate(st.chosen):
            live, _ = pending(st.pairs(), st.chosen[:k])
            if h not in live:
                raise _err(5, f"{NAMES[st.hcell[h]]} could not have been chosen", PositionError)
        if not pending(st.pairs(), st.chosen)[0]:
            raise _err(5, "the shot is fully resolved: the turn is over", PositionError)
    if sum(1 for h in range(NHUNTERS) if st.hcell[h] >= 0) == 0:
        raise _err(0, "no hunter left", PositionError)


def parse_action(st: StateFields, text: str) -> Action:
    """The legal action ``text`` names in ``st``; raises NotationError or IllegalAction."""
    a = parse_action_text(text)
    check_action(st, a)
    return a


__all__ = ["FIELDS", "IllegalAction", "format_position", "parse_action", "read_position"]
