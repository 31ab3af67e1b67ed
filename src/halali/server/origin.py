"""The CSRF defence: a state-changing request must come from this server's own pages.

Browsers send ``Origin`` with every POST (and every WebSocket handshake) and no page can forge it, so
comparing it with ``Host`` tells a request of our pages from one another site makes with the
visitor's cookie. POSTs must also be JSON, which no HTML form can send and no other site can send
by script without a CORS preflight the server never grants. A request with neither ``Origin`` nor
``Referer`` is refused too (strict), so a browser that hides both cannot be used against its user.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit


def same_origin(origin: str | None, host: str | None, scheme: str, allowed: tuple[str, ...] = ()) -> bool:
    """True when ``origin`` (scheme://host[:port]) is this request's own origin, or is allowed.

    ``host`` is the request's Host header and ``scheme`` its scheme (``http``/``https``, or ``ws``/``wss``
    for a WebSocket); behind a proxy that changes either, list the public origin in ``allowed``.
    """
    if not origin or origin == "null" or not host:
        return False
    if origin.rstrip("/") in allowed:
        return True
    parts = urlsplit(origin)
    own = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    if parts.scheme != own or not parts.netloc:
        return False
    return _netloc(parts.netloc, own) == _netloc(host.lower(), own)


def _netloc(netloc: str, scheme: str) -> str:
    netloc = netloc.lower()
    default = ":443" if scheme == "https" else ":80"
    return netloc[: -len(default)] if netloc.endswith(default) else netloc


def request_origin(headers: Mapping[str, str]) -> str | None:
    """The Origin of a request, or the origin part of its Referer when a browser sent no Origin."""
    get = headers.get
    origin = get("origin")
    if origin is not None:
        return origin
    referer = get("referer")
    if referer:
        parts = urlsplit(referer)
        if parts.scheme and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}"
    return None
