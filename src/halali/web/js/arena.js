// The arena: each computer level's rating and how it scores against the level just below (the
// ladder holds when every level scores at least 60%), with a link to the arena match being played.

import { getJSON } from "./api.js";
import { el, errorText, initPage } from "./common.js";
import { t } from "./i18n.js";
import { playerLink } from "./people.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const GAMES = ["forest", "hare"];
const params = new URLSearchParams(location.search);
const state = { game: GAMES.includes(params.get("game")) ? params.get("game") : GAMES[0], answer: null };

async function load() {
  $("page-error").hidden = true;
  try {
    state.answer = await getJSON("/api/arena");
  } catch (err) {
    state.answer = null;
    $("page-error").textContent = errorText(err);
    $("page-error").hidden = false;
  }
  history.replaceState(null, "", `${location.pathname}?game=${state.game}`);
  render();
}

function below(rung) {
  if (rung.below_score === null) return "–";
  const share = Math.round(rung.below_score * 100);
  return t("arena.below_score", { share, n: rung.below_matches });
}

function render() {
  const sel = $("arena-game");
  sel.replaceChildren(...GAMES.map((g) => el("option", { value: g, text: t(`game.${g}`) })));
  sel.value = state.game;
  const rungs = state.answer?.games?.[state.game] || [];
  $("arena").querySelector("tbody").replaceChildren(...[...rungs].reverse().map((r) => el("tr", {
    "data-testid": `arena-${r.level}`, class: r.below_score !== null && r.below_score < 0.6 ? "bot weak" : "bot" },
  el("td", { class: "num", text: String(r.level) }),
  el("td", {}, playerLink({ id: r.player_id, name: r.name, bot: r.level })),
  el("td", { class: "num", "data-testid": "arena-rating", text: r.rating === null ? "–" : String(r.rating) }),
  el("td", { class: "num", text: String(r.matches) }),
  el("td", { class: "num", "data-testid": "arena-below", text: below(r) }))));
  const current = state.answer?.current;
  $("arena-current").hidden = !current;
  $("arena-current").replaceChildren(...(current ? [el("a", { href: `/table/${current}`, text: t("arena.watch") })] : []));
  document.title = `${t("arena.title")} · ${t(`game.${state.game}`)} – Halali!`;
}

$("arena-game").addEventListener("change", (e) => {
  state.game = e.target.value;
  load();
});

await initPage(render);
await load();
