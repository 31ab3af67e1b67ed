// The how-to-play page: the rules text comes from the translations, the pictures from art.js, so
// the page shows exactly the tiles the board shows, in every language.

import { tileFace, tileIcon } from "./art.js";
import { Board } from "./board.js";
import { el, initPage, tileName } from "./common.js";
import { parsePosition } from "./forest.js";
import { t } from "./i18n.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

const TILES = [
  { kind: "bear", letters: ["B"], side: "blue", count: 2, value: 10 },
  { kind: "fox", letters: ["F"], side: "blue", count: 6, value: 5 },
  { kind: "lumberjack", letters: ["L"], side: "brown", count: 2, value: 5 },
  { kind: "hunter", letters: ["N", "E", "S", "W"], side: "brown", count: 8, value: 5 },
  { kind: "duck", letters: ["D"], side: "green", count: 7, value: 2 },
  { kind: "pheasant", letters: ["P"], side: "green", count: 8, value: 3 },
  { kind: "tree", letters: ["T"], side: "green", count: 15, value: 2 },
];

// What each tile captures, as pictures next to the words.
const PREY = { bear: ["N", "L"], fox: ["D", "P"], lumberjack: ["T"], hunter: ["B", "F", "D", "P"], duck: [], pheasant: [], tree: [] };

function tileCards() {
  $("tile-cards").replaceChildren(...TILES.map((tile) => {
    const pictures = tile.letters.length > 1
      ? el("div", { class: "rifles", html: tile.letters.map((l) => tileIcon(l, 40)).join("") })
      : el("div", { html: tileIcon(tile.letters[0], 80) });
    return el("article", { class: "tile-card", "data-testid": `card-${tile.kind}` },
      pictures,
      el("div", {},
        el("h3", { text: tileName(tile.kind) }),
        el("span", { class: `side-label side-${tile.side}`, text: t(`howto.side.${tile.side}`) }),
        el("div", { class: "count", text: t("howto.tiles.count", { n: tile.count }) })),
      el("div", { class: "facts" },
        el("div", { text: `➜ ${t(`hint.moves.${tile.kind}`)}` }),
        el("div", { class: "captures" }, `✦ ${t(`hint.captures.${tile.kind}`)}`,
          PREY[tile.kind].length ? el("span", { class: "prey", html: PREY[tile.kind].map((l) => tileIcon(l, 26, { value: false })).join("") }) : null),
        el("div", { html: `<b>${t("hint.value", { value: tile.value })}</b>` })));
  }));
}

function setupDiagram() {
  const host = $("setup-diagram");
  host.replaceChildren();
  host.style.width = "260px";
  const board = new Board(host);
  const fen = "???????/???????/???????/???1???/???????/???????/??????? blue - - - - 0 - -";
  board.update({ position: parsePosition(fen), positionText: fen });
  board.svg.removeAttribute("data-testid");
}

// A hunter whose rifle points east shoots the fox to its east; the fox to its west is safe.
function hunterDiagram() {
  const cell = (x, y, body) => `<g transform="translate(${x} ${y})">${body}</g>`;
  const row = (y) => [0, 1, 2, 3].map((i) => `<rect x="${i * 100 + 2}" y="${y + 2}" width="96" height="96" rx="10" fill="#6a9148"/>`).join("");
  const svg = `<svg viewBox="0 0 400 220" width="260" role="img" aria-hidden="true">
    <rect width="400" height="220" rx="14" fill="#4f7536"/>
    ${row(5)}${row(115)}
    ${cell(0, 5, tileFace("E", { value: false }))}${cell(300, 5, tileFace("F", { value: false }))}
    <path d="M105 55 H285" stroke="#ffdf5a" stroke-width="7" stroke-dasharray="14 9"/>
    <path d="M280 40 L300 55 L280 70 Z" fill="#ffdf5a"/>
    <circle cx="350" cy="22" r="16" fill="#2e9d3a"/><path d="M342 22 l6 6 l11 -12" stroke="#fff" stroke-width="4" fill="none"/>
    ${cell(0, 115, tileFace("F", { value: false }))}${cell(300, 115, tileFace("E", { value: false }))}
    <path d="M295 165 H115" stroke="#e9e0c0" stroke-width="5" stroke-dasharray="10 10" opacity="0.7"/>
    <circle cx="50" cy="132" r="16" fill="#c23b2e"/><path d="M43 125 l14 14 M57 125 l-14 14" stroke="#fff" stroke-width="4"/>
  </svg>`;
  $("hunter-diagram").innerHTML = svg;
}

function render() {
  tileCards();
  hunterDiagram();
}

await initPage(render);
render();
setupDiagram();
