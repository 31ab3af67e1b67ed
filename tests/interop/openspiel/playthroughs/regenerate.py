"""Write the committed OpenSpiel playthroughs again, after a deliberate change of the games' encoding:
``PYTHONPATH=src python tests/interop/openspiel/playthroughs/regenerate.py``.

Each is made by OpenSpiel's own ``generate_playthrough`` from a game string and a seed; the seeds are
ones whose random hunt is short, so the files stay small. ``test_openspiel_playthroughs.py`` replays
them and requires the same text.
"""

from __future__ import annotations

from pathlib import Path

from absl import flags
from open_spiel.python.algorithms import generate_playthrough

import halali.interop.openspiel  # noqa: F401  (registers the games)

HERE = Path(__file__).parent
PLAYTHROUGHS = {
    "python_halali_forest.txt": ("python_halali_forest", 1),
    "python_halali_forest_options.txt": (
        "python_halali_forest(green_lock=revealed_only,no_return_neutrals=True,stall_limit=8)", 3),
    "python_halali_hare.txt": ("python_halali_hare", 86),
    "python_halali_hare_options.txt": ("python_halali_hare(bush=False,overshoot=target)", 27),
}


def main() -> None:
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    for name, (game, seed) in PLAYTHROUGHS.items():
        text = generate_playthrough.playthrough(game, None, seed=seed)
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"{name}: {len(text):,} characters")


if __name__ == "__main__":
    main()
