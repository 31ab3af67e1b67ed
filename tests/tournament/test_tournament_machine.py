"""The site's tournaments in any order of events: a hypothesis state machine against the real server.

People (accounts and a bot account) and computer levels enter, withdraw and enter again, early and
late; the creator starts early or the start time comes; people resign, walk away or run out of time;
deadlines pass; and the server restarts over the same database, in both games. After every step the
tournament, as ``GET /api/tournaments/{id}`` shows it, must hold: each player has exactly one result
(or table) in every round begun since it entered, at most one after withdrawing; the standings are
the sums of the results; no forest round repeats a pairing that another pairing of the same players
would have avoided; a restart loses nothing; every refusal is a documented error, never
``error.internal``, and the server logs no error. The CI run is short and derandomized; the long one
is marked slow.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections import Counter
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import halali
from halali.server.testing import FakeClock, Peer, account_peer, call, running, server_of
from tournament_helpers import perfect_matchings
from tournament_site_helpers import settings as site_settings

pytestmark = pytest.mark.heavy

Message = dict[str, Any]
WORDS = json.loads((Path(halali.__file__).parent / "web" / "i18n" / "en.json").read_text())
PEOPLE = ("ann", "bob", "cat", "robo")  # ann creates; robo is a bot account (forest only)
LEVELS = (1, 2)


class Errors(logging.Handler):
    """Every error the server logs while the machine runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Tournaments(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.stack = contextlib.ExitStack()
        self.folder = Path(self.stack.enter_context(TemporaryDirectory()))
        self.clock = FakeClock()
        self.errors = Errors()
        logging.getLogger("halali").addHandler(self.errors)
        self.stack.callback(logging.getLogger("halali").removeHandler, self.errors)
        self.settings = site_settings(self.folder, self.clock, clock_poll=0.05, abandoned_minutes=5.0)
        self.server = contextlib.ExitStack()
        self.client = self.server.enter_context(running(self.settings))
        self.tokens: dict[str, str] = {}
        self.peers: dict[str, Peer] = {}
        self.tid = ""
        self.game = "forest"

    # ---- the people --------------------------------------------------------------------------
    def peer(self, who: str) -> Peer:
        """The person's connection, opened again if it was closed (walked away, or a restart)."""
        p = self.peers.get(who)
        if p is None or not p.open:
            p = Peer(self.client, self.tokens[who])
            self.peers[who] = p
        return p

    def ask(self, who: str, msg: Message) -> list[Message]:
        """Send a request and wait until the server has handled it; the errors it caused."""
        p = self.peer(who)
        p.send(msg)
        answered = p.sync(timeout=60)
        errors = [m for m in answered if m["type"] == "error"]
        for e in errors:  # documented: the page has words for it, and it is not the server failing
            assert e["key"] in WORDS and e["key"] != "error.internal", e
        return errors

    @initialize(game=st.sampled_from(["forest", "hare"]), pace=st.sampled_from(["live", "correspondence"]),
                rounds=st.integers(2, 4), rated=st.booleans(),
                first=st.lists(st.sampled_from([*PEOPLE, *LEVELS]), min_size=2, max_size=4, unique=True))
    def create(self, game: str, pace: str, rounds: int, rated: bool, first: list[str | int]) -> None:
        """A tournament, and its first entries (the rules add and take away more)."""
        self.game = game
        for who in PEOPLE:
            self.tokens[who] = account_peer(self.client, who.title()).token
        robo = self.tokens["robo"]
        r = self.client.post("/api/bot-account", json={}, headers={"origin": "http://testserver",
                                                                     "cookie": f"halali_session={robo}"})
        assert r.status_code == 200, r.text
        self.client.cookies.clear()
        self.peers.clear()  # connected again: robo is known as a bot account now
        fields: Message = {"type": "tournament_create", "name": "Machine", "game": game, "rounds": rounds,
                           "rated": rated, "starts_in": 60}
        if game == "hare":
            fields.update(pace="live", round_minutes=5, table_size=3)
        elif pace == "live":
            fields.update(pace="live", round_minutes=5, clock={"initial": 30, "increment": 0})
        else:
            fields.update(pace="correspondence", round_days=1)
        ann = self.peer("ann")
        ann.send(fields)
        self.tid = ann.expect("tournament_created")["id"]
        for entrant in first:
            if isinstance(entrant, int):
                self.enter_a_level(entrant)
            else:
                self.enter(entrant)

    # ---- the rules ---------------------------------------------------------------------------
    @rule(who=st.sampled_from(PEOPLE))
    def enter(self, who: str) -> None:
        errors = self.ask(who, {"type": "tournament_join", "id": self.tid})
        assert len(errors) <= 1

    @rule(who=st.sampled_from(PEOPLE))
    def withdraw(self, who: str) -> None:
        self.ask(who, {"type": "tournament_withdraw", "id": self.tid})

    @rule(level=st.sampled_from(LEVELS))
    def enter_a_level(self, level: int) -> None:
        self.ask("ann", {"type": "tournament_level", "id": self.tid, "level": level})

    @rule()
    def start_now(self) -> None:
        self.ask("ann", {"type": "tournament_start", "id": self.tid})

    @rule(who=st.sampled_from(PEOPLE))
    def resign(self, who: str) -> None:
        table = self.my_table(who)
        if table is None:
            return
        p = self.peer(who)
        p.send({"type": "open", "table": table})
        p.sync(timeout=60)
        self.ask(who, {"type": "resign", "table": table, "confirm": True})

    @rule(who=st.sampled_from(PEOPLE))
    def walk_away(self, who: str) -> None:
        """Close every page: a live match whose people are all away long enough ends by itself."""
        p = self.peers.pop(who, None)
        if p is not None:
            p.close()

    @rule(seconds=st.sampled_from([45, 400, 400, 2000, 90_000]))
    def time_passes(self, seconds: int) -> None:
        """Start times, round breaks, clocks running out, away players, and deadlines."""
        self.clock.advance(seconds)
        server = server_of(self.client)
        call(self.client, server.tables.check_clocks)
        call(self.client, server.tables.sweep)
        for _ in range(3):
            call(self.client, server.tournaments.director.step)

    @rule()
    def restart(self) -> None:
        before = self.tournament()
        for p in self.peers.values():
            p.close()
        self.peers.clear()
        self.server.close()
        self.server = contextlib.ExitStack()
        self.client = self.server.enter_context(running(self.settings))
        after = self.tournament()
        assert after["players"] == before["players"]
        kept = {(p["round"], p["board"], tuple(p["players"])): p for p in after["pairings"]}
        for p in before["pairings"]:  # every pairing and every result recorded stays as it was
            now = kept[p["round"], p["board"], tuple(p["players"])]
            assert now["table"] == p["table"]
            if p["points"] is not None:
                assert [now[k] for k in ("kind", "points", "games", "tiles")] == [
                    p[k] for k in ("kind", "points", "games", "tiles")]

    # ---- what must hold after every step -----------------------------------------------------
    def tournament(self) -> Message:
        r = self.client.get(f"/api/tournaments/{self.tid}")
        assert r.status_code == 200, r.text
        t: Message = r.json()
        return t

    def my_table(self, who: str) -> str | None:
        pid = self.peer(who).id
        t = self.tournament()
        return next((p["table"] for p in t["pairings"] if p["round"] == t["round"] and pid in p["players"]
                     and p["points"] is None and p["table"]), None)

    @precondition(lambda self: bool(self.tid))
    @invariant()
    def one_result_a_round_and_standings_that_add_up(self) -> None:
        t = self.tournament()
        assert self.client.get("/api/tournaments").status_code == 200
        held = Counter((p["round"], pid) for p in t["pairings"] for pid in p["players"])
        assert all(n == 1 for n in held.values()), held
        for player in t["players"]:
            if not player["withdrawn"] and t["state"] != "upcoming":
                missing = [r for r in range(1, t["round"] + 1) if held[r, player["id"]] != 1]
                assert not missing, (player, missing, t["pairings"])
        score: Counter[str] = Counter()
        for p in t["pairings"]:
            for pid, points in zip(p["players"], p["points"] or [], strict=False):
                score[pid] += points
        for s in t["standings"]:
            assert s["score"] == pytest.approx(score[s["id"]]), (s, score)
        assert not self.errors.records, [r.getMessage() for r in self.errors.records]

    @precondition(lambda self: bool(self.tid) and self.game == "forest")
    @invariant()
    def no_rematch_that_could_be_avoided(self) -> None:
        t = self.tournament()
        for number in range(2, t["round"] + 1):
            met = {frozenset(p["players"]) for p in t["pairings"] if p["round"] < number
                   and p["kind"] in ("played", "forfeit")}
            pairs = [frozenset(p["players"]) for p in t["pairings"] if p["round"] == number and len(p["players"]) == 2]
            seated = sorted(pid for pair in pairs for pid in pair)
            least = min(sum(frozenset(pair) in met for pair in m) for m in perfect_matchings(seated))
            assert sum(pair in met for pair in pairs) == least, (number, pairs, met)

    def teardown(self) -> None:
        import os
        if os.environ.get("MACHINE_DEBUG") and self.tid:
            t = self.tournament()
            print("END", self.game, t["pace"], t["state"], t["round"], len(t["pairings"]),
                  sorted(Counter(p["kind"] for p in t["pairings"]).items()), flush=True)
        for p in self.peers.values():
            p.close()
        self.server.close()
        self.stack.close()


SHORT = settings(max_examples=6, stateful_step_count=30, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow], print_blob=True)


def test_tournaments_in_any_order_of_events() -> None:
    run_state_machine_as_test(Tournaments, settings=SHORT)


@pytest.mark.slow
def test_tournaments_in_any_order_of_events_at_length() -> None:
    run_state_machine_as_test(Tournaments, settings=settings(SHORT, max_examples=80, stateful_step_count=40,
                                                             derandomize=False))
