// The lobby's puzzle of the day and the way into the course: a small board of the day's position
// (not playable here) and links to solve it and to the lessons.

import { getJSON, links } from "./api.js";
import { Board } from "./board.js";
import { parsePosition } from "./forest.js";
import { t } from "./i18n.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
let daily = null;
let board = null;

/** Fetch the day's puzzle once and show it; ``again`` redraws the words after a language switch. */
export async function showDaily(again = false) {
  const box = $("daily");
  if (!box) return;
  if (!again) {
    try {
      daily = (await getJSON("/api/puzzles/daily")).puzzle;
    } catch {
      daily = null;
    }
  }
  box.hidden = !daily;
  if (!daily) return;
  if (!board) {
    board = new Board($("daily-board"));
    board.svg.removeAttribute("data-testid");
    board.svg.setAttribute("aria-hidden", "true");
    board.svg.querySelector(".key-cells")?.remove(); // a picture: the keyboard walks the real puzzle page
  }
  board.update({ position: parsePosition(daily.position), positionText: daily.position, animate: false });
  $("daily-task").textContent = t("lobby.daily_task", { side: t(`say.${daily.to_move}`) });
  $("daily-open").href = links.puzzle(daily.id);
}
