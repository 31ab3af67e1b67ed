"""halali.svg: the page's tile art, character for character; well-formed pictures of both boards with
the last action and arrows; positions that show themselves in Jupyter."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import halali.svg as svg
from halali.games.forest.position import Position
from halali.games.hare.state import HareState
from halali.svg import art

ART_JS = Path(svg.__file__).parent.parent / "web" / "js" / "art.js"
NS = {"s": "http://www.w3.org/2000/svg"}


def _js(pattern: str) -> str:
    m = re.search(pattern, ART_JS.read_text(encoding="utf-8"), re.S)
    assert m, pattern
    return m.group(1).replace("${INK}", art.INK)


@pytest.mark.parametrize("kind", ["bear", "fox", "lumberjack", "duck", "pheasant", "tree"])
def test_every_figure_is_art_js_s(kind: str) -> None:
    assert art.figure(kind) == _js(rf"function {kind}\(\) \{{\n  return `(.*?)`;\n\}}")


@pytest.mark.parametrize("rifle", ["N", "E", "S", "W"])
def test_the_hunter_and_its_rifles_are_art_js_s(rifle: str) -> None:
    body = _js(r"  return `(\n  <path d=\"M22 94.*?)\$\{gun\}`;")
    gun = _js(r"\? `(<path d=\"\$\{r.barrel\}.*?)`\n")
    barrel, stock, tip = re.search(
        rf'{rifle}: {{ barrel: "(.*?)", stock: "(.*?)", tip: "(.*?)" }}', ART_JS.read_text(encoding="utf-8")).groups()
    gun = gun.replace("${r.barrel}", barrel).replace("${r.stock}", stock).replace("${r.tip}", tip)
    assert art.figure("hunter", rifle) == body + gun
    assert art.figure("hunter") == body


def test_the_back_colours_and_kinds_are_art_js_s() -> None:
    assert art.tile_back() == _js(r"export function tileBack\(\) \{\n  return `(.*?)`;\n\}")
    text = ART_JS.read_text(encoding="utf-8")
    for side, colour in art.SIDE_COLOURS.items():
        assert f'{side}: "{colour}"' in text
    for letter, (kind, side, value, rifle) in art.KINDS.items():
        entry = f'{letter}: {{ kind: "{kind}", side: "{side}", value: {value}'
        entry += f', rifle: "{rifle}"' if rifle else ""
        assert entry in text


def _parse(image: str) -> ET.Element:
    return ET.fromstring(image)


def _position(steps: int, seed: int = 2) -> Position:
    rng = random.Random(seed)
    pos = Position.deal(rng=rng)
    for _ in range(steps):
        pos.push(rng.choice(pos.legal_actions()))
    return pos


def test_the_forest_board_has_every_tile_the_exits_and_the_last_action() -> None:
    pos = _position(50)
    image = svg.forest(pos, lastaction=pos.last_action, arrows=[svg.Arrow("c3", "c6"), svg.Arrow("d1", "S")], size=300)
    root = _parse(image)
    assert root.get("viewBox") == "0 0 852 852" and root.get("width") == "300"
    tiles = root.findall(".//s:g[@class='tile']", NS)
    assert len(tiles) == sum(1 for v in pos.board if v)
    assert len(root.findall(".//s:g[@class='exit']", NS)) == 4
    backs = root.findall(".//s:g[@class='tile-back']", NS)
    assert len(backs) == len(pos.hidden)  # a face-down tile shows its back, even in a full position
    assert len(root.findall(".//s:line", NS)) == 2  # two arrows
    assert 'stroke="#ffe06a"' in image  # the last action's target framed
    shown = _parse(svg.forest(pos, deal=True))
    assert len(shown.findall(".//s:g[@class='peek-mark']", NS)) == len(pos.hidden)
    assert len(shown.findall(".//s:g[@class='tile-back']", NS)) == 0


def test_the_exits_light_up_in_the_final_phase() -> None:
    pos = _position(0)
    assert "#f2b233" not in svg.forest(pos)
    while pos.final < 0:
        pos.push(pos.legal_actions()[0])
    assert "#f2b233" in svg.forest(pos)


def test_the_hare_board_has_its_cells_hunters_bush_and_arrows() -> None:
    st = HareState.new(3, seed=1)
    st.play("bush=f8")
    image = svg.hare(st, lastaction="bush=f8", arrows=[svg.Arrow("e4", "f6", color="#c62828")], coordinates=True)
    root = _parse(image)
    assert len(root.findall("s:polygon", NS)) == 91
    assert len(root.findall(".//s:g[@class='hunter']", NS)) == 18
    assert len(root.findall(".//s:g[@class='bush']/s:circle", NS)) == 4
    assert 'fill="#f3d27a" stroke="#8aa870" stroke-width="1" data-cell="f8"' in image  # the bush's cell lit
    assert "#c62828" in image and ">e4</text>" in image


def test_the_rules_load_no_pictures_and_the_pictures_give_the_rules_their_jupyter_face() -> None:
    """Both games' rules run without ``halali.svg`` (nothing of the games imports it); loading it is
    what makes a position and a hare state show themselves in Jupyter."""
    script = (
        "import sys\n"
        "from halali.games.forest import Position\n"
        "from halali.games.hare import HareState\n"
        "pos = Position.deal(seed=1)\n"
        "pos.play(pos.action_str(pos.legal_actions()[0]))\n"
        "assert 'halali.svg' not in sys.modules, sorted(m for m in sys.modules if m.startswith('halali'))\n"
        "assert not hasattr(Position, '_repr_svg_') and not hasattr(HareState, '_repr_svg_')\n"
        "import halali.svg\n"
        "assert Position.deal(seed=1)._repr_svg_().startswith('<svg')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_positions_show_themselves_in_jupyter() -> None:
    pos = _position(10)
    picture = pos._repr_svg_()
    assert picture.startswith("<svg") and 'width="400"' in picture
    st = HareState.new(2, seed=3)
    st.play(st.legal_actions()[0])
    assert st._repr_svg_().startswith("<svg")
    assert svg.tile("N")._repr_svg_() == str(svg.tile("N"))
    for letter in [*art.KINDS, "?"]:
        _parse(svg.tile(letter, size=None))
