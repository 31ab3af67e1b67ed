"""``halali bench --search``: how fast the strongest search reaches a depth, against a frozen baseline.

On every position of a fixed set (``search_positions.txt``, written by
``benchmarks/search_positions.py``: public views of the opening, the middle game and the final
phase) the search of level 6 and the frozen :data:`~halali.ai.levels.BASELINE` each run

- one depth-limited search (iterative deepening to ``depth``, no clock): the time and nodes at
  which each depth is complete, so the times to ``depth - 1`` and to ``depth`` come from one search;
- one search on the clock (``movetime``): the depth it completes and its nodes per second.

Baseline and current run in the same process, alternating which goes first from one position to
the next, so that both share the machine's noise; the ratios (baseline time / current time, and
current nodes/s / baseline nodes/s: above 1 means the current search is faster) mean something
within one run, the absolute figures only on the machine they were measured on. Every search
starts with a fresh bot (an empty transposition table) and the same seed. A depth-limited search
also stops at ``NODE_LIMIT`` nodes, which bounds the run; a depth not reached is reported as such.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from halali.ai.levels import BASELINE, STYLES
from halali.ai.search_bots import SearchBot, Style, Thought, warm_up
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position

POSITIONS = Path(__file__).with_name("search_positions.txt")
DEFAULT_DEPTH = 4
DEFAULT_MOVETIME = 0.2  # seconds
NODE_LIMIT = 30_000_000
SEED = 1


@dataclass
class Measure:
    """One search style on one position."""

    depth_seconds: dict[int, float] = field(default_factory=dict)  # depth -> time it was complete
    depth_nodes: dict[int, int] = field(default_factory=dict)
    nodes: int = 0  # of the depth-limited search
    seconds: float = 0.0
    timed_depth: int = 0
    timed_nodes: int = 0
    timed_seconds: float = 0.0

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def timed_nps(self) -> float:
        return self.timed_nodes / self.timed_seconds if self.timed_seconds > 0 else 0.0


def load_positions(path: Path | None = None) -> list[tuple[str, Position]]:
    """(label, public view) for every non-comment line; the label is the comment line above it."""
    path = POSITIONS if path is None else path
    out: list[tuple[str, Position]] = []
    label = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            label = line.lstrip("#").strip()
            continue
        out.append((label.split(" ")[0] if label else f"#{len(out) + 1}", parse_position(line).view()))
        label = ""
    if not out:
        raise ValueError(f"{path}: no positions")
    return out


def measure(style: Style, pos: Position, depth: int, movetime: float) -> Measure:
    m = Measure()

    def info(t: Thought) -> None:
        m.depth_seconds[t.depth] = t.seconds
        m.depth_nodes[t.depth] = t.nodes

    t = SearchBot(style, SEED).think(pos, depth=depth, nodes=NODE_LIMIT, on_info=info)
    m.nodes, m.seconds = t.nodes, t.seconds
    t = SearchBot(style, SEED).think(pos, movetime=movetime)
    m.timed_depth, m.timed_nodes, m.timed_seconds = t.depth, t.nodes, t.seconds
    return m


def _ratio(a: float, b: float) -> float:
    return a / b if b > 0 else 0.0


def summary(runs: list[Measure], depth: int) -> dict[str, float | int]:
    """Totals over positions of one side: nodes/s, median and total time to depth-1 and depth."""
    nodes = sum(r.nodes for r in runs)
    seconds = sum(r.seconds for r in runs)
    out: dict[str, float | int] = {"nodes": nodes, "seconds": seconds, "nps": _ratio(nodes, seconds)}
    for d in (depth - 1, depth):
        if d < 1:
            continue
        times = [r.depth_seconds[d] for r in runs if d in r.depth_seconds]
        out[f"reached_d{d}"] = len(times)
        out[f"median_d{d}"] = statistics.median(times) if times else 0.0
        out[f"total_d{d}"] = sum(times)
    timed_nodes = sum(r.timed_nodes for r in runs)
    timed_seconds = sum(r.timed_seconds for r in runs)
    out["timed_nps"] = _ratio(timed_nodes, timed_seconds)
    out["timed_mean_depth"] = sum(r.timed_depth for r in runs) / len(runs)
    return out


def _ms(s: float | None) -> str:
    return "     -" if s is None else f"{s * 1000:6.0f}" if s >= 0.0995 else f"{s * 1000:6.1f}"


def run(path: Path | None = None, depth: int = DEFAULT_DEPTH, movetime: float = DEFAULT_MOVETIME,
        quiet: bool = False, as_json: bool = False, limit: int | None = None) -> int:
    """Measure baseline and current on every position (the first ``limit`` ones); print the figures."""
    if depth < 1:
        raise ValueError("the depth must be 1 or more")
    if movetime <= 0:
        raise ValueError("the movetime must be positive")
    positions = load_positions(path)[:limit]
    t0 = time.perf_counter()
    warm_up()
    SearchBot(BASELINE, SEED).think(positions[0][1], movetime=0.02)  # the baseline's kernel is loaded too
    load = time.perf_counter() - t0
    sides = {"baseline": BASELINE, "current": STYLES[6]}
    runs: dict[str, list[Measure]] = {name: [] for name in sides}
    d1 = max(1, depth - 1)
    talk = not quiet and not as_json
    if talk:
        print(f"search bench: {len(positions)} positions, depth {depth}, movetime {movetime * 1000:.0f} ms, "
              f"baseline {BASELINE.name!r} against level 6 {STYLES[6].name!r} (load {load:.2f} s)")
        print(f"{'':>3} {'phase':<8} {'side':<8} {f'd{d1} ms':>7} {f'd{depth} ms':>7} {'nodes':>10} "
              f"{'nodes/s':>10} {'timed d':>7} {'timed n/s':>10}")
    for i, (label, pos) in enumerate(positions):
        order = list(sides) if i % 2 == 0 else list(reversed(sides))
        got = {name: measure(sides[name], pos, depth, movetime) for name in order}
        for name in sides:
            runs[name].append(got[name])
        if talk:
            for name in sides:
                m = got[name]
                print(f"{i + 1:>3} {label:<8} {name:<8} {_ms(m.depth_seconds.get(d1)):>7} "
                      f"{_ms(m.depth_seconds.get(depth)):>7} {m.nodes:>10,} {m.nps:>10,.0f} "
                      f"{m.timed_depth:>7} {m.timed_nps:>10,.0f}", flush=True)
    sums = {name: summary(runs[name], depth) for name in sides}
    b, c = sums["baseline"], sums["current"]
    ratios = {"nps": _ratio(float(c["nps"]), float(b["nps"])),
              "timed_nps": _ratio(float(c["timed_nps"]), float(b["timed_nps"]))}
    for d in sorted({d1, depth}):
        for k in (f"median_d{d}", f"total_d{d}"):
            ratios[k] = _ratio(float(b[k]), float(c[k]))
    if as_json:
        print(json.dumps({"depth": depth, "movetime": movetime, "positions": len(positions),
                          "labels": [label for label, _ in positions], "summary": sums, "ratio": ratios,
                          "runs": {name: [asdict(m) for m in runs[name]] for name in sides}}, indent=1))
        return 0
    print(f"totals over {len(positions)} positions (ratio: baseline time / current time, "
          "current nodes/s / baseline nodes/s)")
    print(f"  {'':<25} {'baseline':>12} {'current':>12} {'ratio':>7}")
    rows: list[tuple[str, str, str]] = [("nodes/s (depth-limited)", "nps", "nps")]
    for d in sorted({d1, depth}):
        rows += [(f"median time to d{d} (ms)", f"median_d{d}", f"median_d{d}"),
                 (f"total time to d{d} (ms)", f"total_d{d}", f"total_d{d}")]
    rows.append((f"nodes/s ({movetime * 1000:.0f} ms searches)", "timed_nps", "timed_nps"))
    for title, key, rkey in rows:
        scale, fmt = (1.0, ",.0f") if "nps" in key else (1000.0, ",.1f")
        print(f"  {title:<25} {float(b[key]) * scale:>12{fmt}} {float(c[key]) * scale:>12{fmt}} "
              f"{ratios[rkey]:>7.2f}")
    print(f"  {'mean depth in ' + f'{movetime * 1000:.0f} ms':<25} {b['timed_mean_depth']:>12.2f} "
          f"{c['timed_mean_depth']:>12.2f}")
    for d in sorted({d1, depth}):
        if b[f"reached_d{d}"] < len(positions) or c[f"reached_d{d}"] < len(positions):
            print(f"  depth {d} reached on {b[f'reached_d{d}']} (baseline) and {c[f'reached_d{d}']} (current) "
                  f"of {len(positions)} positions (node limit {NODE_LIMIT:,} or the game's end)")
    return 0
