from halali.games.forest import Position, parse_position


def test_fresh_deal_round_trips_and_offers_48_reveals() -> None:
    pos = Position.deal(seed=7)
    assert parse_position(pos.fen()).fen() == pos.fen()
    assert len(pos.legal_actions()) == 48
