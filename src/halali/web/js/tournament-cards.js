// What the tournament pages and the lobby share: a tournament's state and kind in words, points as
// the crosstable writes them, the countdown to the next round, and the list of tournaments (the
// cards of `GET /api/tournaments`, docs/protocol.md "Tournaments").

import { getJSON } from "./api.js";
import { clockText, el } from "./common.js";
import { t } from "./i18n.js";

export const tournamentLink = (id) => `/tournament/${encodeURIComponent(id)}`;

/** Points as a result shows them: 1, ½, 1½, 0.67 (a hare table's thirds and quarters). */
export function pointsText(x) {
  if (x === null || x === undefined) return "";
  const whole = Math.floor(x);
  const rest = Math.round((x - whole) * 100) / 100;
  if (rest === 0) return String(whole);
  if (rest === 0.5) return whole ? `${whole}½` : "½";
  return String(Math.round(x * 100) / 100);
}

/** A wait as a clock shows it: 4:05, 1:02:03, or "2 d 3:04:05" beyond a day. */
export function countdownText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const two = (n) => String(n).padStart(2, "0");
  const days = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const clock = h || days ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
  return days ? `${t("time.days", { n: days })} ${clock}` : clock;
}

/** The game, the pace (with the round's length), rated or not, and the clock, as chips. */
export function kindParts(tm) {
  const parts = [t(`game.${tm.game}`), t(`mode.${tm.pace}`)];
  if (tm.interval) {
    parts.push(tm.pace === "live" ? t("tournament.every_minutes", { n: Math.round(tm.interval / 60) })
      : t("tournament.round_days", { n: Math.round(tm.interval / 86400) }));
  }
  if (typeof tm.rated === "boolean") parts.push(t(tm.rated ? "games.rated" : "games.unrated"));
  if (tm.clock) parts.push(clockText(tm.clock));
  return parts;
}

/** "Round 2 of 5", or "5 rounds" before the first. */
export function roundText(tm) {
  return tm.round ? t("tournament.round_of", { round: tm.round, rounds: tm.rounds }) : t("tournament.rounds_n", { n: tm.rounds });
}

/**
 * An element counting down to ``nextIn`` seconds from now; `tickCountdowns` redraws them all each
 * second. The end is kept as a wall-clock time so a page that sleeps (a phone) shows the truth again.
 */
export function countdown(nextIn, testid = "countdown") {
  const box = el("span", { class: "countdown", "data-testid": testid });
  if (nextIn === null || nextIn === undefined) return box;
  box.dataset.ends = String(Date.now() + nextIn * 1000);
  box.textContent = countdownText(nextIn);
  return box;
}

export function tickCountdowns(root = document) {
  for (const box of root.querySelectorAll(".countdown[data-ends]")) {
    box.textContent = countdownText((Number(box.dataset.ends) - Date.now()) / 1000);
  }
}

let ticking = false;
export function startTicking() {
  if (ticking) return;
  ticking = true;
  setInterval(() => tickCountdowns(), 1000);
}

/** What the countdown of a card counts to: the start, or the round's deadline, or the next round. */
export function nextLabel(tm) {
  if (tm.next_in === null || tm.next_in === undefined) return "";
  if (tm.state === "upcoming") return t("tournament.starts_in");
  return tm.pace === "correspondence" ? t("tournament.deadline_in") : t("tournament.next_round_in");
}

/** One tournament in a list: its name (a link), state, kind, round, players and countdown. */
export function tournamentCard(tm) {
  const label = nextLabel(tm);
  return el("li", { class: `tournament-card state-${tm.state}`, "data-testid": `tournament-${tm.id}` },
    el("div", { class: "card-head" },
      el("a", { class: "table-name", href: tournamentLink(tm.id), "data-testid": "tournament-link", text: tm.name }),
      el("span", { class: `state-badge ${tm.state}`, "data-testid": "tournament-state", text: t(`tournament.state.${tm.state}`) }),
      el("span", { class: "game-no", text: roundText(tm) })),
    el("div", { class: "rules" }, ...kindParts(tm).map((p) => el("span", { class: "chip kind", text: p }))),
    el("div", { class: "card-foot" },
      el("span", { "data-testid": "tournament-players", text: t("tournament.players_n", { n: tm.players }) }),
      label ? el("span", { class: "next" }, `${label} `, countdown(tm.next_in)) : null));
}

/** The tournaments of the API, upcoming and running first (as the server orders them). */
export async function loadCards() {
  return (await getJSON("/api/tournaments")).tournaments || [];
}
