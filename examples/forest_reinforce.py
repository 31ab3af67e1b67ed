"""A policy that learns the forest game: REINFORCE with a linear softmax, plain numpy, on
``halali/Forest-v0`` (the Gymnasium environment) against the random and the greedy bot.

    pip install -e '.[research]'
    python examples/forest_reinforce.py --games 8000 --eval-every 1000 --eval-games 200

What it shows is the interop layer, not a strong player: the policy sees only what any agent of the
environment sees, the observation vector and the legal-action mask, and turns each legal action id
into a few features read off the observation (what kind of action it is, which kind of tile it moves,
captures or leads out, whether the final phase has begun, whether a reveal is due). Its weights start
at zero, which is uniform random play; every training episode is one game against a bot drawn at
random (random or greedy), in a colour drawn at random, and the return (+1, -1, 0) updates the weights
by the policy gradient with a running-mean baseline, at a learning rate that falls as 1 / (1 + games /
``--decay``). At every checkpoint the policy plays
``--eval-games`` games against each bot on deals it never trained on, always taking its most likely
action (ties at random, so the untrained policy plays uniformly at random), and the script prints
its score there (a win 1, a draw 1/2) as a row of the learning curve in docs/research.md.

Not part of the test suite: a run of 8000 games takes a few minutes on one core.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import halali.interop.gymnasium  # noqa: F401  (registers halali/Forest-v0)
from halali.interop.encoding import forest as F

# The moving tile's kind from its face-up plane (bear, fox, lumberjack, hunter x4, duck, pheasant, tree).
KIND_OF_PLANE = np.array([0, 1, 2, 3, 3, 3, 3, 4, 5, 6])
STEP = np.array([7, 1, -7, -1])  # N, E, S, W in squares (a1 = 0, rank-major)
TYPES = 5  # reveal, move, capture, exit, pass
FEATURES = TYPES + 7 + 7 + 7 + 4 + 2


def action_features(obs: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """One row of features per legal action id, from the observation alone (F.split's layout)."""
    board, globs = F.split(obs)
    planes = board[:10].reshape(10, 49)
    face_up = planes.any(axis=0)
    kind_on = np.where(face_up, KIND_OF_PLANE[planes.argmax(axis=0)], -1)
    plane, square = ids // 49, ids % 49
    reveal = plane == 0
    passing = ids == F.PASS_ID
    leave = (plane >= 25) & ~passing
    slide = (plane >= 1) & (plane <= 24)
    d = np.clip((plane - 1) // 6, 0, 3)
    k = (plane - 1) % 6 + 1
    target = np.where(slide, square + STEP[d] * k, square)
    capture = slide & face_up[np.clip(target, 0, 48)]
    move = slide & ~capture
    x = np.zeros((len(ids), FEATURES))
    x[:, 0], x[:, 1], x[:, 2], x[:, 3], x[:, 4] = reveal, move, capture, leave, passing
    rows = np.arange(len(ids))
    mover = kind_on[square]
    victim = kind_on[np.clip(target, 0, 48)]
    x[rows[capture], TYPES + victim[capture]] = 1.0
    x[rows[leave], TYPES + 7 + mover[leave]] = 1.0
    x[rows[move], TYPES + 14 + mover[move]] = 1.0
    final = globs[4]
    x[:, TYPES + 21:TYPES + 25] = final * x[:, 0:4]
    x[:, TYPES + 25] = globs[7] * reveal  # a reveal while one is due
    x[:, TYPES + 26] = globs[5] * leave  # leading out, weighted by the final turns left
    return x


def policy(theta: np.ndarray, x: np.ndarray) -> np.ndarray:
    z = x @ theta
    z -= z.max()
    p = np.exp(z)
    return p / p.sum()


def play(env: gym.Env, theta: np.ndarray, rng: np.random.Generator, seed: int, learn: bool
         ) -> tuple[float, list[np.ndarray]]:  # type: ignore[type-arg]
    """One episode; returns the reward and, when learning, the score-function terms to update by."""
    obs, info = env.reset(seed=seed)
    grads: list[np.ndarray] = []
    while True:
        ids = np.flatnonzero(info["action_mask"])
        x = action_features(obs, ids)
        p = policy(theta, x)
        if learn:
            j = int(rng.choice(len(ids), p=p))
        else:  # the most likely action, ties broken at random (untrained: uniform random play)
            best = np.flatnonzero(p >= p.max() - 1e-12)
            j = int(best[rng.integers(len(best))])
        if learn:
            grads.append(x[j] - p @ x)
        obs, reward, terminated, truncated, info = env.step(int(ids[j]))
        if terminated or truncated:
            return float(reward), grads


def evaluate(theta: np.ndarray, opponent: str, games: int, seed: int) -> float:
    """The score (win 1, draw 1/2, loss 0) of the policy's most likely actions over ``games`` games,
    half of them as blue and half as brown."""
    score = 0.0
    for g in range(games):
        env = gym.make("halali/Forest-v0", opponent=opponent, seat=g % 2)
        reward, _ = play(env, theta, np.random.default_rng(seed + g), seed + g, learn=False)
        score += (reward + 1) / 2
    return score / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8000, help="training games (default 8000)")
    ap.add_argument("--eval-every", type=int, default=1000, help="games between checkpoints (default 1000)")
    ap.add_argument("--eval-games", type=int, default=200, help="games per bot at a checkpoint (default 200)")
    ap.add_argument("--lr", type=float, default=0.05, help="learning rate at the start (default 0.05)")
    ap.add_argument("--decay", type=float, default=2000.0,
                    help="games over which the learning rate halves, then thirds... (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(FEATURES)
    envs = {name: gym.make("halali/Forest-v0", opponent=name, seat=None) for name in ("random", "greedy")}
    baseline = 0.0
    start = time.perf_counter()
    print("| games trained | score vs random | score vs greedy | minutes |")
    print("|---:|---:|---:|---:|")
    for game in range(args.games + 1):
        if game % args.eval_every == 0:
            held_out = 10**6  # evaluation deals never seen in training
            row = [evaluate(theta, name, args.eval_games, held_out) for name in ("random", "greedy")]
            print(f"| {game} | {row[0]:.2f} | {row[1]:.2f} | {(time.perf_counter() - start) / 60:.1f} |", flush=True)
        if game == args.games:
            break
        env = envs["random" if rng.random() < 0.5 else "greedy"]
        reward, grads = play(env, theta, rng, int(rng.integers(10**6)), learn=True)
        baseline += 0.01 * (reward - baseline)
        if grads:
            lr = args.lr / (1 + game / args.decay)
            theta += lr * (reward - baseline) * np.sum(grads, axis=0) / np.sqrt(len(grads))
    names = ["reveal", "move", "capture", "exit", "pass"]
    names += [f"capture {k}" for k in "BFLHDPT"] + [f"exit {k}" for k in "BFLHDPT"]
    names += [f"move {k}" for k in "BFLHDPT"] + [f"final x {t}" for t in names[:4]]
    names += ["reveal due", "exit x final left"]
    print("weights:", ", ".join(f"{n} {w:+.2f}" for n, w in zip(names, theta, strict=True)))


if __name__ == "__main__":
    main()
