// A table a tournament seated (its `table` object carries `tournament`): the page says which
// tournament and round it belongs to, with the way back, and offers neither rematch nor abort,
// which the server refuses there (docs/protocol.md, "Tournaments"). Both games' table pages reach
// this through TableLifecycle.update, so neither page's own script has to know about tournaments.

import { getJSON } from "./api.js";
import { el } from "./common.js";
import { t } from "./i18n.js";
import { tournamentLink } from "./tournament-cards.js";

let shown = null; // the table id the banner was made for
let info = null; // {name, round} once the tournament has been asked

function banner() {
  let box = document.querySelector('[data-testid="tournament-banner"]');
  if (!box) {
    box = el("p", { class: "tournament-banner", "data-testid": "tournament-banner" });
    const main = document.querySelector("main");
    if (main) main.prepend(box);
    else document.body.append(box);
  }
  return box;
}

function draw(table) {
  const href = tournamentLink(table.tournament);
  const text = info ? t("tournament.at_table", { name: info.name, round: info.round }) : t("tournament.title");
  banner().replaceChildren(el("a", { href, "data-testid": "tournament-back", text }));
  // The end-of-match summary leads back to the tournament where other tables offer a rematch.
  const rematch = document.querySelector('[data-testid="summary-rematch"]');
  let back = document.querySelector('[data-testid="summary-tournament"]');
  if (rematch && !back) {
    back = el("a", { class: "button primary", href, "data-testid": "summary-tournament" });
    rematch.after(back);
  }
  if (back) back.textContent = t("tournament.back");
}

/** Call with every table the page draws; a table outside a tournament changes nothing. */
export async function showTournament(table) {
  if (!table || !table.tournament) return;
  document.body.classList.add("tournament-table");
  draw(table); // again on every redraw: a change of language too
  if (shown === table.id) return;
  shown = table.id;
  try {
    const tm = await getJSON(`/api/tournaments/${encodeURIComponent(table.tournament)}`);
    const pairing = (tm.pairings || []).find((p) => p.table === table.id);
    info = { name: tm.name, round: pairing ? pairing.round : tm.round };
  } catch {
    info = null; // the plain link still leads back
  }
  draw(table);
}
