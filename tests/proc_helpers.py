"""The process tree from /proc, for the tests that no process outlives its parent (Linux only)."""

from __future__ import annotations

import contextlib
from pathlib import Path


def stat(pid: int) -> tuple[str, str] | None:
    """(state, start time) of a process, None if there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()  # the command name in parentheses may hold spaces
    return fields[0], fields[19]


def cmdline(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    return ""


def children(pid: int) -> set[int]:
    kids: set[int] = set()
    for f in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            kids.update(int(p) for p in f.read_text().split())
    return kids


def process_tree(root: int) -> dict[int, tuple[str, str]]:
    """Every process under ``root`` and root itself: pid -> (start time, command line)."""
    found: dict[int, tuple[str, str]] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        st = stat(pid)
        if pid in found or st is None:
            continue
        found[pid] = (st[1], cmdline(pid))
        todo.extend(children(pid))
    return found


def alive(pid: int, started: str) -> bool:
    """The same process (not a reused pid) still exists and is not a zombie."""
    st = stat(pid)
    return st is not None and st[0] != "Z" and st[1] == started


def running(pid: int) -> bool:
    """A process of that pid exists and is not a zombie (for a pid read moments ago)."""
    st = stat(pid)
    return st is not None and st[0] != "Z"
