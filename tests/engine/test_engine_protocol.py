"""``halali engine`` as a separate program, spoken to in the engine protocol.

Whole games are played through the protocol with a small movetime: every answer must be legal,
written without the reveal's outcome, and come from the engine by itself (its own movetime ended the
search: the runner never had to send ``stop``). How punctual the answers are is a measurement, not a
test: ``halali arena`` counts every answer later than movetime + 100 ms (docs/engine-protocol.md).
"""

from __future__ import annotations

import sys

import pytest

from halali.engine.client import EngineClient, GoResult, InProcessTransport, ProcessTransport, Transport
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules

ENGINE = f"{sys.executable} -m halali.cli engine"
MOVETIME = 0.05
BY_ITSELF = 60.0  # only a bound: an engine that has not answered by then is told to stop, and fails


def go(client: EngineClient, view: str) -> GoResult:
    """``go movetime`` and the answer, which must come before the runner would send ``stop``."""
    answer = client.go(view, MOVETIME, hard_timeout=BY_ITSELF)
    assert answer.bestmove is not None and answer.seconds < BY_ITSELF, f"no answer by itself in {view}"
    return answer


@pytest.fixture(scope="module")
def engine() -> EngineClient:
    client = EngineClient(ProcessTransport(ENGINE)).start()
    yield client
    client.close()


def _play_game(clients: tuple[EngineClient, EngineClient], seed: int, rules: Rules) -> Position:
    pos = Position.deal(rules, seed=seed)
    for c in clients:
        c.set_rules(rules)
    while not pos.is_over():
        view = pos.view().fen()
        answer = go(clients[pos.turn], view)
        assert answer.bestmove is not None
        assert "=" not in answer.bestmove, "a reveal must not carry its outcome"
        pos.play(answer.bestmove)  # raises IllegalAction on an illegal answer
    return pos


def test_introduction_lists_identity_and_options(engine: EngineClient) -> None:
    assert engine.name.startswith("halali")
    assert set(engine.options) >= {"level", "seed", "threads"}
    assert "max 6" in engine.options["level"]


def test_whole_games_through_the_protocol_are_legal_and_answered_unprompted(engine: EngineClient) -> None:
    rules = Rules(stall_limit=12, green_lock="revealed_only")
    end = _play_game((engine, engine), seed=5, rules=rules)
    assert end.is_over() and sum(end.score) > 0


def test_every_level_answers_through_the_protocol(engine: EngineClient) -> None:
    pos = Position.deal(seed=9)
    for level in range(1, 7):
        engine.set_option("level", level)
        engine.ready()
        answer = go(engine, pos.view().fen())
        assert answer.bestmove is not None
        pos.copy().play(answer.bestmove)
    engine.set_option("level", 6)


def test_info_lines_and_node_and_depth_limits(engine: EngineClient) -> None:
    pos = Position.deal(seed=3)
    for _ in range(6):
        pos.push(pos.legal_actions()[0])
    answer = engine.go(pos.view().fen(), depth=2, hard_timeout=BY_ITSELF)
    assert answer.bestmove is not None
    assert answer.last_info("depth") == "2"
    assert -170.0 <= float(answer.last_info("score") or "nan") <= 170.0
    answer = engine.go(pos.view().fen(), nodes=3000, hard_timeout=BY_ITSELF)
    assert answer.bestmove is not None
    assert int(answer.last_info("nodes") or 0) <= 3000 + 600  # checked every few hundred nodes


def test_go_infinite_answers_only_after_stop(engine: EngineClient) -> None:
    t = engine.transport
    pos = Position.deal(seed=4)
    t.send(f"position {pos.view().fen()}")
    t.send("go infinite")
    line = ""
    while not line.startswith("info depth 3 "):  # the search goes on, iteration after iteration, unanswered
        line = t.recv(30.0) or "timeout"
        assert line != "timeout" and not line.startswith("bestmove"), line
    t.send("stop")
    line = ""
    while not line.startswith("bestmove"):
        line = t.recv(30.0) or "timeout"
        assert line != "timeout"
    pos.play(line.split()[1])


def _answer(t: Transport, line: str) -> list[str]:
    """What the engine says to ``line`` before it answers the ``isready`` sent after it."""
    t.send(line)
    t.send("isready")
    lines = []
    while (said := t.recv(5.0)) != "readyok":
        assert said is not None
        lines.append(said)
    return lines


def test_bad_input_is_answered_and_changes_nothing(engine: EngineClient) -> None:
    t = engine.transport
    good = Position.deal(seed=2).view().fen()
    t.send(f"position {good}")
    for bad in ("frobnicate now", "setoption name level value 99", "setoption name colour value red",
                "rules stall_limit=-3", "position 7/7/7 blue", "go movetime soon"):
        lines = _answer(t, bad)
        assert lines and all(x.startswith("info string") for x in lines), (bad, lines)
    # A superscript two is a digit to Python's isdigit() but no number: the same sentences as any bad value.
    for bad, said in (("setoption name level value \u00b2", "level must be 1.."), ("setoption name seed value \u00b2",
                      "seed must be 0.."), ("go movetime \u00b2", "write: go [movetime MS]")):
        lines = _answer(t, bad)
        assert any(said in x for x in lines), (bad, lines)
    answer = go(engine, good)  # the last good position and options still stand
    assert answer.bestmove is not None
    assert answer.bestmove.startswith("?")  # a fresh deal offers reveals only


def test_in_process_adapter_speaks_the_same_protocol() -> None:
    a = EngineClient(InProcessTransport(3)).start()
    b = EngineClient(ProcessTransport(ENGINE + " --level 2")).start()
    try:
        assert a.name.startswith("halali") and b.name.startswith("halali")
        assert a.options.keys() == b.options.keys()
        end = _play_game((a, b), seed=8, rules=Rules())
        assert end.is_over()
    finally:
        a.close()
        b.close()


def test_a_go_before_the_search_has_loaded_is_answered_without_waiting_for_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from halali.engine import session as session_module

    loaded = threading.Event()
    # A first load that compiles: it ends only when the test says so, so an answer before that did not wait.
    monkeypatch.setattr(session_module, "warm_up", lambda: loaded.wait(BY_ITSELF))
    lines: list[str] = []
    s = session_module.EngineSession(lines.append, level=6)
    pos = Position.deal(Rules(), seed=5)
    s.handle("position " + pos.view().fen())
    s.handle("go movetime 300")
    assert s._search is not None
    s._search.join(BY_ITSELF)
    assert not s._search.is_alive() and s._warm.is_alive()  # answered while the search was still loading
    best = [x for x in lines if x.startswith("bestmove ")]
    assert len(best) == 1
    assert any("still loading" in x for x in lines)
    pos.play(best[0].split()[1])  # legal
    loaded.set()
    s._warm.join(BY_ITSELF)
    lines.clear()
    s.handle("go depth 1")  # once loaded, the search itself answers
    s._search.join(10)
    assert not any("still loading" in x for x in lines) and any(x.startswith("bestmove ") for x in lines)


def test_go_with_the_game_clock_thinks_as_the_clock_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    from halali.ai.search_bots import SearchBot
    from halali.ai.timing import clock_movetime
    from halali.engine import session as session_module

    asked: list[float | None] = []
    think = SearchBot.think

    def spy(self: SearchBot, view: Position, movetime: float | None = None, **kw: object) -> object:
        asked.append(movetime)
        return think(self, view, movetime, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchBot, "think", spy)
    lines: list[str] = []
    s = session_module.EngineSession(lines.append, level=4)
    s.handle("isready")  # the search has loaded (its warm-up thinks too)
    asked.clear()
    pos = Position.deal(Rules(), seed=6)
    pos.push(pos.legal_actions()[0])  # brown to move
    s.handle("position " + pos.view().fen())
    for command, expected in (
        ("go bluetime 60000 browntime 4000 blueinc 0 browninc 500", clock_movetime(pos.view(), 4.0, 0.5)),
        ("go browntime 4000 movetime 50", clock_movetime(pos.view(), 4.0, 0.0, 0.05)),
        ("go bluetime 4000", 1.0),  # only the other side's clock: a plain go
    ):
        s.handle(command)
        assert s._search is not None
        s._search.join(10)
        assert asked[-1] == pytest.approx(expected), command
        pos.copy().play([x for x in lines if x.startswith("bestmove ")][-1].split()[1])
    s.handle("go browntime soon")
    assert lines[-1].startswith("info string") and "bluetime" in lines[-1]
