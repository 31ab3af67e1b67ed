"""The hare hunt on the command line: ``halali hare new|legal|apply|play|arena``.

``new_main``, ``legal_main``, ``apply_main`` and ``play_main`` take an argparse namespace and read
only the attributes they need (with defaults for the ones a caller may not define), so the generic
subcommands (``halali new --game hare ...``) can hand over to them as they are.

This is command-line glue, kept out of ``halali.games`` (which stays pure): it prints, reads the
terminal, and (inside ``play_main`` and ``arena_main`` only, so that ``halali new --game hare`` stays
quick) reaches for the bots.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from halali.cli.common import batch as _batch
from halali.cli.draw_hare import PHASE_TEXT, describe, legend, render_board, render_seats
from halali.games.errors import HalaliError
from halali.games.hare.actions import NO_OUTCOME, REMOVE, ROLL, action_str, parse_action_text
from halali.games.hare.board import NAMES
from halali.games.hare.clubs import CLUB_LETTERS, CLUB_NAMES, PER_CLUB
from halali.games.hare.notation import FIELDS, parse_position
from halali.games.hare.phases import PH_MOVE
from halali.games.hare.rules import DEFAULT_RULES, HareRules
from halali.games.hare.state import HareState

DEFAULT_PLAYERS = 3


class HareUsageError(HalaliError):
    """Bad command-line input for the hare hunt."""


def _rules(args: argparse.Namespace) -> HareRules:
    return DEFAULT_RULES.with_options(getattr(args, "rules", None) or [])


def _given_rules(args: argparse.Namespace) -> HareRules | None:
    """The rules named on the command line, or None to take each position's own options field."""
    return _rules(args) if getattr(args, "rules", None) else None


def _players(args: argparse.Namespace) -> int:
    n = getattr(args, "players", None) or DEFAULT_PLAYERS
    if not 2 <= n <= 6:
        raise HareUsageError(f"the hare hunt is for 2 to 6 players, not {n}")
    return int(n)


# ---- new, legal, apply ----------------------------------------------------------------------
def new_main(args: argparse.Namespace) -> int:
    """Print the full position of a fresh hunt (``players``, ``seed``, ``rules``)."""
    print(HareState.new(_players(args), _rules(args), seed=getattr(args, "seed", None)).fen())
    return 0


def _legal_line(text: str, rules: HareRules | None) -> str:
    st = parse_position(text.strip(), rules)
    return " ".join(sorted(action_str(a) for a in st.legal_actions()))


def legal_main(args: argparse.Namespace) -> int:
    """Print the legal actions of a position (``position``: a string or a list of words); without one,
    of every position read from standard input, one line each."""
    rules = _given_rules(args)
    position = getattr(args, "position", None)
    if isinstance(position, list):
        position = " ".join(position)
    if position:
        print(_legal_line(position, rules))
        return 0
    return _batch(lambda line: _legal_line(line, rules))


def _apply_words(words: list[str], rules: HareRules | None) -> str:
    n = len(FIELDS)
    if len(words) < n:
        raise HareUsageError(f"a hare position has {n} fields; got {len(words)} words")
    st = parse_position(" ".join(words[:n]), rules)
    for text in words[n:]:
        st.play(text)
    return st.fen()


def apply_main(args: argparse.Namespace) -> int:
    """Print the position after the actions (``position`` and ``actions``; the position's ten fields may
    also arrive as separate words). Without a position, read ``POSITION ; ACTION ...`` lines."""
    rules = _given_rules(args)
    position = getattr(args, "position", None)
    actions = list(getattr(args, "actions", None) or [])
    if isinstance(position, list):
        words = [w for part in position for w in part.split()] + actions
    else:
        words = (position.split() if position else []) + actions
    if words:
        print(_apply_words(words, rules))
        return 0

    def one(line: str) -> str:
        pos, sep, acts = line.partition(";")
        if not sep:
            raise HareUsageError(f"expected 'POSITION ; ACTION ...', got {line.strip()!r}")
        return _apply_words(pos.split() + acts.split(), rules)

    return _batch(one)


# ---- play -----------------------------------------------------------------------------------
def _grouped_actions(st: HareState) -> tuple[list[str], str]:
    """The legal actions sorted, and a compact numbered listing (grouped by hunter when moving)."""
    acts = sorted(action_str(a) for a in st.legal_actions())
    if st.phase != PH_MOVE:
        return acts, "  ".join(f"[cyan]{i}[/]:{a}" for i, a in enumerate(acts, 1))
    lines: dict[str, list[str]] = {}
    for i, a in enumerate(acts, 1):
        key = "end" if a == "end" else a[:3].rstrip("->")
        lines.setdefault(key, []).append(f"[cyan]{i}[/]:{a}")
    return acts, "\n".join("  ".join(v) for v in lines.values())


HELP = ("Type an action in notation or its number: roll; 2x3 (2 hunters, 3 points each); c2-d2 step forward; "
        "c2>NE turn to face NE; end (stop moving); xc2 (remove the hunter on c2); Enter plays the only "
        "action when there is one. 'board' shows the board again, 'quit' leaves.")


def _ask(console: Console, st: HareState, name: str) -> str | None:
    """Read one legal action from the player; None at end of input or on 'quit'."""
    acts, listing = _grouped_actions(st)
    console.print(listing)
    while True:
        try:
            raw = console.input(f"[bold]{name}[/], your action: ").strip()
        except EOFError:
            return None
        if raw in ("q", "quit", "exit"):
            return None
        if raw in ("?", "help"):
            console.print(HELP)
            continue
        if raw == "board":
            console.print(render_board(st))
            continue
        if not raw and len(acts) == 1:
            return acts[0]
        if raw.isdecimal():
            n = int(raw)
            if 1 <= n <= len(acts):
                return acts[n - 1]
            console.print(f"[red]No action number {n}: choose 1 to {len(acts)}.[/]")
            continue
        try:
            a = parse_action_text(raw)
            if a[0] == ROLL and a[1] != NO_OUTCOME:
                raise HareUsageError("the dice are rolled by the game: type roll")
            if a[0] != ROLL:
                st._check(a)
            elif "roll" not in acts:
                raise HareUsageError(f"not the time to roll: {describe_phase(st)}")
            return action_str(a)
        except HalaliError as exc:
            console.print(f"[red]{exc}[/]")


def describe_phase(st: HareState) -> str:
    return f"seat {st.to_move + 1} {PHASE_TEXT.get(st.phase, 'is done')}"


def _removals(before: HareState, after: HareState) -> list[str]:
    return [f"{NAMES[before.hcell[h]]} ({CLUB_NAMES[h // PER_CLUB]})" for h in range(len(before.hcell))
            if before.hcell[h] >= 0 and after.hcell[h] < 0]


def play_hunt(console: Console, state: HareState, names: list[str], bots: dict[int, object],
              movetime: float | None = None, viewer: int | None = None) -> int:
    """Play the hunt to its end; returns 0 when finished, 1 when a player quit.

    ``viewer`` is the seat whose view the board shows between bot turns (None: the seat to move when
    it is a person's, a spectator's otherwise).
    """
    console.print(legend())
    turn_log: list[str] = []
    turn_start = state.copy(history=False)
    while not state.is_over():
        p = state.to_move
        bot = bots.get(p)
        if bot is None:
            if turn_log:
                console.print(f"[bold]{names[turn_start.to_move]}[/]: {' '.join(turn_log)}")
                turn_log = []
            view = state.view(p)
            console.print(render_board(view))
            console.print(render_seats(view, names))
            console.print(describe(view, names))
            text = _ask(console, view, names[p])
            if text is None:
                console.print("Hunt abandoned.")
                return 1
        else:
            text = action_str(bot.choose(state.view(p), movetime))  # type: ignore[attr-defined]
        played = state.play(text)
        if played[0] in (ROLL, REMOVE) or bot is not None:
            turn_log.append(action_str(played))
        if state.to_move != p or state.is_over() or state.turn != turn_start.turn:
            gone = _removals(turn_start, state)
            line = " ".join(turn_log) + (f"  [red]removed {', '.join(gone)}[/]" if gone else "")
            console.print(f"[bold]{names[p]}[/]: {line}")
            for q in range(state.nplayers):
                if state.out[q] >= 0 and turn_start.out[q] < 0:
                    console.print(f"[bold red]{names[q]} is out[/]: club {CLUB_NAMES[state.clubs[q]]} "
                                  f"({CLUB_LETTERS[state.clubs[q]]})")
            if bots.get(state.to_move) is not None and not state.is_over():
                shown = state.view(viewer)
                console.print(render_board(shown))
                console.print(describe(shown, names))
            turn_log = []
            turn_start = state.copy(history=False)
    final = state.view(None)
    console.print(render_board(final))
    console.print(render_seats(final, names))
    console.print(describe(final, names))
    return 0


def play_main(args: argparse.Namespace) -> int:
    """A whole hunt in the terminal: you (seat ``seat``, 1-based; ``second`` means seat 2) against bots
    of level ``opponent`` (default the strongest; a number above the strongest hare level means the
    strongest), ``opponent=human`` for people at one keyboard,
    ``watch`` for bots only. Also reads ``players``, ``seed``, ``movetime``, ``rules``."""
    from halali.ai.hare.registry import level_of, make_bot, strongest_level

    players = _players(args)
    seed = getattr(args, "seed", None)
    opponent = str(getattr(args, "opponent", None) or strongest_level())
    seat = getattr(args, "seat", None) or (2 if getattr(args, "second", False) else 1)
    if not 1 <= seat <= players:
        raise HareUsageError(f"seat must be 1..{players}, not {seat}")
    watch = bool(getattr(args, "watch", False))
    humans = set() if watch else set(range(players)) if opponent == "human" else {seat - 1}
    if opponent == "human" and watch:
        raise HareUsageError("--watch needs bots: give --opponent a bot level")
    if opponent.isdecimal() and int(opponent) > strongest_level():
        opponent = str(strongest_level())  # the shared --opponent defaults to the forest's strongest level
    level = 0 if opponent == "human" else level_of(opponent)
    bots: dict[int, object] = {}
    names = []
    for p in range(players):
        if p in humans:
            names.append("You" if len(humans) == 1 else f"Player {p + 1}")
        else:
            bot = make_bot(level, None if seed is None else seed * 10 + p)
            bots[p] = bot
            names.append(f"{bot.name} {p + 1}")
    console = Console(force_terminal=None if sys.stdout.isatty() else False, highlight=False)
    state = HareState.new(players, _rules(args), seed=seed)
    console.print(f"[bold]Halali! The hare hunt[/] — {players} players; each holds a secret club. "
                  "The last player with hunters of his own club left wins.")
    viewer = next(iter(humans)) if len(humans) == 1 else None
    return play_hunt(console, state, names, bots, getattr(args, "movetime", None), viewer)


def arena_main(args: argparse.Namespace) -> int:
    """Bots against bots: print each bot's share of wins and mean placing."""
    from halali.ai.hare.arena import run

    bots = [b for b in str(args.bots).split(",") if b]
    if args.games < 1:
        raise HareUsageError("--games must be 1 or more")
    table = run(bots, args.games, _players(args), seed=args.seed or 0,
                options=dict(o.split("=", 1) for o in _rules(args).to_strings()))
    print(table.format())
    return 0


# ---- registration ---------------------------------------------------------------------------
def _add_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", action="append", default=[], metavar="KEY=VALUE",
                   help="a hare rule option (bush=on|off, overshoot=choose|target); repeatable")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``halali hare ...``: the hare hunt's own subcommands."""
    parent = sub.add_parser("hare", help="the hare hunt (2-6 players): new, legal, apply, play, arena")
    hs = parent.add_subparsers(dest="hare_command", metavar="COMMAND", parser_class=type(parent))
    def help_only(args: argparse.Namespace) -> int:
        parent.print_help()
        return 0

    parent.set_defaults(func=help_only)

    players_help = f"number of players, 2..6 (default {DEFAULT_PLAYERS})"
    p = hs.add_parser("new", help="print the full position of a fresh hunt")
    p.add_argument("--players", type=int, default=DEFAULT_PLAYERS, help=players_help)
    p.add_argument("--seed", type=int, default=None, help="draw from this seed instead of the secure source")
    _add_rules(p)
    p.set_defaults(func=new_main)

    p = hs.add_parser("legal", help="print the legal actions (reads positions from stdin without argument)")
    p.add_argument("position", nargs="*", default=None, help="a position in hare notation")
    _add_rules(p)
    p.set_defaults(func=legal_main)

    p = hs.add_parser("apply", help="print the position after the actions (batch from stdin)")
    p.add_argument("position", nargs="?", default=None)
    p.add_argument("actions", nargs="*")
    _add_rules(p)
    p.set_defaults(func=apply_main)

    p = hs.add_parser("play", help="play a hunt in the terminal against bots")
    p.add_argument("--players", type=int, default=DEFAULT_PLAYERS, help=players_help)
    p.add_argument("--opponent", default=None, help="bot level (1..3, random, heuristic, strong) or 'human'")
    p.add_argument("--seat", type=int, default=None, help="your seat, 1..players (default 1)")
    p.add_argument("--watch", action="store_true", help="bots in every seat")
    p.add_argument("--seed", type=int, default=None, help="draw clubs, sides and dice from this seed")
    p.add_argument("--movetime", type=float, default=None, help="seconds a bot may think (hare bots need less)")
    _add_rules(p)
    p.set_defaults(func=play_main)

    p = hs.add_parser("arena", help="bots against bots: win rates and mean placings")
    p.add_argument("--bots", default="strong,heuristic,random", help="comma-separated bot names or levels")
    p.add_argument("--games", type=int, default=30, help="number of hunts (default 30)")
    p.add_argument("--players", type=int, default=DEFAULT_PLAYERS, help=players_help)
    p.add_argument("--seed", type=int, default=0, help="the arena's seed: same seed, same hunts")
    _add_rules(p)
    p.set_defaults(func=arena_main)


__all__ = ["apply_main", "arena_main", "legal_main", "new_main", "play_hunt", "play_main", "register"]
