"""The strength table of docs/ai.md from the arena's results files (benchmarks/arena/*.jsonl).

    python benchmarks/arena_table.py [FILE ...]

Prints one Markdown row per file: the pairing, the matches played so far, won-drawn-lost, the score
rate with Wilson's 95% interval, the Elo difference with its lower bound, the points per match and
the answers later than the protocol allows (counted, not forfeited, with the run's --grace).
"""

from __future__ import annotations

import sys
from pathlib import Path

from halali.ai.registry import NAMES
from halali.engine.arena import LATE_GRACE, MatchResult, elo, format_elo, summarize
from halali.engine.results import read_results

HERE = Path(__file__).parent / "arena"
LEVEL_NAMES = {str(level): name for name, level in NAMES.items()}


def results(path: Path) -> tuple[dict[str, object], list[MatchResult]]:
    lines = read_results(path)
    if not lines:
        raise SystemExit(f"{path}: no match yet")
    found = {r.index: r for _, r in lines}
    return lines[-1][0], [found[i] for i in sorted(found)]


def row(path: Path) -> str:
    settings, played = results(path)
    s = summarize([r.score for r in played])
    a, b = str(settings["a"]), str(settings["b"])
    whole = [r for r in played if r.forfeit is None]
    points = (f"{sum(r.points[0] for r in whole) / len(whole):.1f} / {sum(r.points[1] for r in whole) / len(whole):.1f}"
              if whole else "")
    late = sum(r.late[0] for r in played), sum(r.late[1] for r in played)
    answers = sum(r.answers[0] for r in played), sum(r.answers[1] for r in played)
    return (f"| {a} `{LEVEL_NAMES.get(a, a)}` vs {b} `{LEVEL_NAMES.get(b, b)}` | {s.matches} | "
            f"{s.wins}-{s.draws}-{s.losses} | {s.rate:.3f} ({s.low:.3f} .. {s.high:.3f}) | "
            f"{format_elo(s.elo)} ({format_elo(elo(s.low))}) | {points} | "
            f"{late[0]} of {answers[0]} / {late[1]} of {answers[1]} | `{path.name}` |")


def main(argv: list[str]) -> int:
    paths = [Path(p) for p in argv] or sorted(HERE.glob("*.jsonl"))
    print("| pairing (A vs B) | matches | A won-drawn-lost | score rate of A (95% interval) | "
          "Elo A − B (lower bound) | points per match A / B | "
          f"answers later than movetime + {LATE_GRACE * 1000:.0f} ms, A / B | file |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        print(row(path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
