// The replay of a finished hare hunt: every position (all clubs shown, the hunt being over), stepped
// with buttons, the arrow keys, Home and End, or a click on an action in the list.

import { getJSON, links } from "./api.js";
import { el, errorText, initPage } from "./common.js";
import { CLUB_COLOURS, HareBoard, parseHare } from "./hare-board.js";
import { t } from "./i18n.js";
import { hareActionWords } from "./hare-words.js";
import { displayName, formatDate } from "./people.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const gameId = location.pathname.split("/").pop();
const board = new HareBoard($("board-host"));
const state = { hunt: null, ply: 0 };

function fail(err) {
  const box = $("page-error");
  box.textContent = errorText(err);
  box.dataset.key = err.key || "";
  box.hidden = false;
}

function go(ply) {
  if (!state.hunt) return;
  state.ply = Math.max(0, Math.min(state.hunt.actions.length, ply));
  location.replace(`#${state.ply}`);
  render();
}

function players() {
  const h = state.hunt;
  const clubs = parseHare(h.positions[h.positions.length - 1]).seats.map((s) => s.club);
  return h.players.map((p, seat) => {
    const club = clubs[seat];
    const place = h.placings ? h.placings[seat] : null;
    const won = h.result && h.result[seat] > 0;
    return el("li", { "data-testid": `hunt-player-${seat}`, "data-club": club || "", class: won ? "winner" : "" },
      club ? el("span", { class: "swatch", style: `background:${CLUB_COLOURS[club]}`, title: t(`hare.club.${club}`) }) : null,
      " ",
      p && p.id ? el("a", { href: links.player(p.id), text: displayName(p) }) : el("span", { text: p ? displayName(p) : "?" }),
      club ? el("span", { class: "chip", text: t(`hare.club.${club}`) }) : null,
      place !== null ? el("span", { class: "chip", "data-testid": `hunt-place-${seat}`, text: t("hunt.place", { place: Number(place).toLocaleString() }) }) : null,
      won ? el("span", { class: "chip win", text: t("hare.winner") }) : null);
  });
}

/** The action after position ``i``, in words, with the name of the seat that played it. */
function actionWords(i) {
  const h = state.hunt;
  const seat = parseHare(h.positions[i]).toMove;
  const p = seat === null ? null : h.players[seat];
  return hareActionWords(h.actions[i], p ? displayName(p) : "?");
}

function render() {
  const h = state.hunt;
  if (!h) return;
  const total = h.actions.length;
  $("hunt-title").textContent = t("hunt.title", { number: h.number });
  document.title = `${$("hunt-title").textContent} – Halali!`;
  $("hunt-sub").replaceChildren(el("a", { href: links.table(h.table), text: t("replay.to_table") }), " · ",
    el("span", { text: t(h.rated ? "games.rated" : "games.unrated") }),
    h.finished ? el("span", { "data-testid": "hunt-date", text: ` · ${formatDate(h.finished)}` }) : null);
  $("hunt-players").replaceChildren(...players());
  const pos = parseHare(h.positions[state.ply]);
  board.draw(pos);
  $("board-host").dataset.ply = String(state.ply);
  $("ply-label").textContent = state.ply === 0 ? t("replay.start") : t("replay.ply", { ply: state.ply, plies: total });
  $("hunt-status").textContent = state.ply === 0 ? t("replay.start") : actionWords(state.ply - 1);
  const list = $("move-list");
  list.replaceChildren(...h.actions.map((a, i) => el("li", {
    class: i + 1 === state.ply ? "current" : "", "data-testid": `hunt-action-${i + 1}`,
  }, el("button", { type: "button", class: "link", title: a, "data-action": a, "aria-current": i + 1 === state.ply ? "step" : "false",
    text: actionWords(i), onclick: () => go(i + 1) }))));
  list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
  $("btn-first").disabled = $("btn-prev").disabled = state.ply === 0;
  $("btn-last").disabled = $("btn-next").disabled = state.ply === total;
}

$("btn-first").addEventListener("click", () => go(0));
$("btn-prev").addEventListener("click", () => go(state.ply - 1));
$("btn-next").addEventListener("click", () => go(state.ply + 1));
$("btn-last").addEventListener("click", () => go(Infinity));
document.addEventListener("keydown", (e) => {
  if (e.target.closest?.("input, textarea, select")) return;
  const to = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: Infinity }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
});

await initPage(render);
try {
  state.hunt = await getJSON(`/api/hunts/${encodeURIComponent(gameId)}`);
  const wanted = Number(location.hash.slice(1));
  state.ply = Number.isInteger(wanted) && wanted >= 0 ? Math.min(wanted, state.hunt.actions.length) : 0;
  render();
} catch (err) {
  fail(err);
}
