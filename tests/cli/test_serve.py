"""``halali serve`` says where it listens only once the port is its own, and a taken port is one line;
it answers at once, before the computer's search is compiled, and a stop leaves nothing behind."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

import loopback
from halali.ai import kernel
from proc_helpers import alive, process_tree

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _serve(port: int, data: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    code = "import sys; from halali.cli import main; sys.exit(main())"
    return subprocess.Popen([sys.executable, "-c", code, "serve", "--port", str(port), "--data", str(data)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_a_taken_port_is_one_clear_error_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = _serve(port, tmp_path)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1
    assert "serving on" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"halali: cannot listen on 127.0.0.1:{port}: "), err


def test_the_address_is_printed_once_it_accepts_connections(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = _serve(port, tmp_path)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"halali: serving on http://127.0.0.1:{port}/"), line
        # Bound and listening when it says so: a connection is accepted at once, and the server
        # answers as soon as it has started.
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        deadline = time.monotonic() + 120  # only a bound: a busy machine may be slow to answer
        while True:
            try:
                if loopback.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _serve_group(port: int, data: Path, **env: str) -> subprocess.Popen[str]:
    """``halali serve`` in a process group of its own, as a terminal starts it (Ctrl-C reaches the group)."""
    code = "import sys; from halali.cli import main; sys.exit(main())"
    return subprocess.Popen([sys.executable, "-c", code, "serve", "--port", str(port), "--data", str(data),
                             "--arena-minutes", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": SRC, **env}, start_new_session=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _health(port: int, proc: subprocess.Popen[str], timeout: float = 60) -> None:
    """Wait for the first HTTP answer (the event; ``timeout`` only bounds a broken server)."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if loopback.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                return
        assert proc.poll() is None, "the server ended"
        assert time.monotonic() < deadline, "the server never answered"
        time.sleep(0.05)


def _computer_moves(port: int, level: int) -> None:
    """A table with this person and a computer of ``level``, started; returns once the computer moved."""
    token = loopback.get(f"http://127.0.0.1:{port}/api/me", timeout=30).cookies["halali_session"]
    with connect(f"ws://127.0.0.1:{port}/ws", additional_headers={"Cookie": f"halali_session={token}"},
                 open_timeout=30) as ws:
        def expect(kind: str) -> dict[str, Any]:
            while True:
                msg = json.loads(ws.recv(timeout=120))
                assert msg["type"] != "error", msg
                if msg["type"] == kind:
                    return dict(msg)

        expect("welcome")
        ws.send(json.dumps({"type": "create", "join": True}))
        table = expect("created")["table"]
        ws.send(json.dumps({"type": "open", "table": table}))
        expect("table")
        ws.send(json.dumps({"type": "bot", "table": table, "level": level}))
        expect("table")
        ws.send(json.dumps({"type": "start", "table": table, "rated": False}))
        game = expect("game")["game"]
        mine = bool(game["legal"])
        if mine:
            ws.send(json.dumps({"type": "action", "action": game["legal"][0], "ply": game["ply"]}))
        while game["ply"] < (2 if mine else 1):
            game = expect("game")["game"]


def _stop(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """Ctrl-C: SIGINT to the server's process group; what it printed."""
    os.killpg(proc.pid, signal.SIGINT)
    return proc.communicate(timeout=60)


def _gone(tree: dict[int, tuple[str, str]], timeout: float = 15) -> dict[int, tuple[str, str]]:
    deadline = time.monotonic() + timeout
    left = dict(tree)
    while left and time.monotonic() < deadline:
        left = {pid: v for pid, v in left.items() if alive(pid, v[0])}
        time.sleep(0.05)
    return left


def test_it_answers_and_plays_before_the_search_is_compiled(tmp_path: Path) -> None:
    """The search cannot be compiled while the test holds its cache's lock: the server still answers
    HTTP, and a searching level still plays its first move (at a lower strength)."""
    folder = tmp_path / "kernel"
    port = _free_port()
    with kernel.compiling(folder):
        proc = _serve_group(port, tmp_path / "data", HALALI_KERNEL_CACHE=str(folder))
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().startswith(f"halali: serving on http://127.0.0.1:{port}/")
            _health(port, proc)
            tree = process_tree(proc.pid)
            assert any("halali.server.kernel_process" in cmd for _, cmd in tree.values()), tree
            _computer_moves(port, 6)
            assert not kernel.is_marked(folder)  # still not compiled: the move did not wait for it
            tree = process_tree(proc.pid)
        finally:
            out, err = _stop(proc)
    assert "the computer's search is ready" not in out
    assert "Traceback" not in err, err
    assert not _gone(tree), "a process outlived the server"


def test_a_stop_leaves_no_process_and_no_semaphore_behind(tmp_path: Path) -> None:
    port = _free_port()
    proc = _serve_group(port, tmp_path / "data")
    try:
        _health(port, proc)
        _computer_moves(port, 3)
        tree = process_tree(proc.pid)
        assert any("--multiprocessing-fork" in cmd for _, cmd in tree.values()), f"no bot worker: {tree}"
    finally:
        _, err = _stop(proc)
    assert proc.returncode in (0, 130), err  # 130: uvicorn ends as the signal would
    assert "leaked" not in err and "Traceback" not in err, err
    assert not _gone(tree), "a process outlived the server"


def test_analysis_nodes_set_the_budget_of_game_analyses(tmp_path: Path, monkeypatch: Any) -> None:
    """``--analysis-nodes N`` is the nodes per position of the server's game analyses; without it, the
    default (docs/server.md). The app is built from the settings as ``halali serve`` builds them."""
    import uvicorn

    import halali.server.app as app_module
    from halali.cli import main
    from halali.server.settings import Settings

    built: list[Settings] = []
    monkeypatch.setattr(app_module, "create_app", lambda settings: built.append(settings))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    for extra in (["--analysis-nodes", "1234"], []):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        assert main(["serve", "--port", str(port), "--data", str(tmp_path), *extra]) == 0
    assert [s.analysis_nodes for s in built] == [1234, Settings.analysis_nodes]
