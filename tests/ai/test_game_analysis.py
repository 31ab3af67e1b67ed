"""A whole game's analysis: repeatable (the same game gives the same numbers however its chunks are
run), each decision's loss measured against the best action as an exact search of every action
finds it, and each reveal's luck as ``halali.ai.luck`` weighs it."""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import pytest

from forest_helpers import random_record
from halali.ai.game_analysis import Budget, analyse_plies, chunks, game_luck, summary
from halali.ai.levels import STYLES
from halali.ai.luck import mark, reveal_luck
from halali.ai.search_bots import SearchBot
from halali.games.forest.record import parse_record

SMALL = Budget(soft_nodes=3000, hard_nodes=200_000, luck_depth=1, chunk=5)


def game(seed: int, plies: int | None = None) -> tuple[str, list[str]]:
    rec = parse_record(random_record(seed))
    return rec.start().fen(), list(rec.actions[:plies])


def analysed(deal: str, actions: list[str], budget: Budget, order: list[tuple[int, int]] | None = None) -> list[dict]:
    out: dict[int, dict] = {}
    for first, end in order or chunks(len(actions), budget.chunk):
        for e in analyse_plies(deal, {}, actions, first, end, budget):
            out[e["ply"]] = e
    return [out[p] for p in range(len(actions))]


def test_the_same_game_gives_the_same_analysis_in_any_order_and_process():
    deal, actions = game(3, 30)
    first = analysed(deal, actions, SMALL)
    spans = chunks(len(actions), SMALL.chunk)
    shuffled = spans[:]
    random.Random(1).shuffle(shuffled)
    assert analysed(deal, actions, SMALL, shuffled) == first
    with ProcessPoolExecutor(2) as pool:  # in other processes, side by side
        parts = pool.map(analyse_plies, *zip(*[(deal, {}, actions, f, e, SMALL) for f, e in spans], strict=True))
        assert [e for part in parts for e in part] == first
    marks = [e["played"]["mark"] for e in first if e["played"]]
    assert len(marks) > 10 and any(marks)  # random play gives points away: there is something to mark


def test_a_bigger_budget_looks_deeper():
    deal, actions = game(5, 12)
    small = analysed(deal, actions, SMALL)
    big = analysed(deal, actions, replace(SMALL, soft_nodes=60_000))
    assert sum(e["depth"] for e in big) > sum(e["depth"] for e in small)
    assert all(b["depth"] >= s["depth"] for s, b in zip(small, big, strict=True))


def alone(view, action: str, depth: int) -> float:
    """A fresh exact search of one action on its own."""
    others = frozenset(a for a in view.legal_actions() if view.action_str(a) != action)
    return SearchBot(STYLES[max(STYLES)], 0).think(view, None, depth=depth, exact=True, exclude=others).score


def test_losses_and_marks_against_exact_searches_of_the_best_and_the_played_action():
    deal, actions = game(7, 24)
    plies = analysed(deal, actions, SMALL)
    rec = parse_record(random_record(7))
    compared = 0
    for e, pos in zip(plies, rec.positions(), strict=False):
        view = pos.view()
        if e["played"] is None:
            assert len(view.legal_actions()) == 1
            continue
        played = e["played"]
        assert played["loss"] == pytest.approx(e["score"] - played["value"], abs=2e-3) and played["loss"] >= 0
        assert played["mark"] == mark(played["loss"])
        if played["action"] == e["best"]:
            assert played["loss"] == 0
            continue
        # Fresh searches (no table from the positions before) agree up to a tenth of a point.
        loss = alone(view, e["best"], e["depth"]) - alone(view, played["action"], e["depth"])
        assert played["loss"] == pytest.approx(loss, abs=0.1), e["ply"]
        compared += 1
    assert compared >= 5


def test_the_luck_of_every_reveal_and_the_summary():
    deal, actions = game(9, 40)
    plies = analysed(deal, actions, SMALL)
    rec = parse_record(random_record(9))
    positions = rec.positions()
    reveals = [e for e in plies if "reveal" in e]
    assert reveals and all(actions[e["ply"]].startswith("?") for e in reveals)
    for e in reveals[:6]:
        pos = positions[e["ply"]]
        view = pos.view()
        square_luck = reveal_luck(view, pos.parse_action(actions[e["ply"]]) & 63, SMALL.luck_depth)
        by_text = {view.action_str(o): luck for o, (_, luck) in square_luck.items()}
        assert e["reveal"]["action"] == actions[e["ply"]]
        assert e["reveal"]["luck"] == pytest.approx(by_text[actions[e["ply"]]], abs=2e-3)
        assert e["reveal"]["outcomes"] == len(square_luck)
    final = positions[len(actions)]
    whole = summary(plies, (final.score[0], final.score[1]), SMALL.luck_depth)
    g = game_luck(plies, (final.score[0], final.score[1]), SMALL.luck_depth)
    for p, colour in enumerate(("blue", "brown")):
        assert whole["sides"][colour]["luck"] == pytest.approx(g.luck(p), abs=1e-3)
        assert whole["sides"][colour]["skill_loss"] == pytest.approx(
            sum(e["played"]["loss"] for e in plies if e["played"] and e["to_move"] == colour), abs=1e-3)
    assert [d["ply"] for d in whole["decisions"]] == [e["ply"] for e in plies if e["played"]]


def test_a_mark_is_that_of_the_loss_as_shown(monkeypatch):
    """A loss a hair under a mark's threshold is shown rounded to it, and marked as what it shows."""
    import halali.ai.game_analysis as ga

    deal, actions = game(3, 30)
    best = analyse_plies(deal, {}, actions, 0, len(actions), SMALL)
    ply = next(e["ply"] for e in best if e["played"] is not None and e["best"] != e["played"]["action"])
    found: list[int] = []  # the search's best action at that ply
    real_think = ga._think

    def think(bot, view, budget, **kw):
        t = real_think(bot, view, budget, **kw)
        found[:] = [t.action]
        return t

    # The best action worth 10 points and the played one 8.0004: a loss of 1.9996, shown as 2.0.
    monkeypatch.setattr(ga, "_think", think)
    monkeypatch.setattr(ga, "_alone", lambda bot, view, legal, action, depth: 10.0 if action == found[0] else 8.0004)
    entry = analyse_plies(deal, {}, actions, ply, ply + 1, SMALL)[0]
    assert entry["played"]["loss"] == 2.0 and mark(2.0) == "inaccuracy"
    assert entry["played"]["mark"] == "inaccuracy"
