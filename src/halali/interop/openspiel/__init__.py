"""Both games as OpenSpiel games: importing this package registers ``python_halali_forest`` and
``python_halali_hare`` with ``pyspiel.register_game``, so ``pyspiel.load_game`` and everything built on
it (algorithms, playthroughs, ``deserialize_game_and_state``) find them.
"""

from halali.interop.openspiel import forest, hare

__all__ = ["forest", "hare"]
