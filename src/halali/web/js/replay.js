// The replay of one game: step through the server's positions (buttons, arrow keys, Home / End, the
// move list, the evaluation chart), the deal shown once the game is over, the engine's analysis with
// each action's mark, the luck of every reveal, the fair-deal check computed in the browser, and the
// record to download or to import.
//
// The page plays nothing itself: `positions[i]` is the server's public position after i actions, so
// the board is drawn exactly as the players saw it; the deal only adds faces to face-down tiles.

import { getJSON, links, pageId } from "./api.js";
import { Board } from "./board.js";
import { lineChart } from "./chart.js";
import { colourName, el, errorText, initPage, whoAmI, ruleSummary, signed } from "./common.js";
import { dealSquares } from "./fairdeal.js";
import { finalTurns, isFaceDown, parsePosition } from "./forest.js";
import { language, t } from "./i18n.js";
import { LuckPanel, markBadge, markText, moveNumber } from "./luck.js";
import { displayName, formatDate, playerLink, resultText } from "./people.js";
import { pileIcons } from "./piles.js";
import { renderFair, renderRecord, wireImport } from "./replay-panels.js";
import { actionWords } from "./words.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const gameId = pageId("replay");

const state = {
  game: null,
  ply: 0,
  showDeal: true,
  analysis: false,
  evals: new Map(), // ply -> {blue, best, toMove, depth, played}
  job: null, // the server's latest answer about the game's analysis
  loading: false,
  announced: -1,
};

const board = new Board($("board-host"), {});
const luck = new LuckPanel($("luck-host"), (ply) => go(ply));

function last() {
  return state.game ? state.game.positions.length - 1 : 0;
}

// Stepping ------------------------------------------------------------------------------------

function go(ply, { animate = false } = {}) {
  if (!state.game) return;
  const next = Math.max(0, Math.min(last(), ply));
  const step = next === state.ply + 1;
  state.ply = next;
  history.replaceState(null, "", `${location.pathname}${location.search}#${next}`);
  render(animate && step);
}

function position(ply) {
  const pos = parsePosition(state.game.positions[ply]);
  const deal = state.showDeal && state.game.deal ? dealSquares(state.game.deal) : null;
  if (deal) {
    // A face-down tile never moves, so the deal's tile on its square is the one lying there.
    for (const [sq, letter] of Object.entries(pos.board)) {
      if (letter === "?" && deal[sq] && isFaceDown(deal[sq])) pos.board[sq] = deal[sq].toLowerCase();
    }
  }
  return pos;
}

function render(animate = false) {
  const g = state.game;
  const ply = state.ply;
  const pos = position(ply);
  board.update({
    position: pos,
    positionText: g.positions[ply],
    lastAction: ply ? g.actions[ply - 1] : null,
    ply,
    animate,
  });
  board.svg.dataset.peek = state.showDeal && g.deal ? "on" : "off";
  drawBest();
  renderStatus(pos);
  renderPlayers(pos);
  renderMoves();
  renderAnalysis();
  $("btn-first").disabled = ply === 0;
  $("btn-prev").disabled = ply === 0;
  $("btn-next").disabled = ply === last();
  $("btn-last").disabled = ply === last();
  $("ply-label").textContent = t("replay.ply", { ply, plies: last() });
  $("ply-label").dataset.ply = String(ply);
}

function renderStatus(pos) {
  const g = state.game;
  const ply = state.ply;
  const status = $("replay-status");
  let text;
  if (ply === last() && g.over) {
    text = resultText(g.result, { blue: displayName(g.blue), brown: displayName(g.brown) });
    status.dataset.colour = "";
  } else {
    text = ply === 0 ? t("replay.start") : t("replay.after", { n: moveNumber(ply - 1), action: g.actions[ply - 1] });
    text += ` · ${t("replay.to_move", { colour: colourName(pos.turn) })}`;
    status.dataset.colour = pos.turn;
  }
  status.textContent = text;
  const final = $("replay-final");
  final.hidden = pos.final === null || (ply === last() && g.over);
  if (!final.hidden) final.textContent = t("status.final", finalTurns(pos.final, pos.turn));
  announceStep(final.hidden ? "" : t("say.final_turns", finalTurns(pos.final, pos.turn)), ply === last() && g.over ? text : "");
}

/**
 * Each step in words for a screen reader: which action of how many, the action as the table says it
 * ("Brown: brown hunter aiming north from c3 to c6."), the final phase's turns, the result at the end.
 * The status line above shows the notation and is not read out as well.
 */
function announceStep(final, result) {
  const g = state.game;
  const ply = state.ply;
  const parts = [`${t("replay.ply", { ply, plies: last() })}:`];
  if (ply === 0) {
    parts.push(`${t("replay.start")}.`);
  } else {
    const before = parsePosition(g.positions[ply - 1]);
    parts.push(actionWords(g.actions[ply - 1], before.turn, before, parsePosition(g.positions[ply])));
  }
  if (final) parts.push(final);
  if (result) parts.push(`${result}.`);
  const text = parts.join(" ");
  if ($("announce").textContent !== text) $("announce").textContent = text;
}

function renderPlayers(pos) {
  const g = state.game;
  const score = g.scores?.[state.ply] ?? { blue: 0, brown: 0 };
  for (const colour of ["blue", "brown"]) {
    const box = $(`replay-${colour}`);
    const winner = state.ply === last() && g.over && g.result?.winner === colour;
    box.classList.toggle("to-move", !(state.ply === last() && g.over) && pos.turn === colour);
    box.classList.toggle("winner", winner);
    box.replaceChildren(
      el("div", { class: "player-head" }, el("div", { class: "player-name" }, playerLink(g[colour])),
        el("span", { class: `colour-chip ${colour}`, text: colourName(colour) })),
      el("div", { class: "player-score" },
        el("span", { class: "score", "data-testid": `replay-score-${colour}`, text: String(score[colour]) }),
        el("span", { class: "score-label", text: t("score.points") })),
      pileIcons(state.game.positions[state.ply].split(/\s+/)[colour === "blue" ? 7 : 8]));
  }
}

function renderInfo() {
  const g = state.game;
  const parts = [];
  parts.push(el("div", { class: "rules-info" }, ...ruleSummary(g.rules).map((r) => el("span", { class: "chip", text: r })),
    el("span", { class: "chip", text: g.rated ? t("games.rated") : t("games.unrated") }),
    g.archived ? el("span", { class: "chip", text: t("games.imported") }) : null));
  const when = g.finished || g.started;
  const facts = [];
  if (when) facts.push(formatDate(when));
  if (g.number && g.table && !g.archived) facts.push(t("replay.game_at", { game: g.number, table: g.table.replace(/^t_/, "") }));
  const line = el("p", { class: "help" }, facts.join(" · "));
  if (g.table && !g.archived) {
    line.append(" · ", el("a", { href: links.table(g.table), "data-testid": "replay-table", text: t("replay.to_table") }),
      " · ", el("a", { href: links.history({ table: g.table }), text: t("games.table_games") }));
  }
  parts.push(line);
  for (const [k, v] of Object.entries(g.headers || {})) parts.push(el("p", { class: "help header-line", text: `${k}: ${v}` }));
  if (!g.over) parts.push(el("p", { class: "notice", "data-testid": "replay-running", text: t("replay.running") }));
  $("replay-info").replaceChildren(...parts);
}

// The move list: blue's and brown's actions side by side; every action is a button to its ply.
function renderMoves() {
  const list = $("move-list");
  const actions = state.game.actions;
  if (list.childElementCount !== Math.ceil(actions.length / 2) + 1) {
    const rows = [el("li", { class: "start" }, moveButton(0, t("replay.start_short")))];
    for (let i = 0; i < actions.length; i += 2) {
      rows.push(el("li", {}, el("span", { class: "move-no", text: `${i / 2 + 1}.` }),
        moveButton(i + 1, actions[i], "blue"), i + 1 < actions.length ? moveButton(i + 2, actions[i + 1], "brown") : null));
    }
    list.replaceChildren(...rows);
  }
  for (const b of list.querySelectorAll("button.move")) {
    const played = b.dataset.ply > 0 ? state.evals.get(Number(b.dataset.ply) - 1)?.played : null;
    if ((b.dataset.mark || "") !== (played?.mark || "")) {
      b.querySelector(".mark")?.remove();
      const badge = markBadge(played);
      if (badge) b.append(badge);
      b.dataset.mark = played?.mark || "";
    }
    const on = Number(b.dataset.ply) === state.ply;
    b.classList.toggle("current", on);
    b.setAttribute("aria-current", on ? "step" : "false");
    if (on) {
      // Keep the current action in view inside the list only (the page itself must not jump).
      const top = b.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - b.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

function moveButton(ply, text, colour = "") {
  return el("button", { type: "button", class: `move ${colour}`, "data-ply": ply, "data-testid": `move-${ply}`,
    onclick: () => go(ply) }, text);
}

// Analysis ------------------------------------------------------------------------------------

/**
 * The game's analysis is one job on the server: the page asks for it and then looks again every
 * ``POLL`` ms while it runs, each answer carrying every position done so far, so the chart, the
 * marks and the best actions fill in as the work goes on. Once done it is stored with the game:
 * the next visitor gets the whole at once.
 */
const POLL = 600;

/** The evaluation at ``ply`` from blue's side (the server scores for the side to move). */
function evalOf(entry) {
  const toMove = entry.to_move;
  return { blue: toMove === "brown" ? -entry.score : entry.score, best: entry.best, toMove, depth: entry.depth,
    played: entry.played || null };
}

function finalEval() {
  const g = state.game;
  const s = g.scores?.[last()] ?? g.result.score;
  return { blue: s.blue - s.brown, best: null, toMove: null, final: true };
}

async function loadAnalysis() {
  if (state.loading) return;
  state.loading = true;
  try {
    while (state.analysis) {
      let found;
      try {
        found = await getJSON(`/api/games/${encodeURIComponent(state.game.id)}/analysis`);
      } catch (err) {
        state.job = { status: "error", error: err };
        renderAnalysis();
        return; // asked again when the analysis is switched on again
      }
      state.job = found;
      for (const entry of found.plies) state.evals.set(entry.ply, evalOf(entry));
      if (found.total === last() && state.game.over) state.evals.set(last(), finalEval());
      if (found.status === "done") {
        luck.show(found);
        announceProgress(found);
        render();
        return;
      }
      announceProgress(found);
      render();
      await new Promise((resolve) => setTimeout(resolve, POLL));
    }
  } finally {
    state.loading = false;
  }
}

/** For a screen reader: the start, every quarter and the end of the analysis, once each. A running
 * job can count every position done before it says it is done: the end is only the done job's. */
function announceProgress(job) {
  const quarter = job.status === "done" ? 4 : Math.min(3, Math.floor((4 * job.done) / Math.max(1, job.total)));
  if (state.announced === quarter) return;
  state.announced = quarter;
  $("analysis-announce").textContent = job.status === "done" ? t("analysis.done", { total: job.total })
    : t("analysis.progress", { done: job.done, total: job.total });
}

/** The progress bar and its words: queued (how many games go first), running, done. */
function progressNodes() {
  const job = state.job;
  if (!job) return [el("p", { class: "help", text: t("analysis.started") })];
  if (job.status === "error") return [el("p", { class: "form-error", "data-testid": "analysis-error", text: errorText(job.error) })];
  const done = job.status === "done";
  const bar = el("progress", { "data-testid": "analysis-progress", max: String(job.total || 1),
    value: String(job.done), "aria-label": t("analysis.progress_label"), "data-status": job.status,
    "data-done": job.done, "data-total": job.total, "data-computed-at": job.computed_at || "",
    "data-source": job.source || "" });
  const words = job.status === "queued" && job.ahead > 0 ? t("analysis.queued", { ahead: job.ahead })
    : done ? t("analysis.legend") : t("analysis.progress", { done: job.done, total: job.total });
  return [bar, el("p", { class: "help", "data-testid": "eval-progress", "data-done": job.done, text: words })];
}

function renderAnalysis() {
  const info = $("analysis-info");
  const host = $("eval-chart-host");
  const toggle = $("analysis-toggle");
  const g = state.game;
  if (!g) return;
  toggle.disabled = !g.over;
  toggle.title = g.over ? "" : t("analysis.after_end");
  info.hidden = !state.analysis && g.over;
  host.hidden = !state.analysis;
  if (!g.over) {
    info.hidden = false;
    info.textContent = t("analysis.after_end");
    return;
  }
  if (!state.analysis) return;
  const e = state.evals.get(state.ply);
  const parts = [];
  if (!e) {
    parts.push(el("p", { class: "help", text: t("analysis.thinking") }));
  } else {
    parts.push(el("p", { class: "eval-line", "data-testid": "eval-value", "data-value": e.blue },
      el("b", { text: evalWords(e.blue, e.final) })));
    if (e.best) {
      const played = state.game.actions[state.ply];
      parts.push(el("p", { "data-testid": "eval-best", "data-best": e.best },
        t("analysis.best", { action: e.best, colour: colourName(e.toMove) }),
        played && played.replace(/=.$/, "") !== e.best.replace(/=.$/, "")
          ? el("span", { class: "help", text: ` · ${t("analysis.played", { action: played })}` }) : null));
      if (e.played?.mark) {
        parts.push(el("p", { class: `mark-line mark-${e.played.mark}`, "data-testid": "eval-mark",
          "data-mark": e.played.mark }, markText(e.played)));
      }
    }
    if (e.depth) parts.push(el("p", { class: "help", text: t("analysis.depth", { depth: e.depth }) }));
  }
  info.replaceChildren(...parts);
  const points = [...Array(last() + 1).keys()].map((p) => {
    const v = state.evals.get(p);
    return { x: p, y: v ? v.blue : null, title: v ? `${p}: ${signed(v.blue, 1)}` : null };
  });
  const chart = lineChart(points, {
    width: 420, height: 210, zero: true, symmetric: true, minRange: 4, marker: state.ply, dot: 2,
    testid: "eval-chart", label: t("analysis.chart"), yLabel: t("analysis.chart_y"), xLabel: t("analysis.chart_x"),
    onPick: (i) => go(points[i].x),
  });
  host.replaceChildren(chart, ...progressNodes());
  luck.render({ shown: state.analysis, ply: state.ply, last: last() });
}

function evalWords(blue, final) {
  const v = Math.abs(blue);
  if (v < 0.05) return final ? t("analysis.final_even") : t("analysis.even");
  const colour = colourName(blue > 0 ? "blue" : "brown");
  const points = new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v);
  const text = t(final ? "analysis.final" : "analysis.ahead", { colour, points });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The engine's best action at this ply drawn on the board: an arrow, or a ring for a reveal. */
function drawBest() {
  const e = state.analysis ? state.evals.get(state.ply) : null;
  board.suggest(e?.best || null);
}

// Input ---------------------------------------------------------------------------------------

$("btn-first").addEventListener("click", () => go(0));
$("btn-prev").addEventListener("click", () => go(state.ply - 1));
$("btn-next").addEventListener("click", () => go(state.ply + 1, { animate: true }));
$("btn-last").addEventListener("click", () => go(last()));
document.addEventListener("keydown", (e) => {
  if (!state.game || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target.closest?.("input, textarea, select, [contenteditable]")) return;
  const moves = { ArrowLeft: () => go(state.ply - 1), ArrowRight: () => go(state.ply + 1, { animate: true }),
    Home: () => go(0), End: () => go(last()) };
  if (!moves[e.key]) return;
  e.preventDefault();
  moves[e.key]();
});
$("show-deal").addEventListener("change", (e) => {
  state.showDeal = e.target.checked;
  render();
});
$("analysis-toggle").addEventListener("change", (e) => {
  state.analysis = e.target.checked;
  if (state.analysis && state.job?.status === "error") state.job = null;
  render();
  if (state.analysis && state.game.over) {
    luck.waiting();
    loadAnalysis();
  }
});

// Start ---------------------------------------------------------------------------------------

function fail(err) {
  const box = $("page-error");
  box.textContent = errorText(err);
  box.dataset.key = err.key || "";
  box.hidden = false;
}

await initPage(() => {
  if (!state.game) return;
  renderInfo();
  renderFair(state.game);
  render();
});
whoAmI();
wireImport();
if (!gameId) {
  document.body.classList.add("no-game");
  $("import").open = true;
} else {
  try {
    state.game = await getJSON(`/api/games/${encodeURIComponent(gameId)}`);
    document.body.classList.add("has-game");
    document.title = `${displayName(state.game.blue)} – ${displayName(state.game.brown)} · ${t("title.replay")}`;
    const fromHash = Number.parseInt(location.hash.slice(1), 10);
    state.ply = Number.isFinite(fromHash) ? Math.max(0, Math.min(last(), fromHash)) : 0;
    renderInfo();
    renderRecord(state.game);
    render();
    await renderFair(state.game);
  } catch (err) {
    document.body.classList.add("no-game");
    fail(err);
  }
}
