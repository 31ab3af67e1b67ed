// The profile's puzzles: the puzzle rating and the latest first tries, each a link to its puzzle.

import { getJSON, links } from "./api.js";
import { el, signed } from "./common.js";
import { t } from "./i18n.js";
import { formatDate } from "./people.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
let shown = null;

export async function showPuzzleHistory(playerId, again = false) {
  const host = $("puzzle-history");
  if (!host || !playerId) return;
  if (!again) {
    try {
      shown = await getJSON(`/api/players/${encodeURIComponent(playerId)}/puzzles?limit=20`);
    } catch {
      shown = null;
    }
  }
  if (!shown) return;
  const r = shown.rating;
  const head = el("p", { "data-testid": "puzzle-rating-line",
    text: r.tries ? t("profile.puzzle_rating", { rating: r.rating, tries: r.tries }) : t("profile.no_puzzles") });
  const rows = shown.tries.map((x) => el("li", { "data-testid": "puzzle-try", "data-solved": String(x.solved) },
    el("a", { href: links.puzzle(x.puzzle), text: t("profile.puzzle_row", { id: x.puzzle }) }), " · ",
    el("span", { class: x.solved ? "won" : "lost", text: t(x.solved ? "profile.puzzle_solved" : "profile.puzzle_missed") }),
    ` · ${x.player.after} (${signed(x.player.after - x.player.before)}) · ${formatDate(x.when)}`));
  host.replaceChildren(head, el("ol", { class: "puzzle-tries" }, ...rows));
}
