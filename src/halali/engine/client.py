"""The runner side of the engine protocol: talk to an engine, outside or in this process.

An :class:`EngineClient` speaks the protocol over a transport. :class:`ProcessTransport` spawns
a command (any program that speaks docs/engine-protocol.md); :class:`InProcessTransport` runs the
project's own :class:`~halali.engine.session.EngineSession` in a thread and passes the very same
text lines through queues, so a project bot in the arena behaves exactly as ``halali engine``
would, clock included, without the cost of a process.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from halali.games.forest.rules import Rules

HANDSHAKE_TIMEOUT = 180.0  # a cold numba cache compiles for about half a minute
LATE_GRACE = 0.1  # the protocol's allowance past movetime
STOP_WAIT = 2.0  # after a late answer: how long to wait for bestmove once told to stop


class EngineError(Exception):
    """The engine broke the protocol, died, or did not answer in time."""


class Transport:
    """Lines to and from an engine."""

    def send(self, line: str) -> None:
        raise NotImplementedError

    def recv(self, timeout: float | None) -> str | None:
        """The next line, or None when nothing came in time."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def describe(self) -> str:
        return ""


class ProcessTransport(Transport):
    """An engine program started from a shell-like command line."""

    def __init__(self, command: str) -> None:
        argv = shlex.split(command)
        if not argv:
            raise ValueError("the engine command is empty")
        self.command = command
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, bufsize=1,
            )
        except OSError as exc:
            raise EngineError(f"cannot start engine {command!r}: {exc}") from exc
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: deque[str] = deque(maxlen=20)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _read_errors(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.errors.append(line.rstrip())

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise EngineError(f"engine {self.command!r} closed its input{self._stderr()}") from exc

    def recv(self, timeout: float | None) -> str | None:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)
            raise EngineError(f"engine {self.command!r} exited{self._stderr()}")
        return line

    def _stderr(self) -> str:
        return (": " + self.errors[-1]) if self.errors else ""

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(EngineError):
                self.send("quit")
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def describe(self) -> str:
        return self.command


class InProcessTransport(Transport):
    """The project's engine session in a thread of this process, spoken to in the same text."""

    def __init__(self, level: int | None = None) -> None:
        from halali.engine.session import EngineSession

        self.lines: queue.Queue[str | None] = queue.Queue()
        self.commands: queue.Queue[str | None] = queue.Queue()
        self.session = EngineSession(self.lines.put, level)
        self.level = self.session.level
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            line = self.commands.get()
            if line is None or not self.session.handle(line):
                break
        self.lines.put(None)

    def send(self, line: str) -> None:
        if not self.thread.is_alive():
            raise EngineError("the engine has quit")
        self.commands.put(line)

    def recv(self, timeout: float | None) -> str | None:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)
            raise EngineError("the engine has quit")
        return line

    def close(self) -> None:
        if self.thread.is_alive():
            self.commands.put("quit")
            self.thread.join(timeout=5)

    def describe(self) -> str:
        return f"level {self.level}"


@dataclass
class GoResult:
    """An engine's answer to ``go``."""

    bestmove: str | None  # None when it did not answer in time
    seconds: float
    infos: list[str] = field(default_factory=list)

    def late(self, movetime: float | None, grace: float = LATE_GRACE) -> bool:
        return self.bestmove is None or (movetime is not None and self.seconds > movetime + grace)

    def last_info(self, key: str) -> str | None:
        """The value after ``key`` in the latest info line that has it (``score``, ``nodes``...)."""
        for line in reversed(self.infos):
            words = line.split()
            if key in words[:-1] and words[1] != "string":
                return words[words.index(key) + 1]
        return None


class EngineClient:
    """One engine, started and introduced; ``go`` asks it for an action in a position."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.name = ""
        self.options: dict[str, str] = {}
        self.messages: deque[str] = deque(maxlen=50)  # info string lines, for error reports
        self._rules: Rules | None = None

    def start(self, timeout: float = HANDSHAKE_TIMEOUT) -> EngineClient:
        self.transport.send("halali")
        for line in self._until("halaliok", timeout):
            words = line.split()
            if words[:2] == ["id", "name"]:
                self.name = " ".join(words[2:])
            elif words[:2] == ["option", "name"] and len(words) > 2:
                self.options[words[2]] = line
        self.ready(timeout)
        return self

    def _until(self, answer: str, timeout: float) -> list[str]:
        end = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            left = end - time.monotonic()
            line = self.transport.recv(max(0.0, left)) if left > 0 else None
            if line is None:
                raise EngineError(f"no {answer!r} from engine {self.transport.describe()} within {timeout:.0f} s")
            if line.strip() == answer:
                return seen
            if line.startswith("info string"):
                self.messages.append(line)
            seen.append(line)

    def ready(self, timeout: float = HANDSHAKE_TIMEOUT) -> None:
        self.transport.send("isready")
        self._until("readyok", timeout)

    def set_option(self, name: str, value: object) -> None:
        self.transport.send(f"setoption name {name} value {value}")

    def set_rules(self, rules: Rules) -> None:
        if rules != self._rules:
            self.transport.send("rules " + " ".join(rules.to_strings()))
            self._rules = rules

    def go(self, position: str, movetime: float | None = None, nodes: int | None = None,
           depth: int | None = None, hard_timeout: float | None = None, extra: Sequence[str] = ()) -> GoResult:
        """Send the position and ``go``; wait for ``bestmove``. ``extra``: more words for ``go``, such as a
        game clock's ``bluetime MS blueinc MS``.

        Without an answer by ``hard_timeout`` (default: movetime plus two seconds) the engine is
        told to stop; the result then has ``bestmove`` None if even that brought nothing.
        """
        self.transport.send(f"position {position}")
        parts = ["go"]
        if movetime is not None:
            parts += ["movetime", str(max(1, round(movetime * 1000)))]
        if nodes is not None:
            parts += ["nodes", str(nodes)]
        if depth is not None:
            parts += ["depth", str(depth)]
        parts += extra
        if hard_timeout is None:
            hard_timeout = (movetime or 10.0) + 2.0
        start = time.perf_counter()
        self.transport.send(" ".join(parts))
        infos: list[str] = []
        stopped = False
        end = start + hard_timeout
        while True:
            left = end - time.perf_counter()
            line = self.transport.recv(max(left, 0.0)) if left > 0 else None
            if line is None:
                if stopped:
                    return GoResult(None, time.perf_counter() - start, infos)
                self.transport.send("stop")
                stopped = True
                end = time.perf_counter() + STOP_WAIT
                continue
            if line.startswith("bestmove"):
                words = line.split()
                return GoResult(words[1] if len(words) > 1 else "", time.perf_counter() - start, infos)
            if line.startswith("info"):
                infos.append(line)
                if line.startswith("info string"):
                    self.messages.append(line)

    def close(self) -> None:
        self.transport.close()


def open_engine(spec: str | int, rules: Rules | None = None, seed: int | None = None) -> EngineClient:
    """A started engine: a project level (``3``, ``greedy``) in process, or ``cmd:COMMAND`` spawned."""
    if isinstance(spec, str) and spec.startswith("cmd:"):
        client = EngineClient(ProcessTransport(spec[4:]))
    else:
        from halali.ai.registry import level_of

        client = EngineClient(InProcessTransport(level_of(spec)))
    try:
        client.start()
        if seed is not None and "seed" in client.options:
            client.set_option("seed", seed)
        if rules is not None:
            client.set_rules(rules)
    except Exception:
        client.close()
        raise
    return client
