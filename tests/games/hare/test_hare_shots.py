"""The hare hunt's shots on hand-built positions: every case of distance and delta, the partner, the
overshoot target, exploding guns, the bush, and the order in which pairs resolve."""

from __future__ import annotations

import pytest

from halali.games.errors import IllegalAction
from halali.games.hare import HareState, action_str
from halali.games.hare.board import NAMES
from hare_helpers import QUIET, build, cells, shot


def legal(st: HareState) -> list[str]:
    return sorted(action_str(a) for a in st.legal_actions())


def test_the_hare_dodges_when_d_is_the_distance_to_it() -> None:
    for dice in ("1,2", "0,3"):  # d = 3 = distance from c6 to f6
        st = shot({"G": "c6E", "B": "h6NE"}, dice)
        assert cells(st) >= {"c6E", "h6NE"} and st.phase == "roll" and st.quiet == 1


def test_d_equal_to_delta_removes_the_partner() -> None:
    st = shot({"G": "c6E", "B": "h6NE"}, "1,4")  # delta c6..h6 = 5
    assert "h6NE" not in cells(st) and "c6E" in cells(st)
    assert st.phase == "roll" and st.quiet == 0


def test_d_equal_to_delta_removes_both_when_the_partner_aims_too() -> None:
    st = shot({"G": "c6E", "B": "h6W"}, "2,3")
    assert not cells(st) & {"c6E", "h6W"}


def test_d_smaller_than_delta_does_nothing() -> None:
    st = shot({"G": "c6E", "B": "k6NE"}, "2,2")  # d = 4 < delta = 8
    assert cells(st) >= {"c6E", "k6NE"} and st.quiet == 1


def test_a_longer_shot_lets_the_active_player_choose() -> None:
    st = shot({"G": "c6E", "B": "e6NE"}, "1,3")  # d = 4 > delta = 2 (the partner stands before the hare)
    assert st.phase == "shoot" and legal(st) == ["xc6", "xe6"]
    with pytest.raises(IllegalAction, match="shooter or the partner"):
        st.play("xa3")
    st.play("xc6")
    assert "c6E" not in cells(st) and "e6NE" in cells(st) and st.phase == "roll"


def test_a_longer_shot_hits_the_partner_with_overshoot_target() -> None:
    st = shot({"G": "c6E", "B": "e6NE"}, "1,3", options="bush=off,overshoot=target")
    assert "c6E" in cells(st) and "e6NE" not in cells(st) and st.phase == "roll"


def test_no_partner_no_effect() -> None:
    st = shot({"G": "c6E"}, "4,4")
    assert "c6E" in cells(st) and st.quiet == 1


def test_a_gun_explodes_on_double_blank_and_the_active_player_removes_an_aiming_hunter() -> None:
    st = shot({"G": "c6E", "B": "h6W", "K": "e4NE"}, "0,0")
    assert st.phase == "shoot" and legal(st) == ["xc6", "xh6"]  # e4 does not aim
    with pytest.raises(IllegalAction, match="aiming"):
        st.play("xe4")
    st.play("xh6")
    assert cells(st) >= {"c6E", "e4NE"} and "h6W" not in cells(st) and st.phase == "roll"


def test_the_bush_blocks_aim_and_ends_the_line_of_fire() -> None:
    st = build({"R": "a3E", "Y": "k9W", "G": "c6E", "B": "i6NE"}, bush="h6")
    assert [NAMES[st.hcell[h]] for h in st.aiming()] == ["c6"]
    st2 = build({"R": "a3E", "Y": "k9W", "G": "a6E", "B": "i6NE"}, bush="d6", phase="roll")
    assert st2.aiming() == []  # the bush stands between a6 and the hare
    st.play("roll=4,4")  # c6's line stops at the bush on h6: i6 is no partner
    assert cells(st) >= {"c6E", "i6NE"} and st.quiet == 1


def test_hunters_do_not_block_aim() -> None:
    st = build({**QUIET, "G": "c6E", "K": "d6NE"})
    assert [NAMES[st.hcell[h]] for h in st.aiming()] == ["c6"]
    st.play("roll=0,1")  # d = 1 = delta to d6
    assert "d6NE" not in cells(st)


def test_a_pair_counted_from_both_ends_counts_once() -> None:
    st = shot({"G": "c6E", "B": "h6W"}, "2,4")  # mutual pair, d = 6 > delta = 5
    assert legal(st) == ["xc6", "xh6"]
    st.play("xc6")
    assert "h6W" in cells(st) and st.phase == "roll"  # no second choice from h6's end


def test_a_mutual_pair_with_overshoot_target_loses_both() -> None:
    st = shot({"G": "c6E", "B": "h6W"}, "2,4", options="bush=off,overshoot=target")
    assert not cells(st) & {"c6E", "h6W"}


def test_pairs_resolve_by_increasing_delta_and_a_removed_hunter_spends_its_pairs() -> None:
    # b6 aims with partner c6 (delta 1); c6 aims with partner e6 (delta 2); d = 5 > both.
    clubs = {"G": "b6E,c6E", "B": "e6NE"}
    st = shot(clubs, "1,4")
    assert legal(st) == ["xb6", "xc6"]  # delta 1 first
    st.play("xc6")  # c6 was also the shooter of the second pair: spent
    assert cells(st) >= {"b6E", "e6NE"} and "c6E" not in cells(st) and st.phase == "roll"
    st = shot(clubs, "1,4")
    st.play("xb6")
    assert legal(st) == ["xc6", "xe6"]  # now the second pair
    st.play("xe6")
    assert "c6E" in cells(st) and not cells(st) & {"b6E", "e6NE"}


def test_a_hunter_already_removed_is_skipped_by_the_next_pair() -> None:
    # d = 1: b6-c6 (delta 1, c6 aims too) removes both; c6-e6 (delta 2) does nothing.
    st = shot({"G": "b6E,c6E", "B": "e6NE"}, "0,1")
    assert not cells(st) & {"b6E", "c6E"} and "e6NE" in cells(st)


def test_the_active_player_orders_ties() -> None:
    # d6 and j6 both have the partner g6 at delta 3; d = 5 is longer than both.
    clubs = {"G": "d6E", "B": "j6W", "K": "g6NE"}
    st = shot(clubs, "1,4")
    assert legal(st) == ["xd6", "xg6", "xj6"]
    st.play("xg6")  # the shared partner: both pairs are spent
    assert cells(st) >= {"d6E", "j6W"} and st.phase == "roll"
    st = shot(clubs, "1,4")
    st.play("xd6")
    assert legal(st) == ["xg6", "xj6"]


def test_fixed_removals_and_choices_in_one_shot() -> None:
    # d = 2: b6-c6 (delta 1) lets the player choose; c6-e6 (delta 2 = d) removes e6 whatever he chooses.
    st = shot({"G": "b6E,c6E", "B": "e6NE"}, "0,2")
    st.play("xb6")
    assert cells(st) & {"b6E", "c6E", "e6NE"} == {"c6E"}


