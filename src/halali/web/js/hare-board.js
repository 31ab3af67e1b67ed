// The hare hunt's board: a hexagon of radius 5 (91 cells, pointy-top), hunters in their club's colour
// with an arrow for their facing, the hare in the middle and the bush. Positions come as hare
// notation (docs/hare-notation.md); the board draws and reports clicks and drags, nothing more.

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 30;
const FILES = "abcdefghijk";
export const CLUBS = ["R", "Y", "G", "B", "W", "K"];
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

function hexPoints(x, y) {
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
  constructor(host, { onCell = () => {}, onDrag = () => {} } = {}) {
    this.host = host;
    this.onCell = onCell;
    this.onDrag = onDrag;
    this.svg = node("svg", { viewBox: "-290 -250 580 500", role: "img", "data-testid": "hare-svg" });
    host.replaceChildren(this.svg);
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
    const [hx, hy] = cellXY("f6");
    const hare = node("g", { "data-cell": "f6", "data-testid": "hare" });
    hare.append(node("ellipse", { cx: hx, cy: hy + 4, rx: 13, ry: 10, class: "hare" }),
      node("ellipse", { cx: hx - 5, cy: hy - 12, rx: 3.5, ry: 10, class: "hare" }),
      node("ellipse", { cx: hx + 5, cy: hy - 12, rx: 3.5, ry: 10, class: "hare" }));
    layer.push(hare);
    if (pos && pos.bush) {
      const [bx, by] = cellXY(pos.bush);
      const bush = node("g", { "data-cell": pos.bush, "data-testid": "bush" });
      for (const [dx, dy] of [[-8, 4], [8, 4], [0, -7], [0, 6]]) bush.append(node("circle", { cx: bx + dx, cy: by + dy, r: 10, class: "bush" }));
      layer.push(bush);
    }
    for (const h of pos ? pos.hunters : []) {
      const [x, y] = cellXY(h.cell);
      const cls = ["hunter", ...(marks[h.cell] || []).filter((m) => m === "selected" || m === "movable")];
      const g = node("g", { class: cls.join(" "), "data-cell": h.cell, "data-club": h.club, "data-dir": h.dir,
        "data-testid": `hunter-${h.cell}` });
      const colour = CLUB_COLOURS[h.club];
      const arrow = node("polygon", { points: `${x + 24},${y} ${x + 12},${y - 7} ${x + 12},${y + 7}`, fill: colour, stroke: "#222",
        transform: `rotate(${ANGLE[h.dir]} ${x} ${y})` });
      g.append(arrow, node("circle", { cx: x, cy: y, r: 13, fill: colour, stroke: "#222", "stroke-width": 1.5 }));
      layer.push(g);
    }
    this.svg.replaceChildren(...layer);
  }
}
