"""The hare hunt drawn for a terminal: the hex board as coloured text, the seats, the phase.

Pure functions from a view to ``rich`` renderables; printing them is ``halali hare play``'s business.
It lives with the command line because the rules (``halali.games``) do no I/O and know nothing of
terminals.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from halali.games.hare.board import CENTRE, DIRECTION_NAMES, INDEX, NAMES, RADIUS
from halali.games.hare.clubs import CLUB_LETTERS, CLUB_NAMES, PER_CLUB, UNKNOWN
from halali.games.hare.phases import PH_ASSIGN, PH_MOVE, PH_OVER, PH_SHOOT
from halali.games.hare.state import HareState

ARROWS = ("→", "↗", "↖", "←", "↙", "↘")  # E NE NW W SW SE
CLUB_STYLES = ("bold white on red3", "bold black on yellow2", "bold black on green3",
               "bold white on blue3", "bold black on grey93", "bold white on grey11")
PHASE_TEXT = {
    "bush": "places the bush",
    "roll": "rolls for movement",
    "assign": "chooses which die counts hunters",
    "move": "moves hunters",
    "aim": "rolls the shot",
    "shoot": "chooses whom the shot removes",
}


def render_board(view: HareState, marked: set[int] | None = None) -> Text:
    """The board, top row (rank 11) first; each row starts with its rank and its first file."""
    marked = marked or set()
    aiming = set(view.aiming())
    out = Text()
    for r in range(-RADIUS, RADIUS + 1):
        qs = [q for q in range(-RADIUS, RADIUS + 1) if (q, r) in INDEX]
        out.append(f"{RADIUS + 1 - r:>3} ", style="bold")
        out.append(" " * (2 * abs(r)))
        out.append(f"{NAMES[INDEX[(qs[0], r)]][0]} ", style="dim")
        for q in qs:
            c = INDEX[(q, r)]
            h = view.occ[c]
            if c == CENTRE:
                out.append(" H  ", style="bold black on wheat1")
            elif c == view.bush:
                out.append(" ♣  ", style="bold green")
            elif h >= 0:
                style = CLUB_STYLES[h // PER_CLUB]
                if h in aiming:
                    style += " underline"
                if c in marked or h == view.cur:
                    style += " reverse"
                out.append(f"{CLUB_LETTERS[h // PER_CLUB]}{ARROWS[view.hface[h]]}", style=style)
                out.append("  ")
            else:
                out.append(" ·  ", style="on grey23" if c in marked else "dim")
        out.append(f"{NAMES[INDEX[(qs[-1], r)]][0]}\n", style="dim")
    return out


def render_seats(view: HareState, names: list[str]) -> Table:
    table = Table(show_header=True, header_style="bold", box=None)
    for col in ("seat", "player", "club", "hunters left", ""):
        table.add_column(col)
    for p in range(view.nplayers):
        c = view.clubs[p]
        club = Text(f"{CLUB_NAMES[c]} ({CLUB_LETTERS[c]})", style=CLUB_STYLES[c]) if c != UNKNOWN else Text("?")
        left = str(view.club_count(c)) if c != UNKNOWN else "?"
        status = f"out in turn {view.out[p]}" if view.out[p] >= 0 else ("to move" if p == view.to_move
                                                                           and view.phase != PH_OVER else "")
        table.add_row(str(p + 1), names[p], club, left, status)
    return table


def describe(view: HareState, names: list[str]) -> str:
    """One line: who decides what, and the numbers that matter now."""
    counts = " ".join(f"{CLUB_LETTERS[c]}{view.club_count(c)}" for c in range(6))
    parts = [f"turn {view.turn + 1}", f"hunters {counts}"]
    if view.phase == PH_OVER:
        w = view.winners()
        parts.append("over: " + " and ".join(names[p] for p in w) + (" share the win" if len(w) > 1 else " wins"))
        return " · ".join(parts)
    parts.append(f"{names[view.to_move]} {PHASE_TEXT[view.phase]}")
    if view.phase == PH_ASSIGN:
        parts.append(f"dice {view.dice[0]} and {view.dice[1]}")  # type: ignore[index]
    elif view.phase == PH_MOVE:
        n, pts = view.assign  # type: ignore[misc]
        parts.append(f"{n} hunters x {pts} points, {view.left} more may start")
        if view.cur >= 0:
            parts.append(f"{NAMES[view.hcell[view.cur]]} has {view.cur_points} points left")
    elif view.phase == PH_SHOOT:
        a, b = view.shot  # type: ignore[misc]
        parts.append("a gun explodes" if a + b == 0 else f"shot {a + b} ({a}+{b})")
    ins = len(view.players_in())
    parts.append(f"quiet turns {view.quiet}/{60 * ins}")
    return " · ".join(parts)


def legend() -> str:
    return ("Cells are named by file (a-k, the letters at both ends of each row) and rank (1-11, left). "
            "H is the hare on f6, ♣ the bush; a hunter shows its club letter and facing "
            f"({', '.join(f'{a} {d}' for a, d in zip(ARROWS, DIRECTION_NAMES, strict=True))}); "
            "underlined hunters aim at the hare.")
