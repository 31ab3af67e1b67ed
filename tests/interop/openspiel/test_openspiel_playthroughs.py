"""The committed playthroughs (OpenSpiel's ``generate_playthrough``) replay to the same text: every
state string, observation and information state, legal action, chance outcome and return of a whole
game, for both games under two option sets. A change of the games' encoding shows up here first;
``playthroughs/regenerate.py`` writes them again when the change is meant."""

from __future__ import annotations

from pathlib import Path

import pytest
from absl import flags
from open_spiel.python.algorithms import generate_playthrough

import halali.interop.openspiel  # noqa: F401  (registers the games)

HERE = Path(__file__).parent / "playthroughs"
FILES = sorted(HERE.glob("*.txt"))


def test_there_is_a_playthrough_for_each_game_and_option_set() -> None:
    assert [f.name for f in FILES] == [
        "python_halali_forest.txt", "python_halali_forest_options.txt",
        "python_halali_hare.txt", "python_halali_hare_options.txt",
    ]


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_a_playthrough_replays_to_the_same_text(path: Path) -> None:
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()  # generate_playthrough reads an absl flag
    original, again = generate_playthrough.replay(str(path))
    assert again == original
