"""The engine side of the engine protocol (docs/engine-protocol.md): one bot behind text commands.

``EngineSession.handle`` takes one command line and writes answers through a callback, so the
same object serves ``halali engine`` (stdin/stdout) and the in-process adapter the arena uses.
The search runs in its own thread, which is what lets ``stop``, ``isready`` and ``quit`` be
answered while it thinks. Output lines go through one lock so they never interleave.

The compiled search loads in a background thread from the start; a runner that sends ``go``
without waiting for ``readyok`` (right after an install the first load compiles for half a
minute) gets the greedy player's action in time instead of a late answer, with an ``info string``
saying so.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from halali import __version__
from halali.ai.registry import LEVELS, make_bot, strongest_level
from halali.ai.search_bots import DEFAULT_MOVETIME, SearchBot, Thought, warm_up
from halali.ai.timing import clock_movetime
from halali.games.errors import HalaliError
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, parse_options

ENGINE_NAME = "halali"
MAX_SEED = 2**31 - 1
STAND_IN = "greedy"  # answers while the search is still loading
GO_LIMITS = ("movetime", "nodes", "depth", "bluetime", "browntime", "blueinc", "browninc")
Clock = tuple[tuple[float | None, float | None], tuple[float | None, float | None]]  # (left, inc) per colour


def _format_score(value: float) -> str:
    return f"{value:.2f}"


class EngineSession:
    """State of one protocol conversation: options, rules, position, and the running search."""

    def __init__(self, write: Callable[[str], None], level: int | None = None) -> None:
        self._write_raw = write
        self._out = threading.Lock()
        self.level = strongest_level() if level is None else level
        if self.level not in LEVELS:
            raise ValueError(f"unknown bot level {self.level} (levels 1..{strongest_level()})")
        self.seed: int | None = None
        self.rules = DEFAULT_RULES
        self.position: Position | None = None
        self._bot = make_bot(self.level, self.seed)
        self._search: threading.Thread | None = None
        self._searching = False  # cleared just before bestmove is written, so the next command may follow it
        self._stop = threading.Event()
        self._warm = threading.Thread(target=warm_up, daemon=True)
        self._warm.start()

    # ---- output ---------------------------------------------------------------------------
    def write(self, line: str) -> None:
        with self._out:
            self._write_raw(line)

    def info(self, text: str) -> None:
        self.write(f"info string {text}")

    # ---- input ----------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one command line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        handler = getattr(self, f"_cmd_{cmd}", None)
        if handler is None:
            self.info(f"unknown command {line.strip()}")
            return True
        try:
            return handler(args) is not False
        except (HalaliError, ValueError) as exc:
            self.info(f"error: {exc}")
            return True

    def _cmd_halali(self, args: list[str]) -> None:
        top = strongest_level()
        self.write(f"id name {ENGINE_NAME} level {self.level}")
        self.write(f"id version {__version__}")
        self.write(f"option name level type spin default {self.level} min 1 max {top}")
        self.write(f"option name seed type spin default 0 min 0 max {MAX_SEED}")
        self.write("option name threads type spin default 1 min 1 max 1")
        self.write("halaliok")

    def _cmd_setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name ") or " value " not in text:
            raise ValueError("write: setoption name NAME value VALUE")
        name, value = text[5:].split(" value ", 1)
        name, value = name.strip().lower(), value.strip()
        if self._busy():
            raise ValueError("options cannot change during a search")
        if name == "level":
            if not value.isdecimal() or int(value) not in LEVELS:
                raise ValueError(f"level must be 1..{strongest_level()}, not {value!r}")
            self.level = int(value)
        elif name == "seed":
            if not value.isdecimal() or int(value) > MAX_SEED:
                raise ValueError(f"seed must be 0..{MAX_SEED}, not {value!r}")
            self.seed = int(value) or None
        elif name == "threads":
            if value != "1":
                raise ValueError("this engine searches with one thread")
            return
        else:
            raise ValueError(f"unknown option {name!r} (level, seed, threads)")
        self._bot = make_bot(self.level, self.seed)

    def _cmd_rules(self, args: list[str]) -> None:
        self.rules = DEFAULT_RULES.with_options(parse_options(args))

    def _cmd_isready(self, args: list[str]) -> None:
        self._warm.join()
        self.write("readyok")

    def _cmd_position(self, args: list[str]) -> None:
        if self._busy():
            raise ValueError("the position cannot change during a search")
        self.position = None
        pos = parse_position(" ".join(args), self.rules)
        self.position = pos.view()  # the engine never keeps a face-down tile

    def _cmd_go(self, args: list[str]) -> None:
        if self._busy():
            raise ValueError("already searching; send stop first")
        movetime, nodes, depth, infinite, clock = self._go_args(args)
        if self.position is None:
            raise ValueError("no position: send position POSITION before go")
        if self.position.is_over():
            raise ValueError("the game is over in this position: there is no action to choose")
        if clock is not None:
            remaining, increment = clock[self.position.turn]
            if remaining is not None:
                movetime = clock_movetime(self.position, remaining, increment or 0.0, movetime)
            elif movetime is None and nodes is None and depth is None and not infinite:
                movetime = DEFAULT_MOVETIME  # only the other side's clock: as a plain go
        self._stop.clear()
        self._searching = True
        self._search = threading.Thread(
            target=self._run, args=(self.position, movetime, nodes, depth, infinite), daemon=True
        )
        self._search.start()

    @staticmethod
    def _go_args(args: list[str]) -> tuple[float | None, int | None, int | None, bool, Clock | None]:
        """The limits of a ``go``; ``clock`` is (time left, increment) in seconds for blue and for
        brown, from ``bluetime``/``browntime``/``blueinc``/``browninc`` (None without any)."""
        limits: dict[str, int] = {}
        infinite = False
        i = 0
        while i < len(args):
            key = args[i]
            if key == "infinite":
                infinite = True
                i += 1
                continue
            if key not in GO_LIMITS or i + 1 >= len(args) or not args[i + 1].isdecimal():
                raise ValueError("write: go [movetime MS] [nodes N] [depth D] [bluetime MS browntime MS "
                                 "[blueinc MS browninc MS]] [infinite]")
            value = int(args[i + 1])
            if value <= 0 and key not in ("bluetime", "browntime", "blueinc", "browninc"):
                raise ValueError(f"{key} must be 1 or more")
            limits[key] = value
            i += 2
        movetime = limits["movetime"] / 1000 if "movetime" in limits else None
        nodes, depth = limits.get("nodes"), limits.get("depth")
        clock: Clock | None = None
        if {"bluetime", "browntime", "blueinc", "browninc"} & set(limits):
            def side(name: str) -> tuple[float | None, float | None]:
                left, inc = limits.get(f"{name}time"), limits.get(f"{name}inc")
                return (None if left is None else left / 1000, None if inc is None else inc / 1000)
            clock = (side("blue"), side("brown"))
        if movetime is None and nodes is None and depth is None and not infinite and clock is None:
            movetime = DEFAULT_MOVETIME
        return movetime, nodes, depth, infinite, clock

    def _cmd_stop(self, args: list[str]) -> None:
        self._stop.set()
        bot = self._bot
        if isinstance(bot, SearchBot):
            bot.stop()
        if self._search is not None:
            self._search.join()

    def _cmd_quit(self, args: list[str]) -> bool:
        self._cmd_stop([])
        return False

    # ---- the search thread ----------------------------------------------------------------
    def _busy(self) -> bool:
        return self._searching

    def _run(self, view: Position, movetime: float | None, nodes: int | None, depth: int | None,
             infinite: bool) -> None:
        start = time.perf_counter()
        bot = self._bot
        try:
            if isinstance(bot, SearchBot) and self._warm.is_alive() and not infinite and movetime is not None:
                self.info(f"the search is still loading; this action is the {STAND_IN} player's")
                action = make_bot(STAND_IN, self.seed).choose(view, movetime)
            elif isinstance(bot, SearchBot):
                thought = bot.think(view, movetime, nodes=nodes, depth=depth, on_info=self._report,
                                    infinite=infinite)
                action = thought.action
            else:
                action = bot.choose(view, movetime)
        except Exception as exc:  # never leave the runner without an answer
            self.info(f"error: {exc}")
            action = view.legal_actions()[0]
        if infinite:
            self._stop.wait()  # an infinite search answers only when told to stop
        elapsed = int((time.perf_counter() - start) * 1000)
        self.write(f"info time {elapsed}")
        with self._out:
            self._searching = False
            self._write_raw(f"bestmove {view.action_str(action)}")

    def _report(self, t: Thought) -> None:
        self.write(
            f"info depth {t.depth} nodes {t.nodes} time {int(t.seconds * 1000)} "
            f"score {_format_score(t.score)} pv {self._pv(t)}"
        )

    def _pv(self, t: Thought) -> str:
        assert self.position is not None
        return self.position.action_str(t.action)
