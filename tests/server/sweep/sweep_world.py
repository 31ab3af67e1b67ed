"""The world the handler sweep runs in, built once per test module on one in-process app.

Real data for every kind of path parameter and message field: accounts, a guest, a bot account with
its API token, a spectator; forest tables playing, waiting and finished, a hunt finished and one still
running, tournaments upcoming and running (with its paired table), a challenge, puzzles, the course's
lessons. A sweep sends its requests as each role, so every "foreign" request meets someone else's
real table, game, token or challenge.

Every refusal the sweep gets must name an error key that the docs list and that the page translates in
all five languages (``check_error``); an internal error or a 500 is a defect.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from halali.learn.course import LESSONS
from halali.puzzles.model import Puzzle
from halali.server.errors import ENGLISH
from halali.server.puzzles.records import to_store
from halali.server.settings import Settings
from halali.server.testing import Peer, new_session, server_of, settings_for_tests
from halali.server.ws import COOKIE

if TYPE_CHECKING:
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[3]
ORIGIN = "http://testserver"
LANGUAGES = ("de", "en", "fr", "it", "cs")
PUZZLES = (
    Puzzle("F1D1P2/7/7/7/7/7/1N4? blue - - - - 0 - -", ("a7xc7", "b1-b2", "c7xe7"), 5.0, 3.0, False,
           ("capture", "long"), 6, 1500, (), {"kind": "selfplay", "seed": 1, "ply": 3}),
    Puzzle("3B3/7/7/7/2F4/7/2N4 blue - - - 1 0 - -", ("d7-N",), 10.0, 5.0, True, ("exit_race",), 1, 1400, (),
           {"kind": "selfplay", "seed": 2, "ply": 9}),
)


def sweep_settings(data_dir: Path) -> Settings:
    """The tests' settings with every per-address and per-player limit out of the sweep's way (a limit
    reached would hide the checks behind it) and a quick analysis."""
    return settings_for_tests(data_dir, rate_burst=10**6, registrations_per_address=10**6,
                              login_failures_per_name=10**6, login_failures_per_address=10**6,
                              imports_per_address=10**6, analyses_per_address=10**6, hints_per_player=10**6,
                              analysis_movetime=0.01, challenges_per_player=10**3, tournaments_per_account=10**3,
                              bot_games_at_once=10**3, bot_games_per_day=10**4)


@dataclass
class Role:
    """Someone the sweep speaks as: a session cookie, or a bot account's API token."""

    name: str
    id: str
    cookie: str | None = None
    bearer: str | None = None

    def headers(self) -> dict[str, str]:
        """What its requests carry: a page's cookie and origin, or a program's token alone."""
        if self.bearer:
            return {"authorization": f"Bearer {self.bearer}"}
        return {"origin": ORIGIN, **({"cookie": f"{COOKIE}={self.cookie}"} if self.cookie else {})}

    def peer(self, client: TestClient) -> Peer:
        return Peer(client, bearer=self.bearer) if self.bearer else Peer(client, self.cookie)


@dataclass
class World:
    client: TestClient
    roles: dict[str, Role]
    owner: Role
    rival: Role
    tables: dict[str, str] = field(default_factory=dict)  # what it is -> table id
    games: dict[str, int] = field(default_factory=dict)  # forest games and hunts, by what they are
    tournaments: dict[str, str] = field(default_factory=dict)
    challenge: str = ""
    puzzles: list[int] = field(default_factory=list)
    token_id: int = 0
    record: str = ""  # a finished game's record, as an import takes it
    made: int = 0  # accounts made for the sweeps so far (their names)
    peers: list[Peer] = field(default_factory=list)

    def path_values(self) -> dict[str, list[tuple[str, str]]]:
        """Real values for each kind of path parameter, by what they are (the wrong ones are the sweep's)."""
        lesson = LESSONS[0]
        return {
            "table_id": list(self.tables.items()),
            "player_id": [("owner", self.owner.id), ("bot account", self.roles["bot"].id), ("level", "bot_1"),
                          ("hare level", "hare_bot_2"), ("guest", self.roles["guest"].id)],
            "game_id": [(k, str(v)) for k, v in self.games.items()],
            "tournament_id": list(self.tournaments.items()),
            "puzzle_id": [(f"puzzle {i}", str(p)) for i, p in enumerate(self.puzzles)],
            "token_id": [("a bot's token", str(self.token_id))],
            "lesson": [(lesson.id, lesson.id), (LESSONS[-1].id, LESSONS[-1].id)],
            "task": [(lesson.tasks[0].id, lesson.tasks[0].id), (LESSONS[-1].tasks[-1].id, LESSONS[-1].tasks[-1].id)],
        }


def _post(client: TestClient, path: str, body: Any, cookie: str) -> Any:
    r = client.post(path, json=body, headers={"origin": ORIGIN, "cookie": f"{COOKIE}={cookie}"})
    client.cookies.clear()
    assert r.status_code == 200, r.text
    return r


def account(client: TestClient, name: str) -> Role:
    r = _post(client, "/api/register", {"name": name, "password": "correct horse"}, new_session(client))
    return Role(name, r.json()["id"], cookie=r.cookies[COOKIE])


def guest(client: TestClient, name: str) -> Role:
    cookie = new_session(client)
    r = client.get("/api/me", headers={"cookie": f"{COOKIE}={cookie}"})
    client.cookies.clear()
    return Role(name, r.json()["id"], cookie=cookie)


def _table(owner: Peer, rival: Peer | None, start: bool, **create: Any) -> str:
    owner.send({"type": "create", "join": True, **create})
    table: str = owner.expect("created")["table"]
    if rival is not None:
        rival.send({"type": "join", "table": table})
        _seated(rival, table)
    if start:
        owner.send({"type": "start", "table": table})
        started = ("chat.started", "chat.hare_started")
        owner.expect("chat", lambda m: m["table"] == table and m["line"].get("key") in started)
    return table


def _seated(peer: Peer, table: str) -> None:
    """Wait for the table (a forest `table` or a `hare` message) with the peer in a seat."""
    while True:
        m = peer.receive()
        t = m.get("table")
        if isinstance(t, dict) and t.get("id") == table and any(s and s.get("id") == peer.id for s in t["seats"]):
            return


def _resign(peer: Peer, table: str) -> None:
    peer.send({"type": "resign", "table": table, "confirm": True})
    peer.expect("chat", lambda m: m["table"] == table and m["line"].get("key") == "chat.resigned")


def build(client: TestClient) -> World:
    SEEN.clear()  # a module's sweep counts its own answers
    owner, rival = account(client, "Owner"), account(client, "Rival")
    bot = account(client, "Robo")
    _post(client, "/api/bot-account", {}, bot.cookie or "")
    bearer = _post(client, "/api/tokens", {"label": "in use"}, bot.cookie or "").json()["token"]
    spare = _post(client, "/api/tokens", {"label": "spare"}, bot.cookie or "").json()
    roles = {"guest": guest(client, "guest"), "account": account(client, "Sweeper"),
             "bot": Role("bot", bot.id, bearer=bearer), "spectator": guest(client, "spectator")}
    world = World(client, roles, owner, rival, token_id=spare["id"])
    o, r = owner.peer(client), rival.peer(client)
    world.peers += [o, r]
    t = world.tables
    t["playing"] = _table(o, r, True, seed=7, rules={"match": "single"})
    t["waiting"] = _table(o, None, False, seed=8)
    t["finished"] = _table(o, r, True, seed=9, rules={"match": "single"})
    _resign(o, t["finished"])
    t["hunt finished"] = _table(o, r, True, game="hare", seats=2, seed=5)
    _resign(o, t["hunt finished"])
    t["hunt playing"] = _table(o, r, True, game="hare", seats=2, seed=6)
    tables = server_of(client).tables
    for name in ("playing", "finished", "hunt finished", "hunt playing"):
        table = tables.tables[t[name]]
        world.games[f"game of {name}"] = tables.game_of(table).game_id(table)
    spectator = roles["spectator"].peer(client)
    world.peers.append(spectator)
    spectator.send({"type": "open", "table": t["playing"]})
    spectator.expect("table")
    o.send({"type": "tournament_create", "name": "Upcoming cup", "starts_in": 3600})
    world.tournaments["upcoming"] = o.expect("tournament_created")["id"]
    o.send({"type": "tournament_create", "name": "Running cup", "starts_in": 3600, "rated": False, "rounds": 2})
    running = world.tournaments["running"] = o.expect("tournament_created")["id"]
    entrant = roles["account"].peer(client)  # the account role plays there: a seat that the pairings fix
    world.peers.append(entrant)
    entrant.send({"type": "tournament_join", "id": running})
    entrant.sync()
    for msg in ({"type": "tournament_join"}, {"type": "tournament_level", "level": 1},
                {"type": "tournament_level", "level": 2}, {"type": "tournament_start"}):  # four: nobody has a bye
        o.send({**msg, "id": running})
    t["tournament"] = entrant.expect("tournament_game", lambda m: m["tournament"] == running)["table"]
    o.send({"type": "challenge", "to": rival.id})
    world.challenge = o.expect("challenge")["challenge"]["id"]
    world.record = client.get(f"/api/games/{world.games['game of finished']}/record").text
    client.cookies.clear()
    store = server_of(client).ctx.store
    store.add_puzzles([to_store(p) for p in PUZZLES])
    world.puzzles = [p.id for p in store.puzzles_page()]
    return world


# ---- the answers ---------------------------------------------------------------------------------
@cache
def documented_errors() -> frozenset[str]:
    """Every error key the docs name (`error.…` in backticks), with its English and all five translations."""
    text = "".join(p.read_text() for p in sorted((ROOT / "docs").glob("*.md")))
    return frozenset(re.findall(r"`(error\.[a-z_]+)`", text))


@cache
def translations() -> dict[str, dict[str, str]]:
    web = ROOT / "src" / "halali" / "web" / "i18n"
    return {lang: json.loads((web / f"{lang}.json").read_text()) for lang in LANGUAGES}


SEEN: set[str] = set()  # every error key the sweeps were answered with, for their last checks


def error_problem(key: Any) -> str | None:
    """What is wrong with an error key in an answer, or None when it is a documented, translated refusal."""
    SEEN.add(str(key))
    if key == "error.internal":
        return "an internal error"
    if not isinstance(key, str) or key not in documented_errors():
        return f"{key!r} is not a documented error key (docs/*.md)"
    missing = [lang for lang, words in translations().items() if key not in words]
    if missing:
        return f"{key} has no translation in {', '.join(missing)}"
    if key not in ENGLISH:
        return f"{key} has no English message in halali.server.errors.ENGLISH"
    return None
