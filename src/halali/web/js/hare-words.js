// Hare hunt actions in words, for the hunt's replay list and the table's live region: "Ann rolls
// 2 and 5.", "Ann: the hunter on c3 steps to d4." Notation stays on the button's title for those
// who read it.

import { t } from "./i18n.js";

/** ``action`` in hare notation, played by ``name``. */
export function hareActionWords(action, name) {
  let m;
  if (action === "roll") return t("hare.say.roll", { name });
  if (action === "end") return t("hare.say.end", { name });
  if ((m = /^roll=(\d),(\d)$/.exec(action))) {
    const face = (d) => (d === "0" ? t("hare.say.blank") : d);
    return t("hare.say.rolled", { name, a: face(m[1]), b: face(m[2]) });
  }
  if ((m = /^(\d)x(\d)$/.exec(action))) {
    return t("hare.say.assign", { name, choice: t("hare.assign", { hunters: Number(m[1]), points: Number(m[2]) }) });
  }
  if ((m = /^bush=(.+)$/.exec(action))) return t("hare.say.bush", { name, cell: m[1] });
  if ((m = /^x(.+)$/.exec(action))) return t("hare.say.remove", { name, cell: m[1] });
  if ((m = /^(.+)-(.+)$/.exec(action))) return t("hare.say.step", { name, from: m[1], to: m[2] });
  if ((m = /^(.+)>(.+)$/.exec(action))) return t("hare.say.turn", { name, from: m[1], dir: t(`hare.dir.${m[2]}`) });
  return `${name}: ${action}`;
}
