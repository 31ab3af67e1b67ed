// The course: lessons of small tasks on the real board. The page shows a task's position and sends
// each action to the server, which plays it with the rules engine: an illegal action comes back with
// the rule it breaks, a legal one that is not what the task asks for with the task's own words, a
// right one with the position after it (and the other side's answer). The stars of each task are
// kept for the player, guest or account.

import { getJSON, postJSON } from "./api.js";
import { Board } from "./board.js";
import { el, errorText, initPage } from "./common.js";
import { parsePosition } from "./forest.js";
import { HareBoard, parseHare } from "./hare-board.js";
import { hareButtons, hareClick, hareMarks } from "./hare-controls.js";
import { t } from "./i18n.js";
import { notationBox } from "./words.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

const state = {
  lessons: [],
  lesson: null,
  task: null,
  moves: [],
  position: "",
  legal: [],
  lastAction: null,
  mistakes: 0,
  done: false,
  selected: null, // the hare hunter picked up
};

const board = new Board($("board-host"), {
  onAction: send,
  onIllegal(from, to) {
    if (state.done || to === null || from === to) return;
    const target = parsePosition(state.position).board[to];
    send(/^[NESW]$/.test(to) ? `${from}-${to}` : target && target !== "?" ? `${from}x${to}` : `${from}-${to}`);
  },
  onAnnounce: announce,
});

const hare = new HareBoard($("hare-host"), {
  onCell(cell) {
    const click = hareClick(state.done ? [] : state.legal, state.selected, cell);
    if (click.action) return send(click.action);
    state.selected = click.select;
    redraw();
  },
  onDrag(from, to) {
    if (state.legal.includes(`${from}-${to}`)) send(`${from}-${to}`);
  },
  onAnnounce: announce,
});

function announce(text) {
  $("announce").textContent = text;
}

function feedback(text, kind) {
  const box = $("feedback");
  box.textContent = text;
  box.dataset.kind = kind;
}

const key = (suffix) => `learn.${state.lesson.id}.${state.task.id}.${suffix}`;
const stars = (n) => "★".repeat(n) + "☆".repeat(3 - n);

async function send(action) {
  if (!state.task || state.done) return;
  let got;
  try {
    got = await postJSON(`/api/learn/${state.lesson.id}/${state.task.id}/move`,
      { moves: state.moves, action, mistakes: state.mistakes });
  } catch (err) {
    board.refused();
    state.mistakes += err.key === "error.illegal" ? 1 : 0;
    feedback(errorText(err), "illegal");
    $("feedback").dataset.rule = err.params?.rule ?? err.key;
    redraw();
    return;
  }
  if (!got.correct) {
    board.refused();
    state.mistakes += 1;
    feedback(t(key("wrong")), "wrong");
    redraw();
    return;
  }
  state.moves.push(action);
  state.position = got.position;
  state.legal = got.legal;
  state.lastAction = got.played[got.played.length - 1];
  // A hare hunter keeps the hand after a turn, and the hand follows it after a step.
  const stepped = /^([a-k]\d+)-([a-k]\d+)$/.exec(action);
  const keep = stepped ? stepped[2] : state.selected;
  state.selected = keep && got.legal.some((a) => a.startsWith(`${keep}-`) || a.startsWith(`${keep}>`)) ? keep : null;
  if (got.done) {
    state.done = true;
    state.task.stars = got.best;
    feedback(`${t(key("done"))} ${t("learn.stars", { n: got.stars })}`, "done");
    $("task-stars").textContent = `${stars(got.stars)} ${t("learn.stars", { n: got.stars })}`;
    $("task-stars").dataset.stars = String(got.stars);
  } else {
    feedback(got.played.length > 1 ? t("learn.reply", { action: got.played[1] }) : t("learn.good"), "step");
  }
  redraw(true);
}

function redraw(animate = false) {
  const task = state.task;
  if (!task) return;
  const forest = state.lesson.game === "forest";
  $("board-host").hidden = !forest;
  $("notation-form").hidden = !forest;
  $("hare-host").hidden = forest;
  const legal = state.done ? [] : state.legal;
  if (forest) {
    board.update({ position: parsePosition(state.position), positionText: state.position, legal,
      interactive: !state.done, lastAction: state.lastAction, ply: state.moves.length, animate });
  } else {
    hare.draw(parseHare(state.position), hareMarks(legal, state.selected));
    const buttons = hareButtons(legal, state.selected, send);
    $("hare-actions").replaceChildren(...buttons.general);
    $("hare-hunter-controls").replaceChildren(...buttons.own);
  }
  if (forest) {
    $("hare-actions").replaceChildren();
    $("hare-hunter-controls").replaceChildren();
  }
  $("btn-next-task").hidden = !state.done || !nextTask();
  document.body.dataset.task = `${state.lesson.id}/${task.id}`;
  document.body.dataset.state = state.done ? "done" : "playing";
}

function nextTask() {
  const ls = state.lessons;
  const li = ls.indexOf(state.lesson);
  const ti = state.lesson.tasks.indexOf(state.task);
  if (ti + 1 < state.lesson.tasks.length) return [state.lesson, state.lesson.tasks[ti + 1]];
  if (li + 1 < ls.length) return [ls[li + 1], ls[li + 1].tasks[0]];
  return null;
}

/** The task's words in the page's language (again after a switch of language). */
function words() {
  const lesson = state.lesson;
  $("task-title").textContent = `${t(`learn.${lesson.id}.title`)} · ${t(key("title"))}`;
  $("task-goal").textContent = t(key("goal"));
}

function open(lesson, task) {
  Object.assign(state, { lesson, task, moves: [], position: task.position, legal: task.legal, lastAction: null,
    mistakes: 0, done: false, selected: null });
  $("lessons").hidden = true;
  document.querySelector(".learn-intro").hidden = true;
  $("task").hidden = false;
  words();
  $("task-stars").textContent = task.stars ? `${t("learn.best")} ${stars(task.stars)}` : "";
  delete $("task-stars").dataset.stars;
  feedback("", "");
  if (location.hash !== `#${lesson.id}/${task.id}`) history.pushState(null, "", `#${lesson.id}/${task.id}`);
  redraw();
  $("task-title").focus();
}

function showLessons() {
  state.task = null;
  $("task").hidden = true;
  $("lessons").hidden = false;
  document.querySelector(".learn-intro").hidden = false;
  delete document.body.dataset.task;
  const all = state.lessons.flatMap((l) => l.tasks);
  const earned = all.reduce((n, x) => n + x.stars, 0);
  $("learn-progress").textContent = t("learn.progress", { stars: earned, total: all.length * 3 });
  $("lessons").replaceChildren(...state.lessons.map((lesson) => el("article", { class: "panel lesson", "data-testid": `lesson-${lesson.id}` },
    el("h2", { text: t(`learn.${lesson.id}.title`) }),
    el("p", { text: t(`learn.${lesson.id}.intro`) }),
    el("ol", { class: "lesson-tasks" }, ...lesson.tasks.map((task) => el("li", {},
      el("button", { type: "button", "data-testid": `task-${lesson.id}-${task.id}`, onclick: () => open(lesson, task),
        "aria-label": `${t(`learn.${lesson.id}.${task.id}.title`)}, ${t("learn.stars", { n: task.stars })}` },
      el("span", { class: "task-name", text: t(`learn.${lesson.id}.${task.id}.title`) }),
      el("span", { class: "stars", "aria-hidden": "true", "data-stars": String(task.stars), text: stars(task.stars) }))))))));
}

function fromHash() {
  const [lid, tid] = location.hash.slice(1).split("/");
  const lesson = state.lessons.find((l) => l.id === lid);
  const task = lesson?.tasks.find((x) => x.id === tid);
  if (lesson && task) open(lesson, task);
  else showLessons();
}

$("btn-next-task").addEventListener("click", () => {
  const n = nextTask();
  if (n) open(...n);
});
$("btn-retry").addEventListener("click", () => open(state.lesson, state.task));
$("btn-lessons").addEventListener("click", () => {
  history.pushState(null, "", location.pathname);
  showLessons();
});
window.addEventListener("popstate", fromHash);

notationBox($("notation-form"), $("notation-input"), {
  legal: () => (state.done ? [] : state.legal),
  play: (action) => board.send(action),
  tryAction: (text) => send(text),
  onBad: () => feedback(t("kb.not_notation"), "illegal"),
});

await initPage(() => {
  board.retranslate();
  if (state.task) {
    words();
    redraw();
  } else {
    showLessons();
  }
});
state.lessons = (await getJSON("/api/learn")).lessons;
fromHash();
