"""``halali play``: a whole match in the terminal, against a bot or two people at one keyboard.

The terminal is just another client: it shows the public view (never the deal), takes an action in
notation or by its number in the list, and lets the engine judge it.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from halali.ai.registry import make_bot, strongest_level
from halali.games.errors import HalaliError
from halali.games.forest.match import Match
from halali.games.forest.position import Position
from halali.games.forest.tiles import (
    DIRECTION_LETTERS,
    HUNTERS,
    KIND,
    KIND_LETTERS,
    KIND_NAMES,
    LETTER,
    OWNER,
    PLAYER_NAMES,
    SQUARE_NAMES,
    UNKNOWN,
)

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


def _list_actions(view: Position) -> list[str]:
    return sorted(view.action_str(a) for a in view.legal_actions())


def _ask(console: Console, view: Position, name: str) -> str | None:
    """Read one action from the player; None at end of input or on 'quit'."""
    actions = _list_actions(view)
    numbered = "  ".join(f"[cyan]{i}[/]:{a}" for i, a in enumerate(actions, 1))
    console.print(numbered)
    while True:
        try:
            raw = console.input(f"[bold]{name}[/] ({PLAYER_NAMES[view.turn]}), your action: ").strip()
        except EOFError:
            return None
        if raw in ("q", "quit", "exit"):
            return None
        if raw in ("?", "help"):
            console.print("Type an action in notation (?c3 reveal, c3-c6 move, c3xc6 capture, d5-N exit, pass) "
                          "or its number from the list; 'quit' ends the game.")
            continue
        if raw.isdigit():
            n = int(raw)
            if 1 <= n <= len(actions):
                return actions[n - 1]
            console.print(f"[red]No action number {n}: choose 1 to {len(actions)}.[/]")
            continue
        try:
            return view.action_str(view.parse_action(raw))
        except HalaliError as exc:
            console.print(f"[red]{exc}[/]")


def _summary(console: Console, match: Match, names: list[str]) -> None:
    pos = match.position
    w = pos.winner()
    who = "a draw" if w is None else f"{PLAYER_NAMES[w]} wins"
    console.print(f"[bold]Game {match.game_index + 1} over:[/] blue {pos.score[0]} - brown {pos.score[1]}, {who}.")


def play_match(console: Console, match: Match, names: list[str], bots: dict[int, object],
               movetime: float | None) -> int:
    """Play the match; returns 0 when finished, 1 when a player quit."""
    while True:
        pos = match.position
        if pos.is_over():
            _summary(console, match, names)
            if not match.can_start_next():
                break
            match.start_next()
            console.rule(f"Game {match.game_index + 1}: roles swapped")
            continue
        view = pos.view()
        seat = match.seat_to_move()
        console.print(render_board(view))
        console.print(render_status(match, names))
        console.print(describe(view))
        bot = bots.get(seat)
        if bot is not None:
            text = view.action_str(bot.choose(view, movetime))  # type: ignore[attr-defined]
            console.print(f"[bold]{names[seat]}[/] plays [green]{text}[/]")
        else:
            answer = _ask(console, view, names[seat])
            if answer is None:
                console.print("Game abandoned.")
                return 1
            text = answer
        a = pos.play(text if not text.startswith("?") else text.split("=")[0])
        if a >> 12 & 7 == 0:
            code = pos.board[a & 63]
            arrow = f" (rifle {DIRECTION_LETTERS[HUNTERS.index(code)]})" if code in HUNTERS else ""
            console.print(f"{SQUARE_NAMES[a & 63]}: a {KIND_NAMES[KIND[code]]}{arrow}")
    points, tiles = match.totals()
    w = match.winner()
    if match.number_of_games == 2:
        console.print(f"[bold]Match over:[/] {names[0]} {points[0]} - {names[1]} {points[1]} "
                      f"(tiles {tiles[0]} - {tiles[1]}): "
                      + ("a draw." if w is None else f"{names[w]} wins the match."))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from halali.cli.common import rules_from

    rules = rules_from(args)
    console = Console(force_terminal=None if sys.stdout.isatty() else False, highlight=False)
    match = Match(rules, seed=args.seed)
    opponent = args.opponent
    bots: dict[int, object] = {}
    if opponent == "human":
        names = ["Player 1", "Player 2"]
    else:
        bot = make_bot(opponent, args.seed)
        bots[1] = bot
        names = ["You", f"{bot.name} bot"]
    if args.second:
        names.reverse()
        bots = {1 - seat: b for seat, b in bots.items()}
    console.print("[bold]Halali![/] Bears and foxes (blue) against hunters and lumberjacks (brown). Blue starts.")
    console.print(f"{names[0]} plays brown in game 1 and blue in game 2." if match.number_of_games == 2
                  else f"{names[0]} plays brown.")
    return play_match(console, match, names, bots, args.movetime)


def register(sub: argparse._SubParsersAction) -> None:
    from halali.cli.common import add_rules_option
    from halali.cli.game_option import add_game_option, for_game

    p = sub.add_parser("play", help="play a match in the terminal against a bot or a friend")
    p.add_argument("--opponent", default=str(strongest_level()),
                   help="a bot level (1..N), 'random', 'greedy', or 'human' for two people at one keyboard")
    p.add_argument("--second", action="store_true", help="take the second seat (blue in game 1)")
    p.add_argument("--seed", type=int, default=None, help="deal from this seed (replays, practice)")
    p.add_argument("--movetime", type=float, default=1.0, help="seconds a searching bot may think")
    p.add_argument("--seat", type=int, default=None, help="hare hunt: your seat, 1..players")
    p.add_argument("--watch", action="store_true", help="hare hunt: bots in every seat")
    add_rules_option(p)
    add_game_option(p)
    p.set_defaults(func=for_game("play", _cmd_play))

