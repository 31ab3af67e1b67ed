"""The site's tournaments driven as players drive them, for the service tests and the stateful test:
create and watch one, wait for the state a step must bring, and concede a table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from halali.server.testing import FakeClock, Peer, settings_for_tests

Message = dict[str, Any]


def settings(tmp_path: Path, clock: FakeClock, **more: Any) -> Any:
    return settings_for_tests(tmp_path, clock=clock, tournament_poll=0.05, **more)


def create(peer: Peer, **fields: Any) -> str:
    peer.send({"type": "tournament_create", "name": "Autumn Swiss", "rounds": 2, "starts_in": 600, **fields})
    tid = peer.expect("tournament_created")["id"]
    peer.send({"type": "tournament_watch", "id": tid})
    peer.expect("tournament", lambda m: m["tournament"]["id"] == tid)
    return tid


def state(peer: Peer, where: Any) -> Message:
    return peer.expect("tournament", lambda m: where(m["tournament"]), timeout=60)["tournament"]


def resign_my_table(peer: Peer, table: str) -> None:
    """Open the table of this round and concede the match (the quickest way to a result)."""
    peer.send({"type": "open", "table": table})
    peer.expect("table", lambda m: m["table"]["id"] == table)
    peer.send({"type": "resign", "table": table, "confirm": True})
    peer.expect("table", lambda m: m["table"]["id"] == table and m["table"]["state"] == "finished")
