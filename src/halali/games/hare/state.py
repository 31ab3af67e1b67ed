"""The hare hunt's state: setup, the turn as a sequence of small decisions, shots, the end.

A :class:`HareState` is mutable (``push`` plays an action in place) because bots copy and play
thousands of them; the game interface wraps it into the pure "state plus action gives a new
state" form. The turn is cut into decisions a page or a bot can make one at a time: roll, choose
which die counts hunters, spend points on one hunter after another, end the movement, roll the
shot, choose whom a shot removes. Automatic steps (no movement after a blank, no shot when nobody
aims, passing the turn) happen inside the action that triggers them and are not recorded.

Dice come from the state itself: ``new`` draws a 128-bit secret from the random source it is given,
and the n-th roll of the game is derived from that secret and n. So the state is a plain value
(its full text restores it exactly, replays need no random source) and the dice cannot be
predicted by anyone who does not know the secret, which only the full position holds and
``view`` removes. A position without the secret (a view, an analysis) takes rolls only with their
outcome written out (``roll=2,3``).

The rules themselves are in sibling modules, which ``HareState``'s methods call: the legal actions
and a roll's outcomes in ``movegen.py``, what an action does in ``turn.py``, why one is refused in
``legality.py``, the winners and placings in ``results.py`` (and the dice in ``dice.py``), the
notation in ``text.py``. None of them imports this one: they see a state as the :class:`StateFields`
it is built on (``fields.py``, where its fields and the queries that read only them are), and the
setup, copies, secrets and the calls into the rules are kept here. (Its picture in Jupyter,
``_repr_svg_``, is given to it by ``halali.svg``: the rules do not import the pictures.)
"""

from __future__ import annotations

import random

from halali.games.errors import HalaliError
from halali.games.hare import legality, movegen, results, text, turn
from halali.games.hare.actions import Action, action_str, parse_action_text
from halali.games.hare.board import NCELLS, side_start
from halali.games.hare.clubs import NCLUBS, NHUNTERS, PER_CLUB, UNKNOWN
from halali.games.hare.fields import StateFields
from halali.games.hare.phases import PH_BUSH, PH_OVER, PH_ROLL
from halali.games.hare.rules import DEFAULT_RULES, HareRules


class HareState(StateFields):
    """One moment of a hare hunt, with everything the rules need to continue it.

    Its fields, and the queries that read only them, are in :class:`StateFields` (``fields.py``).
    """

    __slots__ = ()

    def __init__(self, nplayers: int = 2, rules: HareRules = DEFAULT_RULES) -> None:
        self.rules = rules
        self.nplayers = nplayers
        self.hcell = [-1] * NHUNTERS
        self.hface = [0] * NHUNTERS
        self.occ = [-1] * NCELLS
        self.bush = -1
        self.clubs = [UNKNOWN] * nplayers
        self.out = [-1] * nplayers
        self.to_move = 0
        self.phase = PH_ROLL
        self.dice = None
        self.assign = None
        self.left = 0
        self.cur = -1
        self.cur_points = 0
        self.done = []
        self.shot = None
        self.chosen = []
        self.quiet = 0
        self.turn = 0
        self.secret = None
        self.rolls = 0
        self.history = []
        self.start = None

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, players: int = 2, rules: HareRules = DEFAULT_RULES,
            rng: random.Random | None = None, seed: int | None = None) -> HareState:
        """A fresh hunt: clubs on random sides, secret club cards dealt, a random starting player.

        Without ``rng`` or ``seed`` everything (the dice secret included) comes from the operating
        system's secure source.
        """
        if not 2 <= players <= 6:
            raise HalaliError(f"the hare hunt is for 2 to 6 players, not {players}")
        if rng is None:
            rng = random.Random(seed) if seed is not None else random.SystemRandom()
        sides = list(range(NCLUBS))
        rng.shuffle(sides)
        cards = list(range(NCLUBS))
        rng.shuffle(cards)
        starter = rng.randrange(players)
        return cls.setup(players, rules, sides, cards[:players], starter, rng.getrandbits(128))

    @classmethod
    def setup(cls, players: int, rules: HareRules, sides: list[int], clubs: list[int], starter: int,
              secret: int | None = None) -> HareState:
        """A fresh hunt from the outcomes of its setup: ``sides[club]`` the side of the outer ring each
        club starts on (a permutation of 0..5), ``clubs[seat]`` each seat's club card (distinct),
        ``starter`` the seat that begins, ``secret`` the dice secret (``None``: a position whose rolls
        are written with their outcome, as an interop layer that draws every chance event itself
        plays them).

        ``new`` draws these from its random source; the setup itself is the same either way.
        """
        if not 2 <= players <= 6:
            raise HalaliError(f"the hare hunt is for 2 to 6 players, not {players}")
        if sorted(sides) != list(range(NCLUBS)):
            raise HalaliError(f"the clubs' sides must be a permutation of 0..5, not {sides}")
        if len(clubs) != players or len(set(clubs)) != players or not all(0 <= c < NCLUBS for c in clubs):
            raise HalaliError(f"each of the {players} seats needs its own club card, not {clubs}")
        if not 0 <= starter < players:
            raise HalaliError(f"the starting seat must be one of 0..{players - 1}, not {starter}")
        st = cls(players, rules)
        for club, side in enumerate(sides):
            cells, face = side_start(side)
            for k, c in enumerate(cells):
                h = club * PER_CLUB + k
                st.hcell[h] = c
                st.hface[h] = face
                st.occ[c] = h
        st.clubs = list(clubs)
        st.to_move = starter
        st.phase = PH_BUSH if rules.bush else PH_ROLL
        st.secret = secret
        st.start = st.fen()
        return st

    def copy(self, history: bool = True) -> HareState:
        """A copy; ``history=False`` leaves the record behind (for search, where it is not needed)."""
        new = HareState.__new__(HareState)
        new.rules = self.rules
        new.nplayers = self.nplayers
        new.hcell = self.hcell[:]
        new.hface = self.hface[:]
        new.occ = self.occ[:]
        new.bush = self.bush
        new.clubs = self.clubs[:]
        new.out = self.out[:]
        new.to_move = self.to_move
        new.phase = self.phase
        new.dice = self.dice
        new.assign = self.assign
        new.left = self.left
        new.cur = self.cur
        new.cur_points = self.cur_points
        new.done = self.done[:]
        new.shot = self.shot
        new.chosen = self.chosen[:]
        new.quiet = self.quiet
        new.turn = self.turn
        new.secret = self.secret
        new.rolls = self.rolls
        new.history = self.history[:] if history else []
        new.start = self.start if history else None
        return new

    # ---- text ---------------------------------------------------------------------------
    def fen(self) -> str:
        return text.format_position(self)

    def record(self) -> str:
        """The game so far: the starting position, `` ; `` and every action played since."""
        start = self.start if self.start is not None else self.fen()
        return f"{start} ; {' '.join(self.history)}".rstrip()

    def action_str(self, a: Action) -> str:
        return action_str(a)

    # ---- legal actions (movegen.py) -----------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move; rolls without their outcome."""
        return movegen.legal_actions(self)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The outcomes of the roll due now with their probabilities (empty if no roll is due)."""
        return movegen.chance_outcomes(self)

    # ---- playing (turn.py) --------------------------------------------------------------
    def play(self, action: Action | str) -> Action:
        """Check and play one action (tuple or text); returns it as recorded (rolls with outcome).

        Raises ``IllegalAction`` naming the rule it breaks, and then nothing has changed.
        """
        a = parse_action_text(action) if isinstance(action, str) else action
        self._check(a)
        return self.push(a)

    def push(self, a: Action) -> Action:
        """Play an action known to be legal (``play`` checks); a roll without outcome is rolled here."""
        return turn.push(self, a)

    # ---- checking (legality.py) ---------------------------------------------------------
    def _check(self, a: Action) -> None:
        """Raise ``IllegalAction`` with the rule ``a`` breaks; return if it is legal."""
        legality.check_action(self, a)

    # ---- the end (results.py) -----------------------------------------------------------
    def winners(self) -> list[int]:
        """The seats that win (several share), once the hunt is over."""
        return results.winners(self)

    def own_count(self, p: int) -> int:
        return results.own_count(self, p)

    def result(self) -> list[float]:
        """Per seat: 1 for a lone winner, 0.5 for a shared win, 0 otherwise (once over)."""
        return results.result(self)

    def placings(self) -> list[float]:
        """Per seat: 1 for first, ties sharing the mean of their places (once over)."""
        return results.placings(self)

    # ---- secrets ------------------------------------------------------------------------
    def knows_club(self, viewer: int | None, seat: int) -> bool:
        """Whether ``viewer`` (None: a spectator) may see ``seat``'s club card."""
        if self.phase == PH_OVER:
            return True
        if viewer is None:
            return False
        return seat == viewer or self.out[seat] >= 0

    def view(self, player: int | None) -> HareState:
        """The state as ``player`` may see it (None: a spectator): other players' clubs are unknown
        until shown by elimination or the end (spectators see none until the end), and the dice
        secret is gone. The one place where the hunt's secrets are removed."""
        v = self.copy()
        v.secret = None
        v.clubs = [c if self.knows_club(player, p) else UNKNOWN for p, c in enumerate(self.clubs)]
        if self.start is not None:
            s = text.read_position(self.start, None, HareState)
            s.secret = None
            s.clubs = v.clubs[:]
            v.start = s.fen()
        return v


__all__ = ["HareState"]
