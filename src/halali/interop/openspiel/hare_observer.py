"""OpenSpiel's observer for the hare hunt: what one seat may know, as strings and tensors.

The one secret is who holds which club (the dice are chance nodes here, drawn when they are rolled, so
no dice secret exists). What a seat may know of the clubs is the engine's rule
(``HareState.knows_club``): its own card, the cards shown when a seat is out, and every card once the
hunt is over. OpenSpiel's observation types choose the private part: ``SINGLE_PLAYER`` (the default
observation and information state) that rule; ``NONE`` only the cards shown to everyone; ``ALL_PLAYERS``
every card. Without public information an observer sees only its private part, its own card.

The default observation is the position as that seat sees it (the engine's view in hare notation, and
the tensor of ``halali.interop.encoding.hare``). The perfect-recall information state is, as a string,
that seat's record (the start as the seat sees it, then every action, rolls with their faces: all of
it public), which identifies the information state exactly; as a tensor it is the observation plus a
digest of the public history (how much each seat moved and removed each club's hunters), because a
tensor of the whole record would have to be as long as the longest hunt (docs/research.md).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import pyspiel

from halali.games.hare.clubs import CLUB_LETTERS, UNKNOWN
from halali.games.hare.notation import parse_position
from halali.games.hare.state import HareState
from halali.interop.encoding import hare as E

_NONE = pyspiel.PrivateInfoType.NONE
_ALL = pyspiel.PrivateInfoType.ALL_PLAYERS


class HareHuntState(Protocol):
    """What the observer reads of a hunt (``hare.HareHuntState``, which makes its observers here)."""

    @property
    def hunt(self) -> HareState | None: ...

    @property
    def cards(self) -> list[int]: ...

    @property
    def sides(self) -> list[int]: ...

    @property
    def digest(self) -> list[int]: ...


def _masked(st: HareState, known: list[int]) -> HareState:
    """A copy of ``st`` that shows only the clubs in ``known``, without a dice secret."""
    v = st.copy(history=False)
    v.secret = None
    v.clubs = list(known)
    return v


class HareObserver:
    """The PyObserver interface of OpenSpiel's observation.py, for every IIGObservationType."""

    def __init__(self, iig_obs_type: Any, params: Any, players: int) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.players = players
        self.public = bool(iig_obs_type.public_info)
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info
        self._starts: dict[str, HareState] = {}
        pieces: list[tuple[str, tuple[int, ...]]] = []
        if self.public:
            pieces.append(("board", E.BOARD_SHAPE))
            pieces.append(("globals", (E.GLOBALS,)))
            if self.recall:
                pieces.append(("history", (E.DIGEST,)))
        elif self.private != _NONE:
            pieces.append(("private", (E.MAX_SEATS, E.MAX_SEATS)))
        size = sum(int(np.prod(shape)) for _name, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        i = 0
        for name, shape in pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[i:i + n].reshape(shape)
            i += n

    # ---- what a seat may know ------------------------------------------------------------------
    def known(self, state: HareHuntState, player: int) -> list[int]:
        """Per seat, the club ``player`` may know under this observation type (UNKNOWN otherwise)."""
        st = state.hunt
        clubs = state.cards if st is None else st.clubs
        out = []
        for seat in range(self.players):
            c = clubs[seat] if seat < len(clubs) else UNKNOWN
            if self.private == _ALL:
                visible = True
            elif st is None:
                visible = seat == player and self.private != _NONE
            elif self.private == _NONE:
                visible = st.is_over() or st.out[seat] >= 0
            else:
                visible = st.knows_club(player, seat)
            if not self.public:  # only the private part
                visible = visible and (seat == player or self.private == _ALL)
            out.append(c if visible else UNKNOWN)
        return out

    # ---- tensors ---------------------------------------------------------------------------------
    def set_from(self, state: HareHuntState, player: int) -> None:
        known = self.known(state, player)
        if not self.public:
            if "private" in self.dict:
                private = self.dict["private"]
                private[:] = 0.0
                for seat, c in enumerate(known):
                    if c != UNKNOWN:
                        private[seat, c] = 1.0
            return
        board = self.dict["board"].reshape(E.BOARD_PLANES, E.SIDE * E.SIDE)
        E.encode(state.hunt, player, known, board, self.dict["globals"])
        if self.recall:
            E.digest(state.digest, self.dict["history"])

    # ---- strings ---------------------------------------------------------------------------------
    def string_from(self, state: HareHuntState, player: int) -> str:
        known = self.known(state, player)
        if not self.public:
            held = [f"seat {seat + 1} holds {CLUB_LETTERS[c]}" for seat, c in enumerate(known) if c != UNKNOWN]
            return ", ".join(held)
        st = state.hunt
        if st is None:
            cards = ",".join(CLUB_LETTERS[c] if c != UNKNOWN else "?" for c in known[:len(state.cards)])
            sides = " ".join(f"{CLUB_LETTERS[c]}{s}" for c, s in enumerate(state.sides))
            return f"setup: sides {sides or '-'} cards {cards or '-'}"
        if not self.recall:
            return _masked(st, known).fen()
        assert st.start is not None  # made by HareState.setup, which records its start
        start = self._starts.get(st.start)
        if start is None:
            start = self._starts[st.start] = parse_position(st.start)
        return f"{_masked(start, known).fen()} ; {' '.join(st.history)}".rstrip()
