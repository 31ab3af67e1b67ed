// How a match ends off the board, the same on both games' table pages (docs/protocol.md, "The table
// lifecycle"): the Resign and Abort buttons, the confirmation bar a resignation asks for, and — to a
// seated person who stayed — the countdown until an absent player's seat may be claimed, then the
// claim buttons. The markup is the `lifecycle()` macro of templates/parts.html; everything shown comes
// from the server's `table.lifecycle` and `confirm`, counted down here between messages.

import { el, errorText, toast, waitText } from "./common.js";
import { t } from "./i18n.js";
import { showTournament } from "./tournament-table.js";

/**
 * Whether this person may seat or remove computer players (the server checks again; a refusal is
 * `error.not_owner`): the table's owner, or, while the owner is neither seated nor at the table, any
 * seated person. ``table`` is a `table` message's table or a lobby summary.
 */
export function mayManageComputers(table, meId) {
  if (!table || !meId) return false;
  const owner = table.owner ?? null;
  if (owner === meId) return true;
  const seated = (id) => (table.seats || []).some((s) => s && s.id === id);
  const ownerHere = owner !== null && (seated(owner) || (table.spectators || []).some((p) => p.id === owner));
  return !ownerHere && seated(meId);
}

/** A wait as words, rounded up: "42 s", "3 min", "5 h", "2 d". */
export function durationText(seconds) {
  if (seconds < 3600) return waitText(seconds);
  if (seconds < 48 * 3600) return t("time.hours", { n: Math.ceil(seconds / 3600) });
  return t("time.days", { n: Math.ceil(seconds / 86400) });
}

export class TableLifecycle {
  /**
   * ``send(msg, onError)`` sends a request (``table`` is added); ``seatName(i)`` names a seat.
   * Call ``update(table)`` whenever the page redraws, ``confirm(msg)`` with the server's `confirm`.
   */
  constructor({ tableId, send, seatName, root = document }) {
    this.tableId = tableId;
    this.send = send;
    this.seatName = seatName;
    const $ = (id) => root.querySelector(`[data-testid="${id}"]`);
    this.box = $("lifecycle");
    this.resignButton = $("btn-resign");
    this.abortButton = $("btn-abort");
    this.confirmBar = $("confirm-bar");
    this.confirmText = $("confirm-text");
    this.yes = $("confirm-yes");
    this.no = $("confirm-no");
    this.claimBar = $("claim-bar");
    this.claimText = $("claim-text");
    this.claimSay = $("claim-say"); // read out when the bar appears and when a claim becomes possible, not every second
    this.claimWin = $("btn-claim-win");
    this.claimDraw = $("btn-claim-draw");
    this.table = null;
    this.claims = []; // the seats this person may claim against: [{seat, in}]
    this.request = null; // the request waiting for its confirmation: "resign", "abort", "leave" or "watch"
    this.claimAt = null; // performance.now() at which the earliest claim becomes possible
    this.shown = ""; // the claim bar's last text, so the countdown redraws only when it changes

    this.resignButton.addEventListener("click", () => this.ask("resign"));
    // Abort ends the match without a result for both: asked first, as Resign is.
    this.abortButton.addEventListener("click", () => this.ask("abort"));
    this.yes.addEventListener("click", () => {
      const request = this.request;
      this.closeConfirm(false);
      if (request === "abort") this.sendRequest({ type: "abort" });
      else if (request) this.sendRequest({ type: request, confirm: true });
    });
    this.no.addEventListener("click", () => this.closeConfirm(true));
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.request) {
        e.preventDefault();
        this.closeConfirm(true);
      }
    });
    for (const [button, result] of [[this.claimWin, "win"], [this.claimDraw, "draw"]]) {
      button.addEventListener("click", () => {
        this.claimWin.disabled = this.claimDraw.disabled = true; // until the server answers
        this.sendRequest({ type: "claim", result }, () => {
          this.claimWin.disabled = this.claimDraw.disabled = false;
        });
      });
    }
    setInterval(() => this.renderClaim(), 250);
  }

  sendRequest(msg, onError = null) {
    this.send({ ...msg, table: this.tableId }, (err) => {
      toast(errorText(err), "error");
      if (onError) onError(err);
    });
  }

  mySeat() {
    return this.table?.you?.seat ?? null;
  }

  running() {
    return !!this.table && this.table.state === "playing" && this.mySeat() !== null;
  }

  /**
   * Redraw for this table (a whole-table message's ``table``; the page calls this on every redraw).
   * The claims' countdown starts when a new table object arrives. ``abortable`` defaults to the
   * table's own ``lifecycle.abortable``; a page that follows the turns in between may say no sooner.
   */
  update(table, abortable = table.lifecycle?.abortable) {
    const fresh = table !== this.table;
    this.table = table;
    showTournament(table); // a tournament's table: its name and round, no rematch or abort
    const running = this.running();
    this.resignButton.hidden = !running;
    this.abortButton.hidden = !(running && abortable);
    if ((!running || (this.request === "abort" && this.abortButton.hidden)) && this.request) this.closeConfirm(false);
    if (fresh) {
      const mine = this.mySeat();
      this.claims = running ? (table.lifecycle?.claims || []).filter((c) => c.seat !== mine) : [];
      this.claimAt = this.claims.length ? performance.now() + 1000 * Math.min(...this.claims.map((c) => c.in)) : null;
      this.claimWin.disabled = this.claimDraw.disabled = false;
      this.shown = "";
    }
    this.renderClaim();
    this.syncBox();
  }

  /** The whole block is hidden when none of its parts is shown (no empty gap in the side bar). */
  syncBox() {
    this.box.hidden = this.resignButton.hidden && this.confirmBar.hidden && this.claimBar.hidden;
  }

  /** The server asks to confirm a request (a chat command, or leaving a running match). */
  confirm(msg) {
    if (msg.table !== undefined && msg.table !== this.tableId) return;
    this.ask(msg.request);
  }

  ask(request) {
    this.request = request;
    this.confirmText.textContent = t(`lifecycle.confirm.${request}`);
    this.confirmBar.dataset.request = request;
    this.confirmBar.hidden = false;
    this.syncBox();
    this.yes.focus();
  }

  closeConfirm(refocus) {
    const was = this.request;
    this.request = null;
    this.confirmBar.hidden = true;
    delete this.confirmBar.dataset.request;
    this.syncBox();
    const from = { resign: this.resignButton, abort: this.abortButton }[was];
    if (refocus && from && !from.hidden) from.focus();
  }

  /** The countdown until a claim, then the claim buttons; nothing for those away or watching. */
  renderClaim() {
    const claims = this.claims;
    if (!claims.length || this.claimAt === null) {
      if (!this.claimBar.hidden) {
        this.claimBar.hidden = true;
        this.syncBox();
      }
      return;
    }
    const left = Math.max(0, Math.ceil((this.claimAt - performance.now()) / 1000));
    const correspondence = this.table.mode === "correspondence";
    const two = this.table.seats.length === 2;
    let who;
    if (correspondence) who = left > 0 ? "" : t("lifecycle.opponent_late");
    else who = two ? t("lifecycle.opponent_away") : t("lifecycle.away", { names: claims.map((c) => this.seatName(c.seat)).join(", ") });
    let then;
    if (left > 0) {
      then = correspondence ? t("lifecycle.deadline", { time: durationText(left) }) : t("lifecycle.claim_in", { time: durationText(left) });
    } else {
      then = t("lifecycle.claim_now");
    }
    const text = who ? `${who} ${then}` : then;
    const state = left > 0 ? "waiting" : "ready";
    if (text === this.shown && this.claimBar.dataset.state === state) return;
    this.shown = text;
    this.claimText.textContent = text;
    if (this.claimBar.hidden || this.claimBar.dataset.state !== state) this.claimSay.textContent = text;
    this.claimBar.dataset.state = state;
    this.claimBar.dataset.seconds = String(left);
    this.claimWin.hidden = this.claimDraw.hidden = left > 0;
    this.claimBar.hidden = false;
    this.syncBox();
  }

  /** Texts after a language switch. */
  retranslate() {
    if (this.request) this.confirmText.textContent = t(`lifecycle.confirm.${this.request}`);
    this.shown = "";
    this.renderClaim();
  }
}

/** A small "remove computer" control for a seat, shown only to those who may use it. */
export function unbotButton(seat, send) {
  return el("button", { type: "button", class: "link", "data-testid": `unbot-${seat}`, text: t("cmd.unbot"),
    onclick: () => send({ type: "unbot", seat }) });
}
