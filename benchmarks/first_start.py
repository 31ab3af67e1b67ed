"""The first start, as a newcomer has it: clone, install, ``halali serve``, and how long until it answers.

    python -m benchmarks.first_start                  # editable install (the README's way)
    python -m benchmarks.first_start --install wheel  # pip install ., served from another folder
    python -m benchmarks.first_start --rev fc08524    # the same for an older commit (a "before")

The repository's committed HEAD (or ``--rev``) is cloned into a temporary folder and installed into a
new virtual environment (pip's cache makes that quick). Then the server is started twice on a free
port, with an empty database each time, and timed from its start: the address printed, the first HTTP
answer, and for every computer level the time from the player's action (or the start of the game,
when the computer begins) to the computer's answer, through the WebSocket as the page plays it. The
first start is timed while the search compiles; its answers again once the strongest level searches
(the baseline of the same run: the ratio shows what the compilation costs a player); the second start
has it compiled. Each start is stopped with SIGINT to its process group, as Ctrl-C does, and what it leaves is
checked: leaked semaphores or a traceback in its error output, processes still alive.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect

from benchmarks.load_common import free_port

REPO = Path(__file__).resolve().parents[1]
LEVELS = (1, 2, 3, 4, 5, 6)
READY = "the computer's search is ready"
COMPILE_SAYS = 30.0  # seconds within which a compiling server says so
SEARCHED = 0.45  # seconds: an answer of the strongest level slower than this was searched


@dataclass
class Start:
    """One start of the server: what it printed when, and the figures taken."""

    proc: subprocess.Popen[str]
    t0: float
    port: int
    lines: list[tuple[float, str]] = field(default_factory=list)
    err: list[str] = field(default_factory=list)

    def watch(self) -> None:
        def read(stream: object, into: list) -> None:
            for line in stream:  # type: ignore[attr-defined]
                into.append((time.perf_counter() - self.t0, line.rstrip()) if into is self.lines else line)

        threading.Thread(target=read, args=(self.proc.stdout, self.lines), daemon=True).start()
        threading.Thread(target=read, args=(self.proc.stderr, self.err), daemon=True).start()

    def said(self, text: str) -> float | None:
        return next((t for t, line in list(self.lines) if text in line), None)

    def wait_for(self, text: str, timeout: float) -> float | None:
        end = time.perf_counter() + timeout
        while time.perf_counter() < end and self.proc.poll() is None:
            if (t := self.said(text)) is not None:
                return t
            time.sleep(0.05)
        return self.said(text)


def run(cmd: list[str], **kw: object) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, **kw)  # type: ignore[call-overload]
    return time.perf_counter() - t


def first_http(start: Start, timeout: float) -> float:
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        with contextlib.suppress(OSError), \
                urllib.request.urlopen(f"http://127.0.0.1:{start.port}/api/health", timeout=5) as r:
            if r.status == 200:
                return time.perf_counter() - start.t0
        if start.proc.poll() is not None:
            raise SystemExit(f"the server ended: {''.join(start.err)[-2000:]}")
        time.sleep(0.02)
    raise SystemExit(f"no HTTP answer within {timeout:.0f} s")


def session(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/me", timeout=30) as r:
        return str(r.headers["set-cookie"]).split(";", 1)[0]


async def expect(ws: object, kind: str, timeout: float) -> dict:
    """The next message of type ``kind`` (an error message fails the run)."""
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))  # type: ignore[attr-defined]
        if msg["type"] == "error":
            raise SystemExit(f"refused: {msg}")
        if msg["type"] == kind:
            return dict(msg)


async def next_game(ws: object, timeout: float) -> dict:
    """The next ``game`` message's game."""
    return dict((await expect(ws, "game", timeout))["game"])


async def first_answer(port: int, level: int, timeout: float) -> float:
    """Seconds from the player's first action (or the start, when the computer begins) to the
    computer's answer, at a new table against ``level``."""
    cookie = session(port)
    async with connect(f"ws://127.0.0.1:{port}/ws", additional_headers={"Cookie": cookie}, max_size=2**22,
                       ping_interval=None) as ws:
        await expect(ws, "welcome", timeout)
        await ws.send(json.dumps({"type": "create", "join": True}))
        table = (await expect(ws, "created", timeout))["table"]
        await ws.send(json.dumps({"type": "open", "table": table}))
        await expect(ws, "table", timeout)
        await ws.send(json.dumps({"type": "bot", "table": table, "level": level}))
        await expect(ws, "table", timeout)
        asked = time.perf_counter()
        await ws.send(json.dumps({"type": "start", "table": table, "rated": False}))
        g = await next_game(ws, timeout)
        ply = 0
        if g["legal"]:  # the player begins: play, then wait for the computer's answer
            ply = g["ply"]
            asked = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "action": random.choice(g["legal"]), "ply": ply}))
            ply += 1
        while not (g["ply"] > ply or g["over"]):
            g = await next_game(ws, timeout)
        return time.perf_counter() - asked


def answers(port: int, timeout: float) -> dict[int, float]:
    return {level: asyncio.run(first_answer(port, level, timeout)) for level in LEVELS}


def full_strength(start: Start, timeout: float) -> float | None:
    """When the strongest level searches (its worker has loaded the search): it then takes its whole
    movetime (0.5 s), where the stand-in answers after the least delay (0.3 s). None if never."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        if asyncio.run(first_answer(start.port, LEVELS[-1], timeout)) > SEARCHED:
            return time.perf_counter() - start.t0
    return None


def descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError):
                kids = {int(k) for k in (task / "children").read_text().split()}
                todo += list(kids - found)
                found |= kids
    return found


def stop(start: Start) -> tuple[float, str, int]:
    """SIGINT, as Ctrl-C; (seconds to end, what was left behind, exit code)."""
    kids = descendants(start.proc.pid)
    t = time.perf_counter()
    os.killpg(start.proc.pid, signal.SIGINT)  # the terminal's Ctrl-C reaches the whole process group
    try:
        code = start.proc.wait(60)
    except subprocess.TimeoutExpired:
        start.proc.kill()
        code = start.proc.wait()
    took = time.perf_counter() - t
    time.sleep(0.5)
    alive = [k for k in kids if Path(f"/proc/{k}").exists() and "zombie" not in _state(k)]
    left = []
    if alive:
        left.append(f"{len(alive)} processes still alive")
    left += [line.strip() for line in start.err if "leaked" in line]
    if any("Traceback" in line for line in start.err):
        left.append("a traceback")
    return took, "; ".join(left) or "nothing", code


def _state(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/status").read_text().split("State:", 1)[1].split("\n", 1)[0].lower()
    return ""


def serve(halali: Path, cwd: Path, data: Path) -> Start:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "HALALI_KERNEL_CACHE")}
    t0 = time.perf_counter()
    proc = subprocess.Popen([str(halali), "serve", "--port", str(port), "--data", str(data), "--arena-minutes", "0",
                             "--tables-per-address", "0"],
                            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    start = Start(proc, t0, port)
    start.watch()
    return start


def one_start(name: str, halali: Path, cwd: Path, data: Path, args: argparse.Namespace,
              again_when_ready: bool) -> dict[str, object]:
    start = serve(halali, cwd, data)
    fig: dict[str, object] = {}
    try:
        fig["http"] = first_http(start, args.timeout)
        fig["printed"] = start.wait_for("serving on", 5)
        fig["answers"] = answers(start.port, args.timeout)
        ready: float | None = start.said(READY)
        if again_when_ready and ready is None:
            # The compilation starts once the server runs, and says so within seconds; a server
            # that compiled before it answered (an older one) never says anything.
            if start.wait_for("compiling the computer's search", COMPILE_SAYS) is None:
                ready = float(fig["http"])  # type: ignore[arg-type]
            else:
                ready = start.wait_for(READY, args.timeout)
        fig["ready"] = ready
        if again_when_ready:
            fig["full"] = full_strength(start, args.timeout)
            fig["ready_answers"] = answers(start.port, args.timeout)
    finally:
        fig["stop"] = stop(start)
    ready = "nothing to compile" if fig["ready"] is None else f"search ready at {_s(fig['ready'])}"
    if "full" in fig:
        ready += f", level {LEVELS[-1]} searching at {_s(fig['full'])}"
    print(f"{name}: printed its address at {_s(fig['printed'])}, first HTTP answer at {_s(fig['http'])}, "
          f"{ready}", flush=True)
    for line in start.lines:
        if ("compiling" in line[1] and "/" not in line[1]) or READY in line[1]:
            print(f"    {line[0]:7.1f} s  {line[1]}")
    return fig


def _s(t: object) -> str:
    return "never" if t is None else f"{float(t):.2f} s"  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.first_start", description=__doc__.split("\n\n")[0])
    p.add_argument("--install", choices=["editable", "wheel"], default="editable")
    p.add_argument("--rev", default="HEAD", help="the commit to clone and measure (default HEAD)")
    p.add_argument("--repo", type=Path, default=REPO)
    p.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for any one thing")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = p.parse_args(argv)
    with open("/proc/loadavg") as f:
        print(f"load average before: {' '.join(f.read().split()[:3])}, {os.cpu_count()} cores", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="halali-first-start-"))
    try:
        clone = tmp / "halali"
        t_clone = run(["git", "clone", "--quiet", "--no-hardlinks", str(args.repo), str(clone)])
        run(["git", "-C", str(clone), "checkout", "--quiet", args.rev])
        venv = tmp / "venv"
        run([sys.executable, "-m", "venv", str(venv)])
        target = ["-e", str(clone)] if args.install == "editable" else [str(clone)]
        t_install = run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", *target])
        rev = subprocess.run(["git", "-C", str(clone), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
        print(f"commit {rev}: clone {t_clone:.1f} s, {args.install} install {t_install:.1f} s", flush=True)
        cwd = clone if args.install == "editable" else tmp / "elsewhere"
        cwd.mkdir(exist_ok=True)
        halali = venv / "bin" / "halali"
        first = one_start("first start", halali, cwd, tmp / "data1", args, again_when_ready=True)
        second = one_start("second start", halali, cwd, tmp / "data2", args, again_when_ready=False)
        report(first, second)
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    with open("/proc/loadavg") as f:
        print(f"load average after: {' '.join(f.read().split()[:3])}")
    return 0


def report(first: dict, second: dict) -> None:
    print(f"\nfirst HTTP answer: first start {first['http']:.2f} s, second start {second['http']:.2f} s "
          f"(ratio {first['http'] / second['http']:.2f})")
    print("the computer's first answer (s), by level:")
    print("  level  first start  once ready  ratio   second start  ratio")
    for level in LEVELS:
        a, r, b = first["answers"][level], first["ready_answers"][level], second["answers"][level]
        print(f"  {level:5d}  {a:11.2f}  {r:10.2f}  {a / r:5.2f}   {b:12.2f}  {b / r:5.2f}")
    print(f"slowest first answer: first start {max(first['answers'].values()):.2f} s, "
          f"second start {max(second['answers'].values()):.2f} s")
    for name, fig in (("first start", first), ("second start", second)):
        took, left, code = fig["stop"]
        print(f"{name} stopped in {took:.1f} s (exit {code}), left behind: {left}")


if __name__ == "__main__":
    sys.exit(main())
