"""One seat of either game against the project's bots, as Gymnasium environments. Importing this
package registers ``halali/Forest-v0`` and ``halali/Hare-v0`` with ``gymnasium.register``; then
``gymnasium.make("halali/Forest-v0", opponent="greedy", seat="blue")`` (or, without the import,
``gymnasium.make("halali.interop.gymnasium:halali/Forest-v0")``)."""

from __future__ import annotations

import gymnasium

for _id, _entry in (("halali/Forest-v0", "halali.interop.gymnasium.forest:ForestEnv"),
                    ("halali/Hare-v0", "halali.interop.gymnasium.hare:HareEnv")):
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point=_entry)
