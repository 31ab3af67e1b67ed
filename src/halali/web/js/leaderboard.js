// The leaderboard of one game: people and computer players (one per level), best rating first, with
// the uncertainty and the provisional mark, a page of 50 at a time; the bot accounts on a tab of
// their own (docs/bots.md).

import { getJSON } from "./api.js";
import { el, errorText, initPage, whoAmI } from "./common.js";
import { t } from "./i18n.js";
import { playerLink, ratingBadge, uncertainty } from "./people.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const GAMES = ["forest", "hare"];
const BOARDS = ["people", "bots"];
const PAGE = 50;
const params = new URLSearchParams(location.search);
const state = {
  game: GAMES.includes(params.get("game")) ? params.get("game") : GAMES[0],
  offset: Math.max(0, Number(params.get("offset")) || 0),
  provisional: params.get("provisional") !== "false",
  board: BOARDS.includes(params.get("board")) ? params.get("board") : BOARDS[0],
  answer: null,
  me: null,
};

async function load() {
  const q = new URLSearchParams({ game: state.game, limit: String(PAGE), offset: String(state.offset) });
  if (!state.provisional) q.set("provisional", "false");
  if (state.board !== "people") q.set("board", state.board);
  $("page-error").hidden = true;
  try {
    state.answer = await getJSON(`/api/leaderboard?${q}`);
  } catch (err) {
    state.answer = null;
    $("page-error").textContent = errorText(err);
    $("page-error").hidden = false;
  }
  const shown = new URLSearchParams({ game: state.game });
  if (state.offset) shown.set("offset", String(state.offset));
  if (!state.provisional) shown.set("provisional", "false");
  if (state.board !== "people") shown.set("board", state.board);
  history.replaceState(null, "", `${location.pathname}?${shown}`);
  render();
}

function render() {
  const sel = $("lb-game");
  sel.replaceChildren(...GAMES.map((g) => el("option", { value: g, text: t(`game.${g}`) })));
  sel.value = state.game;
  $("lb-provisional").checked = state.provisional;
  for (const tab of $("lb-boards").querySelectorAll("button")) tab.setAttribute("aria-selected", String(tab.dataset.board === state.board));
  $("lb-bots-help").hidden = state.board !== "bots";
  const players = state.answer?.players || [];
  $("leaderboard").querySelector("tbody").replaceChildren(...players.map((p) => el("tr", {
    "data-testid": `lb-${p.id}`, "data-player": p.id, class: [p.bot ? "bot" : "", state.me?.id === p.id ? "is-me" : ""].join(" ") },
  el("td", { class: "num rank", text: String(p.rank) }),
  el("td", {}, playerLink(p, { you: state.me?.id })),
  el("td", { class: "num" }, ratingBadge(p, "lb-rating", { sigma: false })),
  el("td", { class: "num sigma", "data-testid": "lb-sigma", text: `± ${uncertainty(p)}` }),
  el("td", { class: "num", "data-testid": "lb-matches", text: String(p.matches) }))));
  const total = state.answer?.total ?? 0;
  $("lb-empty").hidden = players.length > 0;
  $("lb-range").textContent = players.length ? t("pager.range", { from: state.offset + 1, to: state.offset + players.length, total }) : "";
  $("lb-prev").disabled = state.offset === 0;
  $("lb-next").disabled = state.offset + players.length >= total;
  document.title = `${t("leaderboard.title")} · ${t(`game.${state.game}`)} – Halali!`;
}

$("lb-game").addEventListener("change", (e) => {
  state.game = e.target.value;
  state.offset = 0;
  load();
});
for (const tab of $("lb-boards").querySelectorAll("button")) {
  tab.addEventListener("click", () => {
    state.board = tab.dataset.board;
    state.offset = 0;
    load();
  });
}
$("lb-provisional").addEventListener("change", (e) => {
  state.provisional = e.target.checked;
  state.offset = 0;
  load();
});
$("lb-prev").addEventListener("click", () => {
  state.offset = Math.max(0, state.offset - PAGE);
  load();
});
$("lb-next").addEventListener("click", () => {
  state.offset += PAGE;
  load();
});

await initPage(render);
state.me = await whoAmI();
await load();
