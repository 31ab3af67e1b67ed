"""``halali serve`` says where it listens only once the port is its own, and a taken port is one line."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

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
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
