"""Both games as native PettingZoo AEC environments, registered in PettingZoo's registry on import:
``pettingzoo.make("aec", "halali/forest-v0")`` and ``pettingzoo.make("aec", "halali/hare-v0", players=3)``,
or directly ``halali.interop.pettingzoo.forest.env()`` / ``.hare.env(players=3)`` (and ``raw_env``).
"""

from __future__ import annotations

from pettingzoo import aec_registry, register

from halali.interop.pettingzoo import forest, hare

for _id, _module in (("halali/forest-v0", "forest"), ("halali/hare-v0", "hare")):
    if _id not in aec_registry:
        register("aec", _id, entry_point=f"halali.interop.pettingzoo.{_module}:env")

__all__ = ["forest", "hare"]
