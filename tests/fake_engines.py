"""Small engine programs that misbehave, for the tests of commands that run engines: one that plays
legal actions and then dies mid-game, one that answers with nonsense, one that never introduces
itself properly. Each speaks docs/engine-protocol.md as far as it goes; ``command`` writes one to a
folder and gives the command line that starts it with this Python."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

_PLAYER = '''
import sys
from halali.games.forest.notation import parse_position
from halali.games.forest.rules import DEFAULT_RULES

MODE, LIMIT, GAME = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
goes, pos, game, hidden = 0, None, 1, 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "halali":
        print("id name misbehaving", flush=True)
        print("halaliok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        pos = parse_position(" ".join(words[1:]), DEFAULT_RULES).view()
        if words[1].count("?") > hidden and goes:  # more face-down tiles than before: a new game
            game, goes = game + 1, 0
        hidden = words[1].count("?")
    elif words[0] == "go":
        goes += 1
        if MODE == "crash" and game == GAME and goes > LIMIT:
            sys.stderr.write("crashed on purpose\\n")
            sys.exit(3)
        if MODE == "garbage":
            print("info garbage %% {}", flush=True)
            print("bestmove zz99!", flush=True)
            continue
        print("bestmove " + pos.action_str(pos.legal_actions()[0]), flush=True)
    elif words[0] == "quit":
        break
'''

_MUTE = '''
import sys
sys.stdin.readline()
print("this is not the engine protocol", flush=True)
'''


def command(folder: Path, kind: str, limit: int = 3, game: int = 1) -> str:
    """``crash`` (legal actions, then exits at its go number ``limit`` + 1 of game ``game``: it tells a
    new game by more face-down tiles than in the position before), ``garbage`` (a proper
    introduction, then nonsense for every go), ``mute`` (nonsense instead of an introduction, then
    exits), ``missing`` (no such program)."""
    if kind == "missing":
        return str(folder / "no-such-engine")
    path = folder / f"engine_{kind}.py"
    path.write_text(_MUTE if kind == "mute" else _PLAYER)
    args = [sys.executable, str(path)] + ([] if kind == "mute" else [kind, str(limit), str(game)])
    return shlex.join(args)
