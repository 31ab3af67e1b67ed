"""Errors sent back to a client: a message key and params for the page to translate, plus English;
and the one reader of a client's JSON, which turns anything that is not JSON into such an error."""

from __future__ import annotations

import json
import re
from typing import Any

ENGLISH: dict[str, str] = {
    "error.malformed": "That message is not a JSON object with a type.",
    "error.too_large": "That message is too large (at most {max} bytes).",
    "error.unknown_type": "Unknown message type {type}.",
    "error.bad_request": "Missing or invalid field {field}.",
    "error.no_table": "There is no such table, or no table is open.",
    "error.table_full": "There is no free seat at this table.",
    "error.already_seated": "You already hold seat {seat} here.",
    "error.not_seated": "You hold no seat at this table.",
    "error.not_a_bot": "Seat {seat} is not a computer player.",
    "error.game_running": "The match is running: seats stay as they are until it ends.",
    "error.cannot_start": "The match cannot start now ({reason}).",
    "error.not_started": "The match has not started.",
    "error.game_over": "The game is over.",
    "error.not_your_turn": "It is not your turn.",
    "error.no_hints": "Hints are only for a match against the computer that is neither rated nor in a tournament.",
    "error.stale": "The position has changed (now at ply {ply}).",
    "error.illegal": "Illegal action: {reason}",
    "error.bad_action": "Not an action: {reason}",
    "error.bad_level": "Unknown computer level (levels: {levels}).",
    "error.bad_rules": "Bad rule option: {reason}",
    "error.bad_name": "A name needs 1 to 24 characters and no control characters ({reason}).",
    "error.bad_chat": "A chat line needs 1 to 500 characters.",
    "error.no_rematch": "A rematch needs a finished match and both seats filled.",
    "error.busy": "Too many messages; slow down.",
    "error.cross_site": "Refused: the request did not come from this site's pages.",
    "error.bad_password": "A password needs 8 to 128 characters.",
    "error.name_taken": "The name {name} belongs to an account.",
    "error.already_registered": "You are logged in to an account already.",
    "error.wrong_password": "Wrong name or password.",
    "error.wrong_current_password": "The current password is wrong.",
    "error.too_many_attempts": "Too many attempts; try again in {retry_after} seconds.",
    "error.no_player": "There is no such player.",
    "error.no_game": "There is no such game.",
    "error.bad_record": "That record cannot be imported: {reason}",
    "error.not_over": "The game is not over yet: analysis waits for its end.",
    "error.analysis_queue_full": "Too many games are waiting for analysis (at most {most} of yours); try again soon.",
    "error.analysis_busy": "The analysis is still running; try again in a moment.",
    "error.table_moved": "The table moved to another server just then; nothing was done, try again.",
    "error.analysis_failed": "The analysis failed; try again in a moment.",
    "error.hunt_not_over": "The hunt is not over yet: its replay waits for its end.",
    "error.not_owner": "Only the table's owner may seat or remove computer players.",
    "error.cannot_abort": "The match can no longer be aborted: every player has moved.",
    "error.cannot_claim": "There is nothing to claim: nobody has been away long enough.",
    "error.too_many_tables": "You have too many open tables (at most {max}); finish or leave one first.",
    "error.bad_token": "That API token is not valid (unknown or revoked).",
    "error.no_token": "There is no such API token.",
    "error.token_needs_login": "New API tokens are made from the account page, logged in with the password.",
    "error.not_account": "Only a registered account can become a bot account.",
    "error.played_rated": "This account has played rated games as a person, so it cannot become a bot account.",
    "error.not_bot_account": "API tokens are only for bot accounts.",
    "error.too_many_tokens": "This account has too many API tokens (at most {max}); revoke one first.",
    "error.bot_busy": "This bot plays too many games at once (at most {max}).",
    "error.bot_daily_limit": "This bot has played its games for today (at most {max} a day).",
    "error.challenge_self": "You cannot challenge yourself.",
    "error.no_challenge": "There is no such challenge (answered, called off or expired).",
    "error.too_many_challenges": "You have too many open challenges (at most {max}).",
    "error.no_puzzle": "There is no such puzzle.",
    "error.no_puzzle_left": "You have tried every puzzle of this kind; choose another theme or difficulty.",
    "error.no_lesson": "There is no such lesson or task.",
    "error.account_needed": "Only registered players can do this: create an account first.",
    "error.no_tournament": "There is no such tournament.",
    "error.rating_too_low": "This tournament needs a rating of at least {min}.",
    "error.too_many_tournaments": "You already run {max} tournaments that have not finished.",
    "error.tournament_begun": "The tournament has already begun.",
    "error.tournament_closed": "This tournament takes no more entries.",
    "error.tournament_entered": "Already entered in this tournament.",
    "error.tournament_full": "The tournament is full ({max} players).",
    "error.tournament_no_abort": "A tournament match cannot be aborted: play it or resign.",
    "error.tournament_no_bots": "Bot accounts may not enter this tournament.",
    "error.tournament_not_entered": "You are not entered in this tournament.",
    "error.tournament_table": "The seats of a tournament table are fixed by the pairings.",
    "error.tournament_too_few": "A tournament needs at least {min} players to begin.",
}


class ClientError(Exception):
    """A request the server refuses; raising it guarantees nothing was changed."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.english())

    def english(self) -> str:
        template = ENGLISH.get(self.key, self.key)
        try:
            return template.format(**self.params)
        except (KeyError, IndexError):
            return template

    def to_message(self, ref: Any = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "error", "key": self.key, "params": self.params, "message": self.english()}
        if ref is not None:
            msg["ref"] = ref
        return msg


# The \u escape of half a surrogate pair: JSON allows one alone, but no text holds it (UTF-8 cannot encode it).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def read_json(raw: str | bytes) -> Any:
    """The JSON value a client sent; ``error.malformed`` for anything else: bad syntax or encoding,
    nesting deeper than the parser goes, or a string with half a surrogate pair (which could be
    neither stored nor sent on)."""
    try:
        value = json.loads(raw)
        if _SURROGATE_ESCAPE.search(raw if isinstance(raw, str) else raw.decode("utf-8", "replace")):
            json.dumps(value, ensure_ascii=False).encode()
    except (ValueError, RecursionError, UnicodeError):
        raise ClientError("error.malformed") from None
    return value
