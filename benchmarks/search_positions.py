"""Write the positions of ``halali bench --search`` (src/halali/ai/search_positions.txt).

Reproducible: seeded deals played out by the greedy bot (level 2, seeded, with one random action
in five for variety), both sides, and from each game one position of a phase picked by fixed
rules. The positions are the players' public views (every face-down tile unknown).

    python benchmarks/search_positions.py            # rewrite the file
    python benchmarks/search_positions.py --check    # fail if the file differs from what it writes

Phases: ``opening`` (at least 36 of the 48 tiles still face down), ``middle`` (10 to 24 face
down), ``final`` (every tile revealed, exits open, at least 5 final turns left so that a depth-4
search is not cut short by the game's end).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

from halali.ai.simple import GreedyBot
from halali.games.forest.position import Position

OUT = Path(__file__).resolve().parent.parent / "src" / "halali" / "ai" / "search_positions.txt"
PER_PHASE = 6
SEED = 2026

PHASES: dict[str, Callable[[Position], bool]] = {
    "opening": lambda p: len(p.hidden) >= 36,
    "middle": lambda p: 10 <= len(p.hidden) <= 24,
    "final": lambda p: p.final >= 5 and not p.hidden,
}


def candidates(seed: int) -> list[Position]:
    """Every position of one seeded game (the deal included), as the players see them."""
    rng = random.Random(seed)
    pos = Position.deal(seed=seed)
    bot = GreedyBot(seed)
    seen = [pos.view()]
    for _ in range(400):
        acts = pos.legal_actions()
        if not acts:
            break
        view = pos.view()
        a = rng.choice(acts) if rng.random() < 0.2 else bot.choose(view)
        pos.push(a)  # the bot chose from the view; the real position decides what a reveal shows
        if not pos.is_over():
            seen.append(pos.view())
    return seen


def choose() -> list[tuple[str, str]]:
    """``PER_PHASE`` positions per phase, each from a different game, at a seeded ply of that phase."""
    picked: list[tuple[str, str]] = []
    seed = SEED
    for phase, test in PHASES.items():
        got = 0
        while got < PER_PHASE:
            seed += 1
            rng = random.Random(seed)
            fits = [p for p in candidates(seed) if test(p) and len(p.legal_actions()) > 1]
            if not fits:
                continue
            pos = rng.choice(fits)
            picked.append((f"{phase} (game seed {seed}, {len(pos.hidden)} face down, final {pos.final})",
                           pos.fen()))
            got += 1
    return picked


def render() -> str:
    lines = ["# Positions of `halali bench --search`, written by benchmarks/search_positions.py.",
             "# One public view per line (forest notation); the comment above it names its phase."]
    for comment, fen in choose():
        lines += [f"# {comment}", fen]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file, write nothing")
    args = ap.parse_args()
    text = render()
    if args.check:
        same = OUT.exists() and OUT.read_text() == text
        print("up to date" if same else f"{OUT} differs from what this script writes")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
