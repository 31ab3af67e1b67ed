"""The forest game drawn for a terminal: the board as coloured text, the score table, the status line.

Pure functions from a view (or a match) to ``rich`` renderables; the commands that print them are
``halali play`` and ``halali replay``. It lives with the command line because the rules
(``halali.games``) do no I/O and know nothing of terminals.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from halali.games.forest.match import Match
from halali.games.forest.position import Position
from halali.games.forest.tiles import HUNTERS, KIND_LETTERS, LETTER, OWNER, PLAYER_NAMES, UNKNOWN

ARROWS = {HUNTERS[0]: "↑", HUNTERS[1]: "→", HUNTERS[2]: "↓", HUNTERS[3]: "←"}
STYLES = {0: "bold white on blue", 1: "bold white on dark_orange3", 2: "bold black on green3"}


def _cell(code: int, highlight: bool) -> Text:
    if code == 0:
        return Text(" · ", style="on grey23" if highlight else "dim")
    if code == UNKNOWN:
        return Text(" ▒ ", style="grey62 on grey30")
    letter = LETTER[code] if code not in ARROWS else "H"
    text = f"{letter}{ARROWS.get(code, ' ')} " if code in ARROWS else f" {letter} "
    style = STYLES[OWNER[code]]
    if highlight:
        style += " underline"
    return Text(text, style=style)


def render_board(view: Position) -> Text:
    """The public view as coloured text: ranks 7..1, exits as arrows beside d7, g4, d1, a4."""
    marked: set[int] = set()
    if view.last_action is not None:
        a = view.last_action
        marked = {a & 63, a >> 6 & 63} if a >> 12 & 7 in (1, 2) else {a & 63} if a >> 12 & 7 == 0 else set()
    out = Text()
    out.append("          N ↑\n", style="bold")
    for rank in range(6, -1, -1):
        out.append(f" {rank + 1} ", style="bold")
        out.append("W ←" if rank == 3 else "   ", style="bold")
        for f in range(7):
            sq = rank * 7 + f
            out.append_text(_cell(view.board[sq], sq in marked))
        out.append(" → E" if rank == 3 else "", style="bold")
        out.append("\n")
    out.append("      " + "".join(f" {c} " for c in "abcdefg") + "\n", style="bold")
    out.append("          S ↓\n", style="bold")
    return out


def _pile(view: Position, player: int) -> str:
    parts = []
    for k, letter in enumerate(KIND_LETTERS):
        if view.captured[player][k]:
            parts.append(f"{view.captured[player][k]}{letter}")
    exits = [f"{view.exited[player][k]}{letter}" for k, letter in enumerate(KIND_LETTERS) if view.exited[player][k]]
    text = " ".join(parts) or "-"
    return text + (f"  exits {' '.join(exits)}" if exits else "")


def render_status(match: Match, names: list[str]) -> Table:
    pos = match.position
    table = Table(show_header=True, header_style="bold", box=None)
    table.add_column("player")
    table.add_column("colour")
    table.add_column("score", justify="right")
    table.add_column("pile")
    table.add_column("match total", justify="right")
    points, _ = match.totals()
    for seat in (0, 1):
        colour = match.colour_of(seat)
        table.add_row(names[seat], PLAYER_NAMES[colour], str(pos.score[colour]), _pile(pos, colour), str(points[seat]))
    return table


def describe(view: Position) -> str:
    parts = [f"{PLAYER_NAMES[view.turn]} to move"]
    if view.final >= 0:
        parts.append(f"final turns left: {view.final}")
    else:
        parts.append(f"face-down tiles: {len(view.hidden)}")
        if view.rules.stall_limit:
            parts.append(f"turns without reveal/capture/exit: {view.stall}/{view.rules.stall_limit}")
    if view.last_action is not None:
        parts.append(f"last action: {view.action_str(view.last_action)}")
    return " · ".join(parts)
