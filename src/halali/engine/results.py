"""The arena's results files: one JSON line per finished match, so a long run can stop and go on.

Each line holds the settings the match was played with beside its result, so a file is never
counted together with matches of other settings; a line cut short by a kill is skipped, and that
match is played again.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from halali.engine.arena import MatchResult, Settings


def settings_record(settings: Settings) -> dict[str, object]:
    """What must agree for results to be counted together."""
    return {"a": settings.spec_a, "b": settings.spec_b, "rules": settings.rules.to_strings(),
            "movetime": settings.movetime, "nodes": settings.nodes, "seed": settings.seed, "grace": settings.grace}


def read_results(path: Path) -> list[tuple[dict[str, object], MatchResult]]:
    """Every whole line of a results file: the settings it was played with and its match.

    A line cut short by a kill is skipped, so that match is simply played again."""
    return [(item["settings"], result_from_dict(item["result"])) for item in read_lines(path, ("settings", "result"))]


def read_lines(path: Path, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """The whole JSON lines of a file, each an object with these keys; a line cut short by a kill (the
    start of an object) is left out. Anything else is not a results file: a ValueError that names the
    line, rather than a guess that would append to some other file."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            if line.startswith("{") or not line.strip():
                continue
            item = None
        if not isinstance(item, dict) or not all(k in item for k in keys):
            raise ValueError(f"{path}, line {number}: not a results line (a JSON object with {', '.join(keys)})")
        out.append(item)
    return out


def result_from_dict(r: dict[str, Any]) -> MatchResult:
    """A match as ``append_result`` wrote it (files older than ``won`` read it as no games won); a
    ValueError for anything else."""
    try:
        return _result(r)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a match result as the arena writes it ({type(exc).__name__}: {exc})") from exc


def _result(r: dict[str, Any]) -> MatchResult:
    return MatchResult(
        index=r["index"], score=r["score"], points=tuple(r["points"]), tiles=tuple(r["tiles"]),
        forfeit=r["forfeit"], forfeit_side=r["forfeit_side"], forfeit_kind=r["forfeit_kind"],
        actions=r["actions"], slowest=tuple(r["slowest"]), answers=tuple(r["answers"]), late=tuple(r["late"]),
        games=r["games"], won=tuple(r.get("won", (0.0, 0.0))))


def load_results(path: Path, settings: Settings) -> list[MatchResult]:
    """The matches already recorded in ``path`` for these settings (none when the file is missing);
    a file that holds matches of other settings is refused."""
    if not path.exists():
        return []
    want = settings_record(settings)
    found: dict[int, MatchResult] = {}
    for got, result in read_results(path):
        if got != want:
            raise ValueError(f"{path} holds matches played with other settings ({got}); use another results file")
        found[result.index] = result
    return [found[i] for i in sorted(found)]


def append_result(path: Path, settings: Settings, result: MatchResult) -> None:
    """One line per match, flushed at once: an interrupted run loses at most the matches in play."""
    append_line(path, {"settings": settings_record(settings), "result": asdict(result)})


def append_line(path: Path, item: dict[str, Any]) -> None:
    line = json.dumps(item, separators=(",", ":"))
    with path.open("a+b") as f:
        if f.tell() > 0:
            f.seek(-1, 2)
            if f.read(1) != b"\n":  # a line cut short by a kill: leave it on a line of its own
                line = "\n" + line
        f.write((line + "\n").encode())
