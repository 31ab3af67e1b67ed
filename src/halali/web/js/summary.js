// The end-of-game and end-of-match dialog of the forest table: every game of the match with both
// players' points, tiles and piles and its replay, the match total, the rating change of a rated
// match (provisional ones said so), how a game ended off the board, and the luck verdict.

import { links } from "./api.js";
import { colourName, el, keyText, nameEl } from "./common.js";
import { t } from "./i18n.js";
import { showMatchLuck } from "./luck.js";
import { Modal } from "./modal.js";
import { pileIcons } from "./piles.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

export class Summary {
  /**
   * ``page`` gives the table's state: {state, seatName(seat), mySeat(), chatLines()}, and
   * ``boardFocus()``, the board's square that takes the focus back when the dialog closes.
   */
  constructor(page) {
    this.page = page;
    this.shownFor = null; // "match:game" whose summary was shown
    this.modal = new Modal($("summary"), { fallback: () => page.boardFocus?.() ?? null });
    $("summary-close").addEventListener("click", () => this.hide());
  }

  hide() {
    this.modal.hide();
  }

  /** After a `table` or `game` message: open the dialog once per finished game. */
  maybe(initial) {
    const { state } = this.page;
    const game = state.games[state.games.length - 1];
    if (!game || !game.over) return;
    const id = `${state.table.match_number}:${game.number}`;
    if (this.shownFor === id) return;
    this.shownFor = id;
    // On a fresh page only a finished match is worth a dialog; a finished game 1 is history.
    if (initial && !state.match?.over) return;
    this.show(game, false);
  }

  show(game) {
    if (!game || !game.over) return;
    const { state, seatName, mySeat } = this.page;
    const table = state.table;
    const r = game.result;
    const matchOver = !!state.match?.over && game.number === state.games.length;
    const wholeMatch = matchOver && table.number_of_games === 2;
    const gameLine = r.winner_seat === null ? t("summary.game_result_draw", { game: game.number })
      : t("summary.game_result", { game: game.number, name: seatName(r.winner_seat) });
    if (wholeMatch) {
      // The match decides; the last game's result becomes the note.
      $("summary-title").textContent = t("summary.match_over");
      $("summary-winner").textContent = state.match.winner === null ? t("summary.match_draw")
        : t("summary.match_winner", { name: seatName(state.match.winner) });
    } else {
      $("summary-title").textContent = t("summary.game_over", { game: game.number });
      $("summary-winner").textContent = r.winner_seat === null ? t("summary.draw") : t("summary.winner", { name: seatName(r.winner_seat) });
    }
    const rows = [el("colgroup", {}, el("col", { class: "c-who" }), el("col", { class: "c-side" }), el("col", { class: "c-points" }),
      el("col", { class: "c-tiles" })),
    el("tr", {}, el("th", { scope: "col", text: t("summary.player") }), el("th", { scope: "col" }, el("span", { class: "side-word", text: t("summary.colour") })),
      el("th", { scope: "col", class: "num", text: t("summary.points") }), el("th", { scope: "col", class: "num", text: t("summary.tiles") }))];
    // Every finished game of the match, each under its own heading with its replay.
    const games = wholeMatch ? state.games.filter((g) => g.over) : [game];
    for (const g of games) {
      const last = g === game;
      if (games.length > 1) {
        rows.push(el("tr", { class: "game-row", "data-testid": `summary-game-${g.number}` },
          el("th", { colspan: "4" }, t("summary.game_heading", { game: g.number }),
            g.id !== null && g.id !== undefined
              ? el("a", { class: "game-replay", href: links.replay(g.id), "data-testid": `summary-replay-${g.number}`, text: t("summary.replay") })
              : null)));
      }
      for (const seat of [0, 1]) {
        const c = g.colours[seat];
        rows.push(el("tr", { "data-testid": last ? `summary-seat-${seat}` : `summary-g${g.number}-seat-${seat}`,
          class: `seat-row ${g.result.winner_seat === seat ? "won" : ""}` },
        el("td", { class: "who" }, nameEl(seatName(seat))),
        el("td", {}, el("span", { class: `colour-chip ${c}` }, el("span", { class: "side-word", text: colourName(c) }))),
        el("td", { class: "num", text: String(g.result.score[c]) }),
        el("td", { class: "num", text: String(g.result.tiles[c]) })));
        rows.push(el("tr", { class: "pile-row" }, el("td", { colspan: "4" }, pileIcons(g.piles[c], { over: true }))));
      }
    }
    if (table.number_of_games === 2 && state.match) {
      // One cell: two long names share the row's whole width, each cut to fit, the score between them.
      rows.push(el("tr", { class: "totals-row", "data-testid": "summary-match" }, el("td", { colspan: "4" },
        el("div", { text: t("summary.match_total") }),
        el("div", { class: "totals-score" }, nameEl(seatName(0)), " ",
          el("b", { text: `${state.match.totals[0]} : ${state.match.totals[1]}` }), " ", nameEl(seatName(1))))));
    }
    $("summary-table").replaceChildren(...rows);
    let note = "";
    if (wholeMatch) {
      note = gameLine;
    } else if (!matchOver && table.number_of_games === 2 && game.number === 1) {
      note = t("summary.next_game");
    }
    const ended = this.endedNote(game);
    if (ended) note = note ? `${ended} ${note}` : ended;
    $("summary-note").textContent = note;
    this.showRatings(matchOver);
    $("summary-replay").hidden = game.id === undefined || game.id === null || games.length > 1;
    if (!$("summary-replay").hidden) $("summary-replay").href = links.replay(game.id);
    $("summary-rematch").hidden = !(matchOver && mySeat() !== null);
    $("summary-luck").hidden = true;
    if (matchOver && game.id !== undefined && game.id !== null) showMatchLuck($("summary-luck"), game.id, seatName);
    const box = $("summary");
    box.dataset.match = matchOver ? "over" : "";
    // The heading takes the focus: a screen reader reads the title and the result, and a key pressed
    // in a hurry on the board just before does nothing here.
    this.modal.show($("summary-title"));
  }

  /** The dialog is open: the page's own redraws leave it and its focus alone. */
  get open() {
    return this.modal.open;
  }

  /**
   * The rating changes of this match: the server's `chat.rating` notices since the match began (an
   * unrated match has none, and says so). A notice that comes after the dialog opened redraws it.
   */
  showRatings(matchOver) {
    const box = $("summary-rating");
    const lines = matchOver ? this.ratingLines() : [];
    box.replaceChildren(...lines.map((l) => el("div", { class: "rating-line", text: keyText(l.key, l.params || {}) ?? "" })));
    if (matchOver && !lines.length && this.page.state.table.rated === false) {
      box.append(el("div", { class: "rating-line", text: t("summary.unrated") }));
    }
    box.hidden = !box.childElementCount;
  }

  ratingLines() {
    const lines = this.page.chatLines();
    let start = 0;
    lines.forEach((l, i) => {
      if (l.key && l.key.startsWith("chat.started")) start = i;
    });
    return lines.slice(start).filter((l) => l.key === "chat.rating");
  }

  /** A rating notice arrived: refresh the open dialog's ratings. */
  ratingArrived() {
    if (!$("summary").hidden && $("summary").dataset.match === "over") this.showRatings(true);
  }

  /** Why a game ended off the board, as a sentence about the seat that lost it ("Ann resigned."). */
  endedNote(game) {
    const { seatName } = this.page;
    const loser = game.result.winner_seat === null ? null : 1 - game.result.winner_seat;
    if (game.termination === "abandon" && loser === null) return t("summary.abandoned_draw");
    if (game.termination === "deadline") return t("summary.deadline"); // a tournament round's, a draw
    const key = { time: "summary.on_time", resign: "summary.resigned", abandon: "summary.abandoned" }[game.termination];
    return key && loser !== null ? t(key, { name: seatName(loser) }) : "";
  }
}
