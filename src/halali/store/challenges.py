"""Open challenges: stored rather than kept in one server's memory, so that a player on any node sees
and answers them, and a restart forgets none.

Taking a challenge (an answer, a call-off, its expiry) deletes its row and succeeds only for the one
caller whose delete found it: two nodes answering at once, or an answer racing the expiry, cannot
both go ahead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, func, insert, or_, select

from halali.store import schema as s


@dataclass
class ChallengeRecord:
    id: str
    challenger: str
    challenged: str
    rules: dict[str, Any]
    rated: bool
    mode: str
    clock: dict[str, int] | None
    expires: float  # the server's clock


def _record(r: Any) -> ChallengeRecord:
    return ChallengeRecord(r.id, r.challenger, r.challenged, dict(r.rules), r.rated, r.mode,
                           dict(r.clock) if r.clock is not None else None, r.expires_at)


class ChallengeStore:
    """Mixed into the Store."""

    engine: Engine

    def add_challenge(self, c: ChallengeRecord) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(s.challenges).values(
                id=c.id, challenger=c.challenger, challenged=c.challenged, rules=c.rules, rated=c.rated,
                mode=c.mode, clock=c.clock, expires_at=c.expires))

    def challenge(self, challenge_id: str, now: float) -> ChallengeRecord | None:
        """The challenge, unless it has run out (its expiry may not have been told yet)."""
        with self.engine.connect() as conn:
            r = conn.execute(select(s.challenges).where(s.challenges.c.id == challenge_id,
                                                         s.challenges.c.expires_at > now)).first()
        return None if r is None else _record(r)

    def challenges_of(self, player_id: str, now: float) -> list[ChallengeRecord]:
        """The open challenges to or from the player, oldest first."""
        c = s.challenges.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(s.challenges).where(or_(c.challenger == player_id, c.challenged == player_id),
                                                           c.expires_at > now).order_by(c.expires_at))
            return [_record(r) for r in rows]

    def open_challenges_by(self, player_id: str, now: float) -> int:
        c = s.challenges.c
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(s.challenges)
                                    .where(c.challenger == player_id, c.expires_at > now)).scalar_one())

    def take_challenge(self, challenge_id: str) -> bool:
        """Delete it; True only for the caller whose delete found it."""
        with self.engine.begin() as conn:
            return conn.execute(delete(s.challenges).where(s.challenges.c.id == challenge_id)).rowcount == 1

    def take_expired_challenges(self, now: float) -> list[ChallengeRecord]:
        """The challenges that ran out, each deleted and returned to one caller only."""
        with self.engine.connect() as conn:
            found = [_record(r) for r in conn.execute(select(s.challenges).where(s.challenges.c.expires_at <= now))]
        return [c for c in found if self.take_challenge(c.id)]
