"""Hand-built hare positions for the tests: name the hunters, get a state."""

from __future__ import annotations

from halali.games.errors import IllegalAction
from halali.games.hare import DEFAULT_RULES, HareState, parse_position, random_game


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


def shot(clubs: dict[str, str], dice: str, **kw: object) -> HareState:
    """A position (``QUIET`` plus ``clubs``) in the aim phase, after the roll ``dice``."""
    st = build({**QUIET, **clubs}, **kw)  # type: ignore[arg-type]
    assert st.phase == "aim"
    st.play(f"roll={dice}")
    return st


def cells(st: HareState) -> set[str]:
    """Every hunter on the board as cell+facing."""
    fields = st.fen().split()[0].replace("/", ",").split(",")
    return {f for f in fields if f != "-"}


def _refusal(st: HareState, action: str) -> IllegalAction:
    try:
        st.play(action)
    except IllegalAction as exc:
        return exc
    raise AssertionError(f"{action} was played in {st.fen()}")


def _after(st: HareState, *actions: str) -> HareState:
    for a in actions:
        st.play(a)
    return st


def rule_refusals() -> list[IllegalAction]:
    """One refusal for every rule the engine can name (every key of ``legality.RULE_KEYS``)."""
    move = {"phase": "move", "detail": "1x2/1/-/-"}
    two = {"R": "c2E,a3E", "Y": "k9W"}
    cases: list[tuple[HareState, str]] = [
        (random_game(2, seed=1), "roll"),
        (HareState.new(2, seed=4), "roll"),
        (build(QUIET, phase="roll"), "roll"),  # no dice secret in this position
        (HareState.new(2, DEFAULT_RULES.with_options(["bush=off"]), seed=1), "roll=0,0"),
        (build(QUIET, phase="assign", detail="2,3"), "1x4"),
        (HareState.new(2, seed=4), "bush=f7"),
        (build({"R": "f8E", "Y": "k9W"}, phase="bush", options="-"), "bush=f8"),
        (build(QUIET, **move), "d4>W"),
        (_after(build({**QUIET, "G": "c6E", "B": "h6W", "K": "e4NE"}), "roll=0,0"), "xe4"),
        (_after(build({**QUIET, "G": "c6E", "B": "e6NE"}), "roll=1,3"), "xa3"),
        (_after(build(two, phase="move", detail="2x1/2/-/-"), "c2>NE"), "c2>E"),
        (_after(build(two, phase="move", detail="2x2/2/-/-"), "c2>NE", "a3-b3"), "c2>E"),
        (_after(build(two, phase="move", detail="2x2/2/-/-"), "c2>NE", "a3-b3"), "k9>NW"),
        (build(QUIET, **move), "a3>W"),
        (build(QUIET, **move), "a3-a4"),
        (build({"R": "e6E", "Y": "k9W"}, **move), "e6-f6"),
        (build({"R": "e9SE", "Y": "k9W"}, bush="e8", **move), "e9-e8"),
        (build({"R": "c2E", "Y": "d2W"}, **move), "c2-d2"),
    ]
    return [_refusal(st, a) for st, a in cases]
