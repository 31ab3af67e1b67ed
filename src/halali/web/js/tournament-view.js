// A tournament's rounds, standings and crosstable, drawn from one `tournament` message (docs/protocol.md,
// "Tournaments"; the crosstable's rows are halali.tournament.standings.CrossRow). The rounds are tabs
// in the ARIA pattern: one tab stop, arrow keys, Home and End move between the rounds.

import { links } from "./api.js";
import { botBadge } from "./challenges.js";
import { computerName, el } from "./common.js";
import { t } from "./i18n.js";
import { pointsText } from "./tournament-cards.js";

/** A player as the tournament names it: a link to the profile, a computer level by its name and its
 * level's badge (a phone cuts "Computer (greedy)" short: the badge still tells the computers apart, as
 * on the leaderboard), a BOT badge. */
export function playerCell(player, levelNames = {}) {
  if (!player) return el("span", { text: "–" });
  const computer = player.level !== null && player.level !== undefined;
  const name = computer ? computerName(player.level, levelNames[player.level]) : player.name;
  return el("span", { class: `player-cell ${player.withdrawn ? "withdrawn" : ""}` },
    el("a", { class: "player-link name", href: links.player(player.id), "data-player": player.id, title: name, text: name }),
    computer ? el("span", { class: "badge bot-badge", "data-testid": "bot-mark", title: t("player.bot"),
      text: t("player.level", { level: player.level }) }) : null,
    botBadge({ bot_account: player.bot }),
    player.withdrawn ? el("span", { class: "chip", text: t("tournament.withdrawn") }) : null);
}

/** A pairing's result in words: "1 – 0", "½ – ½", a hare table's points, a bye, an absence, or "being played". */
export function resultText(p) {
  if (p.kind === "bye") return t("tournament.bye");
  if (p.kind === "absent") return t("tournament.absent");
  if (!p.points) return t("tournament.in_play");
  const text = p.points.map(pointsText).join(" – ");
  return p.kind === "forfeit" ? `${text} (${t("tournament.forfeit")})` : text;
}

export class RoundTabs {
  /** ``tabs`` and ``panel`` are the tab list and its one panel; ``onPick`` is told of a round chosen by hand. */
  constructor(tabs, panel) {
    this.tabs = tabs;
    this.panel = panel;
    this.picked = null; // a round chosen by hand stays shown; otherwise the current round is
    this.tabs.addEventListener("keydown", (e) => this.key(e));
  }

  key(e) {
    const buttons = [...this.tabs.querySelectorAll('[role="tab"]')];
    const at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = buttons[(to + buttons.length) % buttons.length];
    this.pick(Number(next.dataset.round));
    this.tabs.querySelector(`[data-round="${next.dataset.round}"]`)?.focus();
  }

  pick(round) {
    this.picked = round;
    if (this.last) this.render(...this.last);
  }

  render(tm, names) {
    this.last = [tm, names];
    const rounds = [...new Set(tm.pairings.map((p) => p.round).filter((r) => r > 0))].sort((a, b) => a - b);
    const shown = rounds.includes(this.picked) ? this.picked : rounds.at(-1);
    this.tabs.replaceChildren(...rounds.map((r) => el("button", {
      type: "button", role: "tab", id: `round-tab-${r}`, "data-round": r, "data-testid": `round-tab-${r}`,
      "aria-selected": r === shown ? "true" : "false", "aria-controls": "round-panel", tabindex: r === shown ? "0" : "-1",
      text: t("tournament.round_n", { round: r }), onclick: () => this.pick(r) })));
    this.panel.hidden = shown === undefined;
    if (shown === undefined) return;
    this.panel.setAttribute("aria-labelledby", `round-tab-${shown}`);
    const rows = tm.pairings.filter((p) => p.round === shown).sort((a, b) => a.board - b.board);
    this.panel.replaceChildren(el("table", { class: "data-table pairings", "data-testid": "pairings" },
      el("thead", {}, el("tr", {},
        el("th", { class: "num", text: t("tournament.board") }),
        el("th", { text: t("tournament.players") }),
        el("th", { text: t("tournament.result") }),
        el("th", { text: t("tournament.table") }))),
      el("tbody", {}, ...rows.map((p) => el("tr", { "data-testid": `pairing-${p.round}-${p.board}`, class: `kind-${p.kind}` },
        el("td", { class: "num", text: String(p.board) }),
        el("td", { class: "pairing-players" }, ...p.players.flatMap((id, i) => (i ? [el("span", { class: "vs", text: " – " }), names(id)] : [names(id)]))),
        el("td", { "data-testid": "pairing-result", text: resultText(p) }),
        el("td", {}, p.table ? el("a", { href: links.table(p.table), "data-testid": "pairing-table", class: "button small",
          text: t(p.points ? "tournament.see_table" : p.table === tm.you?.table ? "lobby.open" : "cmd.watch") }) : null))))));
  }
}

/** The standings with their tie-breaks, in order (docs/tournaments.md, "Standings and tie-breaks"). */
export function standingsTable(tm, names) {
  const num = (text, testid = null) => el("td", { class: "num", "data-testid": testid, text });
  return el("table", { class: "data-table standings", "data-testid": "standings" },
    el("thead", {}, el("tr", {}, ...[["num", "leaderboard.rank"], ["", "leaderboard.player"], ["num", "tournament.score"],
      ["num", "tournament.buchholz"], ["num", "tournament.games"], ["num", "tournament.tiles"], ["num", "tournament.played"]]
      .map(([cls, key]) => el("th", { class: cls, text: t(key) })))),
    el("tbody", {}, ...tm.standings.map((s) => el("tr", { "data-testid": `standing-${s.id}`, "data-player": s.id },
      num(String(s.rank), "standing-rank"), el("td", {}, names(s.id)), num(pointsText(s.score), "standing-score"),
      num(pointsText(s.buchholz)), num(pointsText(s.games)), num(String(s.tiles)), num(String(s.played))))));
}

/** The crosstable: one row per player in standing order, a cell per round ("+3" won against number 3). */
export function crossTable(tm, names) {
  const rounds = Array.from({ length: tm.rounds }, (_, i) => i + 1);
  return el("table", { class: "data-table crosstable", "data-testid": "crosstable" },
    el("thead", {}, el("tr", {},
      el("th", { class: "num", text: t("tournament.number") }),
      el("th", { text: t("leaderboard.player") }),
      ...rounds.map((r) => el("th", { class: "num", scope: "col", text: String(r), title: t("tournament.round_n", { round: r }) })),
      el("th", { class: "num", text: t("tournament.score") }))),
    el("tbody", {}, ...tm.crosstable.map((row) => el("tr", { "data-testid": `cross-${row.id}`, "data-player": row.id },
      el("td", { class: "num", text: String(row.number) }),
      el("td", {}, names(row.id)),
      ...rounds.map((r) => {
        const cell = row.cells.find((c) => c.round === r);
        return el("td", { class: `num cell kind-${cell?.kind || "none"}`, "data-testid": `cross-cell-${r}`, text: cell?.text || "" });
      }),
      el("td", { class: "num", "data-testid": "cross-score", text: pointsText(row.score) })))));
}
