"""What ``load.py`` and ``load_cluster.py`` share: the figures of one run, and a free port."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    error_keys: dict[str, int] = field(default_factory=dict)
    games: int = 0
    measuring: bool = False
    actions_per_second: float = 0.0
    lags: list[float] = field(default_factory=list)  # how late the client's own 10 ms timer fired
    server_cpu: float = float("nan")  # CPU seconds the server used while measuring
    client_cpu: float = float("nan")
    parts_cpu: dict[str, float] = field(default_factory=dict)  # --cluster: CPU seconds of each part


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
