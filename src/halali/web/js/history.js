// Finished games: of a player (?player=), at a table (?table=), or the visitor's own. Newest first,
// a page at a time (the server's `before` cursor), each with its replay; hare hunts in a list of their own.

import { getJSON, links } from "./api.js";
import { el, errorText, initPage, whoAmI } from "./common.js";
import { t } from "./i18n.js";
import { displayName, gamesTable } from "./people.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const params = new URLSearchParams(location.search);
const PAGE = 20;
const state = { player: params.get("player"), table: params.get("table"), games: [], more: false, who: null, me: null,
  hunts: [], huntsMore: false };

function source(before = null) {
  if (state.table) return `/api/tables/${encodeURIComponent(state.table)}/games`;
  const q = new URLSearchParams({ limit: String(PAGE) });
  if (before !== null) q.set("before", String(before));
  return `/api/players/${encodeURIComponent(state.player)}/games?${q}`;
}

function huntSource(before = null) {
  const q = new URLSearchParams({ limit: String(PAGE) });
  if (before !== null) q.set("before", String(before));
  const who = state.table ? `tables/${encodeURIComponent(state.table)}` : `players/${encodeURIComponent(state.player)}`;
  return `/api/${who}/hunts?${q}`;
}

async function loadHunts(more = false) {
  const before = more && state.hunts.length ? state.hunts[state.hunts.length - 1].id : null;
  try {
    const answer = await getJSON(huntSource(before));
    state.hunts = more ? state.hunts.concat(answer.hunts) : answer.hunts;
    state.huntsMore = !!answer.more;
  } catch (err) {
    fail(err);
  }
  render();
}

function huntsTable(hunts, you) {
  const head = el("tr", {}, el("th", { text: t("games.when") }), el("th", { text: t("history.hunt_players") }),
    el("th", { text: t("games.kind") }), el("th", {}, el("span", { class: "sr-only", text: t("games.links") })));
  const rows = hunts.map((h) => el("tr", { "data-testid": `hunt-${h.id}` },
    el("td", { text: h.finished ? new Date(h.finished).toLocaleString() : "" }),
    el("td", {}, ...h.players.flatMap((p, seat) => [seat ? ", " : null,
      el("span", { class: p && p.id === you ? "is-me" : "" },
        `${p ? displayName(p) : "?"}${h.placings ? ` (${Number(h.placings[seat]).toLocaleString()}.)` : ""}`)])),
    el("td", { text: t(h.rated ? "games.rated" : "games.unrated") }),
    el("td", {}, el("a", { href: `/hunt/${h.id}`, "data-testid": `hunt-replay-${h.id}`, text: t("games.replay") }))));
  return el("div", { class: "table-scroll" }, el("table", { class: "data-table hunts-table" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

function fail(err) {
  const box = $("page-error");
  box.textContent = errorText(err);
  box.dataset.key = err.key || "";
  box.hidden = false;
}

async function load(more = false) {
  const before = more && state.games.length ? state.games[state.games.length - 1].id : null;
  try {
    const answer = await getJSON(source(before));
    state.games = more ? state.games.concat(answer.games) : answer.games;
    state.more = !!answer.more;
  } catch (err) {
    fail(err);
  }
  render();
}

function render() {
  const title = $("history-title");
  if (state.table) {
    title.textContent = t("history.table", { id: state.table.replace(/^t_/, "") });
    $("history-sub").replaceChildren(Object.assign(document.createElement("a"), { href: links.table(state.table), textContent: t("history.to_table") }));
  } else if (state.who && state.me && state.who.id !== state.me.id) {
    title.textContent = t("history.of", { name: displayName(state.who) });
    $("history-sub").replaceChildren(Object.assign(document.createElement("a"), { href: links.player(state.who.id), textContent: t("history.to_profile") }));
  } else {
    title.textContent = t("history.mine");
    $("history-sub").textContent = state.me && !state.me.account ? t("history.guest_note") : "";
  }
  document.title = `${title.textContent} – Halali!`;
  const mine = !state.table && (!state.who || !state.me || state.who.id === state.me.id);
  if (mine) $("link-history").setAttribute("aria-current", "page");
  else $("link-history").removeAttribute("aria-current");
  const you = state.table ? null : state.player;
  $("games").replaceChildren(...(state.games.length ? [gamesTable(state.games, { you })] : []));
  $("history-empty").hidden = state.games.length > 0 || state.hunts.length > 0;
  $("history-more").hidden = !state.more;
  $("hunts-panel").hidden = state.hunts.length === 0;
  $("hunts").replaceChildren(...(state.hunts.length ? [huntsTable(state.hunts, you)] : []));
  $("hunts-more").hidden = !state.huntsMore;
}

$("history-more").addEventListener("click", () => load(true));
$("hunts-more").addEventListener("click", () => loadHunts(true));

await initPage(render);
state.me = await whoAmI();
if (!state.player && !state.table) state.player = state.me?.id ?? null;
if (state.player && !state.table) {
  try {
    state.who = await getJSON(`/api/players/${encodeURIComponent(state.player)}`);
  } catch (err) {
    if (state.player !== state.me?.id) fail(err);
  }
}
if (state.player || state.table) await Promise.all([load(), loadHunts()]);
else render();
