// The hare hunt's board: a hexagon of radius 5 (91 cells, pointy-top), hunters drawn as the forest
// tiles are (a face under a hat of their club's colour, the rifle along their facing), the hare in
// the middle and the bush. Positions come as hare notation (docs/hare-notation.md); the board draws
// and reports clicks and drags, and hare-keys.js lets the keyboard walk it.

import { HareKeys } from "./hare-keys.js";

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 30;
const FILES = "abcdefghijk";
export const CLUBS = ["R", "Y", "G", "B", "W", "K"];
// The outline of a hat: white and yellow hats need a dark edge on the light board.
const HAT_EDGE = { R: "#5a1010", Y: "#6b5400", G: "#123d14", B: "#0b3a6e", W: "#444", K: "#000" };
export const CLUB_COLOURS = { R: "#c62828", Y: "#f2c200", G: "#2e7d32", B: "#1565c0", W: "#fafafa", K: "#212121" };
// Screen angle of each facing (y grows downwards): E, NE, NW, W, SW, SE.
const ANGLE = { E: 0, NE: -60, NW: -120, W: 180, SW: 120, SE: 60 };
const CELL_RE = /^([a-k])(1[01]|[1-9])$/;

export function cellXY(name) {
  const m = CELL_RE.exec(name);
  const q = FILES.indexOf(m[1]) - 5;
  const r = 6 - Number(m[2]);
  return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
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

export class HareBoard {
  /** ``onCell(cell)`` on a click; ``onDrag(from, to)`` when a hunter is dragged onto another cell. */
  constructor(host, { onCell = () => {}, onDrag = () => {}, onAnnounce = () => {} } = {}) {
    this.host = host;
    this.onCell = onCell;
    this.onDrag = onDrag;
    // The cells reach 254 units above and below the centre (five rows of 45 and a hex's point).
    this.svg = node("svg", { viewBox: "-292 -262 584 524", "data-testid": "hare-svg" });
    this.drawing = node("g", { class: "drawing" });
    this.svg.append(this.drawing);
    host.replaceChildren(this.svg);
    this.keys = new HareKeys(this, { cellXY, hexPoints, allCells, announce: onAnnounce });
    this.dragFrom = null;
    this.svg.addEventListener("pointerdown", (e) => {
      const g = e.target.closest("[data-cell]");
      this.dragFrom = g ? g.dataset.cell : null;
    });
    this.svg.addEventListener("pointerup", (e) => {
      const under = document.elementFromPoint(e.clientX, e.clientY)?.closest?.("[data-cell]");
      const to = under ? under.dataset.cell : null;
      const from = this.dragFrom;
      this.dragFrom = null;
      if (!to) return;
      if (from && from !== to) this.onDrag(from, to);
      else this.onCell(to);
    });
  }

  /** Draw ``pos``; ``marks`` maps cells to extra classes (selected, movable, target, removable). */
  draw(pos, marks = {}) {
    const layer = [];
    for (const c of allCells()) {
      const [x, y] = cellXY(c);
      const cls = ["cell", onAxis(c) ? "axis" : "", ...(marks[c] || []).filter((m) => m === "target" || m === "removable")];
      layer.push(node("polygon", { points: hexPoints(x, y), class: cls.join(" ").trim(), "data-cell": c, "data-testid": `cell-${c}` }));
    }
    const hare = node("g", { "data-cell": "f6", "data-testid": "hare", class: "hare-art" });
    hare.innerHTML = hareArt(...cellXY("f6"));
    layer.push(hare);
    if (pos && pos.bush) {
      const bush = node("g", { "data-cell": pos.bush, "data-testid": "bush", class: "bush-art" });
      bush.innerHTML = bushArt(...cellXY(pos.bush));
      layer.push(bush);
    }
    for (const h of pos ? pos.hunters : []) {
      const cls = ["hunter", ...(marks[h.cell] || []).filter((m) => m === "selected" || m === "movable")];
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

/**
 * A hunter at (x, y): the rifle first (under the figure), along the facing so it reads at a glance,
 * its muzzle in the club's colour; then a round face under a hat of that colour with a band.
 */
function hunterArt(x, y, club, dir) {
  const colour = CLUB_COLOURS[club] || "#888";
  const edge = HAT_EDGE[club] || "#222";
  return `
  <g class="rifle" transform="rotate(${ANGLE[dir]} ${x} ${y})">
    <rect x="${x + 8}" y="${y - 3}" width="20" height="6" rx="1.5" fill="#5b3b1e" stroke="#2a1a0c" stroke-width="1"/>
    <rect x="${x + 20}" y="${y - 1.8}" width="9" height="3.6" fill="#3a3a3a"/>
    <polygon points="${x + 34},${y} ${x + 27},${y - 6} ${x + 27},${y + 6}" fill="${colour}" stroke="${edge}" stroke-width="1.2"/>
  </g>
  <g class="figure" transform="translate(${x} ${y}) scale(1.2) translate(${-x} ${-y})">
  <circle class="base" cx="${x}" cy="${y + 1}" r="14" fill="#f6efd9" stroke="${edge}" stroke-width="1.6"/>
  <circle cx="${x}" cy="${y + 4}" r="7.5" fill="#f1c59b" stroke="#7a4f2c" stroke-width="0.8"/>
  <circle cx="${x - 2.6}" cy="${y + 3.5}" r="1.1" fill="#2a2118"/><circle cx="${x + 2.6}" cy="${y + 3.5}" r="1.1" fill="#2a2118"/>
  <path d="M${x - 2.5} ${y + 7.2} q2.5 1.8 5 0" stroke="#7a4f2c" stroke-width="1" fill="none"/>
  <ellipse cx="${x}" cy="${y - 2.5}" rx="12" ry="3.2" fill="${colour}" stroke="${edge}" stroke-width="1.2"/>
  <path d="M${x - 7} ${y - 3} Q${x - 6.5} ${y - 13} ${x} ${y - 13} Q${x + 6.5} ${y - 13} ${x + 7} ${y - 3} Z" fill="${colour}" stroke="${edge}" stroke-width="1.2"/>
  <rect x="${x - 7}" y="${y - 6.5}" width="14" height="2.6" fill="${edge}" opacity="0.55"/>
  </g>`;
}

/** The hare, sitting up: long ears, a white tail, an eye. */
function hareArt(x, y) {
  return `
  <ellipse cx="${x + 1}" cy="${y + 8}" rx="15" ry="11" fill="#9a7148" stroke="#4e3520" stroke-width="1.2"/>
  <circle cx="${x + 15}" cy="${y + 9}" r="4" fill="#fff" stroke="#4e3520" stroke-width="0.8"/>
  <circle cx="${x - 7}" cy="${y - 3}" r="8.5" fill="#a57b50" stroke="#4e3520" stroke-width="1.2"/>
  <ellipse cx="${x - 11}" cy="${y - 19}" rx="3.4" ry="10" fill="#a57b50" stroke="#4e3520" stroke-width="1.1" transform="rotate(-12 ${x - 11} ${y - 19})"/>
  <ellipse cx="${x - 4}" cy="${y - 20}" rx="3.4" ry="10" fill="#a57b50" stroke="#4e3520" stroke-width="1.1" transform="rotate(10 ${x - 4} ${y - 20})"/>
  <ellipse cx="${x - 4}" cy="${y - 20}" rx="1.4" ry="6.5" fill="#e8b8a0" transform="rotate(10 ${x - 4} ${y - 20})"/>
  <circle cx="${x - 9.5}" cy="${y - 4.5}" r="1.6" fill="#1d140c"/>
  <circle cx="${x - 14.6}" cy="${y - 1.5}" r="1.3" fill="#6b3b2a"/>`;
}

/** The bush: leafy clumps in two greens with a few berries. */
function bushArt(x, y) {
  const clumps = [[-10, 5, 11], [10, 5, 11], [0, -6, 12], [-4, 8, 10], [5, 9, 10]];
  return clumps.map(([dx, dy, r]) => `<circle cx="${x + dx}" cy="${y + dy}" r="${r}" fill="#2f6b2a" stroke="#1b4218" stroke-width="1.2"/>`).join("")
    + `<circle cx="${x - 3}" cy="${y - 8}" r="5" fill="#4f9a3f"/><circle cx="${x + 8}" cy="${y + 2}" r="4" fill="#4f9a3f"/>`
    + `<circle cx="${x - 7}" cy="${y + 4}" r="2" fill="#c0392b"/><circle cx="${x + 4}" cy="${y - 2}" r="2" fill="#c0392b"/>`;
}
