"""Every HTTP route of the app, read from the app's own route table, gets malformed, foreign and
unknown requests from a guest, an account, a bot account (its API token), a spectator, a visitor
without a cookie and a revoked token: real ids and wrong ones in its path, bad query values, and for a
POST every kind of broken body.

No answer may be a 500, and every refusal of the API is ``{"error": {"key": …}}`` with a documented,
translated key (the router's own bare 404 and 405 for an address no route takes are fine). A route
with a path parameter the sweep has no values for fails, naming it: add its values to
``World.path_values``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import product
from typing import Any
from urllib.parse import quote

import pytest
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from sweep_world import SEEN, Role, World, account, build, error_problem, guest, sweep_settings

from halali.server.app import create_app
from halali.server.settings import Settings
from halali.server.testing import running

WRONG_IDS = [("unknown", "zz_nothing"), ("negative", "-1"), ("huge number", "9" * 5000), ("long", "x" * 3000),
             ("superscript digit", "²"), ("arabic digits", "١٢"), ("control", "\x01 %")]
QUERY_NAMES = ("limit", "offset", "before", "after", "game", "board", "provisional", "ply", "luck", "theme",
               "difficulty")
QUERY_VALUES = ("-1", "9" * 5000, "", "²", "x\x00" * 1500)
BODY_FIELDS = ("name", "password", "label", "record", "moves", "action", "mistakes")
WEIRD: list[Any] = [None, True, -1, 2**70, 1.5, "x" * 3000, "²", "\ud800", [], {}, ["a1-a2", 7], "a1-a2"]
PLAIN_ROUTER_ANSWERS = {404: "Not Found", 405: "Method Not Allowed"}


def app_routes() -> list[BaseRoute]:
    return list(create_app(Settings()).routes)


def route_id(route: BaseRoute) -> str:
    methods = sorted((getattr(route, "methods", None) or {"GET"}) - {"HEAD"})
    return f"{'|'.join(methods)} {getattr(route, 'path', repr(route))}"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with running(sweep_settings(tmp_path_factory.mktemp("sweep_http")), raise_server_exceptions=False) as client:
        w = build(client)
        yield w
        for peer in w.peers:
            peer.close()


def roles(world: World) -> list[Role]:
    """Fresh people for one route's sweep (a logout or a registration there changes only them), beside
    the world's spectator, a visitor without a cookie and a revoked token."""
    client = world.client
    world.made += 1
    acct, bot = account(client, f"Acc{world.made}"), account(client, f"Bot{world.made}")
    headers = bot.headers()
    client.post("/api/bot-account", json={}, headers=headers)
    token = client.post("/api/tokens", json={"label": "x"}, headers=headers).json()["token"]
    client.cookies.clear()
    return [guest(client, "guest"), acct, Role("bot", bot.id, bearer=token), world.roles["spectator"],
            Role("stranger", ""), Role("revoked", "", bearer="hal_" + "0" * 40),
            Role("forged cookie", "", cookie="x" * 3000)]


def path_combos(route: Route, values: dict[str, list[tuple[str, str]]]) -> Iterator[tuple[bool, dict[str, str]]]:
    """(first, path params): every combination of real values (the first one marked), then each parameter
    wrong in turn."""
    names = list(route.param_convertors)
    for i, combo in enumerate(product(*(values[n] for n in names))):
        yield i == 0, {n: v for n, (_, v) in zip(names, combo, strict=True)}
    for n in names:
        for _, wrong in WRONG_IDS:
            yield False, {m: wrong if m == n else values[m][0][1] for m in names}


def url(route: Route, params: dict[str, str]) -> str:
    path = route.path
    for name, value in params.items():
        path = path.replace("{" + name + "}", quote(value, safe=""))
    return path


def bodies(base: dict[str, Any], each: bool) -> Iterator[tuple[dict[str, str], bytes]]:
    """(extra headers, body) of a POST: broken framing, every field wrong, and with ``each`` each field
    wrong in a good body."""
    js = {"content-type": "application/json"}
    yield {"content-type": "text/plain"}, b"{}"
    yield {**js, "origin": ""}, b"{}"
    yield {**js, "origin": "https://evil.example"}, b"{}"
    for raw in (b"", b"{", b"[]", b'"x"', b"1", b"null", b"[" * 3000, b'{"a":' * 1500, b"\xff\xfe",
                json.dumps({"name": "x" * 300_000}).encode()):
        yield js, raw
    for value in WEIRD:
        yield js, json.dumps({f: value for f in BODY_FIELDS}).encode()
        for f in BODY_FIELDS if each else ():
            yield js, json.dumps({**base, f: value}).encode()
    yield js, json.dumps(base).encode()


def answer_problem(r: Any, api: bool) -> str | None:
    if r.status_code >= 500:
        return f"answered {r.status_code}"
    if r.status_code < 400:
        return None
    if PLAIN_ROUTER_ANSWERS.get(r.status_code) == r.text:
        return None  # the router's: no route takes this address or method
    if not api and r.status_code == 404 and "text/html" in r.headers.get("content-type", ""):
        return None  # the site's own page for an unknown table
    try:
        key = r.json()["error"]["key"]
    except (ValueError, KeyError, TypeError):
        return f"a refusal without an error key: {r.status_code} {r.text[:80]!r}"
    return error_problem(key)


def sweep_route(world: World, route: Route) -> list[str]:
    client, values = world.client, world.path_values()
    unknown = set(route.param_convertors) - set(values)
    assert not unknown, (f"{route.path}: the handler sweep has no values for the path parameter(s) "
                         f"{sorted(unknown)}: add real ones to World.path_values (tests/server/sweep)")
    base = {"name": "Fresh Name", "password": "correct horse", "label": "laptop", "record": world.record,
            "moves": [], "action": "a1-a2", "mistakes": 0}
    methods = sorted((route.methods or {"GET"}) - {"HEAD"})
    problems: list[str] = []
    api = route.path.startswith("/api/")
    for role in roles(world):
        deep = role.name in ("guest", "account", "bot")  # the others would repeat the guest's
        for first, params in path_combos(route, values):
            target = url(route, params)
            for method in methods:
                requests: list[tuple[str, dict[str, str], bytes | None]] = [(target, {}, None)]
                if method == "POST":
                    requests = [(target, {"content-type": "application/json"}, b"{}")]
                    if first and deep:
                        requests += [(target, h, b) for h, b in bodies(base, role.name != "guest")]
                elif first and role.name == "account":
                    requests += [(f"{target}?{n}={quote(v)}", {}, None) for n in QUERY_NAMES for v in QUERY_VALUES]
                for address, extra, body in requests:
                    headers = {k: v for k, v in {**role.headers(), **extra}.items() if v}  # "": without it
                    r = client.request(method, address, headers=headers, content=body)
                    client.cookies.clear()
                    problem = answer_problem(r, api)
                    if problem:
                        problems.append(f"{method} {address[:120]} as {role.name} "
                                        f"({(body or b'')[:60]!r}): {problem}")
            wrong = "GET" if "POST" in methods else "POST"
            r = client.request(wrong, url(route, params), headers=role.headers())
            client.cookies.clear()
            problem = answer_problem(r, api)
            if problem:
                problems.append(f"{wrong} {route.path} as {role.name}: {problem}")
    return problems


@pytest.mark.parametrize("route", [r for r in app_routes() if isinstance(r, Route)], ids=route_id)
def test_a_route_refuses_bad_requests_with_a_documented_error(world: World, route: Route) -> None:
    problems = sweep_route(world, route)
    assert not problems, f"{len(problems)} bad answers, the first ones:\n" + "\n".join(problems[:30])


def test_the_sweep_knows_every_kind_of_route() -> None:
    """A route of another kind (not a page or API route, the WebSocket or the static files) would go
    unswept: teach the sweep about it."""
    others = [r for r in app_routes() if not isinstance(r, Route | WebSocketRoute | Mount)]
    assert not others, f"routes the handler sweep does not know how to sweep: {others}"


def test_static_files_refuse_odd_paths_without_an_error(world: World) -> None:
    for path in ("/static/../pyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml", "/static/" + "x" * 3000,
                 "/static/%00", "/static/js/", "/static/i18n/xx.json"):
        r = world.client.get(path)
        assert r.status_code in (200, 404) and "tool.ruff" not in r.text, (path, r.status_code)


def test_the_sweep_met_the_refusals_it_is_for() -> None:
    """Unknown and foreign ids, unfinished games, forged requests: the sweep above got each of these
    refusals (run it whole, not a part of it)."""
    if not {"error.no_game", "error.malformed"} <= SEEN:
        pytest.skip("only after the whole sweep of this module")
    wanted = {"error.no_player", "error.no_game", "error.not_over", "error.hunt_not_over", "error.no_tournament",
              "error.no_puzzle", "error.no_lesson", "error.no_token", "error.bad_token", "error.cross_site",
              "error.too_large", "error.bad_request", "error.token_needs_login", "error.not_bot_account",
              "error.bad_record", "error.wrong_password", "error.bad_password", "error.bad_name"}
    assert wanted <= SEEN, sorted(wanted - SEEN)
