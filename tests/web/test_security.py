"""The real server's protective headers, pages no other site can frame, and login throttling that
lets a name's owner in from another address while a guesser waits."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import loopback

Server = Any

HEADERS = {
    "content-security-policy": "frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


@pytest.mark.parametrize("path", ["/", "/how-to-play", "/api/me", "/static/js/common.js", "/no/such/page",
                                  "/table/t_nosuchtab"])
def test_every_answer_carries_the_security_headers(server: Server, path: str) -> None:
    r = loopback.get(server.url + path)
    for name, value in HEADERS.items():
        assert r.headers.get(name) == value, (path, name, r.headers.get(name))


@pytest.mark.browser
def test_another_site_cannot_frame_a_page(server: Server, open_page: Any) -> None:
    page = open_page("/api/health")  # a document with no scripts of its own, to be replaced below
    page.set_content(f'<iframe id="f" src="{server.url}/" onload="window.framed = true"></iframe>')
    page.wait_for_function("() => window.framed === true")
    # The browser refused to show the page in the frame: an error document, not the lobby.
    child = page.frame_locator("#f")
    assert child.locator('[data-testid="brand"]').count() == 0
    assert all(not f.url.startswith(server.url) or f == page.main_frame for f in page.frames)


def _client(address: str, server: Server) -> httpx.Client:
    return loopback.client(base_url=server.url, transport=httpx.HTTPTransport(local_address=address, verify=False),
                        headers={"origin": server.url})


def _login(c: httpx.Client, name: str, password: str) -> httpx.Response:
    c.cookies.clear()
    c.get("/api/me")
    return c.post("/api/login", json={"name": name, "password": password})


def test_guesses_from_one_address_do_not_lock_the_owner_out(server: Server) -> None:
    owner, guesser = _client("127.0.0.2", server), _client("127.0.0.1", server)
    with owner, guesser:
        owner.get("/api/me")
        r = owner.post("/api/register", json={"name": "Throttled Tess", "password": "right password"})
        assert r.status_code == 200, r.text
        for _ in range(5):
            assert _login(guesser, "Throttled Tess", "wrong guess").status_code == 401
        refused = _login(guesser, "Throttled Tess", "right password")
        assert refused.status_code == 429, refused.text
        first_wait = refused.json()["error"]["params"]["retry_after"]
        assert 0 < first_wait <= 30
        # The owner, from another address, gets in with the right password all the same.
        assert _login(owner, "Throttled Tess", "right password").status_code == 200
        # ... and a wrong password from there is just wrong, not throttled.
        assert _login(owner, "Throttled Tess", "not it").status_code == 401
