"""Chat commands: `/join`, `/start`, ... turned into the same requests the buttons send."""

from __future__ import annotations

from typing import Any

COMMANDS = ("join", "watch", "leave", "bot", "unbot", "start", "startnosave", "rematch", "hint", "resign", "abort",
            "claim", "help")


def command_request(text: str) -> dict[str, Any]:
    """The request a chat command stands for; an unknown command asks for the help."""
    words = text[1:].split()
    name = words[0].lower() if words else ""
    args = words[1:]
    if name == "bot":
        return {"type": "bot", "level": args[0] if args else None}
    if name == "unbot":
        # Seats are counted from 1 in the chat, as its notices name them ("… in seat 2").
        arg = args[0] if args else ""
        return {"type": "unbot", "seat": int(arg) - 1 if arg.isdecimal() and int(arg) >= 1 else None}
    if name == "claim" and len(args) <= 1:
        return {"type": "claim", "result": (args[0].lower() if args else "win")}
    if name == "startnosave" and not args:  # BrettspielWelt's name: start a match that is not rated
        return {"type": "start", "rated": False}
    if name in COMMANDS and name != "help" and not args:
        return {"type": name}
    return {"type": "help"}
