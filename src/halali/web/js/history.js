// Finished games: of a player (?player=), at a table (?table=), or the visitor's own. Newest first,
// a page at a time (the server's `before` cursor), each with its replay.

import { getJSON, links } from "./api.js";
import { errorText, initPage, whoAmI } from "./common.js";
import { t } from "./i18n.js";
import { displayName, gamesTable } from "./people.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const params = new URLSearchParams(location.search);
const PAGE = 20;
const state = { player: params.get("player"), table: params.get("table"), games: [], more: false, who: null, me: null };

function source(before = null) {
  if (state.table) return `/api/tables/${encodeURIComponent(state.table)}/games`;
  const q = new URLSearchParams({ limit: String(PAGE) });
  if (before !== null) q.set("before", String(before));
  return `/api/players/${encodeURIComponent(state.player)}/games?${q}`;
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
  $("history-empty").hidden = state.games.length > 0;
  $("history-more").hidden = !state.more;
}

$("history-more").addEventListener("click", () => load(true));

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
if (state.player || state.table) await load();
else render();
