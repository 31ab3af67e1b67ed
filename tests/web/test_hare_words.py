"""Every hare action in words, in all five languages, in the table's moves list and in its chat: a
hunt of three people (three sockets) is played to its end with a seeded deal, choosing actions that
aim at the hare, so that it holds every kind of action (the bush, a roll, the dice's choice, a step,
a turn, the end of a movement, a shot, a removal) and what they bring about (a shot's lines, hunters
aiming, hunters removed, a seat out, the end). The page then tells them in German, English, French,
Italian and Czech exactly as the translations say, the notation beside the words. The hunt's replay
tells them the same way and axe finds no violation on it at either size."""

from __future__ import annotations

import json
import random
import re
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from test_hare_board import SIZES, strict_axe

import loopback
from halali.games.hare.clubs import CLUB_LETTERS
from halali.games.hare.events import consequences
from halali.games.hare.game import HareGame
from halali.games.hare.state import HareState

pytestmark = pytest.mark.browser

GAME = HareGame()
SEED = 179  # its deal and these choices give every kind of action and of line in 176 actions
I18N = Path(__file__).resolve().parents[2] / "src/halali/web/i18n"
KINDS = ("bush", "roll", "assign", "step", "turn", "end", "shot", "remove")


def policy(st: HareState, rng: random.Random) -> str:
    """Turn or step to aim at the hare when that is possible, else mostly forward."""
    legal = [st.action_str(a) for a in st.legal_actions()]
    aimers = []
    for a in legal:
        if ">" in a or ("-" in a and not a.startswith("x")):
            after = st.copy(history=False)
            after.play(a)
            if len(after.aiming()) > len(st.aiming()):
                aimers.append(a)
    if aimers and rng.random() < 0.9:
        return rng.choice(aimers)
    steps = [a for a in legal if "-" in a and not a.startswith("x")]
    if steps and rng.random() < 0.6:
        return rng.choice(steps)
    if "end" in legal and rng.random() < 0.5:
        return "end"
    return rng.choice([a for a in legal if a != "end"] or legal)


def kind(action: str, phase: str) -> str:
    if action.startswith("bush="):
        return "bush"
    if action.startswith("roll"):
        return "shot" if phase == "aim" else "roll"
    if action[0].isdigit():
        return "assign"
    if action.startswith("x"):
        return "remove"
    if action == "end":
        return "end"
    return "step" if "-" in action else "turn"


def planned_hunt() -> tuple[list[tuple[int, str, str]], HareState, list[dict[str, Any]]]:
    """The hunt the server will deal for this seed (the same draw as HareTables.draw), played out
    here: (seat, action to send, kind) per action, the final state and each action's event."""
    st = GAME.new({}, 3, random.Random(SEED))
    rng = random.Random(SEED)
    plan, events = [], []
    while not st.is_over():
        action = policy(st, rng)
        before = st.copy(history=False)
        st = GAME.apply(st, action)
        plan.append((before.to_move, action, kind(action, before.phase)))
        events.append(consequences(before, st, st.history[-1]))
    return plan, st, events


class Seat:
    """A person at the table over a WebSocket of its own."""

    def __init__(self, url: str, stack: ExitStack) -> None:
        from websockets.sync.client import connect

        cookie = loopback.get(f"{url}/api/me").cookies["halali_session"]
        self.ws = stack.enter_context(connect(url.replace("http://", "ws://") + "/ws", max_size=None,
                                              additional_headers={"Cookie": f"halali_session={cookie}"}))
        self.name = self.wait(lambda m: m["type"] == "welcome")["you"]["name"]

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def wait(self, cond: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv(timeout=20))
            assert msg["type"] != "error", msg
            if cond(msg):
                return dict(msg)
        raise AssertionError("no such message")

    def drain(self) -> None:
        try:
            while True:
                self.ws.recv(timeout=0)
        except TimeoutError:
            pass


def play_over_sockets(url: str, table: str, plan: list[tuple[int, str, str]]) -> tuple[list[str], dict[str, Any]]:
    with ExitStack() as stack:
        return _play(url, table, plan, stack)


def _play(url: str, table: str, plan: list[tuple[int, str, str]], stack: ExitStack) -> tuple[list[str], dict[str, Any]]:
    seats = []
    for i in range(3):
        seat = Seat(url, stack)
        seat.send({"type": "open", "table": table})
        seat.send({"type": "join", "table": table})
        seat.wait(lambda m, i=i: m["type"] == "hare" and m["table"]["you"]["seat"] == i)
        seats.append(seat)
    seats[0].send({"type": "start", "table": table})
    last = seats[0].wait(lambda m: m["type"] == "hare" and m["hunt"] is not None)
    for ply, (mover, action, _) in enumerate(plan):
        seats[mover].send({"type": "action", "action": "roll" if action.startswith("roll") else action, "ply": ply})
        last = seats[mover].wait(lambda m, p=ply: m["type"] == "hare" and m["hunt"] and m["hunt"]["ply"] > p)
        for other in seats:
            if other is not seats[mover]:
                other.drain()
    return [s.name for s in seats], last


def list_text(page: Any, lang: str, items: list[str]) -> str:
    """Cells as a list in the language, as the browser joins them ("c6 and h6", "c6 a\u00a0h6")."""
    script = "([l, a]) => new Intl.ListFormat(l, {style: 'long', type: 'conjunction'}).format(a)"
    return str(page.evaluate(script, [lang, items]))


def fill(text: str, lang: str, **params: Any) -> str:
    """A translation filled as the page's ``t`` fills it, the words by the number included."""
    def one(m: re.Match[str]) -> str:
        value = params[m[1]]
        if m[2] is None:
            return str(value)
        forms = dict(f.split("=", 1) for f in m[2].split("|"))
        n = int(value)
        category = "one" if n == 1 else "few" if lang == "cs" and 2 <= n <= 4 else "other"
        return forms.get(category, forms["other"])
    return re.sub(r"\{(\w+)(?::([^{}]*))?\}", one, text)


def expected_words(action: str, name: str, ev: dict[str, Any], s: dict[str, str], lang: str, names: list[str],
                   clubs: list[str], join: Any) -> str:
    """The sentences the translations give for an action and its event (docs/web.md, the hare hunt)."""
    def t(key: str, **p: Any) -> str:
        return fill(s[key], lang, **p)

    face = lambda d: s["hare.say.blank"] if d == "0" else d  # noqa: E731
    m = re.fullmatch(r"roll=(\d),(\d)", action)
    if m and ev.get("shot", {}).get("explosion"):
        out = [t("hare.say.explosion", name=name)]
    elif m and "shot" in ev:
        out = [t("hare.say.shot_roll", name=name, a=face(m[1]), b=face(m[2]), d=ev["shot"]["d"])]
    elif m:
        out = [t("hare.say.rolled", name=name, a=face(m[1]), b=face(m[2]))]
    elif re.fullmatch(r"\dx\d", action):
        choice = t("hare.assign", hunters=action[0], points=action[2])
        out = [t("hare.say.assign", name=name, choice=choice)]
    elif action.startswith("bush="):
        out = [t("hare.say.bush", name=name, cell=action[5:])]
    elif action.startswith("x"):
        out = [t("hare.say.remove", name=name, cell=action[1:])]
    elif action == "end":
        out = [t("hare.say.end", name=name)]
    elif "-" in action:
        a, b = action.split("-")
        out = [t("hare.say.step", name=name, **{"from": a, "to": b})]
    else:
        a, d = action.split(">")
        out = [t("hare.say.turn", name=name, toward=s[f"hare.toward.{d}"], **{"from": a})]
    implied = set()
    for line in ev.get("shot", {}).get("lines", []):
        out.append(t(f"hare.say.line.{line['outcome']}", name=name, to=line["to"] or "", **{"from": line["from"]}))
        if line["outcome"] == "hit":
            implied.add(line["to"])
        if line["outcome"] == "both":
            implied |= {line["from"], line["to"]}
    if ev.get("still"):
        out.append(t("hare.say.still"))
    if ev.get("dice"):
        out.append(t("hare.say.double", choice=t("hare.assign", hunters=ev["dice"][0], points=ev["dice"][1])))
    if ev.get("aim"):
        out.append(t("hare.say.aim", n=len(ev["aim"]), cells=join(ev["aim"])))
    if action.startswith("x"):
        implied.add(action[1:])
    extra = [c for c in ev.get("removed", []) if c not in implied]
    if extra:
        out.append(t("hare.say.removed", n=len(extra), cells=join(extra)))
    for seat in ev.get("out", []):
        out.append(t("hare.say.out", name=names[seat], club=s[f"hare.club.{clubs[seat]}"]))
    if ev.get("over"):
        out.append(s["hare.status.over"])
    return " ".join(out)


def test_every_kind_of_action_in_words_in_five_languages(server: Any, open_page: Any) -> None:
    plan, final, events = planned_hunt()
    kinds = {k for _, _, k in plan}
    assert kinds == set(KINDS), kinds
    outcomes = {line["outcome"] for ev in events for line in ev.get("shot", {}).get("lines", [])}
    assert {"hit", "both", "choose", "dodge", "short", "clear"} <= outcomes
    assert any("out" in ev for ev in events) and any("aim" in ev for ev in events)

    table = server.create_table(seed=SEED, game="hare", seats=3)
    names, last = play_over_sockets(server.url, table, plan)
    hunt = last["hunt"]
    assert hunt["over"] and hunt["actions"] == final.history  # the server dealt and rolled as planned
    clubs = [CLUB_LETTERS[c] for c in final.clubs]

    # One action of each kind (the last one, so that it is in the chat's last lines too), and one of
    # each line of a shot.
    chosen = {max(i for i, (_, _, k) in enumerate(plan) if k == kind_) for kind_ in KINDS}
    lines = [{x["outcome"] for x in ev.get("shot", {}).get("lines", [])} for ev in events]
    for outcome in outcomes:
        chosen.add(max(i for i, told in enumerate(lines) if outcome in told))
    chosen.add(max(i for i, ev in enumerate(events) if "out" in ev))

    def check_words(page: Any, lang: str) -> None:
        strings = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        assert page.locator("html").get_attribute("lang") == lang

        def join(items: list[str]) -> str:
            return list_text(page, lang, items)

        moves = page.eval_on_selector_all('[data-testid="history"] li', """els => els.map(e => [
            e.querySelector('.words').textContent, e.querySelector('.notation').textContent])""")
        said = page.eval_on_selector_all('[data-testid="chat-log"] li.action', """els => els.map(e => [
            e.querySelector('.words').textContent, e.querySelector('.notation').textContent])""")
        assert len(moves) == len(plan) and len(said) == len(plan)
        for i in sorted(chosen):
            mover = plan[i][0]
            want = expected_words(final.history[i], names[mover], events[i], strings, lang, names, clubs, join)
            assert moves[i] == [want, final.history[i]], (lang, i, moves[i], want)
            assert said[i] == [want, final.history[i]], (lang, i, said[i], want)

    for lang in ("de", "en", "fr", "it", "cs"):
        page = open_page(f"/table/{table}", locale=lang)
        page.locator('[data-testid="hare-result"]').wait_for()
        page.locator('[data-testid="history"] li').nth(len(plan) - 1).wait_for(state="attached")
        check_words(page, lang)
        # The chat weaves the actions among its lines: the hunt's start before the first, its end after the last.
        order = page.eval_on_selector_all('[data-testid="chat-log"] li',
                                          "els => els.map(e => e.dataset.key || 'action')")
        assert order.index("chat.hare_started") < order.index("action")
        assert order.index("chat.hare_over") > len(order) - 1 - order[::-1].index("action")

    # Switched in place, the page tells the whole hunt again in the new language (the words it keeps
    # between messages are kept per language).
    page.evaluate("""lang => { const s = document.querySelector('[data-testid="lang-select"]');
        s.value = lang; s.dispatchEvent(new Event('change')); }""", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    check_words(page, "de")

    # The replay tells the same words, at both sizes, and axe finds nothing to object to.
    en = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    for size in ("desktop", "phone"):
        page = open_page(hunt["replay"], phone=size == "phone")
        page.set_viewport_size(SIZES[size])
        i = max(chosen)
        item = page.locator(f'[data-testid="hunt-action-{i + 1}"]')
        item.wait_for()

        def join_en(items: list[str], page: Any = page) -> str:
            return list_text(page, "en", items)

        want = expected_words(final.history[i], names[plan[i][0]], events[i], en, "en", names, clubs, join_en)
        assert item.locator(".words").inner_text() == want
        item.locator("button").click()
        page.locator(f'[data-testid="board-host"][data-ply="{i + 1}"]').wait_for()
        assert page.locator('[data-testid="hunt-status"]').inner_text() == want
        strict_axe(page, f"the hunt's replay ({size})")
