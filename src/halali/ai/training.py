"""Fitting the evaluation's weights to how self-play games end (``halali train``).

The evaluation is linear in its weights (with the exit-race term off, as it is): its value is what
it counts with every weight at zero (the piles) plus each weight times a feature of the position.
So a weight vector is a network with no hidden layer over the evaluation's own terms, and fitting
it is a least-squares regression. The target of a position is how the game really ended for the
player to move (the final score difference), less the piles it already counts: the Monte-Carlo
return of TD(1), the game's chance reveals included, which is why the sample must be large.

The fit is pulled towards the hand-set weights (ridge towards a prior, not towards zero): a term
that the games say little about keeps its hand-set value instead of wandering off on noise.

Games are played by level 6 on a node budget, so a seed plays the same games on any machine, and
they are kept in blocks of games, one file each: training that is stopped goes on where it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from halali.ai import bits as B
from halali.ai.bits import weights as E
from halali.ai.bits.evaluate import evaluate
from halali.ai.levels import STYLES
from halali.ai.search_bots import SearchBot
from halali.games.forest.position import Position

# The weights that are fitted: all but the exit race (off, and not linear: it blends two terms).
FITTED = tuple(i for i in range(E.N_WEIGHTS) if i != E.W_PREP)
NAMES = E.WEIGHT_NAMES
BLOCK = 25  # games per data file


@dataclass(frozen=True)
class Samples:
    """One row per position: the fitted features and the part of the outcome they must explain."""

    features: np.ndarray  # (n, len(FITTED))
    targets: np.ndarray  # (n,) the game's outcome for the player to move, less the piles
    values: np.ndarray  # (n,) the self-play search's value of the position, less the piles

    @staticmethod
    def concat(parts: list[Samples]) -> Samples:
        if not parts:
            return Samples(np.zeros((0, len(FITTED))), np.zeros(0), np.zeros(0))
        return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("features", "targets", "values")))

    def blend(self, lam: float) -> np.ndarray:
        """What the fit aims at: ``lam`` of the outcome and the rest of the search's value, as
        TD(lambda) blends the return with the estimates on the way (1: the outcome alone)."""
        return lam * self.targets + (1.0 - lam) * self.values


def features(states: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """(the evaluation with every weight at zero, each fitted weight's feature) of each state."""
    material = E.MATERIAL_ONLY  # a new array at each use of the name: made once here
    base = np.array([evaluate(bb, s, material) for bb, s in states])
    cols = []
    for i in FITTED:
        unit = np.zeros(E.N_WEIGHTS)
        unit[i] = 1.0
        cols.append(np.array([evaluate(bb, s, unit) for bb, s in states]) - base)
    return base, np.array(cols).T.reshape(len(states), len(FITTED))


def play_game(seed: int, nodes: int) -> Samples:
    """Level 6 against itself on deal ``seed``, ``nodes`` per action; a row per position before an
    action, seen as the player to move sees it (the public view)."""
    pos = Position.deal(seed=seed)
    bots = (SearchBot(STYLES[6], 2 * seed), SearchBot(STYLES[6], 2 * seed + 1))
    states, movers, values = [], [], []
    while not pos.is_over():
        view = pos.view()
        states.append(B.from_position(view))
        movers.append(pos.turn)
        thought = bots[pos.turn].think(view, None, nodes=nodes)
        values.append(thought.score)
        pos.push(thought.action)
    base, feats = features(states)
    final = [pos.score[0] - pos.score[1], pos.score[1] - pos.score[0]]
    targets = np.array([final[m] for m in movers], dtype=np.float64) - base
    return Samples(feats, targets, np.array(values, dtype=np.float64) - base)


def play_block(first: int, count: int, nodes: int) -> Samples:
    return Samples.concat([play_game(first + i, nodes) for i in range(count)])


def block_path(data: Path, first: int, nodes: int) -> Path:
    return data / f"games-n{nodes}-{first:08d}.npz"


def save_block(path: Path, samples: Samples) -> None:
    """Written whole or not at all: a block cut off by a stop is played again."""
    partial = path.with_suffix(".part.npz")
    np.savez_compressed(partial, features=samples.features, targets=samples.targets, values=samples.values)
    partial.replace(path)


def load_block(path: Path) -> Samples:
    with np.load(path) as f:
        return Samples(f["features"], f["targets"], f["values"])


def fit(samples: Samples, lam: float = 1.0, prior: np.ndarray = E.WEIGHTS, strength: float = 1.0) -> np.ndarray:
    """The full weight vector that predicts ``samples.blend(lam)`` best, pulled towards ``prior``.

    ``strength`` is the pull in positions' worth: the penalty is ``strength * n_positions / 1000``
    times the squared distance from the prior, so a thousand positions count like one more position
    that sits exactly on the prior for every weight.
    """
    x, y = samples.features, samples.blend(lam)
    p = prior[list(FITTED)]
    lam = strength * len(y) / 1000.0
    a = x.T @ x + lam * np.eye(len(FITTED))
    b = x.T @ y + lam * p
    out = prior.copy()
    out[list(FITTED)] = np.linalg.solve(a, b)
    return out


def residual(samples: Samples, weights: np.ndarray, lam: float = 1.0) -> float:
    """Mean squared error of the evaluation's prediction of ``samples.blend(lam)``, in points squared."""
    err = samples.blend(lam) - samples.features @ weights[list(FITTED)]
    return float(np.mean(err * err)) if len(err) else 0.0


def write_weights(path: Path, weights: np.ndarray, about: dict[str, object]) -> None:
    doc = {"weights": {NAMES[i]: round(float(weights[i]), 4) for i in range(E.N_WEIGHTS)}, **about}
    path.write_text(json.dumps(doc, indent=2) + "\n")


def read_weights(path: Path) -> np.ndarray:
    doc = json.loads(path.read_text())
    given = doc["weights"]
    if set(given) != set(NAMES):
        raise ValueError(f"{path}: the weights must be exactly {', '.join(NAMES)}")
    return np.array([float(given[n]) for n in NAMES], dtype=np.float64)
