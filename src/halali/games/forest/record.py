"""Game records: the forest game's analogue of PGN, and the fair-deal commitment.

A record is a few ``[Key "value"]`` headers and the list of actions with every reveal's outcome
(``?c3=N``), so that it replays on a position that does not know the deal. The deal itself (the full
start position) and the salt are written only once the game is over; before that the record carries
the commitment ``sha256(deal + "\\n" + salt)`` that the server published when the game started, so
anyone can check afterwards that the deal was fixed before the first action.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field

from halali.games.errors import NotationError
from halali.games.forest.actions import OUTCOME_SHIFT, REVEAL, TYPE_SHIFT, Action
from halali.games.forest.notation import parse_action_text, parse_position
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.games.forest.tiles import HIDDEN, PLAYER_NAMES, UNKNOWN

# The start of every standard game as the players see it.
PUBLIC_START = "???????/???????/???????/???1???/???????/???????/??????? blue - - - - 0 - -"
HEADER_ORDER = ("Game", "Event", "Site", "Date", "Round", "Blue", "Brown", "Rules", "Position", "Commitment",
                "Deal", "Salt", "Result", "Score", "Termination")


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(deal_fen: str, salt: str) -> str:
    """The SHA-256 published at the start: binds the server to the deal without revealing it."""
    return hashlib.sha256(f"{deal_fen}\n{salt}".encode()).hexdigest()


def with_outcome(full: Position, a: Action) -> Action:
    """A reveal as a record writes it: with the tile it turned up (read from a position that knows it)."""
    if a >> TYPE_SHIFT & 7 != REVEAL or a >> OUTCOME_SHIFT:
        return a
    v = full.board[a & 63]
    if v == UNKNOWN:
        raise NotationError("the outcome of a reveal is needed, but the position does not know the tile")
    return a | (v - HIDDEN if v >= HIDDEN else v) << OUTCOME_SHIFT


@dataclass
class Record:
    headers: dict[str, str] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)  # in notation, reveals with outcome
    # A note after an action, as PGN's {comment}: index of the action -> text (the luck of a reveal,
    # a mistake and the better action); replaying ignores them.
    comments: dict[int, str] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        return DEFAULT_RULES.with_options(self.headers.get("Rules", "").split())

    def start(self) -> Position:
        """The start position: the deal when the record has it, else the public start."""
        text = self.headers.get("Deal") or self.headers.get("Position") or PUBLIC_START
        return parse_position(text, self.rules)

    def positions(self) -> list[Position]:
        """Every position from the start to the end (one more than actions); raises on a bad action."""
        pos = self.start()
        out = [pos.copy()]
        for n, text in enumerate(self.actions, 1):
            try:
                pos.play(text)
            except NotationError as exc:
                raise NotationError(f"action {n} ({text}): {exc}") from exc
            except ValueError as exc:
                raise NotationError(f"action {n} ({text}): {exc}") from exc
            out.append(pos.copy())
        return out

    def final(self) -> Position:
        return self.positions()[-1]

    def format(self) -> str:
        keys = [k for k in HEADER_ORDER if k in self.headers] + sorted(k for k in self.headers if k not in HEADER_ORDER)
        lines = [f'[{k} "{_escape(self.headers[k])}"]' for k in keys]
        lines.append("")
        body: list[str] = []
        for i, action in enumerate(self.actions):
            body.append(f"{i // 2 + 1}. {action}" if i % 2 == 0 else action)
            if self.comments.get(i):
                body.append("{" + self.comments[i].replace("{", "(").replace("}", ")") + "}")
        lines.extend(_wrap(body))
        return "\n".join(lines) + "\n"


def record_of(start: Position, actions: list[Action], headers: dict[str, str] | None = None) -> Record:
    """Build a record of ``actions`` played from ``start``, a position that knows the deal.

    The caller adds the fair-deal headers (Commitment always; Deal and Salt once the game is over).
    """
    pos = start.copy()
    texts = []
    for a in actions:
        a = with_outcome(pos, a)
        texts.append(pos.action_str(a))
        pos.push(a if pos.board[a & 63] == UNKNOWN else a & ((1 << OUTCOME_SHIFT) - 1))
    h = dict(headers or {})
    h.setdefault("Game", "forest")
    h.setdefault("Rules", " ".join(start.rules.to_strings()))
    if pos.is_over():
        w = pos.winner()
        h["Score"] = f"{pos.score[0]}-{pos.score[1]}"
        h["Result"] = "draw" if w is None else PLAYER_NAMES[w]
    return Record(h, texts)


_HEADER_RE = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')


_BODY_RE = re.compile(r"\{([^{}]*)\}|(\S+)")


def parse_record(text: str) -> Record:
    headers: dict[str, str] = {}
    actions: list[str] = []
    comments: dict[int, str] = {}
    body: list[tuple[int, str]] = []  # (line number, text): a comment may run over several lines
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            m = _HEADER_RE.fullmatch(line)
            if not m:
                raise NotationError(f"record line {number}: a header is written [Key \"value\"]")
            headers[m.group(1)] = _unescape(m.group(2))
            continue
        body.append((number, line))
    joined = "\n".join(line for _, line in body)
    starts = [0]
    for _, line in body:
        starts.append(starts[-1] + len(line) + 1)
    for m in _BODY_RE.finditer(joined):
        number = body[sum(1 for s in starts[1:] if s <= m.start())][0] if body else 0
        if m.group(1) is not None:
            if not actions:
                raise NotationError(f"record line {number}: a comment {{...}} follows an action")
            note = " ".join(m.group(1).split())
            comments[len(actions) - 1] = f"{comments[len(actions) - 1]} {note}" if len(actions) - 1 in comments \
                else note
            continue
        word = m.group(2)
        if re.fullmatch(r"\d+\.", word):
            continue
        if "{" in word or "}" in word:
            raise NotationError(f"record line {number}: a comment is written {{...}}, with both braces")
        try:
            parse_action_text(word)
        except NotationError as exc:
            raise NotationError(f"record line {number}: {exc}") from exc
        actions.append(word)
    if headers.get("Game", "forest") != "forest":
        raise NotationError(f"this is a record of {headers['Game']!r}, not of the forest game")
    return Record(headers, actions, comments)


def verify(record: Record) -> list[str]:
    """Check a finished record's fair-deal commitment; returns the problems found (empty: all good).

    Checks that deal and salt hash to the commitment, that the deal is a full deal, and that every
    reveal in the record turned up the tile the deal has on that square.
    """
    problems: list[str] = []
    deal, salt, commit = (record.headers.get(k) for k in ("Deal", "Salt", "Commitment"))
    if not commit:
        return ["the record has no Commitment header"]
    if not deal or not salt:
        return ["the record has no Deal and Salt yet (they are published when the game ends)"]
    if not hmac.compare_digest(commitment(deal, salt), commit.lower()):
        problems.append("the deal and salt do not match the commitment: the deal was changed")
    try:
        start = parse_position(deal, record.rules)
    except NotationError as exc:
        return [*problems, f"the deal is not a position: {exc}"]
    if not start.knows_deal() or len(start.hidden) != 48:
        problems.append("the deal is not a full, fresh deal of 48 face-down tiles")
    pos = start
    for n, text in enumerate(record.actions, 1):
        try:
            pos.play(text)
        except ValueError as exc:
            problems.append(f"action {n} ({text}) does not fit the deal: {exc}")
            break
    return problems


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s)


def _wrap(words: list[str], width: int = 90) -> list[str]:
    lines: list[str] = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return lines
