// A hare hunt's choices as the page offers them, shared by the table and the course: the marks on
// the board (where the bush may go, which hunters may move or be removed, where the selected one
// may step) and the buttons for what is not a click on a cell (roll, which die counts what, end,
// and the selected hunter's turns).

import { el } from "./common.js";
import { t } from "./i18n.js";

export function hareActionLabel(a) {
  let m;
  if (a === "roll") return t("hare.roll");
  if (a === "end") return t("hare.end");
  if ((m = /^(\d)x(\d)$/.exec(a))) return t("hare.assign", { hunters: m[1], points: m[2] });
  if ((m = /^bush=(.+)$/.exec(a))) return t("hare.bush_at", { cell: m[1] });
  if ((m = /^x(.+)$/.exec(a))) return t("hare.remove", { cell: m[1] });
  if ((m = /^(.+)-(.+)$/.exec(a))) return t("hare.step", { cell: m[2] });
  if ((m = /^(.+)>(.+)$/.exec(a))) return t("hare.turn", { dir: t(`hare.dir.${m[2]}`) });
  return a;
}

/** cell -> marks for ``board.draw`` from the legal actions and the selected hunter. */
export function hareMarks(legal, selected) {
  const marks = {};
  const mark = (c, m) => (marks[c] ||= []).push(m);
  for (const a of legal) {
    let m;
    if ((m = /^bush=(.+)$/.exec(a))) mark(m[1], "target");
    else if ((m = /^x(.+)$/.exec(a))) mark(m[1], "removable");
    else if ((m = /^(.+?)[->]/.exec(a))) mark(m[1], "movable");
  }
  if (selected) {
    mark(selected, "selected");
    for (const a of legal) if (a.startsWith(`${selected}-`)) mark(a.split("-")[1], "target");
  }
  return marks;
}

/** The buttons: ``general`` (roll, assignments, end) and ``own`` (the selected hunter's). The bush and a
 * removal are a cell of the board (a click, or Enter on it), as at the table: a button for each of
 * thirty cells would push the board out of the window. */
export function hareButtons(legal, selected, send) {
  const button = (a) => el("button", {
    type: "button", class: a === "roll" ? "primary" : "", "data-action": a, "data-testid": `act-${a}`,
    text: hareActionLabel(a), onclick: () => send(a),
  });
  const own = selected ? legal.filter((a) => a.startsWith(`${selected}-`) || a.startsWith(`${selected}>`)) : [];
  const general = legal.filter((a) => !/^[a-k]\d+[->]/.test(a) && !a.startsWith("bush=") && !a.startsWith("x"));
  return { general: general.map(button), own: own.map(button) };
}

/** What a click on ``cell`` does: the action to send, or the hunter to select (null: none). */
export function hareClick(legal, selected, cell) {
  for (const prefix of ["bush=", "x"]) {
    if (legal.includes(`${prefix}${cell}`)) return { action: `${prefix}${cell}` };
  }
  if (selected && legal.includes(`${selected}-${cell}`)) return { action: `${selected}-${cell}` };
  return { select: legal.some((a) => a.startsWith(`${cell}-`) || a.startsWith(`${cell}>`)) ? cell : null };
}
