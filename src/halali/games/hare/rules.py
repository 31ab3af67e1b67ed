"""Rule options of the hare hunt (docs/hare.md, "Rules"), fixed for the whole of a game.

Only the project's own fillings-in that a table might want otherwise are options; everything the
sources say is fixed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from halali.games.errors import NotationError

OVERSHOOT_VALUES = ("choose", "target")
SAFEGUARD_ROUNDS = 60
"""Full rounds without a removal after which the game ends (docs/hare.md, "Safeguard")."""


@dataclass(frozen=True, slots=True)
class HareRules:
    """``bush``: whether the starting player places a bush; ``overshoot``: who is removed when the shot
    is longer than the distance to the partner (``choose``: the active player picks the shooter or
    the partner; ``target``: the partner)."""

    bush: bool = True
    overshoot: str = "choose"

    def __post_init__(self) -> None:
        if self.overshoot not in OVERSHOOT_VALUES:
            raise NotationError(f"overshoot must be one of {', '.join(OVERSHOOT_VALUES)}")

    def with_options(self, options: dict[str, str] | list[str] | str | None) -> HareRules:
        """These rules with options given as ``KEY=VALUE`` strings (or ``KEY=VALUE,KEY=VALUE``) or a dict."""
        if not options:
            return self
        if not isinstance(options, dict):
            options = parse_options(options)
        # Each value has its own field's type, by key: _convert checks it, and so does __post_init__.
        changes: dict[str, Any] = {}
        for key, value in options.items():
            changes[key] = _convert(key, str(value))
        return replace(self, **changes)

    def to_strings(self) -> list[str]:
        """``KEY=VALUE`` for every option that differs from the default, in a fixed order."""
        out = []
        if not self.bush:
            out.append("bush=off")
        if self.overshoot != "choose":
            out.append(f"overshoot={self.overshoot}")
        return out


DEFAULT_RULES = HareRules()


def parse_options(items: list[str] | str) -> dict[str, str]:
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    out: dict[str, str] = {}
    for group in items:
        for item in group.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise NotationError(f"rule option {item!r} is not KEY=VALUE")
            out[key.strip()] = value.strip()
    return out


def _convert(key: str, value: str) -> object:
    if key == "bush":
        if value.lower() not in ("on", "off", "true", "false"):
            raise NotationError(f"bush must be on or off, not {value!r}")
        return value.lower() in ("on", "true")
    if key == "overshoot":
        if value not in OVERSHOOT_VALUES:
            raise NotationError(f"overshoot must be one of {', '.join(OVERSHOOT_VALUES)}, not {value!r}")
        return value
    raise NotationError(f"unknown rule option {key!r} for the hare hunt (known: bush, overshoot)")
