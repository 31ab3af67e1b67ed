"""A page that loses its connection, for the tests of what it does then.

``CAPTURE`` (an init script) keeps every WebSocket the page opens in ``window.__sockets``, and while
``window.__cut`` is set it sends the page's new sockets to an address the server refuses. ``cut``
closes the page's socket and keeps it from reconnecting; ``restore`` lets its next try through. The
close is an ordinary one, with the server there to answer it: the browser's network offline emulation
could leave a closing socket waiting for an answer that never came, as long as Chromium's own limit.
"""

from __future__ import annotations

from typing import Any

CAPTURE = (
    "window.__sockets = []; window.__cut = false; const Native = window.WebSocket; "
    "window.WebSocket = class extends Native { constructor(url, ...a) { "
    "super(window.__cut ? String(url) + '-cut' : url, ...a); window.__sockets.push(this); } };"
)


def cut(page: Any) -> None:
    """The page's socket closed, and no new one reaches the server until ``restore``."""
    page.evaluate("window.__cut = true; window.__sockets[0].close()")
    page.wait_for_function("window.__sockets[0].readyState === 3")


def restore(page: Any) -> None:
    page.evaluate("window.__cut = false")
