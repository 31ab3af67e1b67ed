"""The variant duel used to choose what each level does."""

from __future__ import annotations

from pathlib import Path

import pytest

from halali.ai.bits import search_parts as S
from halali.ai.bits import weights as E
from halali.ai.levels import STYLES
from halali.ai.training import write_weights
from halali.ai.tuning import WEIGHT_NAMES, main, parse, play_match


def test_variants_parse_into_styles() -> None:
    v = parse("s2t:keep=0.6,nodes=3000,pat=3")
    assert v.style is not None and v.nodes == 3000 and v.style.patience == 3.0
    assert v.style.flags & S.TT and v.style.weights[WEIGHT_NAMES.index("keep")] == 0.6
    assert len(WEIGHT_NAMES) == E.N_WEIGHTS
    assert parse("greedy").style is None
    # Today's level 6, with its weights; the frozen baseline plays from its own worktree, not as a variant.
    six = parse("s2f:pat=3").style
    assert six is not None and six.flags == STYLES[6].flags and (six.weights == STYLES[6].weights).all()
    with pytest.raises(ValueError):
        parse("baseline:mt=0.2")
    tuned = parse("s2f:margin=-1.5").style
    assert six.star2_margin == 0.0 and tuned is not None and tuned.star2_margin == -1.5
    with pytest.raises(ValueError):
        parse("nosuch")
    with pytest.raises(ValueError):
        parse("q2:colour=red")


def test_a_duel_match_is_scored_from_the_first_variant(capsys: pytest.CaptureFixture[str]) -> None:
    score, diff = play_match(parse("q2:nodes=400,depth=1"), parse("greedy"), 3)
    assert score in (0.0, 0.5, 1.0)
    if diff != 0:
        assert (diff > 0) == (score == 1.0)
    assert main(["greedy", "greedy", "1", "7"]) == 0
    assert "greedy vs greedy" in capsys.readouterr().out


def test_a_variant_takes_its_weights_from_a_file_of_halali_train(tmp_path: Path) -> None:
    w = E.WEIGHTS.copy()
    w[E.W_FIRE] = 1.25
    write_weights(tmp_path / "w.json", w, {})
    v = parse(f"s2t:file={tmp_path / 'w.json'},hunt=0.5")
    assert v.style is not None and v.style.weights[E.W_FIRE] == 1.25 and v.style.weights[E.W_HUNT] == 0.5
