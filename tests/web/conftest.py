"""Browser tests: a real `halali serve` in a subprocess and Debian's Chromium driven by Playwright.

The browser is the system one (never downloaded), runs headless and can reach nothing but
127.0.0.1. The server runs in test mode (HALALI_TEST_SEEDS=1) so a test can create a table with a
seeded, short deal; the seed goes from the test to the server only and never reaches a page.
``server`` is the one shared server on the default settings; ``server_with(**settings)`` starts one of
its own for tests that need other settings (a short abandonment grace, a table limit).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import loopback
from halali.server.cluster.redis_server import dies_with_parent

# Debian's headless shell (package chromium-headless-shell: the same engine without the desktop
# browser's windowing; about 11% less CPU over the browser tests, docs/performance.md) when it is
# there, else the full chromium.
# HALALI_TEST_CHROMIUM names another binary.
CHROMIUM = os.environ.get("HALALI_TEST_CHROMIUM") or next(
    (p for p in ("/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium") if Path(p).exists()),
    "/usr/bin/chromium",
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _halali_command() -> list[str]:
    script = Path(sys.executable).with_name("halali")
    if script.exists():
        return [str(script)]
    found = shutil.which("halali")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from halali.cli import main; sys.exit(main())"]


class Server:
    """A running `halali serve`; ``url`` is its base address."""

    def __init__(self, url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.url = url
        self.proc = proc
        self.log = log

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def check_log(self) -> None:
        """Fails if the server logged a traceback while the tests used it (docs/server.md, "Logs")."""
        text = self.log.read_text(errors="replace")
        if "Traceback (most recent call last)" in text:
            pytest.fail(f"the server logged a traceback ({self.log}):\n{text[-4000:]}", pytrace=False)

    def create_table(self, rules: dict[str, Any] | None = None, seed: int | None = None, **fields: Any) -> str:
        """A new table made over the WebSocket API, as any client would (the creator takes no seat and
        never comes to the table). ``fields`` go into the `create` message: ``game="hare", seats=2``."""
        from websockets.sync.client import connect

        cookie = loopback.get(f"{self.url}/api/me").cookies["halali_session"]
        ws_url = self.url.replace("http://", "ws://") + "/ws"
        msg: dict[str, Any] = {"type": "create", **fields}
        if rules is not None:
            msg["rules"] = rules
        if seed is not None:
            msg["seed"] = seed
        with connect(ws_url, additional_headers={"Cookie": f"halali_session={cookie}"}) as ws:
            ws.send(json.dumps(msg))
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                reply = json.loads(ws.recv(timeout=10))
                if reply["type"] == "created":
                    return str(reply["table"])
                if reply["type"] == "error":
                    raise AssertionError(f"create failed: {reply}")
        raise AssertionError("no `created` answer")

    def computer_match(self, rules: dict[str, Any], levels: tuple[int, int] = (1, 2), **fields: Any) -> dict[str, Any]:
        """Two computer players play a new table's match to its end over the WebSocket API; the last
        `game` message (its ``game["id"]`` is the stored game's). No seed: a rated match, unless
        ``fields`` say otherwise."""
        from websockets.sync.client import connect

        cookie = loopback.get(f"{self.url}/api/me").cookies["halali_session"]
        ws_url = self.url.replace("http://", "ws://") + "/ws"
        with connect(ws_url, additional_headers={"Cookie": f"halali_session={cookie}"}) as ws:
            ws.send(json.dumps({"type": "create", "rules": rules, **fields}))
            table = None
            while table is None:
                msg = json.loads(ws.recv(timeout=10))
                assert msg["type"] != "error", msg
                table = msg.get("table") if msg["type"] == "created" else None
            bots = [{"type": "bot", "level": level} for level in levels]
            for m in ({"type": "open", "table": table}, *bots, {"type": "start"}):
                ws.send(json.dumps(m))
            while True:
                # A bound for a busy machine: a turn may wait behind a chunk of another test's game analysis.
                msg = json.loads(ws.recv(timeout=120))
                assert msg["type"] != "error", msg
                if msg["type"] == "game" and msg["match"]["over"]:
                    return dict(msg)


    def create_tournament(self, name: str, levels: tuple[int, ...] = (), start: bool = False, **fields: Any) -> str:
        """A new tournament made over the WebSocket API by a fresh account of its own (only accounts may
        create one), with these computer levels entered, started at once if ``start``; ``fields`` go into
        `tournament_create`."""
        import secrets

        from websockets.sync.client import connect

        with loopback.client(base_url=self.url) as client:
            client.get("/api/me")
            r = client.post("/api/register", json={"name": f"TD{secrets.token_hex(3)}", "password": "forest floor 42"},
                            headers={"origin": self.url})
            assert r.status_code == 200, r.text
            cookie = client.cookies["halali_session"]
        ws_url = self.url.replace("http://", "ws://") + "/ws"
        with connect(ws_url, additional_headers={"Cookie": f"halali_session={cookie}"}) as ws:
            ws.send(json.dumps({"type": "tournament_create", "name": name, **fields}))
            while True:
                reply = json.loads(ws.recv(timeout=10))
                assert reply["type"] != "error", reply
                if reply["type"] == "tournament_created":
                    tid = str(reply["id"])
                    break
            for level in levels:
                ws.send(json.dumps({"type": "tournament_level", "id": tid, "level": level}))
            if start:
                ws.send(json.dumps({"type": "tournament_start", "id": tid}))
            ws.send(json.dumps({"type": "tournament_watch", "id": tid}))
            while True:  # the levels are in (and round 1 is paired) once the tournament shows it
                reply = json.loads(ws.recv(timeout=10))
                assert reply["type"] != "error", reply
                tm = reply.get("tournament") if reply["type"] == "tournament" else None
                if tm and len(tm["players"]) == len(levels) and (not start or tm["pairings"]):
                    return tid


def _start(cmd: list[str], data: Path, port: int) -> Server:
    """Run a server command in test mode and wait for its health check."""
    log = data / "server.log"
    # The code under test is this tree's, whatever the installed console script would import.
    src = str(ROOT / "src")
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "HALALI_TEST_SEEDS": "1", "PYTHONPATH": path}
    with log.open("wb") as out:
        # The kernel ends the server with the test session, even after a kill -9 of it.
        proc = subprocess.Popen(dies_with_parent(cmd), stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    # A first start on a fresh machine compiles the search kernel: generous, and over once it answers.
    deadline = time.monotonic() + 120
    while True:
        try:
            if loopback.get(f"{url}/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"halali serve did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.1)
    return Server(url, proc, log)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("halali-data")
    port = _free_port()
    srv = _start([*_halali_command(), "serve", "--port", str(port), "--data", str(data),
                  "--bot-movetime", "0.05", "--bot-delay", "0.05", "--no-background-analysis",
                  "--analysis-nodes", "5000"], data, port)
    yield srv
    srv.stop()
    srv.check_log()


# The settings of every test server unless a test says otherwise (the shared ``server``'s options):
# quick computer players, and no game analysed unless someone asks for it, at a tenth of the default
# nodes. Analysing every finished game at the default budget took more CPU than the rest of the
# server did (docs/performance.md, "The test command").
QUICK: dict[str, Any] = {"bot_movetime": 0.05, "bot_delay": 0.05, "background_analysis": False,
                         "analysis_nodes": 5000}


@pytest.fixture(scope="session")
def server_with(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Server]]:
    """``server_with(**settings)``: a server of its own on these ``Settings`` fields (on top of the
    defaults and ``QUICK``), started once per distinct set of settings in a session."""
    started: dict[str, Server] = {}

    def make(**settings: Any) -> Server:
        key = json.dumps({**QUICK, **settings}, sort_keys=True)
        if key not in started:
            data = tmp_path_factory.mktemp("halali-data")
            port = _free_port()
            script = Path(__file__).with_name("serve_with_settings.py")
            started[key] = _start([sys.executable, str(script), str(port), str(data), key], data, port)
        return started[key]

    yield make
    for srv in started.values():
        srv.stop()
    for srv in started.values():
        srv.check_log()


@pytest.fixture
def serve_on() -> Iterator[Callable[..., Server]]:
    """``serve_on(data, **settings)``: a server of this test's on the data folder ``data`` (a later one
    on the same folder finds what an earlier one stored); every one is stopped at the test's end."""
    started: list[Server] = []

    def make(data: Path, **settings: Any) -> Server:
        port = _free_port()
        script = Path(__file__).with_name("serve_with_settings.py")
        key = json.dumps({**QUICK, **settings}, sort_keys=True)
        started.append(_start([sys.executable, str(script), str(port), str(data), key], data, port))
        return started[-1]

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (scripts/install-system.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


# The pages ask for reduced motion (prefers-reduced-motion), so no tile slides or flips: a whole game's
# slides were about a third of Chromium's work in these tests (docs/performance.md). ``open_page(...,
# motion=True)`` lets the board move, for the tests of dragging, snapping back and the animations.
DESKTOP = {"viewport": {"width": 1280, "height": 860}, "locale": "en-GB", "reduced_motion": "reduce"}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True, "locale": "en-GB", "reduced_motion": "reduce"}


@pytest.fixture
def open_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """``open_page(path, phone=False, locale=None, motion=False)``: a page in a fresh browser context (its
    own cookie), asking for reduced motion unless ``motion``.
    ``path`` is on the shared ``server``, or a whole address (another server's). The last WebSocket
    messages of every page are printed after the test (pytest shows them when it failed)."""
    contexts: list[Any] = []
    errors: list[str] = []
    frames: list[deque[str]] = []

    def record(log: deque[str], ws: Any) -> None:
        log.append(f"* {ws.url}")
        ws.on("framereceived", lambda p: log.append(f"< {str(p)[:300]}"))
        ws.on("framesent", lambda p: log.append(f"> {str(p)[:300]}"))
        ws.on("close", lambda _: log.append("* closed"))

    def make(path: str = "/", phone: bool = False, locale: str | None = None, motion: bool = False) -> Any:
        options = dict(PHONE if phone else DESKTOP)
        if locale:
            options["locale"] = locale
        if motion:
            options["reduced_motion"] = "no-preference"
        ctx = browser.new_context(**options)
        ctx.set_default_timeout(30_000)  # only a bound: waits end at their event
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        log: deque[str] = deque(maxlen=60)
        frames.append(log)
        page.on("websocket", lambda ws: record(log, ws))
        page.goto(path if path.startswith("http") else request.getfixturevalue("server").url + path)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    for i, log in enumerate(frames):
        print(f"--- page {i}: its last WebSocket messages ---", *log, sep="\n")
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture(scope="session")
def shot() -> Callable[[Any, str], None]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def save(page: Any, name: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

    return save


@pytest.fixture(scope="session")
def axe_check() -> Callable[[Any, str], None]:
    """``axe_check(page, what)``: axe-core's rules on the page as it stands; no serious or critical
    violation may remain (the message lists each rule with the elements it caught)."""
    from axe_runner import AxeOnce as Axe

    axe = Axe()

    def check(page: Any, what: str) -> None:
        results = axe.run(page)
        bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
        report = "\n".join(f"{v['id']} ({v['impact']}): {v['help']} -> "
                           + "; ".join(n["target"][0] if n["target"] else "?" for n in v["nodes"][:6])
                           for v in bad)
        assert not bad, f"axe on {what}:\n{report}"

    return check
