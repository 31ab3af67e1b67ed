"""Hand-built hare positions for the tests: name the hunters, get a state."""

from __future__ import annotations

from halali.games.hare import HareState, parse_position


def build(clubs: dict[str, str], *, seats: str = "R,Y", phase: str = "aim", detail: str = "-", bush: str = "-",
          options: str | None = None, quiet: int = 0, turn: int = 5, to_move: int = 1) -> HareState:
    """A position from hunters per club letter (``{"G": "c6E", "R": "a3E,b1NE"}``); clubs not named are
    empty. Without a bush the options default to ``bush=off``."""
    groups = "/".join(clubs.get(c, "-") for c in "RYGBWK")
    if options is None:
        options = "-" if bush != "-" else "bush=off"
    return parse_position(f"{groups} {bush} {seats} {to_move} {phase} {detail} {quiet} {turn} {options} -")


# Hunters of the two seats' clubs that stand off the hare's axes, out of every shot.
QUIET = {"R": "a3E", "Y": "k9W"}


def cells(st: HareState) -> set[str]:
    """Every hunter on the board as cell+facing."""
    fields = st.fen().split()[0].replace("/", ",").split(",")
    return {f for f in fields if f != "-"}
