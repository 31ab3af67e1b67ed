"""Rule options as the research libraries pass them (Python values) and as the engine reads them (text).

OpenSpiel game parameters and environment keyword arguments are ``bool``, ``int`` and ``str``; the
engine's options are strings checked by the game itself (``Game.check_options``), so a bad value is
refused with the engine's own message.
"""

from __future__ import annotations

from collections.abc import Mapping

from halali.games.base import GAMES
from halali.games.forest.rules import DEFAULT_RULES as FOREST_DEFAULTS
from halali.games.forest.rules import Rules
from halali.games.hare.rules import DEFAULT_RULES as HARE_DEFAULTS
from halali.games.hare.rules import HareRules

FOREST_PARAMS: dict[str, object] = {
    "green_lock": FOREST_DEFAULTS.green_lock,
    "no_return_neutrals": FOREST_DEFAULTS.no_return_neutrals,
    "stall_limit": FOREST_DEFAULTS.stall_limit,
}
"""The forest game's options for one game (a match is two games, which is the caller's business)."""
HARE_PARAMS: dict[str, object] = {"bush": HARE_DEFAULTS.bush, "overshoot": HARE_DEFAULTS.overshoot}


def _text(value: object, true: str, false: str) -> str:
    if isinstance(value, bool):
        return true if value else false
    return str(value)


def forest_options(values: Mapping[str, object]) -> dict[str, str]:
    """Every option of one forest game as the engine writes it, checked by the engine."""
    unknown = set(values) - set(FOREST_PARAMS)
    if unknown:
        raise ValueError(f"unknown forest option(s) {', '.join(sorted(unknown))} (known: {', '.join(FOREST_PARAMS)})")
    text = {k: _text(v, "true", "false") for k, v in values.items()}
    return GAMES["forest"].check_options({**text, "match": "single"})


def forest_rules(values: Mapping[str, object]) -> Rules:
    return FOREST_DEFAULTS.with_options(forest_options(values))


def hare_options(values: Mapping[str, object]) -> dict[str, str]:
    """Every option of the hare hunt as the engine writes it, checked by the engine."""
    unknown = set(values) - set(HARE_PARAMS)
    if unknown:
        raise ValueError(f"unknown hare option(s) {', '.join(sorted(unknown))} (known: {', '.join(HARE_PARAMS)})")
    return GAMES["hare"].check_options({k: _text(v, "on", "off") for k, v in values.items()})


def hare_rules(values: Mapping[str, object]) -> HareRules:
    return HARE_DEFAULTS.with_options(hare_options(values))
