"""Who holds which club: inference from what the other players did.

A player who could choose whom a shot removes almost never picks a hunter of his own club, and a
player who moves hunters tends to put other clubs' hunters in the line of fire and to take his own
out of it. :class:`Belief` replays the public record of the game and scores, for every other seat
and every club, how consistent that seat's decisions are with holding that club: a log-likelihood
under a softmax model of the removal choices and an exponential model of how much the seat's
movement raised each club's risk. The weight of a full assignment of clubs to seats is the product
of its seats' likelihoods; assignments are few (at most 5! = 120), so the posterior is enumerated
exactly rather than sampled.

Only the record and the seat's own view are read: two games that look the same to the seat give
the same beliefs, whatever the hidden clubs really are.
"""

from __future__ import annotations

import math
from itertools import permutations

from halali.ai.hare.evaluate import club_risk
from halali.games.hare.actions import REMOVE, parse_action_text
from halali.games.hare.clubs import PER_CLUB, UNKNOWN
from halali.games.hare.notation import parse_position
from halali.games.hare.phases import PH_MOVE, PH_SHOOT
from halali.games.hare.state import HareState

REMOVE_SHARPNESS = 3.0
"""How sure a removal choice makes us: a player removes his own hunter over another's about
exp(-2 * 3) = 1 time in 400."""
MOVE_SHARPNESS = 4.0
"""Log-likelihood lost per expected hunter of a club a seat's movement put at risk."""


class Belief:
    """Log-likelihoods ``ll[p][c]`` that seat p holds club c, kept up to date with a game's record."""

    def __init__(self) -> None:
        self._start: str | None = None
        self._history: list[str] = []
        self._state: HareState | None = None
        self._risk_before: list[float] | None = None
        self.ll: list[list[float]] = []

    def update(self, view: HareState) -> None:
        """Read the actions of ``view``'s record not read yet (all of them for a new game)."""
        hist = view.history
        n = len(self._history)
        if (view.start != self._start or self._state is None or len(hist) < n
                or (n and hist[n - 1] != self._history[-1]) or hist[:n] != self._history):
            self._reset(view)
            n = 0
        for text in hist[n:]:
            self._observe(text)
        self._history = hist[:]

    def _reset(self, view: HareState) -> None:
        self._start = view.start
        self._history = []
        self._risk_before = None
        self.ll = [[0.0] * 6 for _ in range(view.nplayers)]
        if view.start is None:
            self._state = None
            return
        st = parse_position(view.start)
        st.secret = None
        self._state = st

    def _observe(self, text: str) -> None:
        st = self._state
        if st is None:
            return
        a = parse_action_text(text)
        actor, ph = st.to_move, st.phase
        if ph == PH_SHOOT and a[0] == REMOVE:
            options = st.removable()
            chosen = st.occ[a[1]]
            if len(options) > 1 and chosen in options:
                self._removal(actor, options, chosen)
        if ph == PH_MOVE and self._risk_before is None:
            self._risk_before = club_risk(st)
        st.push(a)
        if ph == PH_MOVE and st.phase != PH_MOVE:
            after = club_risk(st)
            before = self._risk_before or after
            row = self.ll[actor]
            for c in range(6):
                row[c] -= MOVE_SHARPNESS * (after[c] - before[c])
            self._risk_before = None

    def _removal(self, actor: int, options: list[int], chosen: int) -> None:
        row = self.ll[actor]
        for c in range(6):
            scores = [-REMOVE_SHARPNESS if h // PER_CLUB == c else REMOVE_SHARPNESS for h in options]
            top = max(scores)
            log_z = top + math.log(sum(math.exp(s - top) for s in scores))
            row[c] += (-REMOVE_SHARPNESS if chosen // PER_CLUB == c else REMOVE_SHARPNESS) - log_z

    def posterior(self, view: HareState) -> tuple[list[int], list[tuple[float, tuple[int, ...]]]]:
        """The seats whose club the view does not show (but the seat to move), and every assignment of
        clubs to them with its probability."""
        me = view.to_move
        self.update(view)
        known = {view.clubs[p] for p in range(view.nplayers) if view.clubs[p] != UNKNOWN}
        unknown = [p for p in view.players_in() if view.clubs[p] == UNKNOWN and p != me]
        candidates = [c for c in range(6) if c not in known and view.club_count(c) > 0]
        if not unknown or len(candidates) < len(unknown):
            return unknown, []
        ll = self.ll if self.ll else [[0.0] * 6 for _ in range(view.nplayers)]
        weights: list[tuple[float, tuple[int, ...]]] = []
        for perm in permutations(candidates, len(unknown)):
            weights.append((sum(ll[p][c] for p, c in zip(unknown, perm, strict=True)), perm))
        top = max(w for w, _ in weights)
        exps = [(math.exp(w - top), perm) for w, perm in weights]
        total = sum(e for e, _ in exps)
        return unknown, [(e / total, perm) for e, perm in exps]

    def owner(self, view: HareState) -> list[list[float]]:
        """``owner[c][p]``: the probability that seat p holds club c, given the view and the record."""
        owner = [[0.0] * view.nplayers for _ in range(6)]
        for p in range(view.nplayers):
            if view.clubs[p] != UNKNOWN:
                owner[view.clubs[p]][p] = 1.0
        unknown, assignments = self.posterior(view)
        for prob, perm in assignments:
            for p, c in zip(unknown, perm, strict=True):
                owner[c][p] += prob
        return owner
