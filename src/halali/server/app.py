"""The ASGI app: pages, a small JSON API, the WebSocket, and the session cookie on every page."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from halali.server.api import error_response
from halali.server.api import routes as api_routes
from halali.server.bot_accounts import bearer_token
from halali.server.bots import Bots
from halali.server.errors import ClientError
from halali.server.games.base import TableGame
from halali.server.puzzle_routes import routes as puzzle_routes
from halali.server.services import Services
from halali.server.settings import Settings
from halali.server.ws import COOKIE, endpoint
from halali.store import Store

COOKIE_AGE = 365 * 24 * 3600


class SessionMiddleware:
    """Every page and API request belongs to a player: a new visitor gets a secret token in a cookie.

    The cookie is HttpOnly (scripts cannot read it) and SameSite=Lax (other sites cannot act with it).
    A route that changes the session (login, register, logout) leaves the new token (or "" to clear
    the cookie) in ``request.state.session_cookie``; this middleware writes the one cookie.

    Only a request for one of the app's pages or API routes makes a new visitor a guest. Anything else
    (files, the health check, a browser's own /favicon.ico, a crawler's guess) passes without a player:
    otherwise a stray request racing a page load could answer with a second guest's cookie, and the
    page would end up speaking for a player other than the one its cookie names a moment later.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _needs_session(scope):
            await self.app(scope, receive, send)
            return
        server: Services = scope["app"].state.server
        api_token = bearer_token(HTTPConnection(scope).headers)
        if api_token is not None:  # a bot account's program (docs/bots.md): the token, never a cookie
            bot = await server.bot_accounts.player_for_token(api_token)
            if bot is None:
                await error_response(ClientError("error.bad_token"))(scope, receive, send)
                return
            scope.setdefault("state", {}).update(player_id=bot.id, token=None, bearer=True)
            await self.app(scope, receive, send)
            return
        token = HTTPConnection(scope).cookies.get(COOKIE)
        player = await server.ctx.people.player_for_token(token)
        new_token = None
        if player is None:
            new_token, player = await server.ctx.people.new_player()
        state = scope.setdefault("state", {})
        state.update(player_id=player.id, token=new_token or token)

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                value = state.get("session_cookie", new_token)
                if value is not None:
                    age = COOKIE_AGE if value else 0
                    headers = MutableHeaders(scope=message)
                    secure = "; Secure" if server.settings.secure_cookies else ""
                    headers.append("set-cookie", f"{COOKIE}={value}; Path=/; Max-Age={age}; "
                                                 f"HttpOnly; SameSite=Lax{secure}")
            await send(message)

        await self.app(scope, receive, send_with_cookie)


NO_SESSION = ("/static/", "/api/health", "/favicon.ico")

# Sent with every answer. No other site may frame a page (clickjacking: a hidden "Resign" under a
# lure), a browser may not guess a file's type, and the full address of a page (a table's, a replay's)
# goes only to this site's own requests, where the origin check reads it.
SECURITY_HEADERS = (
    ("content-security-policy", "frame-ancestors 'none'"),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
)


class SecurityHeadersMiddleware:
    """Adds ``SECURITY_HEADERS`` to every HTTP response, pages, API, files and errors alike."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _needs_session(scope: Scope) -> bool:
    """True for a request that one of the app's own routes answers (pages and the API)."""
    if scope["path"].startswith(NO_SESSION):
        return False
    routes = getattr(scope.get("app"), "routes", ())
    return any(not isinstance(r, Mount) and r.matches(scope)[0] != Match.NONE for r in routes)


class Pages:
    """The HTML pages: templates in the web folder that share one head and top bar (templates/base.html).

    Each page is rendered once and kept: a page holds no per-player data (the scripts fetch that),
    so every visitor gets the same bytes.
    """

    def __init__(self, web_dir: Path) -> None:
        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(web_dir), autoescape=True,
                                      undefined=jinja2.StrictUndefined)
        self.cache: dict[str, str] = {}

    def response(self, name: str, status_code: int = 200) -> Response:
        html = self.cache.get(name)
        if html is None:
            try:
                html = self.env.get_template(name).render()
            except jinja2.TemplateNotFound:
                return PlainTextResponse(f"{name} is missing from the web folder", status_code=404)
            self.cache[name] = html
        return HTMLResponse(html, status_code=status_code, headers={"cache-control": "no-cache"})


def create_app(settings: Settings | None = None, games: dict[str, TableGame] | None = None,
               bots: Bots | None = None) -> Starlette:
    """The app; ``games`` replaces the games it serves (a test registers a toy game beside them), and
    ``bots`` the pool its computer players think in (the tests' apps share one, ``server.testing``)."""
    settings = settings or Settings.from_env()
    web = settings.web_dir

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await run_in_threadpool(Store, settings.database_url())
        server = Services.build(settings, store, games, bots)
        app.state.server = server
        if settings.redis_url:
            from halali.server import ws

            server.join_cluster(lambda conn, text: ws.handle(server, conn, text))
        await server.start()
        if settings.freeze_gc:  # the modules and tables loaded so far stay: later collections skip them
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            await server.stop()

    pages = Pages(web)

    async def index(request: Request) -> Response:
        return pages.response("index.html")

    async def how_to_play(request: Request) -> Response:
        return pages.response("how-to-play.html")

    async def table_page(request: Request) -> Response:
        server: Services = request.app.state.server
        game = await server.tables.game_at(request.path_params["table_id"])
        if game is None:
            return pages.response("not-found.html", 404)
        return pages.response(game.page)

    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            return pages.response(name)
        return handler

    async def lobby(request: Request) -> Response:
        server: Services = request.app.state.server
        return JSONResponse(server.lobby.message())

    async def health(request: Request) -> Response:
        # A cluster node is ready once it reads its inbox: before that, the front sends it nobody.
        cluster = request.app.state.server.cluster
        if cluster is not None and not cluster.bus.reading.is_set():
            return JSONResponse({"ok": False, "waiting": "redis"}, status_code=503)
        return JSONResponse({"ok": True})

    async def favicon(request: Request) -> Response:
        return FileResponse(web / "favicon.svg", media_type="image/svg+xml",
                            headers={"cache-control": "public, max-age=86400"})

    routes = [
        Route("/", index),
        Route("/how-to-play", how_to_play),
        Route("/table/{table_id}", table_page),
        Route("/account", page("account.html")),
        Route("/leaderboard", page("leaderboard.html")),
        Route("/history", page("history.html")),
        Route("/player/{player_id}", page("player.html")),
        Route("/tournaments", page("tournaments.html")),
        Route("/arena", page("arena.html")),
        Route("/tournament/{tournament_id}", page("tournament.html")),
        Route("/replay", page("replay.html")),
        Route("/replay/{game_id}", page("replay.html")),
        Route("/hunt/{game_id}", page("hunt.html")),
        Route("/puzzles", page("puzzles.html")),
        Route("/puzzles/{puzzle_id}", page("puzzles.html")),
        Route("/learn", page("learn.html")),
        *api_routes(),
        *puzzle_routes(),
        Route("/api/lobby", lobby),
        Route("/api/health", health),
        Route("/favicon.ico", favicon),
        WebSocketRoute("/ws", endpoint),
        Mount("/static", app=StaticFiles(directory=web, check_dir=False), name="static"),
    ]
    async def not_found(request: Request, exc: Exception) -> Response:
        """An unknown address: the site's own page for people, a short answer for files and the API."""
        if request.url.path.startswith(("/api/", "/static/")):
            return PlainTextResponse("Not Found", status_code=404)
        return pages.response("not-found.html", 404)

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found})
    app.add_middleware(SessionMiddleware)
    app.add_middleware(SecurityHeadersMiddleware)
    return app
