"""The tile art of the web page (``halali/web/js/art.js``), the same shapes and colours in Python.

Every tile is drawn in a 100x100 box. The markup is art.js's, character for character but for the
template syntax; ``tests/svg/test_svg.py`` reads art.js and holds this module to it, so the page and
``halali.svg`` cannot drift apart.
"""

from __future__ import annotations

SIDE_COLOURS = {"blue": "#2c68b0", "brown": "#8a5528", "green": "#3f8a3a"}
CARD = "#f7f0dc"
INK = "#2a2118"

# Letter -> (kind, side, value, rifle): the letters of docs/notation.md, as art.js's KINDS.
KINDS: dict[str, tuple[str, str, int, str | None]] = {
    "B": ("bear", "blue", 10, None),
    "F": ("fox", "blue", 5, None),
    "L": ("lumberjack", "brown", 5, None),
    "N": ("hunter", "brown", 5, "N"),
    "E": ("hunter", "brown", 5, "E"),
    "S": ("hunter", "brown", 5, "S"),
    "W": ("hunter", "brown", 5, "W"),
    "H": ("hunter", "brown", 5, None),
    "D": ("duck", "green", 2, None),
    "P": ("pheasant", "green", 3, None),
    "T": ("tree", "green", 2, None),
}

_BEAR = """
  <circle cx="31" cy="31" r="11" fill="#5e3a1f"/><circle cx="69" cy="31" r="11" fill="#5e3a1f"/>
  <circle cx="31" cy="31" r="5.5" fill="#b9865a"/><circle cx="69" cy="31" r="5.5" fill="#b9865a"/>
  <circle cx="50" cy="55" r="27" fill="#6f4526"/>
  <ellipse cx="50" cy="66" rx="14" ry="11" fill="#d7ae80"/>
  <ellipse cx="50" cy="60" rx="6" ry="4.4" fill="{ink}"/>
  <path d="M50 64 v4 M43 69 q7 5 14 0" stroke="{ink}" stroke-width="2" fill="none" stroke-linecap="round"/>
  <circle cx="39" cy="48" r="3.6" fill="{ink}"/><circle cx="61" cy="48" r="3.6" fill="{ink}"/>
  <circle cx="40.2" cy="46.8" r="1.1" fill="#fff"/><circle cx="62.2" cy="46.8" r="1.1" fill="#fff"/>"""

_FOX = """
  <path d="M19 16 L41 38 L24 50 Z" fill="#d9621f"/><path d="M81 16 L59 38 L76 50 Z" fill="#d9621f"/>
  <path d="M23 24 L35 37 L26 43 Z" fill="#3b2314"/><path d="M77 24 L65 37 L74 43 Z" fill="#3b2314"/>
  <path d="M17 44 Q50 24 83 44 L66 70 L50 86 L34 70 Z" fill="#ec7a2c"/>
  <path d="M17 44 Q26 62 50 86 Q40 68 40 60 Q28 58 17 44 Z" fill="#fff8ee"/>
  <path d="M83 44 Q74 62 50 86 Q60 68 60 60 Q72 58 83 44 Z" fill="#fff8ee"/>
  <circle cx="50" cy="84" r="4.5" fill="{ink}"/>
  <path d="M34 51 q5 -4 10 0 q-5 3 -10 0 Z M56 51 q5 -4 10 0 q-5 3 -10 0 Z" fill="{ink}"/>"""

_LUMBERJACK = """
  <path d="M73 90 L84 26" stroke="#8a5a2e" stroke-width="5" stroke-linecap="round"/>
  <path d="M80 22 Q93 18 95 34 L84 38 Z" fill="#9aa4ad" stroke="#5d666e" stroke-width="1.5"/>
  <path d="M20 94 Q20 66 50 63 Q80 66 80 94 Z" fill="#c23b2e"/>
  <path d="M30 70 V94 M42 64 V94 M58 64 V94 M70 70 V94 M22 78 H78 M21 88 H79" stroke="#7c1f17" stroke-width="3"/>
  <circle cx="50" cy="44" r="15" fill="#f1c8a0"/>
  <path d="M35 46 Q36 66 50 67 Q64 66 65 46 Q60 55 50 55 Q40 55 35 46 Z" fill="#8a4f24"/>
  <path d="M34 38 Q35 20 50 20 Q65 20 66 38 Z" fill="#2f4f6f"/>
  <rect x="32" y="35" width="36" height="6" rx="3" fill="#1f3a55"/>
  <circle cx="50" cy="18" r="4" fill="#c23b2e"/>
  <circle cx="44" cy="46" r="2.2" fill="{ink}"/><circle cx="56" cy="46" r="2.2" fill="{ink}"/>"""

_DUCK = """
  <path d="M12 80 q8 -5 16 0 t16 0 t16 0 t16 0 t16 0" stroke="#4f8fc0" stroke-width="3" fill="none"/>
  <path d="M26 66 Q30 50 56 52 Q74 52 86 44 Q84 60 76 70 Q60 78 40 76 Q28 74 26 66 Z" fill="#9a7552"/>
  <path d="M42 60 Q58 54 74 58 Q64 68 46 66 Z" fill="#c9b08e"/>
  <path d="M30 62 Q28 50 32 42" stroke="#fff" stroke-width="4" fill="none"/>
  <path d="M33 44 Q24 46 24 58 Q30 64 38 60 Q40 50 33 44 Z" fill="#6d4a30"/>
  <circle cx="32" cy="34" r="12" fill="#1f7a3c"/>
  <path d="M22 32 L6 37 Q10 42 22 40 Z" fill="#f2a531" stroke="#a8661a" stroke-width="1"/>
  <circle cx="30" cy="31" r="2.3" fill="{ink}"/>"""

_PHEASANT = """
  <path d="M56 58 L97 24 L99 30 L62 66 Z" fill="#a9652a"/>
  <path d="M66 52 L70 56 M74 45 L78 49 M82 38 L86 42 M90 31 L94 35" stroke="#4a2a12" stroke-width="2"/>
  <path d="M24 58 Q28 44 46 46 Q66 48 66 62 Q62 76 44 76 Q26 74 24 58 Z" fill="#c0692b"/>
  <path d="M34 62 q4 -3 8 0 M44 66 q4 -3 8 0 M40 56 q4 -3 8 0 M50 60 q4 -3 8 0" stroke="#5a2d10" stroke-width="2" fill="none"/>
  <path d="M40 76 L36 90 M50 76 L52 90" stroke="#8a6a3a" stroke-width="2.5"/>
  <path d="M26 50 Q22 40 26 30" stroke="#1d4a5a" stroke-width="9" fill="none" stroke-linecap="round"/>
  <path d="M24 50 Q26 46 33 48" stroke="#fff" stroke-width="3" fill="none"/>
  <circle cx="27" cy="27" r="8.5" fill="#1d4a5a"/>
  <ellipse cx="28" cy="27" rx="4.5" ry="5.5" fill="#d62f2f"/>
  <path d="M19 26 L11 29 L19 31 Z" fill="#e7cf8a"/>
  <circle cx="27" cy="26" r="1.6" fill="{ink}"/>"""

_TREE = """
  <rect x="44" y="74" width="12" height="16" rx="2" fill="#7a4a22"/>
  <path d="M50 10 L72 40 L28 40 Z" fill="#2f7d33"/>
  <path d="M50 24 L78 58 L22 58 Z" fill="#2a7030"/>
  <path d="M50 40 L84 78 L16 78 Z" fill="#25632b"/>
  <path d="M50 10 L58 21 L50 19 Z M50 24 L61 37 L50 35 Z M50 40 L64 56 L50 53 Z" fill="#4e9e4f"/>"""

_HUNTER = """
  <path d="M22 94 Q22 68 50 65 Q78 68 78 94 Z" fill="#66602f"/>
  <path d="M50 66 L44 94 M50 66 L56 94" stroke="#46401c" stroke-width="2.5"/>
  <circle cx="50" cy="47" r="14" fill="#f1c8a0"/>
  <path d="M38 52 Q50 60 62 52 Q58 57 50 57 Q42 57 38 52 Z" fill="#7b4a24"/>
  <ellipse cx="50" cy="36" rx="23" ry="5" fill="#3f5a27"/>
  <path d="M37 36 Q38 19 50 19 Q62 19 63 36 Z" fill="#4f6d31"/>
  <rect x="37" y="30" width="26" height="4" fill="#6b3f1f"/>
  <path d="M61 30 Q70 14 66 8" stroke="#b2b9a6" stroke-width="3" fill="none" stroke-linecap="round"/>
  <circle cx="45" cy="47" r="2.2" fill="{ink}"/><circle cx="55" cy="47" r="2.2" fill="{ink}"/>
  """

_GUN = """<path d="{barrel}" stroke="#2b2b2b" stroke-width="4.5" stroke-linecap="round"/>
       <path d="{stock}" stroke="#7a4a22" stroke-width="8" stroke-linecap="round"/>
       <path d="{tip}" fill="#ff9f1a" stroke="#7a3e00" stroke-width="1.5" stroke-linejoin="round"/>"""

# The rifle and a bright arrowhead at the tile's edge make the shooting direction readable at a glance.
RIFLES: dict[str, tuple[str, str, str]] = {  # direction -> (barrel, stock, tip)
    "N": ("M78 84 L78 16", "M78 84 L78 64", "M67 19 L78 3 L89 19 Z"),
    "S": ("M78 46 L78 84", "M78 46 L78 62", "M67 81 L78 97 L89 81 Z"),
    "E": ("M28 80 L84 80", "M28 80 L46 80", "M81 69 L97 80 L81 91 Z"),
    "W": ("M72 80 L16 80", "M72 80 L54 80", "M19 69 L3 80 L19 91 Z"),
}

_BACK = """<g class="tile-back">
  <rect x="3" y="3" width="94" height="94" rx="12" fill="#2b4632"/>
  <rect x="9" y="9" width="82" height="82" rx="8" fill="#34553c" stroke="#5d8862" stroke-width="1.5"/>
  <path d="M9 30 L30 9 M9 50 L50 9 M9 70 L70 9 M9 90 L90 9 M30 91 L91 30 M50 91 L91 50 M70 91 L91 70
           M30 9 L91 70 M9 10 L90 91 M9 30 L70 91 M9 50 L50 91 M9 70 L30 91 M50 9 L91 50 M70 9 L91 30"
   stroke="#3d6345" stroke-width="2"/>
  <circle cx="50" cy="50" r="19" fill="#2b4632" stroke="#6f9a72" stroke-width="2"/>
  <path d="M41 47 Q50 38 59 47 Z" fill="#8a6a3a"/>
  <path d="M42 47 Q42 62 50 64 Q58 62 58 47 Z" fill="#b98b4e"/>
  <path d="M50 38 v-4" stroke="#8a6a3a" stroke-width="2.5" stroke-linecap="round"/></g>"""

FIGURES = {"bear": _BEAR, "fox": _FOX, "lumberjack": _LUMBERJACK, "duck": _DUCK, "pheasant": _PHEASANT,
           "tree": _TREE}


def figure(kind: str, rifle: str | None = None) -> str:
    """The drawing of one kind of tile (a hunter with its rifle, if it has one) in its 100x100 box."""
    if kind == "hunter":
        gun = ""
        if rifle is not None:
            barrel, stock, tip = RIFLES[rifle]
            gun = _GUN.replace("{barrel}", barrel).replace("{stock}", stock).replace("{tip}", tip)
        return _HUNTER.replace("{ink}", INK) + gun
    return FIGURES[kind].replace("{ink}", INK)


def tile_face(letter: str, value: bool = True) -> str:
    """The face of a tile (``letter`` in forest notation) as SVG markup for a 100x100 box: art.js's
    ``tileFace``; an unknown letter draws the back."""
    if letter not in KINDS:
        return tile_back()
    kind, side_name, points, rifle = KINDS[letter]
    side = SIDE_COLOURS[side_name]
    # A hunter's rifle runs along the right and bottom edges, so its value sits top left.
    bx, by = (16, 16) if kind == "hunter" else (84, 84)
    badge = ""
    if value:
        badge = (f'<circle cx="{bx}" cy="{by}" r="11" fill="{side}" stroke="{CARD}" stroke-width="2"/>\n'
                 f'       <text x="{bx}" y="{by + 4.5}" text-anchor="middle" font-size="{11 if points > 9 else 13}"'
                 f' font-weight="700"\n        font-family="system-ui, sans-serif" fill="#fff">{points}</text>')
    return (f'<g class="tile-face" data-kind="{kind}">\n'
            f'  <rect x="3" y="3" width="94" height="94" rx="12" fill="{side}"/>\n'
            f'  <rect x="8" y="8" width="84" height="84" rx="8" fill="{CARD}"/>\n'
            f'  <g>{figure(kind, rifle)}</g>\n'
            f'  {badge}</g>')


def tile_back() -> str:
    """The common back of every face-down tile: art.js's ``tileBack``."""
    return _BACK
