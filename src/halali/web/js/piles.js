// A player's pile (captured tiles, then the tiles that left the forest) as small tile pictures,
// shared by the table and the replay.

import { KINDS, tileIcon } from "./art.js";
import { el } from "./common.js";
import { parsePile } from "./forest.js";
import { t } from "./i18n.js";

function tileTitle(letter) {
  const info = KINDS[letter];
  return info ? t(`tile.${info.kind}`) : letter;
}

/**
 * ``pile`` is the notation's pile field ("DDHP+BF", "-" when empty); ``over``: the game has ended,
 * so an empty pile is "nothing collected in this game", not "yet".
 */
export function pileIcons(pile, { over = false } = {}) {
  const { captured, exited } = parsePile(pile);
  const box = el("div", { class: "pile" });
  if (!captured.length && !exited.length) {
    box.append(el("span", { class: "pile-empty", text: t(over ? "pile.none" : "pile.empty") }));
    return box;
  }
  // The pictures are for the eye (their names on hover); a reader gets the pile as a sentence.
  const words = [];
  if (captured.length) words.push(t("pile.captured_words", { tiles: captured.map(tileTitle).join(", ") }));
  if (exited.length) words.push(t("pile.exited_words", { tiles: exited.map(tileTitle).join(", ") }));
  box.append(el("span", { class: "sr-only", text: words.join(" ") }));
  for (const l of captured) box.append(el("span", { class: "pile-tile", title: tileTitle(l), "aria-hidden": "true", html: tileIcon(l, 26, { value: false }) }));
  if (exited.length) {
    box.append(el("span", { class: "pile-sep", title: t("pile.exited"), "aria-hidden": "true", text: "⇥" }));
    for (const l of exited) box.append(el("span", { class: "pile-tile exited", title: tileTitle(l), "aria-hidden": "true", html: tileIcon(l, 26, { value: false }) }));
  }
  return box;
}
