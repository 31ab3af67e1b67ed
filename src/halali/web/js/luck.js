// Luck and skill as the pages show them: the verdict in words ("blue was luckier by about 5 points"),
// the replay page's luck panel (each side's luck, points lost and luck-adjusted result, and a bar per
// reveal with the luckiest and unluckiest marked), and the marks of decisions in the move list.
//
// The numbers come from the server (GET /api/games/{id}/analysis and /match-luck); nothing here
// searches or decides a mark, it only words and draws them.

import { barChart } from "./chart.js";
import { getJSON } from "./api.js";
import { colourName, el, signed } from "./common.js";
import { t } from "./i18n.js";

/** The symbols chess readers know, by the server's mark. */
export const MARK_SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The verdict lines of a luck answer; ``nameOf(player)`` words a side (a colour or a seat). */
export function verdictText(summary, nameOf) {
  return summary.map(({ key, params }) => {
    const p = { ...params };
    if (p.player !== undefined) p.player = nameOf(p.player);
    const text = t(key, p);
    return text.charAt(0).toUpperCase() + text.slice(1);
  }).join(" · ");
}

/** A decision's badge in the move list, or null for an unmarked one. */
export function markBadge(played) {
  if (!played?.mark) return null;
  return el("span", { class: `mark mark-${played.mark}`, "data-testid": "mark", "data-mark": played.mark,
    title: markText(played), text: MARK_SYMBOL[played.mark] });
}

/** "Mistake: about 5.2 points lost" (the better action is shown beside it by the caller). */
export function markText(played) {
  return t("mark.loss", { mark: t(`mark.${played.mark}`), points: points(played.loss) });
}

/** "12." for blue's action, "12…" for brown's, as the move list numbers them (blue moves first). */
export function moveNumber(index) {
  return `${Math.floor(index / 2) + 1}${index % 2 ? "…" : "."}`;
}

function points(v) {
  return new Intl.NumberFormat(document.documentElement.lang || "en", { minimumFractionDigits: 1,
    maximumFractionDigits: 1 }).format(v);
}

/**
 * The luck panel of one finished game (its nodes): the verdict, a table of both sides, the bars
 * of the reveals (for blue: a brown reveal's luck counts against blue) and, for ``ply``, the luck
 * of the reveal that led there. ``onPick(ply)`` goes to the position after a reveal.
 */
export function luckNodes(luck, { ply, last, onPick }) {
  const colours = ["blue", "brown"];
  const rows = [el("tr", {}, el("th", {}), el("th", { text: t("luck.side_luck") }),
    el("th", { text: t("luck.side_loss") }), el("th", { text: t("luck.side_adjusted") }))];
  for (const c of colours) {
    const s = luck.sides[c];
    rows.push(el("tr", { "data-testid": `luck-side-${c}`, "data-luck": s.luck, "data-loss": s.skill_loss,
      "data-adjusted": s.adjusted },
    el("th", { scope: "row" }, el("span", { class: `colour-chip ${c}`, text: colourName(c) })),
    el("td", { text: signed(s.luck, 1) }), el("td", { text: points(s.skill_loss) }),
    el("td", { text: signed(s.adjusted, 1) })));
  }
  const special = { [luck.luckiest]: "luckiest", [luck.unluckiest]: "unluckiest" };
  const bars = luck.reveals.map((r) => {
    const forBlue = r.player === "blue" ? r.luck : -r.luck;
    const kind = special[r.ply];
    return { x: r.ply + 1, y: forBlue, ply: r.ply, className: kind || "",
      testid: kind ? `luck-${kind}` : "luck-bar",
      title: `${moveNumber(r.ply)} ${r.action}: ${t("luck.reveal", { colour: colourName(r.player), luck: signed(r.luck, 2) })}` };
  });
  const chart = barChart(bars, { width: 420, height: 170, from: 0, to: last, marker: ply, testid: "luck-chart",
    label: t("luck.chart"), yLabel: t("luck.chart_y"), xLabel: t("analysis.chart_x"), onPick: (b) => onPick(b.ply + 1) });
  const here = luck.reveals.find((r) => r.ply === ply - 1);
  const extremes = ["luckiest", "unluckiest"].map((kind) => {
    const r = luck.reveals.find((x) => x.ply === luck[kind]);
    if (!r) return null;
    return el("li", {}, el("button", { type: "button", class: "linkish", "data-testid": `goto-${kind}`,
      onclick: () => onPick(r.ply + 1) }, `${t(`luck.${kind}`)}: ${moveNumber(r.ply)} ${r.action}`),
    ` (${colourName(r.player)}, ${signed(r.luck, 1)})`);
  });
  return [
    el("p", { class: "luck-verdict", "data-testid": "luck-summary" },
      el("b", { text: verdictText(luck.summary, colourName) })),
    el("table", { class: "luck-sides", "data-testid": "luck-sides" }, ...rows),
    chart,
    el("ul", { class: "luck-extremes" }, ...extremes),
    el("p", { class: "help", "data-testid": "luck-here", "data-ply": here ? here.ply : "" },
      here ? t("luck.reveal", { colour: colourName(here.player), luck: signed(here.luck, 2) }) : t("luck.legend")),
    el("p", { class: "help", text: t("luck.depth", { depth: luck.depth }) }),
  ];
}

/** The replay page's luck panel: the luck comes with the game's whole analysis (``show``); until
 * then the panel says it is weighing. */
export class LuckPanel {
  constructor(host, onPick) {
    this.host = host;
    this.onPick = onPick;
    this.luck = null; // the analysis | {pending}
  }

  waiting() {
    if (!this.luck) this.luck = { pending: true };
  }

  show(analysis) {
    this.luck = analysis;
  }

  render({ shown, ply, last }) {
    this.host.hidden = !shown || !this.luck;
    if (this.host.hidden) return;
    const l = this.luck;
    const title = el("h3", { class: "luck-title", text: t("luck.title") });
    if (l.pending) this.host.replaceChildren(title, el("p", { class: "help", text: t("luck.thinking") }));
    else this.host.replaceChildren(title, ...luckNodes(l, { ply, last, onPick: this.onPick }));
  }
}

/**
 * The end-of-match verdict into ``node`` ("Ann was luckier by about 14 points · Bob played better by
 * about 6 points"), from the match's luck by seat; ``nameOf(seat)`` names a seat. The node says it is
 * weighing until the answer comes, and is emptied when there is none (the server's allowance).
 */
export async function showMatchLuck(node, gameId, nameOf) {
  node.hidden = false;
  node.dataset.state = "pending";
  node.textContent = t("summary.luck_thinking");
  try {
    const found = await getJSON(`/api/games/${encodeURIComponent(gameId)}/match-luck`);
    node.textContent = verdictText(found.summary, nameOf);
    node.dataset.state = "done";
  } catch {
    node.textContent = "";
    node.hidden = true;
    node.dataset.state = "none";
  }
}
