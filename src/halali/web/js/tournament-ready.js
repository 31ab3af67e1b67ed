// "Your game is ready": the server's `tournament_game` reaches every connection of a player whose
// table of a new round is seated (docs/protocol.md, "Tournaments"). net.js hands it here on every
// page with the WebSocket, so a player in the lobby, on a tournament's page or still at the last
// round's table finds the way to the new table. A banner, not a toast: it stays until followed or
// closed, because a live round's clock runs from the start.

import { el } from "./common.js";
import { t } from "./i18n.js";

let banner = null;
let area = null;

/** The live region the banner goes into: there from the page's start, so screen readers hear it. */
function region() {
  if (!area) {
    area = el("div", { class: "ready-area", "aria-live": "polite" });
    const bar = document.querySelector(".topbar");
    if (bar) bar.after(area);
    else document.body.prepend(area);
  }
  return area;
}
if (document.querySelector(".topbar")) region();

function tableHref(id) {
  return `/table/${encodeURIComponent(id)}`;
}

/** Show the banner for a `tournament_game` message (unless this page is that table already). */
export function tournamentReady(msg) {
  if (!msg || typeof msg.table !== "string") return;
  const href = tableHref(msg.table);
  if (location.pathname === href) return;
  banner?.remove();
  const close = el("button", { type: "button", class: "link", "data-testid": "ready-close", text: t("tournament.ready_close"),
    onclick: () => {
      banner?.remove();
      banner = null;
    } });
  banner = el("div", { class: "ready-banner", "data-testid": "tournament-ready", "data-table": msg.table },
    el("span", { text: t("tournament.ready", { name: msg.name ?? "", round: msg.round ?? "" }) }),
    el("a", { class: "button primary", href, "data-testid": "ready-link", text: t("tournament.go_to_table") }),
    close);
  region().replaceChildren(banner);
}
