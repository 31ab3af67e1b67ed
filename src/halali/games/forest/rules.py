"""Rule options of the forest game (docs/rules.md), fixed for the whole of a game."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from halali.games.errors import NotationError

GREEN_LOCK_VALUES = ("revealed_or_moved", "revealed_only")
MATCH_VALUES = ("match", "single")


@dataclass(frozen=True, slots=True)
class Rules:
    """The options a table is created with; defaults are the project's rule book."""

    green_lock: str = "revealed_or_moved"
    no_return_neutrals: bool = False
    stall_limit: int = 30
    match: str = "match"

    def __post_init__(self) -> None:
        if self.green_lock not in GREEN_LOCK_VALUES:
            raise NotationError(f"green_lock must be one of {', '.join(GREEN_LOCK_VALUES)}")
        if self.match not in MATCH_VALUES:
            raise NotationError(f"match must be one of {', '.join(MATCH_VALUES)}")
        if not isinstance(self.stall_limit, int) or self.stall_limit < 0:
            raise NotationError("stall_limit must be a whole number, 0 or more")

    @property
    def lock_on_move(self) -> bool:
        return self.green_lock == "revealed_or_moved"

    def with_options(self, options: dict[str, str] | list[str] | None) -> Rules:
        """These rules with options given as ``KEY=VALUE`` strings or a dict of strings."""
        if not options:
            return self
        if not isinstance(options, dict):
            options = parse_options(options)
        # Each value has its own field's type, by key: _convert checks it, and so does __post_init__.
        changes: dict[str, Any] = {}
        for key, value in options.items():
            changes[key] = _convert(key, str(value))
        return replace(self, **changes)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    def to_strings(self) -> list[str]:
        """``KEY=VALUE`` for every option, as the notation spells them."""
        out = []
        for key, value in asdict(self).items():
            out.append(f"{key}={str(value).lower() if isinstance(value, bool) else value}")
        return out


DEFAULT_RULES = Rules()


def parse_options(items: list[str] | str) -> dict[str, str]:
    if isinstance(items, str):
        items = items.split()
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise NotationError(f"rule option {item!r} is not KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def _convert(key: str, value: str) -> object:
    if key == "green_lock":
        if value not in GREEN_LOCK_VALUES:
            raise NotationError(f"green_lock must be one of {', '.join(GREEN_LOCK_VALUES)}, not {value!r}")
        return value
    if key == "no_return_neutrals":
        if value.lower() not in ("true", "false"):
            raise NotationError(f"no_return_neutrals must be true or false, not {value!r}")
        return value.lower() == "true"
    if key == "stall_limit":
        if not value.isdecimal():
            raise NotationError(f"stall_limit must be a whole number, 0 or more, not {value!r}")
        return int(value)
    if key == "match":
        if value not in MATCH_VALUES:
            raise NotationError(f"match must be one of {', '.join(MATCH_VALUES)}, not {value!r}")
        return value
    raise NotationError(
        f"unknown rule option {key!r} (known: green_lock, no_return_neutrals, stall_limit, match)"
    )
