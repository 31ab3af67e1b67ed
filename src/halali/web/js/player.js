// A player's profile: rating per game (with its uncertainty, rank and provisional mark) and a chart
// of its history, results overall and per role (as blue / as brown), and the latest games.

import { getJSON, links, pageId } from "./api.js";
import { botBadge, outcomeText } from "./challenges.js";
import { colourName, el, errorText, initPage, signed, whoAmI } from "./common.js";
import { lineChart } from "./chart.js";
import { t } from "./i18n.js";
import { Connection } from "./net.js";
import { RATING_SCALE, displayName, formatDate, gamesTable, ratingBadge, uncertainty } from "./people.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const id = pageId("player");
const state = { player: null, games: [], me: null };

function fail(err) {
  const box = $("page-error");
  box.textContent = errorText(err);
  box.dataset.key = err.key || "";
  box.hidden = false;
}

function head() {
  const p = state.player;
  const name = $("player-name");
  name.replaceChildren(displayName(p));
  const kind = p.bot ? t("player.bot_level", { level: p.bot }) : p.account ? t("me.account") : t("me.guest");
  name.append(el("span", { class: `badge ${p.bot ? "bot-badge" : p.account ? "account-badge" : "guest-badge"}`,
    "data-testid": "player-kind", text: kind }));
  const bot = botBadge(p);
  if (bot) name.append(bot);
  if (state.me && state.me.id === p.id) name.append(el("span", { class: "you-tag", text: t("seat.you") }));
  // Anyone may challenge a person or a bot account to a forest match; the computer levels sit at tables.
  $("challenge-box").hidden = Boolean(p.bot) || (state.me && state.me.id === p.id);
  $("player-meta").textContent = p.since ? t("profile.since", { date: formatDate(p.since, false) }) : "";
  document.title = `${displayName(p)} – Halali!`;
}

function ratingHistoryChart(game, r) {
  const history = r.history || [];
  // Every rated match is a point; the band is the uncertainty (± sigma on the rating's scale).
  const points = history.map((h, i) => ({
    x: i + 1,
    y: h.rating,
    lo: h.rating - RATING_SCALE * h.sigma,
    hi: h.rating + RATING_SCALE * h.sigma,
    title: `${formatDate(h.time)}: ${h.rating} ± ${Math.round(RATING_SCALE * h.sigma)}`
      + (typeof h.before === "number" ? ` (${signed(h.rating - h.before)})` : ""),
  }));
  return lineChart(points, {
    width: 640, height: 220, band: true, minRange: 40, testid: `rating-chart-${game}`,
    label: t("profile.chart", { game: t(`game.${game}`) }), yLabel: t("leaderboard.rating"), xLabel: t("profile.chart_x"),
    empty: t("profile.no_history"),
  });
}

function ratings() {
  const box = $("ratings");
  const entries = Object.entries(state.player.ratings || {});
  if (!entries.length) {
    box.replaceChildren(el("p", { class: "empty", "data-testid": "no-rating", text: t("profile.unrated") }));
    return;
  }
  box.replaceChildren(...entries.map(([game, r]) => el("div", { class: "rating-card", "data-testid": `rating-${game}`, "data-game": game },
    el("div", { class: "rating-line" },
      el("span", { class: "game-name", text: t(`game.${game}`) }),
      ratingBadge(r, "rating-value"),
      r.rank ? el("a", { class: "rank", href: links.leaderboard(game), "data-testid": "rating-rank", text: t("profile.rank", { rank: r.rank }) }) : null),
    el("p", { class: "help", text: [
      t("profile.matches", { n: r.matches }),
      t("profile.uncertainty", { n: uncertainty(r) }),
      r.provisional ? t("rating.provisional") : null,
    ].filter(Boolean).join(" · ") }),
    ratingHistoryChart(game, r))));
}

function bar(row) {
  const total = Math.max(1, row.games ?? row.played ?? 0);
  const seg = (k) => el("span", { class: `seg ${k}`, style: `width:${(100 * (row[k] || 0)) / total}%` });
  return el("div", { class: "result-bar", "aria-hidden": "true" }, seg("won"), seg("drawn"), seg("lost"));
}

function results() {
  const r = state.player.results;
  if (!r) {
    $("results").replaceChildren();
    return;
  }
  const line = (label, row, testid, cls = "") => el("tr", { "data-testid": testid, class: cls },
    el("th", {}, label),
    el("td", { class: "num", text: String(row.games ?? row.played ?? 0) }),
    el("td", { class: "num won", text: String(row.won) }),
    el("td", { class: "num drawn", text: String(row.drawn) }),
    el("td", { class: "num lost", text: String(row.lost) }),
    el("td", { class: "bar-cell" }, bar(row)));
  const forest = r.games > 0 || !r.hunts?.played; // a hare hunter who never played the forest game sees only hunts
  const rows = forest ? [
    line(t("profile.all_games_row"), r, "results-all"),
    line(el("span", { class: "colour-chip blue", text: t("profile.as", { colour: colourName("blue") }) }), r.blue, "results-blue"),
    line(el("span", { class: "colour-chip brown", text: t("profile.as", { colour: colourName("brown") }) }), r.brown, "results-brown"),
  ] : [];
  if (forest && r.matches) rows.push(line(t("profile.matches_row"), r.matches, "results-matches", "matches-row"));
  if (r.hunts?.played) rows.push(line(t("profile.hunts_row"), r.hunts, "results-hunts", "matches-row"));
  $("results").replaceChildren(el("table", { class: "data-table results-table" },
    el("thead", {}, el("tr", {}, el("th", {}, el("span", { class: "sr-only", text: t("profile.col_games") })),
      el("th", { class: "num", text: t("profile.games_col") }),
      el("th", { class: "num", text: t("games.won") }), el("th", { class: "num", text: t("games.drawn") }),
      el("th", { class: "num", text: t("games.lost") }), el("th", { class: "bar-cell" }, el("span", { class: "sr-only", text: t("profile.col_share") })))),
    el("tbody", {}, ...rows)));
}

function games() {
  const box = $("games");
  box.replaceChildren(state.games.length ? gamesTable(state.games, { you: state.player.id })
    : el("p", { class: "empty", text: t("history.empty") }));
  $("all-games").href = links.history({ player: state.player.id });
}

function render() {
  if (!state.player) return;
  head();
  ratings();
  results();
  games();
}

// ---- a challenge from this page: one socket, opened when the first is sent ----------------------
let conn = null;
let sent = null; // the challenge this page sent and waits on
function challengeStatus(text, key = "") {
  $("challenge-status").textContent = text;
  $("challenge-status").dataset.key = key;
}
function onChallengeMessage(msg) {
  if (msg.type === "challenge" && msg.challenge.from.id === conn.me?.id && msg.challenge.to.id === id) {
    sent = msg.challenge.id;
    challengeStatus(t("challenge.sent", { name: state.player.name }), "challenge.sent");
  } else if (msg.type === "challenge_accepted" && msg.challenge === sent) {
    location.href = links.table(msg.table);
  } else if (["challenge_declined", "challenge_expired", "challenge_canceled"].includes(msg.type) && msg.challenge === sent) {
    sent = null;
    challengeStatus(outcomeText(msg, state.player.name), msg.key || msg.type);
  }
}
$("challenge-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target;
  const pace = f.elements.namedItem("pace").value.split("-");
  const msg = { type: "challenge", to: id, rules: { match: f.elements.namedItem("match").value },
    rated: f.elements.namedItem("rated").checked, mode: pace[0] };
  if (pace.length === 3) msg.clock = { initial: Number(pace[1]), increment: Number(pace[2]) };
  const fail = (err) => challengeStatus(errorText(err), err.key);
  if (conn) {
    conn.send(msg, fail);
    return;
  }
  let first = msg; // sent once the socket is open; a reconnect does not send it again
  conn = new Connection({ onOpen(welcome) {
    conn.me = welcome.you;
    if (first) conn.send(first, fail);
    first = null;
  }, onMessage: onChallengeMessage });
  conn.connect();
});

await initPage(render);
state.me = await whoAmI();
const who = id || state.me?.id;
try {
  state.player = await getJSON(`/api/players/${encodeURIComponent(who)}`);
  const list = await getJSON(`/api/players/${encodeURIComponent(who)}/games?limit=10`);
  state.games = list.games || [];
  render();
} catch (err) {
  fail(err);
}
