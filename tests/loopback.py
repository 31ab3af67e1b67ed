"""HTTP to the tests' own servers, which speak plain HTTP on loopback addresses.

httpx builds a TLS context for every client it makes, parsing the CA bundle (50 ms of CPU here), and
``httpx.get`` makes a client per call. Polled every tenth of a second while a server started, that
kept a third of a core busy for nothing. These make no TLS context (``verify=False``: no address a
test reaches is HTTPS).
"""

from __future__ import annotations

from typing import Any

import httpx


def get(url: str, **kw: Any) -> httpx.Response:
    return httpx.get(url, verify=False, **kw)


def post(url: str, **kw: Any) -> httpx.Response:
    return httpx.post(url, verify=False, **kw)


def client(**kw: Any) -> httpx.Client:
    return httpx.Client(verify=False, **kw)
