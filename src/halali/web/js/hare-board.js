// The hare hunt's board: a hexagon of radius 5 (91 cells, pointy-top) with its coordinates around
// it, the hare in the middle, the bush and the hunters (hare-art.js). Positions come as hare notation
// (docs/hare-notation.md). The board draws what the page marks on it (the hunters that may act, the
// chosen one, the cells it may step to, its turns as arrows beside it, the hunters a shot may remove,
// the lines of fire) and reports clicks, drags and turns; hare-keys.js lets the keyboard walk it.
// Every choice of a turn is made here, and nothing around the board moves it.

import { ANGLE, CLUB_COLOURS, bushArt, hareArt, hunterArt } from "./hare-art.js";
import { HareKeys } from "./hare-keys.js";

export { CLUB_COLOURS };

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 30;
const FILES = "abcdefghijk";
export const CLUBS = ["R", "Y", "G", "B", "W", "K"];
const CELL_RE = /^([a-k])(1[01]|[1-9])$/;
// Axial steps of the six facings (r grows downwards): the notation's directions.
const STEP = { E: [1, 0], NE: [1, -1], NW: [0, -1], W: [-1, 0], SW: [-1, 1], SE: [0, 1] };
// The cells reach 254 units above and below the centre; one ring more holds the coordinates and a
// turn's arrows beside a hunter on the edge.
const VIEW = "-336 -296 672 592";

function qr(name) {
  const m = CELL_RE.exec(name);
  return [FILES.indexOf(m[1]) - 5, 6 - Number(m[2])];
}

function xy(q, r) {
  return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
}

export function cellXY(name) {
  return xy(...qr(name));
}

/** Where the neighbour of ``cell`` in direction ``dir`` lies, on the board or just off it. */
function besideXY(cell, dir) {
  const [q, r] = qr(cell);
  return xy(q + STEP[dir][0], r + STEP[dir][1]);
}

export function allCells() {
  const out = [];
  for (let r = -5; r <= 5; r++) {
    for (let q = -5; q <= 5; q++) {
      if (Math.abs(q + r) <= 5) out.push(`${FILES[q + 5]}${6 - r}`);
    }
  }
  return out;
}

/** A position in hare notation as plain data. */
export function parseHare(fen) {
  const f = fen.trim().split(/\s+/);
  const hunters = [];
  f[0].split("/").forEach((part, club) => {
    if (part === "-") return;
    for (const tok of part.split(",")) {
      const m = /^([a-k](?:1[01]|[1-9]))(NE|NW|SE|SW|E|W)$/.exec(tok);
      if (m) hunters.push({ cell: m[1], dir: m[2], club: CLUBS[club] });
    }
  });
  const seats = f[2].split(",").map((tok) => {
    const [club, out] = tok.split("@");
    return { club: club === "?" ? null : club, out: out === undefined ? null : Number(out) };
  });
  return {
    hunters, bush: f[1] === "-" ? null : f[1], seats, toMove: f[3] === "-" ? null : Number(f[3]) - 1,
    phase: f[4], detail: f[5], quiet: Number(f[6]), turn: Number(f[7]),
  };
}

function node(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export function hexPoints(x, y) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(x + (SIZE - 1) * Math.cos(a)).toFixed(1)},${(y + (SIZE - 1) * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

const onAxis = (name) => {
  const m = CELL_RE.exec(name);
  const file = m[1];
  const rank = Number(m[2]);
  return rank === 6 || file === "f" || FILES.indexOf(file) + 1 === rank;
};

/** The coordinates: each rank's number left of its row, each file's letter below its lowest cell. */
function coordinates() {
  const g = node("g", { class: "coords", "aria-hidden": "true" });
  const cells = allCells();
  for (let rank = 1; rank <= 11; rank++) {
    const row = cells.filter((c) => Number(c.slice(1)) === rank).sort();
    const [x, y] = besideXY(row[0], "W");
    g.append(Object.assign(node("text", { x: (x + 8).toFixed(1), y: y.toFixed(1), "data-testid": `rank-${rank}` }),
      { textContent: String(rank) }));
  }
  for (const file of FILES) {
    const lowest = cells.filter((c) => c[0] === file).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))[0];
    // Under the bottom row's cells; along the lower right edge, beside the file's first cell.
    const [cx, cy] = cellXY(lowest);
    const [x, y] = lowest.endsWith("1") && lowest.length === 2 ? [cx, cy + 42] : besideXY(lowest, "SE").map((v, i) => v - [6, 8][i]);
    g.append(Object.assign(node("text", { x: x.toFixed(1), y: y.toFixed(1), "data-testid": `file-${file}` }),
      { textContent: file }));
  }
  return g;
}

// A turn's arrow stands on the edge between the hunter's cell and its neighbour, short of the
// neighbour's centre: a hunter standing there stays in reach, so a tap on it chooses that hunter.
const ARROW_REACH = 0.58;

/** A turn's arrow beside the hunter, pointing the way it would face. */
function turnArrow(cell, dir, action) {
  const [cx, cy] = cellXY(cell);
  const [nx, ny] = besideXY(cell, dir);
  const [x, y] = [cx + ARROW_REACH * (nx - cx), cy + ARROW_REACH * (ny - cy)];
  const g = node("g", { class: "turn", "data-turn": action, "data-testid": `turn-${cell}-${dir}` });
  g.innerHTML = `<circle cx="${x}" cy="${y}" r="16"/>
    <g transform="rotate(${ANGLE[dir]} ${x} ${y})"><path d="M${x - 9} ${y} H${x + 4}" class="shaft"/>
    <path d="M${x + 10} ${y} L${x + 2} ${y - 7} L${x + 2} ${y + 7} Z" class="head"/></g>`;
  return g;
}

export class HareBoard {
  /**
   * ``onCell(cell)`` on a click or tap; ``onDrag(from, to)`` when a hunter is dragged onto another
   * cell; ``onTurn(action)`` when a turn's arrow is clicked.
   */
  constructor(host, { onCell = () => {}, onDrag = () => {}, onTurn = () => {}, onAnnounce = () => {} } = {}) {
    this.host = host;
    this.onCell = onCell;
    this.onDrag = onDrag;
    this.onTurn = onTurn;
    this.svg = node("svg", { viewBox: VIEW, "data-testid": "hare-svg" });
    this.cellsLayer = node("g", { class: "cells" });
    this.polys = new Map();
    for (const c of allCells()) {
      const [x, y] = cellXY(c);
      const poly = node("polygon", { points: hexPoints(x, y), class: onAxis(c) ? "cell axis" : "cell", "data-cell": c,
        "data-testid": `cell-${c}` });
      this.polys.set(c, poly);
      this.cellsLayer.append(poly);
    }
    this.drawing = node("g", { class: "drawing" });
    this.svg.append(coordinates(), this.cellsLayer, this.drawing);
    host.replaceChildren(this.svg);
    this.keys = new HareKeys(this, { cellXY, hexPoints, allCells, announce: onAnnounce });
    this.dragFrom = null;
    this.svg.addEventListener("pointerdown", (e) => {
      const g = e.target.closest("[data-cell]");
      this.dragFrom = g ? g.dataset.cell : null;
    });
    this.svg.addEventListener("pointerup", (e) => {
      const hit = document.elementFromPoint(e.clientX, e.clientY);
      const turn = hit?.closest?.("[data-turn]");
      const from = this.dragFrom;
      this.dragFrom = null;
      if (turn) {
        this.onTurn(turn.dataset.turn);
        return;
      }
      const under = hit?.closest?.("[data-cell]");
      const to = under ? under.dataset.cell : null;
      if (!to) return;
      if (from && from !== to) this.onDrag(from, to);
      else this.onCell(to);
    });
  }

  /**
   * Draw ``pos``; ``marks`` maps cells to classes (selected, movable, target, removable); ``turns``
   * are the chosen hunter's turns (``{cell, dir, action}``); ``fire`` the cells of hunters aiming.
   */
  draw(pos, marks = {}, { turns = [], fire = [] } = {}) {
    for (const [c, poly] of this.polys) {
      const m = marks[c] || [];
      poly.classList.toggle("target", m.includes("target"));
      poly.classList.toggle("removable", m.includes("removable"));
    }
    const layer = [];
    const [hx, hy] = cellXY("f6");
    for (const c of fire) {
      const [x, y] = cellXY(c);
      layer.push(node("line", { class: "fire", x1: x, y1: y, x2: hx, y2: hy, "data-testid": `fire-${c}` }));
    }
    const hare = node("g", { "data-cell": "f6", "data-testid": "hare", class: "hare-art" });
    hare.innerHTML = hareArt(hx, hy);
    layer.push(hare);
    if (pos && pos.bush) {
      const bush = node("g", { "data-cell": pos.bush, "data-testid": "bush", class: "bush-art" });
      bush.innerHTML = bushArt(...cellXY(pos.bush));
      layer.push(bush);
    }
    // The arrows go under the hunters: where one reaches a neighbour's figure, the figure takes the tap.
    for (const tn of turns) layer.push(turnArrow(tn.cell, tn.dir, tn.action));
    for (const h of pos ? pos.hunters : []) {
      const cls = ["hunter", ...(marks[h.cell] || []).filter((m) => m !== "target")];
      const g = node("g", { class: cls.join(" "), "data-cell": h.cell, "data-club": h.club, "data-dir": h.dir,
        "data-testid": `hunter-${h.cell}` });
      g.innerHTML = hunterArt(...cellXY(h.cell), h.club, h.dir);
      layer.push(g);
    }
    this.drawing.replaceChildren(...layer);
    this.pos = pos;
    this.marks = marks;
    this.keys.refresh();
  }
}
