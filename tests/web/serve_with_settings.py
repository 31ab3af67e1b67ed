"""``halali serve`` for browser tests that need server settings the command line does not offer
(``abandon_grace``, ``tables_per_guest``, ...): ``python serve_with_settings.py PORT DATA_DIR SETTINGS``,
SETTINGS being a JSON object of ``halali.server.settings.Settings`` fields. The app and uvicorn are
those of ``halali serve``; conftest.py's ``server_with`` fixture starts it."""

from __future__ import annotations

import json
import sys
from dataclasses import fields
from pathlib import Path


def main() -> None:
    import uvicorn

    from halali.server.app import create_app
    from halali.server.settings import Settings

    port, data, overrides = int(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
    unknown = set(overrides) - {f.name for f in fields(Settings)}
    if unknown:
        raise SystemExit(f"no such settings: {sorted(unknown)}")
    settings = Settings.from_env(data_dir=data, **overrides)
    uvicorn.run(create_app(settings), host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False)


if __name__ == "__main__":
    main()
