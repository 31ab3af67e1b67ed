"""Fitting the evaluation's weights: the premise (the evaluation is linear in them), the fit, the games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from halali.ai import bits as B
from halali.ai import training as T
from halali.ai.bits import weights as E
from halali.ai.bits.evaluate import evaluate
from halali.ai.simple import GreedyBot
from halali.games.forest.position import Position


def _states(seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    pos = Position.deal(seed=seed)
    bot = GreedyBot(seed)
    out = []
    while not pos.is_over():
        out.append(B.from_position(pos.view()))
        pos.push(bot.choose(pos.view()))
    return out


def test_the_evaluation_is_its_base_plus_the_weighted_features() -> None:
    """What makes a least-squares fit the right tool: for any fitted weights, evaluate(w) is the
    zero-weight evaluation plus the features times the weights, to the last bit or so."""
    states = _states(4) + _states(5)
    base, feats = T.features(states)
    assert feats.shape == (len(states), len(T.FITTED)) and np.abs(feats).sum() > 0
    rng = np.random.default_rng(1)
    for _ in range(3):
        w = np.zeros(E.N_WEIGHTS)
        w[list(T.FITTED)] = rng.uniform(0, 1.2, len(T.FITTED))
        direct = np.array([evaluate(bb, s, w) for bb, s in states])
        inside = np.abs(direct) < E.BOUND
        assert np.allclose(direct[inside], (base + feats @ w[list(T.FITTED)])[inside], atol=1e-9)


def test_the_fit_finds_weights_that_made_the_targets() -> None:
    rng = np.random.default_rng(2)
    x = rng.normal(size=(20000, len(T.FITTED)))
    true = E.WEIGHTS.copy()
    true[list(T.FITTED)] = rng.uniform(0, 1, len(T.FITTED))
    searched = E.WEIGHTS.copy()
    searched[list(T.FITTED)] = rng.uniform(0, 1, len(T.FITTED))
    samples = T.Samples(x, x @ true[list(T.FITTED)] + rng.normal(scale=5, size=20000),
                        x @ searched[list(T.FITTED)] + rng.normal(scale=1, size=20000))
    free = T.fit(samples, strength=0.0)
    assert np.abs(free - true).max() < 0.15
    assert free[E.W_PREP] == E.WEIGHTS[E.W_PREP]  # not fitted: kept as it is
    assert np.abs(T.fit(samples, lam=0.0, strength=0.0) - searched).max() < 0.05  # the search's values alone
    halfway = T.fit(samples, lam=0.5, strength=0.0)
    assert np.abs(halfway - (true + searched) / 2).max() < 0.1
    held = T.fit(samples, strength=1e9)  # an overwhelming pull keeps the hand-set weights
    assert np.abs(held - E.WEIGHTS).max() < 1e-3
    assert T.residual(samples, free) < T.residual(samples, E.WEIGHTS)


def test_a_game_gives_the_same_samples_for_the_same_seed() -> None:
    a, b = T.play_game(11, nodes=300), T.play_game(11, nodes=300)
    assert len(a.targets) > 20 and a.features.shape == (len(a.targets), len(T.FITTED))
    # The search's value and the outcome are both the mover's: over a game they go the same way.
    assert np.corrcoef(a.targets, a.values)[0, 1] > 0.3
    assert np.array_equal(a.features, b.features) and np.array_equal(a.targets, b.targets)
    assert not np.array_equal(T.play_game(12, nodes=300).targets[:5], a.targets[:5])


def test_blocks_and_weights_files_read_back(tmp_path: Path) -> None:
    samples = T.play_game(13, nodes=300)
    path = T.block_path(tmp_path, 13, 300)
    T.save_block(path, samples)
    back = T.load_block(path)
    for field in ("features", "targets", "values"):
        assert np.array_equal(getattr(back, field), getattr(samples, field))
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no half-written file left behind
    w = E.WEIGHTS.copy()
    w[E.W_FIRE] = 0.625
    T.write_weights(tmp_path / "w.json", w, {"games": 1})
    assert np.array_equal(T.read_weights(tmp_path / "w.json"), w)
    (tmp_path / "bad.json").write_text('{"weights": {"keep": 1}}')
    with pytest.raises(ValueError, match="exactly"):
        T.read_weights(tmp_path / "bad.json")
