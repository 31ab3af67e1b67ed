// The forest board without a mouse: every square (and each exit) is a cell of an ARIA grid with a
// spoken label, one of them in the tab order at a time (a roving tabindex), the arrow keys walk
// them, and Enter or Space does what a click on that square does: reveal, pick up, drop, put down.
// The cells are an invisible layer over the drawing, so pointer input never meets them.

import { KINDS } from "./art.js";
import { DIRS, FILES, isFaceDown } from "./forest.js";
import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

// Where the exits sit in the walk: one step beyond the middle of each edge.
const EXIT_AT = { N: [3, 7], S: [3, -1], W: [-1, 3], E: [7, 3] };
const STEP = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

/** What lies on a square, in words: "brown hunter aiming north", "face down", "empty". */
export function tileWords(letter) {
  if (!letter) return t("sq.empty");
  if (isFaceDown(letter)) return t("sq.face_down");
  const info = KINDS[letter];
  if (!info) return t("sq.face_down");
  return info.rifle ? t("sq.piece.hunter", { dir: t(`dir.${info.rifle}`) }) : t(`sq.piece.${info.kind}`);
}

export class BoardKeys {
  /**
   * ``geometry(key)`` gives the box {x, y, w, h} of a square ("c3") or an exit ("N") in board
   * units; ``announce(text)`` speaks through the page's live region.
   */
  constructor(board, geometry, announce = () => {}) {
    this.board = board;
    this.announce = announce;
    this.cells = new Map(); // "c3" / "N" -> rect
    this.focus = "d4";
    const svg = board.svg;
    svg.setAttribute("role", "grid");
    const layer = svgEl("g", { class: "key-cells" }, svg);
    // Rows top to bottom as a reader walks them: the north exit, ranks 7..1 (rank 4 between the west
    // and east exits), the south exit.
    const rows = [["N"]];
    for (let r = 6; r >= 0; r--) {
      const row = [...FILES].map((f) => f + (r + 1));
      rows.push(r === 3 ? ["W", ...row, "E"] : row);
    }
    rows.push(["S"]);
    this.rows = [];
    for (const keys of rows) {
      // A row has a name of its own ("rank 7", "the north exit"), else a reader runs its cells' labels together.
      const row = svgEl("g", { role: "row", "data-row": keys.length === 1 ? keys[0] : keys[1][1] }, layer);
      this.rows.push(row);
      for (const key of keys) {
        const b = geometry(key);
        const rect = svgEl("rect", {
          x: b.x, y: b.y, width: b.w, height: b.h, rx: 12, class: "key-cell", role: "gridcell",
          tabindex: key === this.focus ? "0" : "-1", "data-key": key, "data-testid": `cell-${key}`,
        }, row);
        this.cells.set(key, rect);
      }
    }
    layer.addEventListener("keydown", (e) => this.keydown(e));
    layer.addEventListener("focusin", (e) => {
      const key = e.target.dataset?.key;
      if (key) this.moveTo(key, false);
    });
    this.refresh();
  }

  /** The cell holding the board's one tab stop: where Tab, the skip link or a closed dialog lands. */
  tabStop() {
    return this.cells.get(this.focus) || null;
  }

  /** Put the roving tab stop (and, when asked, the focus) on a square or an exit. */
  moveTo(key, focus = true) {
    if (!this.cells.has(key)) return;
    this.cells.get(this.focus)?.setAttribute("tabindex", "-1");
    this.focus = key;
    const cell = this.cells.get(key);
    cell.setAttribute("tabindex", "0");
    if (focus) cell.focus();
  }

  step(dx, dy) {
    const [f, r] = this.xy(this.focus);
    const nf = f + dx;
    const nr = r + dy;
    const exit = DIRS.find((d) => EXIT_AT[d][0] === nf && EXIT_AT[d][1] === nr);
    if (exit) return this.moveTo(exit);
    if (nf >= 0 && nf < 7 && nr >= 0 && nr < 7) this.moveTo(FILES[nf] + (nr + 1));
  }

  xy(key) {
    if (EXIT_AT[key]) return EXIT_AT[key];
    return [FILES.indexOf(key[0]), Number(key.slice(1)) - 1];
  }

  keydown(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = STEP[e.key];
    if (step) {
      this.step(...step);
    } else if (e.key === "Enter" || e.key === " ") {
      this.activate();
    } else if (e.key === "Escape" && this.board.selected) {
      this.board.deselect();
      this.announce(t("kb.put_down"));
      this.refresh();
    } else {
      return;
    }
    // The replay steps through the game with the same arrows: not while walking the board.
    e.preventDefault();
    e.stopPropagation();
  }

  /** Enter or Space: what a click on the focused square or exit does, said aloud. */
  activate() {
    const board = this.board;
    if (!board.position || board.pending) return;
    const key = this.focus;
    const hit = EXIT_AT[key] ? { exit: key } : { square: key };
    const before = board.selected;
    board.click(hit);
    if (!board.pending && board.selected && board.selected !== before) {
      const targets = board.actionsFrom(board.selected).map((a) => (a.type === "exit" ? t("sq.exit", { dir: t(`dir.${a.dir}`) }) : a.to));
      this.announce(t("kb.picked", { square: board.selected, tile: tileWords(board.position.board[board.selected]),
        targets: targets.join(", ") }));
    } else if (!board.pending && before && !board.selected) {
      this.announce(t("kb.put_down"));
    }
    this.refresh();
  }

  /** Every cell's label as the board now stands: its square, what lies there, and what it offers. */
  refresh() {
    const board = this.board;
    const pos = board.position;
    if (!pos) return;
    const targets = new Map();
    if (board.selected) {
      for (const a of board.actionsFrom(board.selected)) targets.set(a.type === "exit" ? a.dir : a.to, a.type);
    }
    const movable = new Set(board.legal.filter((a) => a.from).map((a) => a.from));
    const revealable = new Set(board.legal.filter((a) => a.type === "reveal").map((a) => a.to));
    const last = board.lastAction;
    for (const [key, cell] of this.cells) {
      const parts = [];
      if (EXIT_AT[key]) {
        parts.push(t("sq.exit", { dir: t(`dir.${key}`) }));
      } else {
        parts.push(key, tileWords(pos.board[key]));
        if (key === board.selected) parts.push(t("sq.selected"));
        else if (movable.has(key)) parts.push(t("sq.movable"));
        if (revealable.has(key)) parts.push(t("sq.revealable"));
        if (last && (last.from === key || last.to === key)) parts.push(t("sq.last"));
      }
      const target = targets.get(key);
      if (target) parts.push(t(target === "capture" ? "sq.capture_here" : "sq.move_here"));
      cell.setAttribute("aria-label", parts.join(", "));
      cell.setAttribute("aria-selected", key === board.selected ? "true" : "false");
    }
    for (const row of this.rows) {
      const key = row.dataset.row;
      row.setAttribute("aria-label", EXIT_AT[key] ? t("sq.exit", { dir: t(`dir.${key}`) }) : t("board.rank", { rank: key }));
    }
    board.svg.setAttribute("aria-label", t("board.label"));
  }
}
