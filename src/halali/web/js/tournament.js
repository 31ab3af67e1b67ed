// One tournament's page, live: the server sends the whole tournament on `tournament_watch` and on
// every change (docs/protocol.md, "Tournaments"), and the page redraws from the last one. The watch
// is sent again on every (re)connect, so a page that lost its socket catches up by itself. Between
// messages only the countdown moves, from `next_in`.

import { links, pageId } from "./api.js";
import { el, errorText, initPage, levelName, setConnection, setMe } from "./common.js";
import { t } from "./i18n.js";
import { Connection } from "./net.js";
import { countdown, kindParts, roundText, startTicking } from "./tournament-cards.js";
import { RoundTabs, crossTable, playerCell, standingsTable } from "./tournament-view.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const id = pageId("tournament");
const state = { tm: null, you: null, levels: {}, heard: null, asked: null }; // asked: Enter or Withdraw on its way
const tabs = new RoundTabs($("round-tabs"), $("round-panel"));

const conn = new Connection({
  onOpen(welcome) {
    state.you = welcome.you;
    setMe(welcome.you);
    state.levels = Object.fromEntries(Object.entries(welcome.games || {}).map(([game, g]) => [game, g.levels || []]));
    conn.send({ type: "tournament_watch", id }, showError);
  },
  onMessage(msg) {
    if (msg.type === "tournament" && msg.tournament.id === id) {
      announce(state.tm, msg.tournament);
      state.tm = msg.tournament;
      render();
    }
  },
  onStatus: setConnection,
});

function showError(err) {
  $("t-error").textContent = errorText(err);
  $("t-error").hidden = false;
}

/** A request about this tournament; a refusal shows next to the buttons. */
function ask(type, more = {}) {
  $("t-error").hidden = true;
  conn.send({ type, id, ...more }, showError);
}

/** Say a new round, the start or the end in the live region: not the countdown's every second. */
function announce(before, now) {
  if (!before) return;
  let text = "";
  if (now.state !== before.state && now.state !== "running") text = t(`tournament.state.${now.state}`);
  else if (now.round !== before.round) text = t("tournament.round_begun", { round: now.round });
  if (text) $("t-announce").textContent = text;
}

function levelNames() {
  return Object.fromEntries((state.levels[state.tm.game] || []).map((l) => [l.level, l.name]));
}

function nameOf(pid) {
  const player = state.tm.players.find((p) => p.id === pid);
  return player ? playerCell(player, levelNames()) : el("span", { text: pid });
}

/** What the countdown counts to, as the header says it. */
function nextPart(tm) {
  const round = tm.pairings.filter((p) => p.round === tm.round);
  const open = round.some((p) => p.points === null);
  let label = "";
  if (tm.state === "upcoming") label = t("tournament.starts_in");
  else if (tm.state === "running" && open && tm.pace === "correspondence") label = t("tournament.ends_in", { round: tm.round });
  else if (tm.state === "running" && open) return el("span", { text: t("tournament.being_played", { round: tm.round }) });
  else if (tm.state === "running") label = t("tournament.begins_in", { round: tm.round + 1 });
  if (!label || tm.next_in === null) return el("span", { text: label });
  return el("span", {}, `${label} `, countdown(tm.next_in, "t-countdown"));
}

function entryText(tm) {
  const parts = [t(tm.entry.accounts ? "tournament.accounts_only" : "tournament.guests_too")];
  if (!tm.entry.bots) parts.push(t("tournament.no_bots"));
  if (tm.entry.min_rating !== null && tm.entry.min_rating !== undefined) parts.push(t("tournament.least_rating", { min: tm.entry.min_rating }));
  parts.push(t("tournament.at_most", { n: tm.entry.max }));
  if (tm.game === "hare") parts.push(t("tournament.table_of", { n: tm.table_size }));
  return `${t("tournament.who")}: ${parts.join(" · ")}`;
}

function renderControls(tm) {
  const open = tm.state === "upcoming" || (tm.state === "running" && tm.round < tm.rounds);
  const creator = state.you && tm.created_by === state.you.id;
  $("t-join").hidden = tm.you.entered || !open;
  $("t-withdraw").hidden = !tm.you.entered || !(tm.state === "upcoming" || tm.state === "running");
  $("t-start").hidden = !(creator && tm.state === "upcoming");
  $("t-level-box").hidden = !(creator && open);
  const select = $("t-level");
  const keep = select.value;
  const levels = state.levels[tm.game] || [];
  select.replaceChildren(...levels.map((l) => el("option", { value: l.level, text: `${l.level} · ${levelName(l.level, l.name)}` })));
  if (keep && levels.some((l) => String(l.level) === keep)) select.value = keep;
  const mine = tm.you.table;
  $("t-your-table").hidden = !mine;
  if (mine) $("t-your-table-link").href = links.table(mine);
  answered(tm);
}

/**
 * Enter and Withdraw take each other's place: when the one pressed has gone, the focus goes to the
 * other (not to the page's start), and the live region says what changed.
 */
function answered(tm) {
  const asked = state.asked;
  if (!asked || tm.you.entered !== (asked === "tournament_join")) return;
  state.asked = null;
  const gone = document.activeElement === document.body || !document.activeElement?.getClientRects().length;
  const next = $(tm.you.entered ? "t-withdraw" : "t-join");
  if (gone && !next.hidden) next.focus();
  $("t-announce").textContent = t(tm.you.entered ? "tournament.you_entered" : "tournament.you_withdrew");
}

function render() {
  const tm = state.tm;
  if (!tm) return;
  document.title = `${tm.name} – Halali!`;
  $("t-name").textContent = tm.name;
  $("t-kind").replaceChildren(...kindParts(tm).map((p) => el("span", { class: "chip kind", text: p })));
  $("t-state").className = `state-badge ${tm.state}`;
  $("t-state").textContent = t(`tournament.state.${tm.state}`);
  $("t-round").textContent = roundText(tm);
  $("t-next").replaceChildren(nextPart(tm));
  $("t-entry").textContent = entryText(tm);
  renderControls(tm);
  tabs.render(tm, nameOf);
  $("no-rounds").hidden = tm.pairings.some((p) => p.round > 0);
  $("standings-box").replaceChildren(standingsTable(tm, nameOf));
  $("crosstable-box").replaceChildren(crossTable(tm, nameOf));
}

for (const [id, type] of [["t-join", "tournament_join"], ["t-withdraw", "tournament_withdraw"]]) {
  $(id).addEventListener("click", () => {
    state.asked = type;
    ask(type);
  });
}
$("t-start").addEventListener("click", () => ask("tournament_start"));
$("t-add-level").addEventListener("click", () => ask("tournament_level", { level: Number($("t-level").value) }));

await initPage(render);
startTicking();
conn.connect();
