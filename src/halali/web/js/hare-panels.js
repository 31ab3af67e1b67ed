// The hare table's panels, redrawn from the server's `hare` message: the board's tray (the dice, and
// the buttons of a turn that are not a cell: roll, which die counts hunters, a chosen hunter's turns,
// end), the status line, the seats, the result with each seat's score, and the actions in words.
// The tray keeps its height whatever it holds, so the board never moves.

import { el, listText } from "./common.js";
import { ANGLE, CLUB_COLOURS, dieSVG } from "./hare-art.js";
import { t } from "./i18n.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
export const clubName = (club) => t(`hare.club.${club}`);

/** The label of a tray button for ``action`` (the phase says whether a roll is for the shot). */
export function actionLabel(action, phase) {
  let m;
  if (action === "roll") return t(phase === "aim" ? "hare.roll_shot" : "hare.roll");
  if (action === "end") return t("hare.end");
  if ((m = /^(\d)x(\d)$/.exec(action))) return t("hare.assign", { hunters: Number(m[1]), points: Number(m[2]) });
  if ((m = /^(.+)>(.+)$/.exec(action))) return t("hare.turn", { cell: m[1], toward: t(`hare.toward.${m[2]}`) });
  return action;
}

/** The dice to show: those being assigned or shot, else the last roll of the hunt. */
export function shownDice(pos, actions) {
  if (pos && (pos.phase === "assign" || pos.phase === "shoot") && pos.detail !== "-") {
    return pos.detail.split("/")[0].split(",");
  }
  for (let i = (actions || []).length - 1; i >= 0; i--) {
    const m = /^roll=(\d),(\d)$/.exec(actions[i]);
    if (m) return [m[1], m[2]];
  }
  return null;
}

/**
 * The tray: ``actions`` are this person's tray choices now (none when it is not their turn). It is
 * rebuilt only when they change, and a keyboard user whose button went away lands on the next one,
 * or back on the board.
 */
export function renderTray({ dice, actions, phase, send, board, facing = null }) {
  const diceBox = $("hare-dice");
  const diceKey = dice ? dice.join(",") : "";
  if (diceBox.dataset.dice !== diceKey) {
    diceBox.dataset.dice = diceKey;
    diceBox.replaceChildren(...(dice ? [
      el("span", { class: "sr-only", text: t("hare.dice_are", { dice: listText(dice.map(faceWord), "conjunction") }) }),
      ...dice.map((d) => {
        const die = el("span", { class: "die", "data-testid": "die", "data-face": d, "aria-hidden": "true" });
        die.innerHTML = dieSVG(Number(d));
        return die;
      })] : []));
  }
  const box = $("hare-actions");
  const key = `${phase}|${actions.join(" ")}|${t("hare.end")}`;
  if (box.dataset.key === key) return;
  // A keyboard user's place (not a click's) is kept when the buttons change.
  const hadFocus = box.contains(document.activeElement) && document.activeElement.matches(":focus-visible");
  box.dataset.key = key;
  box.replaceChildren(...actions.map((a) => {
    const turn = /^.+>(.+)$/.exec(a);
    const b = el("button", { type: "button", class: a === "roll" ? "primary" : "", "data-action": a,
      "data-testid": `act-${a}`, onclick: () => send(a) });
    if (turn) {
      // Short on the button (the arrow and the new facing); the whole phrase for readers.
      const ccw = facing && (ANGLE[turn[1]] - ANGLE[facing] + 360) % 360 === 300;
      b.setAttribute("aria-label", actionLabel(a, phase));
      b.append(el("span", { "aria-hidden": "true", text: ccw ? "↺ " : "↻ " }), t(`hare.dir.${turn[1]}`));
    } else {
      b.textContent = actionLabel(a, phase);
    }
    return b;
  }));
  if (hadFocus) {
    // The focus stays in the tray, or goes back to the board, without moving the page under the finger.
    const first = box.querySelector("button");
    if (first) first.focus({ preventScroll: true });
    else board.keys.moveTo(board.keys.focus);
  }
}

const faceWord = (d) => (d === "0" ? t("hare.face_blank") : d);

/** The seats: number, name, club once this viewer may know it, who is out, whose turn, the winners. */
export function renderSeats({ table, hunt, pos, me, seatName, extra }) {
  $("hare-seats").replaceChildren(...table.seats.map((s, i) => {
    const info = pos ? pos.seats[i] : null;
    const club = info?.club;
    const out = info?.out !== null && info?.out !== undefined;
    const won = hunt?.over && hunt.result && hunt.result[i] > 0;
    const li = el("li", { "data-testid": `hare-seat-${i}`, "data-club": club || "",
      class: [out ? "out" : "", hunt && !hunt.over && hunt.to_move === i ? "to-move" : "", i === me ? "me" : ""].join(" ").trim() },
    el("span", { class: "swatch", style: club ? `background:${CLUB_COLOURS[club]}` : null, text: club ? "" : "?",
      "aria-hidden": "true" }),
    el("span", { class: "seat-name", title: seatName(i), text: `${i + 1}. ${seatName(i)}` }),
    i === me ? el("span", { class: "you-tag", text: t("hare.you") }) : null,
    ...extra(s, i),
    club ? el("span", { class: "chip", text: t("hare.club_chip", { club: clubName(club) }) }) : null,
    out ? el("span", { class: "chip", text: t("hare.out") }) : null,
    won ? el("span", { class: "chip win", "data-testid": "hare-winner", text: t("hare.winner") }) : null);
    if (hunt && !hunt.over && hunt.to_move === i) li.setAttribute("aria-current", "true");
    return li;
  }));
}

/** The own club, shown only to its owner while the others' are secret. */
export function renderOwnClub(club) {
  const box = $("hare-own-club");
  box.hidden = !club;
  if (!club) return;
  box.dataset.club = club;
  box.replaceChildren(el("span", { class: "swatch", style: `background:${CLUB_COLOURS[club]}`, "aria-hidden": "true" }),
    " ", t("hare.your_club", { club: clubName(club) }));
}

/** Who won, by seat, name and club, and what every seat scored: place, its own hunters left, how it ended. */
export function renderResult({ hunt, pos, seatName, termination }) {
  const box = $("hare-result");
  box.hidden = !hunt?.over;
  if (!hunt?.over) return;
  const title = t("hare.status.over");
  $("hare-result-title").textContent = termination ? `${title.replace(/[.!]$/, "")} · ${termination}` : title;
  const left = (club) => pos.hunters.filter((h) => h.club === club).length;
  const order = hunt.result.map((_, i) => i).sort((a, b) => (hunt.placings?.[a] ?? 0) - (hunt.placings?.[b] ?? 0) || a - b);
  const head = el("tr", {}, ...["place", "player", "club", "left", "outcome"].map((k) =>
    el("th", { scope: "col", text: t(`hare.result.${k}`) })));
  const rows = order.map((i) => {
    const club = pos.seats[i]?.club;
    const out = pos.seats[i]?.out;
    const shared = hunt.result.filter((r) => r > 0).length > 1;
    const outcome = hunt.result[i] > 0 ? t(shared ? "hare.result.shared" : "hare.result.win")
      : out !== null && out !== undefined ? t("hare.result.out", { turn: out + 1 }) : t("hare.result.in");
    return el("tr", { "data-testid": `hare-result-${i}`, class: hunt.result[i] > 0 ? "winner" : "" },
      el("td", { text: hunt.placings ? Number(hunt.placings[i]).toLocaleString() : "–" }),
      el("th", { scope: "row", text: `${i + 1}. ${seatName(i)}` }),
      el("td", {}, club ? el("span", { class: "swatch", style: `background:${CLUB_COLOURS[club]}`, "aria-hidden": "true" }) : null,
        club ? ` ${clubName(club)}` : "?"),
      el("td", { text: club ? String(left(club)) : "–" }),
      el("td", { text: outcome }));
  });
  $("hare-result-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  $("hare-result-links").replaceChildren(...(hunt.replay ? [
    el("a", { href: hunt.replay, "data-testid": "hare-replay-link", text: t("games.replay") }), " · ",
    el("a", { href: `/api/hunts/${hunt.replay.split("/").pop()}/record`, download: "", "data-testid": "hare-record-link",
      text: t("record.download") })] : []));
}

/** The winners in a sentence: "Ann wins (seat 1, club: red)." or "Ann and Bob share the win." */
export function winnersText(hunt, pos, seatName) {
  const won = hunt.result.map((r, i) => (r > 0 ? i : null)).filter((i) => i !== null);
  if (won.length === 1) {
    const i = won[0];
    const club = pos.seats[i]?.club;
    return t("hare.status.won", { name: seatName(i), seat: i + 1, club: club ? clubName(club) : "?" });
  }
  return t("hare.status.shared", { names: listText(won.map(seatName), "conjunction") });
}

let listed = []; // the notations in the list, in order (read here, not from the page's elements)

/** The actions so far, in words with the notation beside them; only new ones are added. */
export function renderMoves(items, redo) {
  const list = $("history");
  if (redo || listed.length > items.length || listed.some((n, i) => n !== items[i].notation)
    || list.childElementCount !== listed.length) {
    list.replaceChildren();
    listed = [];
  }
  for (const item of items.slice(listed.length)) {
    listed.push(item.notation);
    list.append(el("li", { "data-notation": item.notation, "data-testid": `hare-move-${item.index + 1}` },
      el("span", { class: "words", text: item.words }), " ", el("code", { class: "notation", text: item.notation })));
  }
}
