// The replay of a finished hare hunt, with the forest replay's controls: every position stepped with
// buttons, the arrow keys, Home and End, or a click on an action in the list (words, with the
// notation beside them); the seats' clubs as the players knew them at each step (a seat's club shows
// once it is out) and all revealed at the end, or all from the start with the switch; the record.

import { getJSON, links } from "./api.js";
import { el, errorText, initPage } from "./common.js";
import { CLUB_COLOURS, HareBoard, parseHare } from "./hare-board.js";
import { huntItems } from "./hare-words.js";
import { t } from "./i18n.js";
import { displayName, formatDate } from "./people.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const gameId = location.pathname.split("/").pop();
const board = new HareBoard($("board-host"));
const state = { hunt: null, ply: 0, items: [], showClubs: false };

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

const seatName = (seat) => {
  const p = seat === null || seat === undefined ? null : state.hunt.players[seat];
  return p ? displayName(p) : "?";
};

/** The seats at the shown step: a club shows once its seat is out, and every club at the end. */
function players() {
  const h = state.hunt;
  const last = h.actions.length;
  const final = parseHare(h.positions[last]).seats;
  const now = parseHare(h.positions[state.ply]).seats;
  return h.players.map((p, seat) => {
    const club = final[seat].club;
    const out = now[seat].out !== null;
    const known = state.showClubs || state.ply === last || out;
    const place = h.placings ? h.placings[seat] : null;
    const won = state.ply === last && h.result && h.result[seat] > 0;
    return el("li", { "data-testid": `hunt-player-${seat}`, "data-club": known ? club || "" : "", class: won ? "winner" : "" },
      el("span", { class: "swatch", style: known && club ? `background:${CLUB_COLOURS[club]}` : null, text: known ? "" : "?",
        "aria-hidden": "true" }),
      p && p.id ? el("a", { href: links.player(p.id), text: displayName(p) }) : el("span", { text: p ? displayName(p) : "?" }),
      el("span", { class: "chip", "data-testid": `hunt-club-${seat}`,
        text: known && club ? t("hare.club_chip", { club: t(`hare.club.${club}`) }) : t("hunt.club_secret") }),
      out ? el("span", { class: "chip", text: t("hare.out") }) : null,
      state.ply === last && place !== null ? el("span", { class: "chip", "data-testid": `hunt-place-${seat}`,
        text: t("hunt.place", { place: Number(place).toLocaleString() }) }) : null,
      won ? el("span", { class: "chip win", text: t("hare.winner") }) : null);
  });
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
  $("clubs-note").textContent = t(state.ply === total ? "hunt.clubs_revealed" : state.showClubs ? "hunt.clubs_shown" : "hunt.clubs_secret");
  board.draw(parseHare(h.positions[state.ply]));
  $("board-host").dataset.ply = String(state.ply);
  $("ply-label").textContent = state.ply === 0 ? t("replay.start") : t("replay.ply", { ply: state.ply, plies: total });
  $("hunt-status").textContent = state.ply === 0 ? t("replay.start") : state.items[state.ply - 1].words;
  const list = $("move-list");
  if (list.childElementCount !== total) {
    list.replaceChildren(...state.items.map((item) => el("li", { "data-testid": `hunt-action-${item.index + 1}` },
      el("button", { type: "button", class: "link", title: item.notation, "data-action": item.notation,
        onclick: () => go(item.index + 1) }, el("span", { class: "words", text: item.words }), " ",
      el("code", { class: "notation", text: item.notation })))));
  }
  for (const li of list.children) {
    const on = li.dataset.testid === `hunt-action-${state.ply}`;
    li.classList.toggle("current", on);
    li.firstChild.setAttribute("aria-current", on ? "step" : "false");
  }
  const current = list.querySelector(".current");
  if (current) {
    // Keep the current action in view inside the list only (the page itself must not jump).
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
  }
  $("btn-first").disabled = $("btn-prev").disabled = state.ply === 0;
  $("btn-last").disabled = $("btn-next").disabled = state.ply === total;
}

/** The actions in words, again after a language switch. */
function retell() {
  const h = state.hunt;
  const final = parseHare(h.positions[h.actions.length]).seats;
  state.items = huntItems(h, { seatName, clubOf: (i) => final[i]?.club });
  $("move-list").replaceChildren();
}

$("btn-first").addEventListener("click", () => go(0));
$("btn-prev").addEventListener("click", () => go(state.ply - 1));
$("btn-next").addEventListener("click", () => go(state.ply + 1));
$("btn-last").addEventListener("click", () => go(Infinity));
$("show-clubs").addEventListener("change", (e) => {
  state.showClubs = e.target.checked;
  render();
});
document.addEventListener("keydown", (e) => {
  if (e.target.closest?.("input, textarea, select")) return;
  const to = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: Infinity }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
});

await initPage(() => {
  if (state.hunt) retell();
  render();
});
try {
  state.hunt = await getJSON(`/api/hunts/${encodeURIComponent(gameId)}`);
  $("export-record").href = state.hunt.record || `/api/hunts/${encodeURIComponent(gameId)}/record`;
  const wanted = Number(location.hash.slice(1));
  state.ply = Number.isInteger(wanted) && wanted >= 0 ? Math.min(wanted, state.hunt.actions.length) : 0;
  retell();
  render();
} catch (err) {
  fail(err);
}
