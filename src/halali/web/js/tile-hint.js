// What a tile does, in a small box beside it: on hover (mouse), a long press (touch) or a click on a
// tile that cannot act. A click's box closes by itself; a hover's when the pointer leaves.

import { tileIcon } from "./art.js";
import { el, tileHint } from "./common.js";

const box = () => document.querySelector('[data-testid="hint"]');
let timer = null;

/** ``x``/``y``: the pointer's place, or null to put the box beside the tile on ``square``. */
export function showTileHint(letter, square, x, y) {
  const hint = tileHint(letter);
  if (!hint) return;
  const b = box();
  b.replaceChildren(
    el("div", { class: "hint-head" }, el("span", { html: tileIcon(letter, 40) }), el("b", { text: hint.title })),
    ...hint.lines.map((l) => el("div", { text: l })),
  );
  b.dataset.square = square;
  b.hidden = false;
  const r = b.getBoundingClientRect();
  let left;
  let top;
  if (x === null) {
    const tile = document.querySelector(`[data-testid="tile-${square}"]`)?.getBoundingClientRect();
    left = tile ? tile.right + 8 : 20;
    top = tile ? tile.top : 20;
  } else {
    left = x + 16;
    top = y - r.height - 16;
  }
  left = Math.max(8, Math.min(left, innerWidth - r.width - 8));
  top = Math.max(8, Math.min(top, innerHeight - r.height - 8));
  b.style.left = `${left}px`;
  b.style.top = `${top}px`;
  clearTimeout(timer);
  if (x === null) timer = setTimeout(hideTileHint, 3500);
}

export function hideTileHint() {
  box().hidden = true;
}
