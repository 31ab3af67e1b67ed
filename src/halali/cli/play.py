"""``halali play``: a whole match in the terminal, against a bot or two people at one keyboard.

The terminal is just another client: it shows the public view (never the deal), takes an action in
notation or by its number in the list, and lets the engine judge it.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from halali.ai.registry import make_bot, strongest_level
from halali.cli.common import add_rules_option, rules_from
from halali.cli.draw_forest import describe, render_board, render_status
from halali.cli.game_option import add_game_option, for_game
from halali.games.errors import HalaliError
from halali.games.forest.match import Match
from halali.games.forest.position import Position
from halali.games.forest.tiles import DIRECTION_LETTERS, HUNTERS, KIND, KIND_NAMES, PLAYER_NAMES, SQUARE_NAMES


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
        if raw in actions:  # as the list shows it: "?d5" reveals, the terminal holds the deal
            return raw
        if raw.isdecimal():
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
                      + ("a draw." if w is None else f"{names[w]} {_verb(names[w], 'wins')} the match."))
    return 0


def _verb(name: str, verb: str) -> str:
    """The verb as it goes with the name: "You play", "Player 1 plays"."""
    return verb[:-1] if name == "You" else verb


def _cmd_play(args: argparse.Namespace) -> int:
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
    plays = _verb(names[0], "plays")
    console.print(f"{names[0]} {plays} brown in game 1 and blue in game 2." if match.number_of_games == 2
                  else f"{names[0]} {plays} brown.")
    return play_match(console, match, names, bots, args.movetime)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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

