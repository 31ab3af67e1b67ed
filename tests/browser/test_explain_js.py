"""The page's explanation of an illegal drop (js/forest.js) against the engine's (explain.py).

The page explains a drop itself, before anything is sent, so that a wrong move snaps back at once
with a reason in the player's language. This test runs the page's module in Chromium on thousands
of illegal drops from positions of random games and checks it names the same rule, with the same
squares, tiles and directions, as the engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

from halali.games.forest.explain import explain_illegal
from halali.games.forest.notation import parse_action_text
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES

pytestmark = pytest.mark.browser

SQUARES = [f + r for r in "1234567" for f in "abcdefg"]


def cases() -> list[dict[str, Any]]:
    rng = random.Random(2024)
    out: list[dict[str, Any]] = []
    for game in range(24):
        stall = (3, 30)[game % 2]
        rules = DEFAULT_RULES.with_options({"stall_limit": str(stall)})
        pos = Position.deal(rules, seed=game)
        # Stop somewhere in the game, often late so that the final phase and its exits come up.
        for _ in range(rng.randrange(40, 140)):
            acts = pos.legal_actions()
            if not acts:
                break
            pos.push(rng.choice(acts))
        if pos.is_over():
            pos.pop()
        if stall == 3:
            # Quiet moves until the stall rule binds (when the position has them).
            for _ in range(6):
                quiet = [a for a in pos.legal_actions() if "-" in pos.action_str(a)
                         and pos.action_str(a)[-1].isdigit()]
                if pos.stall >= stall or not quiet or not pos.hidden:
                    break
                pos.push(rng.choice(quiet))
        view = pos.view(pos.turn)
        legal = {view.action_str(a) for a in view.legal_actions()}
        fen = view.fen()
        board = fen_board(fen)
        colour = fen.split()[1]
        drops = [(s, t) for s in SQUARES if board[s] not in ("", "?") for t in [*SQUARES, *"NESW"] if t != s]
        rng.shuffle(drops)
        for src, dest in drops[:150]:
            if dest in "NESW":
                text = f"{src}-{dest}"
            else:
                text = f"{src}{'x' if board[dest] else '-'}{dest}"
            if text in legal:
                continue
            err = explain_illegal(view, parse_action_text(text))
            out.append({"fen": fen, "colour": colour, "from": src, "to": dest, "stall": stall,
                        "key": err.key, "params": {k: v for k, v in err.params.items() if k != "action"}})
    return out


def fen_board(fen: str) -> dict[str, str]:
    board: dict[str, str] = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank = 7 - i
        file = 0
        for ch in row:
            if ch.isdigit():
                for _ in range(int(ch)):
                    board["abcdefg"[file] + str(rank)] = ""
                    file += 1
            else:
                board["abcdefg"[file] + str(rank)] = ch
                file += 1
    return board


def test_page_explains_drops_like_the_engine(open_page: Any) -> None:
    all_cases = cases()
    keys = {c["key"] for c in all_cases}
    assert len(all_cases) > 2000
    # The sample reaches the rules a drop can break, the final phase's exits included.
    assert {"rule.straight", "rule.blocked", "rule.not_yours", "rule.tree", "rule.cannot_capture",
            "rule.stall", "rule.exit_final_phase", "rule.one_square"} <= keys, keys
    assert keys & {"rule.exit_blocked", "rule.exit_line", "rule.exit_own", "rule.exit_next"}, keys

    page = open_page("/how-to-play")
    results = page.evaluate(
        """async (cases) => {
             const f = await import('/static/js/forest.js');
             return cases.map((c) =>
               f.explainDrop(f.parsePosition(c.fen), c.colour, c.from, c.to, { stallLimit: c.stall }));
           }""",
        all_cases,
    )
    wrong = []
    for case, (key, params) in zip(all_cases, results, strict=True):
        same = key == case["key"] and all(case["params"].get(k) == v for k, v in params.items() if k != "how")
        if not same:
            wrong.append((case["fen"], case["from"], case["to"], case["key"], case["params"], key, params))
    assert not wrong, wrong[:5]
