// The hare board without a mouse: the 91 cells are an ARIA grid of labelled cells (one in the tab
// order at a time), the arrow keys walk the hexagon's two axes (Left / Right along a row, Up to the
// north-east, Down to the south-west), and Enter or Space does what a click on the cell does.
// The cells are an invisible layer over the drawing, which is redrawn freely beneath them.

import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghijk";
// (file, rank) steps: E and W along a rank; NE and SW on the other axis.
const STEP = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [1, 1], ArrowDown: [-1, -1] };

function parse(cell) {
  return [FILES.indexOf(cell[0]), Number(cell.slice(1))];
}

export class HareKeys {
  constructor(board, { cellXY, hexPoints, allCells, announce }) {
    this.board = board;
    this.announce = announce;
    this.cells = new Map();
    this.focus = "f6";
    const svg = board.svg;
    svg.setAttribute("role", "grid");
    const layer = document.createElementNS(SVG, "g");
    layer.setAttribute("class", "key-cells");
    svg.append(layer);
    // One row per rank, top (11) to bottom (1), as a reader walks the board.
    const byRank = new Map();
    for (const c of allCells()) {
      const rank = parse(c)[1];
      if (!byRank.has(rank)) byRank.set(rank, []);
      byRank.get(rank).push(c);
    }
    for (const rank of [...byRank.keys()].sort((a, b) => b - a)) {
      const row = document.createElementNS(SVG, "g");
      row.setAttribute("role", "row");
      layer.append(row);
      for (const c of byRank.get(rank).sort((a, b) => parse(a)[0] - parse(b)[0])) {
        const [x, y] = cellXY(c);
        const poly = document.createElementNS(SVG, "polygon");
        for (const [k, v] of Object.entries({ points: hexPoints(x, y), class: "key-cell", role: "gridcell",
          tabindex: c === this.focus ? "0" : "-1", "data-key": c, "data-testid": `key-${c}` })) poly.setAttribute(k, v);
        row.append(poly);
        this.cells.set(c, poly);
      }
    }
    layer.addEventListener("keydown", (e) => this.keydown(e));
    layer.addEventListener("focusin", (e) => {
      if (e.target.dataset?.key) this.moveTo(e.target.dataset.key, false);
    });
  }

  moveTo(cell, focus = true) {
    if (!this.cells.has(cell)) return;
    this.cells.get(this.focus)?.setAttribute("tabindex", "-1");
    this.focus = cell;
    this.cells.get(cell).setAttribute("tabindex", "0");
    // The board fits the window (docs/web.md): moving the focus on it never scrolls the page.
    if (focus) this.cells.get(cell).focus({ preventScroll: true });
  }

  keydown(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = STEP[e.key];
    if (step) {
      const [f, r] = parse(this.focus);
      const next = `${FILES[f + step[0]] ?? "?"}${r + step[1]}`;
      this.moveTo(next);
    } else if (e.key === "Enter" || e.key === " ") {
      const cell = this.focus;
      this.board.onCell(cell);
      if ((this.board.marks?.[cell] || []).includes("selected")) this.announce(t("hare.kb.selected", { cell }));
    } else {
      return;
    }
    // The hunt's replay steps with the same arrows: not while walking the board.
    e.preventDefault();
    e.stopPropagation();
  }

  /** Every cell's label: its name, what stands there, and what it offers now. */
  refresh() {
    const pos = this.board.pos;
    const marks = this.board.marks || {};
    const hunters = new Map((pos?.hunters || []).map((h) => [h.cell, h]));
    for (const [cell, poly] of this.cells) {
      const parts = [cell];
      const h = hunters.get(cell);
      if (h) parts.push(t("hare.sq.hunter", { club: t(`hare.club.${h.club}`), dir: t(`hare.dir.${h.dir}`) }));
      else if (cell === "f6") parts.push(t("hare.sq.hare"));
      else if (pos?.bush === cell) parts.push(t("hare.sq.bush"));
      else parts.push(t("sq.empty"));
      const m = marks[cell] || [];
      if (m.includes("selected")) parts.push(t("sq.selected"));
      else if (m.includes("movable")) parts.push(t("sq.movable"));
      if (m.includes("target")) parts.push(t("sq.move_here"));
      if (m.includes("removable")) parts.push(t("hare.sq.removable"));
      poly.setAttribute("aria-label", parts.join(", "));
      poly.setAttribute("aria-selected", m.includes("selected") ? "true" : "false");
    }
    this.board.svg.setAttribute("aria-label", t("hare.board_label"));
  }
}
