"""Both boards as plain text, for the environments' ``ansi`` render mode.

Plain characters only (no colour codes), so the text reads the same in a terminal, a log and a notebook.
The command line's coloured drawing (``halali.cli.draw_forest``, ``draw_hare``) is built on ``rich``,
which the interop layer does not use; the letters are the notation's.
"""

from __future__ import annotations

from halali.games.forest.position import Position
from halali.games.forest.tiles import HIDDEN, HUNTERS, LETTER, PLAYER_NAMES, UNKNOWN
from halali.games.hare.board import CENTRE, INDEX, NAMES, RADIUS
from halali.games.hare.clubs import CLUB_LETTERS, PER_CLUB
from halali.games.hare.phases import PH_OVER
from halali.games.hare.state import HareState

_FOREST_ARROWS = {HUNTERS[0]: "^", HUNTERS[1]: ">", HUNTERS[2]: "v", HUNTERS[3]: "<"}
_HARE_ARROWS = ("→", "↗", "↖", "←", "↙", "↘")  # E NE NW W SW SE


def _forest_cell(code: int) -> str:
    if code == 0:
        return " . "
    if code >= HIDDEN or code == UNKNOWN:
        return " # "
    if code in _FOREST_ARROWS:
        return " H" + _FOREST_ARROWS[code]
    return f" {LETTER[code]} "


def forest_text(pos: Position) -> str:
    """The board (rank 7 on top; ``#`` face down, ``H^`` a hunter aiming north, exits at the middle
    of each edge) and a status line: who moves, tiles face down or final turns left, the scores."""
    lines = ["              N"]
    for rank in range(6, -1, -1):
        row = "".join(_forest_cell(pos.board[rank * 7 + f]) for f in range(7))
        left, right = ("W", "E") if rank == 3 else (" ", " ")
        lines.append(f" {rank + 1} {left}{row}{right}")
    lines.append("     " + "".join(f" {f} " for f in "abcdefg"))
    lines.append("              S")
    if pos.is_over():
        w = pos.winner()
        status = "over: " + ("a draw" if w is None else f"{PLAYER_NAMES[w]} wins")
    else:
        status = f"{PLAYER_NAMES[pos.turn]} to move"
        status += f", {pos.final} final turns left" if pos.final >= 0 else f", {len(pos.hidden)} face down"
    status += f", score blue {pos.score[0]} brown {pos.score[1]}"
    if pos.last_action is not None:
        status += f", last {pos.action_str(pos.last_action)}"
    return "\n".join([*lines, status]) + "\n"


def hare_text(st: HareState) -> str:
    """The hex board, top row first (``H`` the hare, ``*`` the bush, a hunter its club letter and an
    arrow for its facing) and a status line: the turn, who decides what."""
    lines = []
    for r in range(-RADIUS, RADIUS + 1):
        qs = [q for q in range(-RADIUS, RADIUS + 1) if (q, r) in INDEX]
        cells = []
        for q in qs:
            c = INDEX[(q, r)]
            h = st.occ[c]
            if c == CENTRE:
                cells.append("H ")
            elif c == st.bush:
                cells.append("* ")
            elif h >= 0:
                cells.append(CLUB_LETTERS[h // PER_CLUB] + _HARE_ARROWS[st.hface[h]])
            else:
                cells.append(". ")
        first = NAMES[INDEX[(qs[0], r)]]
        lines.append(f"{RADIUS + 1 - r:>3} {'  ' * abs(r)}{first[0]}  {'  '.join(cells)}")
    counts = " ".join(f"{CLUB_LETTERS[c]}{st.club_count(c)}" for c in range(6))
    if st.phase == PH_OVER:
        status = "over: " + ", ".join(f"seat {p + 1}" for p in st.winners()) + " win"
    else:
        status = f"turn {st.turn + 1}, seat {st.to_move + 1}: {st.phase}"
    return "\n".join([*lines, f"{status}; hunters {counts}"]) + "\n"
