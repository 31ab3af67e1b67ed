"""The strong hare bot: the heuristic planner fed with inferred beliefs about the clubs, a graded risk
for every hunter, a wider plan search, and a look at the next player's reply.

Its utilities are averaged over every assignment of clubs to the other seats, each weighted by how
consistent it is with what those seats did (:class:`halali.ai.hare.belief.Belief`): shots go where
an opponent most probably stands to lose, not at clubs nobody holds. The few best movements the plan
search finds are then tried against sampled worlds: an assignment of clubs drawn from those weights,
dice for its own shot, for the next player's movement and for his shot, and the next player's reply
planned as this bot plans (graded risk, no inference) with the club the world gives him. The same
worlds serve every candidate, so the comparison between them is not blurred by the dice.
"""

from __future__ import annotations

import time

from halali.ai.hare.belief import Belief
from halali.ai.hare.evaluate import graded_value, hunter_risk, uniform_owner, utilities
from halali.ai.hare.heuristic import HeuristicBot
from halali.ai.hare.planner import Local, Value, plan_movement
from halali.games.hare.actions import REMOVE, Action, roll
from halali.games.hare.clubs import NHUNTERS
from halali.games.hare.dice import ROLL_OUTCOMES
from halali.games.hare.phases import PH_AIM, PH_ASSIGN, PH_MOVE, PH_ROLL, PH_SHOOT
from halali.games.hare.state import HareState

_OUTCOMES = [o for o, _ in ROLL_OUTCOMES]
_WEIGHTS = [p for _, p in ROLL_OUTCOMES]


class StrongBot(HeuristicBot):
    """Level 3."""

    name = "strong"
    beam = 3

    def __init__(self, seed: int | None = None, exposure_weight: float = 0.3, candidates: int = 4,
                 worlds: int = 8) -> None:
        super().__init__(seed, exposure_weight)
        self.belief = Belief()
        self.candidates = candidates
        self.worlds = worlds

    def owner(self, view: HareState) -> list[list[float]]:
        return self.belief.owner(view)

    @staticmethod
    def horizon(view: HareState) -> float:
        return float(min(len(view.players_in()) - 1, 3))

    def evaluator(self, view: HareState, u: list[float]) -> tuple[Value, Local | None]:
        horizon = self.horizon(view)

        def value(s: HareState) -> float:
            return graded_value(s, u, horizon)

        def local(s: HareState, h: int, cell: int, face: int) -> float:
            return horizon * u[h] * hunter_risk(s, h, cell, face)

        return value, local

    # ---- the look at the reply ----------------------------------------------------------
    def plan(self, view: HareState, value: Value, local: Local | None, u: list[float]) -> tuple[float, list[Action]]:
        found: list[tuple[float, list[Action]]] = []
        best = plan_movement(view, value, self.beam, local, collect=found)
        distinct: dict[tuple[Action, ...], float] = {}
        for v, actions in sorted(found, key=lambda x: -x[0]):
            distinct.setdefault(tuple(actions), v)
        top = list(distinct.items())[: self.candidates]
        if len(top) < 2 or self.worlds <= 0:
            return best
        worlds = self._worlds(view)
        if not worlds:
            return best
        totals = [0.0] * len(top)
        for n, w in enumerate(worlds):
            if n and self.deadline is not None and time.perf_counter() > self.deadline:
                break  # out of time: judge on the worlds seen so far (every candidate saw the same)
            for i, (candidate, _) in enumerate(top):
                totals[i] += self._reply_value(view, list(candidate), w, u)
        i = max(range(len(top)), key=lambda k: (totals[k], top[k][1]))
        return top[i][1], list(top[i][0])

    def _worlds(self, view: HareState) -> list[tuple[list[int], list[tuple[int, int]]]]:
        """Sampled (clubs of every seat, dice for: own shot, next movement, next shot)."""
        unknown, assignments = self.belief.posterior(view)
        if unknown and not assignments:
            return []
        out = []
        for _ in range(self.worlds):
            clubs = view.clubs[:]
            if assignments:
                r = self.rng.random()
                acc = 0.0
                perm = assignments[-1][1]
                for prob, candidate in assignments:
                    acc += prob
                    if r < acc:
                        perm = candidate
                        break
                for p, c in zip(unknown, perm, strict=True):
                    clubs[p] = c
            dice = [self.rng.choices(_OUTCOMES, _WEIGHTS)[0] for _ in range(3)]
            out.append((clubs, dice))
        return out

    def _reply_value(self, view: HareState, actions: list[Action],
                     world: tuple[list[int], list[tuple[int, int]]], u: list[float]) -> float:
        """What the movement is worth in one world: the removals of this turn and the next player's,
        then the risk left on the board for the turns after."""
        clubs, dice = world
        s = view.copy(history=False)
        s.clubs = clubs[:]
        for a in actions:
            s.push(a)
        if s.phase == PH_AIM:
            s.push(roll(*dice[0]))
            _shoot(s, u)
        if not s.is_over() and s.phase == PH_ROLL:
            j = s.to_move
            s.push(roll(*dice[1]))
            if s.phase in (PH_ASSIGN, PH_MOVE):
                seen = s.view(j)
                uj = utilities(seen, j, uniform_owner(seen, j))
                vj, lj = self.evaluator(seen, uj)  # he plans as this bot does, without its inference
                if s.phase == PH_ASSIGN:
                    options = []
                    for a in s.legal_actions():
                        child = s.copy(history=False)
                        child.push(a)
                        options.append((plan_movement(child, vj, 1, lj)[0], a))
                    s.push(max(options)[1])
                for a in plan_movement(s, vj, 1, lj)[1]:
                    s.push(a)
            if s.phase == PH_AIM:
                s.push(roll(*dice[2]))
                _shoot(s, utilities(s.view(j), j, uniform_owner(s.view(j), j)))
        v = sum(u[h] for h in range(NHUNTERS) if view.hcell[h] >= 0 and s.hcell[h] < 0)
        later = max(0.0, self.horizon(view) - 1)
        if later and not s.is_over():
            v += later * sum(u[h] * hunter_risk(s, h, s.hcell[h], s.hface[h])
                             for h in range(NHUNTERS) if s.hcell[h] >= 0 and u[h])
        return v


def _shoot(s: HareState, u: list[float]) -> None:
    """Resolve the shot in progress, the shooter removing whoever is worth most to him."""
    while s.phase == PH_SHOOT:
        acts = [a for a in s.legal_actions() if a[0] == REMOVE]
        s.push(max(acts, key=lambda a: u[s.occ[a[1]]]))



