"""The heuristic hare bot: plan the movement that sets up the best shot against the clubs that are
probably the opponents', keep its own hunters off the hare's axes.

It does not guess who holds which club: every club it does not hold is equally likely to be an
opponent's (``uniform_owner``). The strong bot builds on it: beliefs inferred from the record, a
graded risk for hunters off the axes, a wider plan search and a look at the next player's reply.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict

from halali.ai.hare.evaluate import position_value, uniform_owner, utilities
from halali.ai.hare.planner import Local, Value, plan_movement
from halali.games.hare.actions import ASSIGN, BUSH, REMOVE, ROLL_ACTION, Action
from halali.games.hare.board import COORDS, DIST, ON_AXIS, hex_distance
from halali.games.hare.clubs import PER_CLUB
from halali.games.hare.phases import PH_AIM, PH_ASSIGN, PH_BUSH, PH_MOVE, PH_ROLL, PH_SHOOT
from halali.games.hare.state import HareState

_PLANS: OrderedDict[tuple[str, str | None, str], list[Action]] = OrderedDict()
"""The rest of a movement a bot of this process has begun, by the position it expects next: a bot
made afresh for every decision (as in a process pool) still finishes the movement it planned."""


class HeuristicBot:
    """Level 2."""

    name = "heuristic"
    beam = 1

    def __init__(self, seed: int | None = None, exposure_weight: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.exposure_weight = exposure_weight
        self._plan: list[Action] = []
        self._expect: tuple[str, str | None, str] | None = None
        self.deadline: float | None = None

    # The part the strong bot replaces: who is believed to hold which club.
    def owner(self, view: HareState) -> list[list[float]]:
        return uniform_owner(view, view.to_move)

    def evaluator(self, view: HareState, u: list[float]) -> tuple[Value, Local | None]:
        """The value of a position after the movement, and how to value a hunter's move off the axes
        (None: such moves are not worth considering)."""
        w = self.exposure_weight

        def value(s: HareState) -> float:
            return position_value(s, u, w)

        return value, None

    def plan(self, view: HareState, value: Value, local: Local | None, u: list[float]) -> tuple[float, list[Action]]:
        """The movement to make from a position in the move phase: (its value, its actions)."""
        return plan_movement(view, value, self.beam, local)

    def assignment_value(self, child: HareState, value: Value, local: Local | None) -> float:
        """What a choice of dice assignment is worth: the value of the best movement it allows."""
        return plan_movement(child, value, self.beam, local)[0]

    def choose(self, view: HareState, movetime: float | None = None) -> Action:
        self.deadline = time.perf_counter() + movetime if movetime else None
        ph = view.phase
        if ph in (PH_ROLL, PH_AIM):
            return ROLL_ACTION
        me = view.to_move
        if ph == PH_BUSH:
            return self._bush(view, me)
        u = utilities(view, me, self.owner(view))
        value, local = self.evaluator(view, u)

        if ph == PH_SHOOT:
            acts = view.legal_actions()
            best = max(u[view.occ[a[1]]] for a in acts)
            return self.rng.choice([a for a in acts if u[view.occ[a[1]]] == best and a[0] == REMOVE])
        if ph == PH_ASSIGN:
            scored = []
            for a in view.legal_actions():
                child = view.copy(history=False)
                child.push(a)
                scored.append((self.assignment_value(child, value, local), a))
            best_v = max(v for v, _ in scored)
            return self.rng.choice([a for v, a in scored if v >= best_v - 1e-9 and a[0] == ASSIGN])
        if ph == PH_MOVE:
            key = (self.name, view.start, view.fen())
            shared = _PLANS.pop(key, None)
            if self._plan and key == self._expect:
                a = self._plan.pop(0)
            elif shared:
                a, self._plan = shared[0], shared[1:]
            else:
                _, plan = self.plan(view, value, local, u)
                a, self._plan = plan[0], plan[1:]
            if self._plan:
                child = view.copy(history=False)
                child.push(a)
                if child.phase == PH_MOVE:
                    self._expect = (self.name, view.start, child.fen())
                    _PLANS[self._expect] = self._plan[:]
                    while len(_PLANS) > 256:
                        _PLANS.popitem(last=False)
            return a
        return self.rng.choice(view.legal_actions())

    def _bush(self, view: HareState, me: int) -> Action:
        """On an axis next to the hare's neighbours, on the side of its own club: its hunters can hide
        behind it, and it blocks one of the six half-axes for good."""
        club = view.clubs[me]
        own = [view.hcell[h] for h in range(club * PER_CLUB, (club + 1) * PER_CLUB) if view.hcell[h] >= 0]
        options = [a for a in view.legal_actions() if a[0] == BUSH]
        axis2 = [a for a in options if ON_AXIS[a[1]] and DIST[a[1]] == 2] or options

        def spread(a: Action) -> int:
            return sum(hex_distance(COORDS[a[1]], COORDS[c]) for c in own)

        best = min(spread(a) for a in axis2)
        return self.rng.choice([a for a in axis2 if spread(a) == best])
