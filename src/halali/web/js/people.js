// What the profile, leaderboard, history and replay pages share: player names with their links and
// computer marks, ratings with their uncertainty and provisional mark, dates, and the list of games.

import { links } from "./api.js";
import { botBadge } from "./challenges.js";
import { colourName, computerName, el, terminationText } from "./common.js";
import { language, t } from "./i18n.js";

// docs/protocol.md: rating = 1000 + round(40 × (mu − 3 × sigma)); sigma is shown on the same scale.
export const RATING_SCALE = 40;

/** A rating as shown everywhere: the number, with "?" while it is provisional. */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

/** The uncertainty in rating points (sigma on the rating's scale). */
export function uncertainty(r) {
  return Math.round(RATING_SCALE * r.sigma);
}

export function ratingBadge(r, testid = null, { sigma = true } = {}) {
  const box = el("span", { class: `rating ${r.provisional ? "provisional" : ""}`, "data-testid": testid,
    "data-rating": r.rating, "data-provisional": r.provisional ? "true" : "false",
    title: r.provisional ? t("rating.provisional") : null });
  box.append(el("b", { text: String(r.rating) }));
  if (r.provisional) box.append(el("span", { class: "provisional-mark", text: "?" }));
  if (sigma) box.append(el("span", { class: "sigma", text: ` ± ${uncertainty(r)}` }));
  return box;
}

/** A player's display name: computer players as "Computer (name)" or "Computer 2 (name)", as at the table. */
export function displayName(p) {
  if (!p) return "–";
  return p.bot ? computerName(p.bot, p.name, p.number) : p.name;
}

/** A name linking to the profile, with a mark for computer players (their level) and accounts. */
export function playerLink(p, { you = null } = {}) {
  if (!p) return el("span", { text: "–" });
  // Cut to fit where it must (a phone's list of games), whole on hover and to a screen reader.
  const a = el("a", { class: `player-link name ${p.bot ? "bot" : ""}`, href: p.id ? links.player(p.id) : null,
    "data-player": p.id || "", title: displayName(p) }, displayName(p));
  const parts = [a];
  if (p.bot) parts.push(el("span", { class: "badge bot-badge", "data-testid": "bot-mark", title: t("player.bot"),
    text: t("player.level", { level: p.bot }) }));
  const bot = botBadge(p);
  if (bot) parts.push(bot);
  if (you && p.id === you) parts.push(el("span", { class: "you-tag", text: t("seat.you") }));
  return el("span", { class: "player-cell" }, ...parts);
}

export function formatDate(iso, withTime = true) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const opts = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(language(), opts).format(d);
}

/** The result of a finished game in words, from a list entry or a replay (``result`` as the server sends it). */
export function resultText(result, names = {}) {
  if (!result) return "";
  const score = `${result.score.blue} : ${result.score.brown}`;
  let text;
  if (result.winner) text = t("result.won", { name: names[result.winner] ?? colourName(result.winner), colour: colourName(result.winner), score });
  else text = t("result.draw", { score });
  const how = terminationText(result.termination);
  if (how) text += ` · ${how}`;
  return text;
}

/**
 * Finished games as a table: when, blue, brown, score, rated, and links to the replay and the table.
 * ``you`` marks one player's side (the profile / history of that player): won, lost or drawn.
 */
export function gamesTable(games, { you = null } = {}) {
  const head = el("tr", {},
    el("th", { text: t("games.when") }),
    el("th", { class: "blue", text: colourName("blue") }),
    el("th", { class: "brown", text: colourName("brown") }),
    el("th", { class: "num", text: t("games.score") }),
    you ? el("th", { text: t("games.outcome") }) : null,
    el("th", { class: "kind", text: t("games.kind") }),
    el("th", {}, el("span", { class: "sr-only", text: t("games.links") })));
  const rows = games.map((g) => {
    const side = you ? (g.blue?.id === you ? "blue" : g.brown?.id === you ? "brown" : null) : null;
    let outcome = null;
    if (side) {
      const w = g.result?.winner;
      outcome = w === null || w === undefined ? "drawn" : w === side ? "won" : "lost";
    }
    const winner = g.result?.winner;
    const kind = [g.rated ? t("games.rated") : t("games.unrated")];
    if (g.archived) kind.push(t("games.imported"));
    const how = terminationText(g.result?.termination);
    if (how) kind.push(how);
    return el("tr", { "data-testid": `game-${g.id}`, "data-game": g.id, class: outcome ? `outcome-${outcome}` : "" },
      el("td", { class: "when", text: formatDate(g.finished) }),
      el("td", { class: winner === "blue" ? "winner" : "" }, playerLink(g.blue)),
      el("td", { class: winner === "brown" ? "winner" : "" }, playerLink(g.brown)),
      el("td", { class: "num score-cell", text: g.result ? `${g.result.score.blue} : ${g.result.score.brown}` : "" }),
      side ? el("td", {}, el("span", { class: `outcome ${outcome}`, "data-testid": "outcome", text: t(`games.${outcome}`) }),
        el("span", { class: `colour-chip ${side}`, text: colourName(side) })) : null,
      el("td", { class: "kind", text: kind.join(" · ") }),
      el("td", { class: "links" },
        el("a", { class: "button small primary", href: links.replay(g.id), "data-testid": "open-replay", text: t("games.replay") }),
        g.table && !g.archived ? el("a", { class: "button small", href: links.history({ table: g.table }), "data-testid": "table-games",
          title: t("games.table_games"), text: t("lobby.table_name", { id: String(g.table).replace(/^t_/, "") }) }) : null));
  });
  // A narrow screen scrolls the table sideways rather than the whole page.
  return el("div", { class: "table-scroll" },
    el("table", { class: "data-table games-table", "data-testid": "games-table" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}
