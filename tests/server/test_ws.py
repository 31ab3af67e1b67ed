"""The WebSocket dispatcher's answers to faults a handler meets (``halali.server.ws.handle``)."""

from __future__ import annotations

from typing import Any

import pytest

from halali.server import ws
from halali.server.testing import Peer
from halali.store import LeaseLost


def test_a_lease_lost_while_handling_is_a_sentence_to_ask_again_not_a_server_error(client, monkeypatch, caplog):
    """A node too busy to renew a lease finds, at the write, that another node took the table over:
    nothing was written, so the player is told to try again (the request then reaches the new owner),
    and the log holds one line, not a traceback."""
    async def moved(s: Any, conn: Any, msg: dict[str, Any]) -> None:
        raise LeaseLost("t_moved")

    monkeypatch.setitem(ws.HANDLERS, "create", moved)
    with Peer(client) as ann:
        err = ann.error({"type": "create", "rules": {"match": "single"}, "ref": 4})
    assert err["key"] == "error.table_moved" and err["ref"] == 4
    assert "another server" in err["message"]
    lines = [r for r in caplog.records if "t_moved" in r.getMessage()]
    assert lines and all(r.exc_info is None for r in lines)


@pytest.mark.parametrize("kind", ["create"])
def test_a_handler_left_as_it_was_creates_a_table(client, kind):
    with Peer(client) as ann:
        ann.send({"type": kind, "rules": {"match": "single"}, "join": True})
        assert ann.expect("created")["table"].startswith("t_")
