// The puzzle page: a position as its player saw it, played on the same board as a game. Each
// action goes to the server, which checks it against the rules and the solution it keeps (the page
// never has the solution before the player played it, asked for a hint or for the solution), and
// answers with the opponent's reply or the end; the first try's rating change comes with it.

import { ApiError, getJSON, links, pageId, postJSON } from "./api.js";
import { Board } from "./board.js";
import { el, errorText, initPage, signed } from "./common.js";
import { finalTurns, parsePosition } from "./forest.js";
import { t } from "./i18n.js";
import { actionWords, notationBox } from "./words.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const THEMES = ["capture", "exit_race", "save", "defence", "reveal", "long", "quiet"];

const state = {
  puzzle: null, // the server's puzzle message
  moves: [], // the solution's actions played so far
  position: "",
  legal: [],
  lastAction: null,
  ended: false, // solved, or the solution shown
  line: [], // what the list under the buttons shows: {text, who, wrong}
  rating: null, // the player's puzzle rating
  change: null, // the first try's rating change, once decided
  themes: {},
};

const board = new Board($("board-host"), {
  onAction: play,
  onIllegal(from, to) {
    if (!state.ended && state.puzzle) explainAttempt(from, to);
  },
  onAnnounce: announce,
});

function announce(text) {
  $("announce").textContent = text;
}

function explain(text, key = "") {
  const box = $("explain");
  box.textContent = text;
  box.dataset.key = key;
  box.hidden = !text;
}

/** A drop the legal list does not hold: the server's rule says why (nothing is counted). */
function explainAttempt(from, to) {
  if (from === to || to === null) return;
  const target = state.puzzle && parsePosition(state.position).board[to];
  const text = /^[NESW]$/.test(to) ? `${from}-${to}` : target && target !== "?" ? `${from}x${to}` : `${from}-${to}`;
  play(text);
}

function side() {
  return state.puzzle ? state.puzzle.to_move : "blue";
}

async function play(action) {
  const p = state.puzzle;
  if (!p || state.ended) return;
  let answer;
  try {
    answer = await postJSON(`/api/puzzles/${p.id}/move`, { moves: state.moves, action });
  } catch (err) {
    board.refused();
    explain(errorText(err), err.params?.rule ?? err.key);
    redraw(false);
    return;
  }
  explain("");
  if (answer.rating) decided(answer.rating);
  if (!answer.correct) {
    board.refused();
    state.line.push({ text: answer.action, who: side(), wrong: true });
    status(t("puzzle.wrong"), "wrong");
    announce(t("puzzle.wrong"));
    redraw(false);
    return;
  }
  state.line.push({ text: answer.action, who: side() });
  state.moves.push(answer.action);
  if (answer.solved) {
    state.ended = true;
    status(t("puzzle.solved", { margin: answer.margin }), "solved");
    announce(t("puzzle.solved", { margin: answer.margin }));
    board.legal = [];
    redraw(false);
    return;
  }
  const other = side() === "blue" ? "brown" : "blue";
  state.moves.push(answer.reply);
  state.line.push({ text: answer.reply, who: other });
  const after = answer.position;
  announce(`${t("puzzle.correct")} ${actionWords(answer.reply, other, null, parsePosition(after))}`);
  state.position = after;
  state.legal = answer.legal;
  state.lastAction = answer.reply;
  status(t("puzzle.correct"), "correct");
  redraw(true);
}

/** The first try's result: both ratings, before and after (a later try changes nothing). */
function decided(rating) {
  if (!rating.first && state.change) return;
  state.change = rating;
  if (rating.first) state.rating = { ...(state.rating || {}), rating: rating.player.after };
  showRatings();
}

function showRatings() {
  const c = state.change;
  const mine = $("my-rating");
  const its = $("puzzle-rating");
  if (c && c.first) {
    mine.textContent = `${c.player.after} (${signed(c.player.after - c.player.before)})`;
    its.textContent = `${c.puzzle.after} (${signed(c.puzzle.after - c.puzzle.before)})`;
    mine.dataset.change = String(c.player.after - c.player.before);
    its.dataset.change = String(c.puzzle.after - c.puzzle.before);
  } else {
    mine.textContent = state.rating ? String(state.rating.rating) : "–";
    its.textContent = c ? String(c.puzzle.after) : state.puzzle ? t("puzzle.hidden_rating") : "–";
    delete mine.dataset.change;
    delete its.dataset.change;
  }
  if (state.puzzle?.tried && !c) its.textContent = String(state.puzzle.rating);
}

function status(text, kind = "") {
  const box = $("puzzle-status");
  box.textContent = text;
  box.dataset.kind = kind;
}

function taskText(p) {
  return t("puzzle.task", { side: t(`say.${p.to_move}`), n: p.moves });
}

function redraw(animate) {
  const p = state.puzzle;
  if (!p) return;
  board.update({
    position: parsePosition(state.position),
    positionText: state.position,
    legal: state.ended ? [] : state.legal,
    interactive: !state.ended,
    lastAction: state.lastAction,
    ply: state.moves.length,
    animate,
  });
  $("puzzle-task").textContent = taskText(p);
  const pos = parsePosition(state.position);
  $("final-turns").hidden = pos.final === null;
  if (pos.final !== null) $("final-turns").textContent = t("status.final", finalTurns(pos.final, pos.turn));
  $("puzzle-line").replaceChildren(...state.line.map((m) => el("li", {
    class: m.wrong ? "wrong" : "", "data-side": m.who, text: `${t(`say.${m.who}`)}: ${m.text}${m.wrong ? ` – ${t("puzzle.not_it")}` : ""}`,
  })));
  const showThemes = state.ended || !!state.change;
  $("puzzle-themes-row").hidden = !showThemes;
  $("puzzle-themes").textContent = p.themes.map((x) => t(`puzzle.theme.${x}`)).join(", ");
  $("puzzle-proof").textContent = t(p.proven ? "puzzle.proven" : "puzzle.judged");
  $("btn-hint").disabled = state.ended;
  $("btn-solution").disabled = state.ended;
  showRatings();
  document.body.dataset.puzzle = String(p.id);
  document.body.dataset.state = state.ended ? "ended" : "playing";
}

function show(p) {
  state.puzzle = p;
  state.moves = [];
  state.position = p.position;
  state.legal = p.legal;
  state.lastAction = null;
  state.ended = false;
  state.line = [];
  state.change = null;
  explain("");
  status(p.tried ? t("puzzle.tried_before") : taskText(p));
  if (location.pathname !== links.puzzle(p.id)) history.pushState({ id: p.id }, "", links.puzzle(p.id));
  redraw(false);
  board.keys.moveTo("d4", false);
}

async function loadRating() {
  try {
    const me = await getJSON("/api/puzzles/me");
    state.rating = me.rating;
    state.themes = me.themes;
    fillThemes();
  } catch {
    /* shown as "–" */
  }
}

function fillThemes() {
  const select = $("theme-select");
  const keep = select.value;
  select.replaceChildren(el("option", { value: "", text: t("puzzle.theme.any") }),
    ...THEMES.filter((x) => state.themes[x]).map((x) => el("option", { value: x, text: `${t(`puzzle.theme.${x}`)} (${state.themes[x]})` })));
  select.value = keep;
}

async function next() {
  const q = new URLSearchParams({ difficulty: $("difficulty-select").value });
  if ($("theme-select").value) q.set("theme", $("theme-select").value);
  if (state.puzzle) q.set("after", String(state.puzzle.id));
  try {
    show(await getJSON(`/api/puzzles/next?${q}`));
  } catch (err) {
    status(errorText(err), "none");
  }
}

async function open(id) {
  try {
    show(await getJSON(`/api/puzzles/${encodeURIComponent(id)}`));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) status(errorText(err), "none");
    else throw err;
  }
}

$("btn-next").addEventListener("click", next);

$("btn-hint").addEventListener("click", async () => {
  const p = state.puzzle;
  if (!p || state.ended) return;
  try {
    const hint = await postJSON(`/api/puzzles/${p.id}/hint`, { moves: state.moves });
    decided(hint.rating);
    board.offer(state.legal.some((a) => a.startsWith(hint.square) || a === `?${hint.square}`) ? hint.square : null);
    board.keys.moveTo(hint.square, false);
    const text = t("puzzle.hint_text", { square: hint.square });
    status(text, "hint");
    announce(text);
  } catch (err) {
    explain(errorText(err), err.key);
  }
});

$("btn-solution").addEventListener("click", async () => {
  const p = state.puzzle;
  if (!p || state.ended) return;
  try {
    const s = await postJSON(`/api/puzzles/${p.id}/solution`, {});
    decided(s.rating);
    state.ended = true;
    const who = (i) => (i % 2 === 0 ? p.to_move : p.to_move === "blue" ? "brown" : "blue");
    state.line = s.solution.map((text, i) => ({ text, who: who(i) }));
    board.suggest(s.solution[state.moves.length] ?? null);
    const text = t("puzzle.solution_text", { line: s.solution.join(" "), margin: s.margin });
    status(text, "solution");
    announce(text);
    redraw(false);
  } catch (err) {
    explain(errorText(err), err.key);
  }
});

notationBox($("notation-form"), $("notation-input"), {
  legal: () => (state.ended ? [] : state.legal),
  play: (action) => board.send(action),
  tryAction: (text) => play(text),
  onBad: () => explain(t("kb.not_notation"), "kb.not_notation"),
});

window.addEventListener("popstate", () => {
  const id = pageId("puzzles");
  if (id) open(id);
});

await initPage(() => {
  board.retranslate();
  fillThemes();
  if (state.puzzle) redraw(false);
});
await loadRating();
const first = pageId("puzzles");
if (first) await open(first);
else await next();
