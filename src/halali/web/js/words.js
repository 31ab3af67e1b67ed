// Forest actions in words, for the live region a screen reader speaks and for the replay's list:
// "Brown: hunter aiming north from c3 to c6." Only what both positions show is said, so a
// spectator hears no secret (a face-down tile stays "face down" until it is revealed).

import { tileWords } from "./board-keys.js";
import { parseAction } from "./forest.js";
import { t } from "./i18n.js";

/** ``text`` played by ``side`` ("blue" / "brown") from ``before`` to ``after`` (parsed positions). */
export function actionWords(text, side, before, after) {
  const a = parseAction(text.replace(/=.$/, ""));
  const who = t(`say.${side}`);
  if (!a) return `${who}: ${text}`;
  if (a.type === "pass") return t("say.pass", { side: who });
  if (a.type === "reveal") return t("say.reveal", { side: who, square: a.to, tile: tileWords(after?.board[a.to]) });
  const tile = tileWords(before?.board[a.from] ?? after?.board[a.to]);
  if (a.type === "exit") return t("say.exit", { side: who, tile, from: a.from, exit: t("sq.exit", { dir: t(`dir.${a.dir}`) }) });
  if (a.type === "capture") {
    return t("say.capture", { side: who, tile, from: a.from, to: a.to, prey: tileWords(before?.board[a.to]) });
  }
  return t("say.move", { side: who, tile, from: a.from, to: a.to });
}

/**
 * The notation box under a board: an action typed as the move list writes it. A legal one is played;
 * anything else that reads as an action goes to ``tryAction`` so the server's rule explains the
 * refusal; what is not notation at all is ``onBad``'s.
 */
export function notationBox(form, input, { legal, play, tryAction, onBad }) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const raw = input.value.trim().replace(/\s+/g, "");
    if (!raw) return;
    const text = normalise(raw);
    const actions = legal();
    const found = actions.find((x) => x === text || x.replace(/=.$/, "") === text);
    if (found) {
      input.value = "";
      play(found);
    } else if (parseAction(text)) {
      tryAction(text);
    } else {
      onBad(raw);
    }
  });
}

/** "C3X c6" → "c3xc6", "d5-n" → "d5-N", "PASS" → "pass". */
function normalise(raw) {
  const low = raw.toLowerCase();
  if (low === "pass") return "pass";
  const m = /^([a-g][1-7])-([nesw])$/.exec(low);
  if (m) return `${m[1]}-${m[2].toUpperCase()}`;
  return low.replace(/=(.)$/, (_, c) => `=${c.toUpperCase()}`);
}
