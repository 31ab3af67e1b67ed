"""Both games for game-AI research: OpenSpiel games, PettingZoo and Gymnasium environments.

``halali.interop.openspiel`` registers ``python_halali_forest`` and ``python_halali_hare`` with
``pyspiel``; ``halali.interop.pettingzoo.forest`` / ``.hare`` are native AEC environments;
``halali.interop.gymnasium`` registers ``halali/Forest-v0`` and ``halali/Hare-v0``, one seat against the
project's bots. All of them speak the same action numbers and observation tensors
(``halali.interop.encoding``), so a policy trained in one library plays in the others, and each is a
thin layer over the engine in ``halali.games``: no rule is written twice.

Nothing here is imported by the rest of the project, and importing this package imports no research
library: each subpackage needs its own (``pip install 'halali[research]'``). docs/research.md is the
guide.
"""
