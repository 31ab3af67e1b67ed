"""Server settings: one dataclass filled by `halali serve` (or by tests)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass
class Settings:
    data_dir: Path = Path("data")
    db_url: str | None = None  # default: SQLite file halali.sqlite3 in data_dir
    web_dir: Path = WEB_DIR
    bot_movetime: float = 0.5  # seconds a computer player may think
    bot_delay: float = 0.3  # least seconds between two computer actions, so people can follow
    bot_workers: int = 1  # processes for computer players
    max_message: int = 4096  # bytes per WebSocket message
    rate_per_second: float = 50.0  # messages per socket, sustained
    rate_burst: int = 100
    test_seeds: bool = False  # accept a deal seed in `create` (never sent to clients)
    finished_minutes: float = 10.0  # finished tables stay in the lobby this long
    secure_cookies: bool = False  # set when served over https
    freeze_gc: bool = False  # move everything alive after startup out of the collector's way (a server process)

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        s = cls(test_seeds=os.environ.get("HALALI_TEST_SEEDS") == "1")
        for key, value in overrides.items():
            if value is not None:
                setattr(s, key, value)
        return s

    def database_url(self) -> str:
        if self.db_url:
            return self.db_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / 'halali.sqlite3').resolve()}"
