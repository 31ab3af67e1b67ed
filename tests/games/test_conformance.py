"""Every game in ``GAMES`` keeps the promises of the ``Game`` protocol (games/base.py).

Seeded random games are played to the end through the protocol only, for a few option sets and
player counts per game, and checked on the way: legal actions, apply without side effects, illegal
actions refused with a rule, chance outcomes, views that keep every secret, records that replay, and
results within the declared bounds. The expensive checks run on a sample of the steps, so that the
whole file takes seconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from halali.games.base import GAMES, Game
from halali.games.errors import HalaliError, IllegalAction, NotationError

Players = list[int | None]
FIRST = 6  # the first steps are all checked thoroughly, then every EVERY-th up to LATER, then every LATER-th
EVERY = 15
LATER = 150
REPLAY_UP_TO = 300  # replays (which cost a whole game each) every EVERY-th step this far, then at 600, 1200...
CHANCE_ACTIONS = 2  # chance events looked into per thorough check
FALLBACK_LENGTH = 20_000  # for options under which a game declares no bound


# ---- what each game keeps secret --------------------------------------------------------------------
# One checker per game with secrets: (game, state, seat or None) -> None, asserting that the view and
# the view record of that seat hold none of them. A new game with secrets needs one here.


def _forest_board_is_hidden(board: str) -> None:
    assert not any(ch.islower() for ch in board), f"a face-down tile is shown: {board}"


def forest_secrets(game: Game, state: Any, player: int | None) -> None:
    """Face-down tiles are written lowercase in a full position and ``?`` in a view; a view record
    has no deal."""
    _forest_board_is_hidden(game.view(state, player).split()[0])
    for line in game.view_record(state, player).splitlines():
        assert not line.startswith(("[Deal ", "[Salt ")), line
        if line.startswith("[Position "):
            _forest_board_is_hidden(line.split('"')[1].split()[0])


def _hare_seats_hidden(position: str, allowed: set[int]) -> list[str]:
    fields = position.split()
    assert fields[9] == "-", f"the dice secret is shown: {position}"
    clubs = [token.split("@")[0] for token in fields[2].split(",")]
    for seat, club in enumerate(clubs):
        assert seat in allowed or club == "?", f"seat {seat + 1}'s club is shown: {position}"
    return clubs


def hare_secrets(game: Game, state: Any, player: int | None) -> None:
    """A seat sees its own club and the clubs of the seats that are out (their cards are shown), a
    spectator none, everyone all once the hunt is over; nobody sees the dice secret."""
    public = game.view(state, None).split()[2].split(",")
    if game.is_over(state):
        allowed = set(range(len(public)))
    elif player is None:
        allowed = set()
    else:
        allowed = {player} | {seat for seat, token in enumerate(public) if "@" in token}
    clubs = _hare_seats_hidden(game.view(state, player), allowed)
    if player is not None:
        assert clubs[player] != "?", "a seat always sees its own club"
    _hare_seats_hidden(game.view_record(state, player).split(";")[0], allowed)


SECRETS: dict[str, Callable[[Game, Any, int | None], None]] = {"forest": forest_secrets, "hare": hare_secrets}

# Option sets a generic choice would not reach (an open value such as a number).
EXTRA_CASES: dict[str, list[tuple[dict[str, str], int]]] = {"forest": [({"stall_limit": "0"}, 2)]}


# ---- the cases --------------------------------------------------------------------------------------
def cases() -> Iterator[tuple[str, dict[str, str], int]]:
    """Per game: the defaults with the fewest players, every option off its default with the most, a
    player count in between, and the extra cases above."""
    for gid, game in GAMES.items():
        info = game.info
        changed = {o.name: next(c for c in o.choices if c != o.default) for o in info.options if len(o.choices) > 1}
        yield gid, {}, info.min_players
        yield gid, changed, info.max_players
        if info.max_players - info.min_players > 1:
            yield gid, {}, (info.min_players + info.max_players + 1) // 2
        for options, players in EXTRA_CASES.get(gid, []):
            yield gid, options, players


CASES = list(cases())


def _case_id(case: tuple[str, dict[str, str], int]) -> str:
    gid, options, players = case
    return f"{gid}-{players}p-" + (",".join(f"{k}={v}" for k, v in sorted(options.items())) or "defaults")


# ---- helpers ----------------------------------------------------------------------------------------
def audience(players: int) -> Players:
    return [None, *range(players)]


def fingerprint(game: Game, state: Any, players: int) -> tuple[object, ...]:
    """Everything the protocol tells of a state: equal fingerprints, the same state as far as anyone
    can tell."""
    return (game.record(state), tuple(game.view(state, p) for p in audience(players)),
            tuple(game.legal_actions(state)), game.to_move(state), game.is_over(state))


def outcome_of(game: Game, state: Any) -> tuple[str, str, int | None]:
    return game.record(state), game.view(state, None), game.to_move(state)


def applies(game: Game, state: Any, action: str) -> bool:
    try:
        game.apply(state, action)
    except IllegalAction:
        return False
    return True


def same_for(game: Game, a: Any, b: Any, players: Players) -> None:
    """``a`` and ``b`` look the same to everyone in ``players`` and have the same player to move."""
    for p in players:
        assert game.view(a, p) == game.view(b, p), p
    assert game.to_move(a) == game.to_move(b)
    assert game.is_over(a) == game.is_over(b)
    assert game.legal_actions(a) == game.legal_actions(b)


# ---- the checks -------------------------------------------------------------------------------------
def check_step(game: Game, state: Any, players: int) -> None:
    legal = game.legal_actions(state)
    assert legal == sorted(legal) and len(set(legal)) == len(legal)
    mover = game.to_move(state)
    if game.is_over(state):
        assert legal == [] and mover is None
    else:
        assert legal and mover is not None and 0 <= mover < players


def check_thoroughly(game: Game, state: Any, players: int, rng: random.Random, seen: set[str],
                     replays: bool) -> None:
    before = fingerprint(game, state, players)
    legal = game.legal_actions(state)
    after = {a: outcome_of(game, game.apply(state, a)) for a in legal}

    for p in audience(players):
        assert game.view(state, p) == game.view(state, p), "a view is not deterministic"
        if game.info.secrets:
            SECRETS[game.id](game, state, p)
        else:
            assert game.view(state, p) == game.view(state, None)

    # Anything seen legal before and not listed now is refused with a rule, or is another way of
    # writing a listed action (the forest game reads c3-c6 onto a tile as the capture c3xc6).
    for text in rng.sample(sorted(seen - set(legal)), min(3, len(seen - set(legal)))):
        try:
            alias = outcome_of(game, game.apply(state, text))
        except IllegalAction as exc:
            assert exc.key.startswith("rule."), (text, exc.key)
        else:
            assert alias in after.values(), f"{text} is accepted but not listed"
    with pytest.raises(NotationError):
        game.apply(state, "no such action")

    chance = [a for a in legal if game.chance_outcomes(state, a)]
    if not game.info.chance:
        assert chance == []
    belief = None
    if replays and chance:
        mover = game.to_move(state)
        belief = game.replay(game.view_record(state, mover))
        same_for(game, belief, state, [mover])
    for a in rng.sample(chance, min(CHANCE_ACTIONS, len(chance))):
        outcomes = game.chance_outcomes(state, a)
        texts = [o for o, _ in outcomes]
        assert texts == sorted(set(texts)) and a not in texts
        assert all(p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        # The state has the secret: exactly one outcome is legal, and it is what the action turns up.
        drawn = [o for o in texts if applies(game, state, o)]
        assert len(drawn) == 1, (a, drawn)
        assert outcome_of(game, game.apply(state, drawn[0])) == after[a]
        if belief is not None:  # without the secret every outcome is legal
            assert all(applies(game, belief, o) for o in texts), a
    assert fingerprint(game, state, players) == before, "applying or refusing an action changed the state"


def check_replays(game: Game, state: Any, players: int) -> None:
    again = game.replay(game.record(state))
    same_for(game, again, state, audience(players))
    assert game.record(again) == game.record(state)
    for seat in range(players):
        seen_by_seat = game.replay(game.view_record(state, seat))
        same_for(game, seen_by_seat, state, [seat])
        assert game.view_record(seen_by_seat, seat) == game.view_record(state, seat)


def check_end(game: Game, state: Any, players: int, seen: set[str]) -> None:
    info = game.info
    result = game.result(state)
    assert len(result) == players
    assert all(info.min_utility <= r <= info.max_utility for r in result), result
    if info.utility_sum is not None:
        assert sum(result) == pytest.approx(info.utility_sum)
    places = game.placings(state)
    assert len(places) == players
    assert all(1 <= p <= players and (2 * p).is_integer() for p in places), places
    assert sum(places) == players * (players + 1) / 2
    for i in range(players):
        for j in range(players):
            if result[i] > result[j]:
                assert places[i] < places[j], (result, places)
    for text in sorted(seen)[:5]:
        with pytest.raises(IllegalAction) as refused:
            game.apply(state, text)
        assert refused.value.key.startswith("rule.")


def replay_step(n: int) -> bool:
    """600, 1200, 2400...: the later replays, doubling."""
    q, r = divmod(n, 2 * REPLAY_UP_TO)
    return r == 0 and q & (q - 1) == 0


def play(game: Game, options: dict[str, str], players: int, seed: int) -> int:
    """One seeded random game through the protocol, checked on the way; returns its length."""
    rng = random.Random(seed)
    state = game.new(options, players, rng)
    assert game.record(state) == game.record(game.new(options, players, random.Random(seed))), \
        "new draws from anything but the random source it is given"
    limit = game.max_length(options, players)
    cap = FALLBACK_LENGTH if limit is None else limit
    seen: set[str] = set()
    n = 0
    while True:
        check_step(game, state, players)
        over = game.is_over(state)
        if n < FIRST or n % (EVERY if n < LATER else LATER) == 0 or over:
            replays = over or (n % EVERY == 0 if n <= REPLAY_UP_TO else replay_step(n))
            check_thoroughly(game, state, players, rng, seen, replays)
            if replays:
                check_replays(game, state, players)
        if over:
            break
        assert n < cap, f"no end after {n} actions (declared at most {limit})"
        legal = game.legal_actions(state)
        seen.update(legal)
        state = game.apply(state, rng.choice(legal))
        n += 1
    assert limit is None or n <= limit
    check_end(game, state, players, seen)
    return n


# ---- the tests --------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_random_games_keep_the_protocol(case: tuple[str, dict[str, str], int]) -> None:
    gid, options, players = case
    game = GAMES[gid]
    limit = game.max_length(options, players)
    assert limit is None or limit > 0
    lengths = [play(game, options, players, seed) for seed in (CASES.index(case), 100 + CASES.index(case))]
    assert all(n > 0 for n in lengths)


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_the_game_describes_itself(gid: str) -> None:
    game = GAMES[gid]
    info = game.info
    assert info.id == game.id == gid
    assert (info.min_players, info.max_players) == (game.min_players, game.max_players)
    assert info.min_utility <= info.max_utility
    if info.utility_sum is not None:
        assert info.min_players * info.min_utility <= info.utility_sum <= info.max_players * info.max_utility
    assert not info.secrets or gid in SECRETS, "a game with secrets needs its checker in this file"


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_options_are_checked_and_written_the_games_way(gid: str) -> None:
    game = GAMES[gid]
    info = game.info
    assert game.check_options({}) == info.default_options
    assert game.check_options(info.default_options) == info.default_options
    match_games = {game.match_games({})}
    for o in info.options:
        for choice in o.choices:
            checked = game.check_options({o.name: choice})
            assert checked == {**info.default_options, o.name: choice}
            match_games.add(game.match_games({o.name: choice}))
        if o.choices:
            with pytest.raises(NotationError):
                game.check_options({o.name: "no-such-value"})
    assert match_games == set(info.match_games)
    with pytest.raises(NotationError):
        game.check_options({"no_such_option": "1"})
    with pytest.raises(HalaliError):
        game.new({"no_such_option": "1"}, info.min_players, random.Random(0))


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_player_counts_outside_the_range_are_refused(gid: str) -> None:
    game = GAMES[gid]
    for players in (game.info.min_players - 1, game.info.max_players + 1):
        with pytest.raises(HalaliError):
            game.new({}, players, random.Random(0))
        with pytest.raises(HalaliError):
            game.max_length({}, players)


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_a_record_with_an_illegal_action_does_not_replay(gid: str) -> None:
    game = GAMES[gid]
    rng = random.Random(7)
    state = game.new({}, game.info.min_players, rng)
    first = game.apply(state, game.legal_actions(state)[0])
    state = first
    for _ in range(4):
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    record = game.record(state)
    # The first action once more at the end: as the record wrote it, the last word of its record.
    again = game.record(first).split()[-1]
    assert game.record(game.replay(record)) == record
    with pytest.raises(IllegalAction) as refused:
        game.replay(record.rstrip() + " " + again)
    assert refused.value.key.startswith("rule.")
