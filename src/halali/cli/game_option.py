"""``--game forest|hare``: the verbs both games share (new, legal, apply, play) hand over to the hare hunt.

The hare hunt's commands are imported only when ``--game hare`` asks for them, so the forest's
``halali legal`` (called thousands of times a second by tools) never pays for their imports.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable

from halali.cli.common import UsageError

HARE_MODULE = "halali.cli.hare"


def add_game_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=("forest", "hare"), default="forest",
                        help="forest (default) or hare, the 1997 hare hunt (docs/hare.md)")
    parser.add_argument("--players", type=int, default=None, help="hare hunt only: 2..6 players (default 3)")


def hare_handler(name: str) -> Callable[[argparse.Namespace], int]:
    """The hare hunt's implementation of a shared verb, imported only when asked for."""

    def run(args: argparse.Namespace) -> int:
        return int(getattr(importlib.import_module(HARE_MODULE), f"{name}_main")(args))

    return run


def for_game(name: str, forest: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """The handler of verb ``name``: ``forest`` unless ``--game hare`` chose the hare hunt."""

    def run(args: argparse.Namespace) -> int:
        if getattr(args, "game", "forest") == "hare":
            return hare_handler(name)(args)
        if getattr(args, "players", None) not in (None, 2):
            raise UsageError("the forest game is for 2 players; --players is for --game hare")
        return forest(args)

    return run
