// The one WebSocket a page keeps to the server (docs/protocol.md). It reconnects by itself, and on
// every (re)connect calls ``onOpen`` so the page can subscribe again. Every message about a table
// carries its event number ``v``; ``openTable`` sends the last one seen, so a page that comes back
// receives only the events it missed (or the whole table when the server no longer has them).
// A tournament's "your game is ready" is shown here, on whichever page the player is.

import { tournamentReady } from "./tournament-ready.js";

export class Connection {
  constructor({ onOpen = () => {}, onMessage = () => {}, onStatus = () => {} } = {}) {
    this.onOpen = onOpen;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.nextRef = 1;
    this.retry = 500;
    this.pending = new Map();
    this.versions = new Map(); // table id -> the number of the last event seen there
    // Presses made while the page's first connection is still opening (the name and the page are
    // shown from /api/me before the socket's welcome): sent once it is open, after ``onOpen``.
    this.early = [];
    this.welcomed = false;
  }

  /** Open a table's page, resuming after the last event seen there (docs/protocol.md, "Events"). */
  openTable(tableId, onError = null) {
    const since = this.versions.get(tableId);
    return this.send({ type: "open", table: tableId, ...(since === undefined ? {} : { since }) }, onError);
  }

  async connect() {
    // The session cookie comes with any HTTP response; a socket without it is refused (4401).
    try {
      await fetch("/api/me", { credentials: "same-origin" });
    } catch {
      /* the socket below reports the failure */
    }
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 500;
      this.onStatus("online");
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (typeof msg.v === "number") {
        const table = typeof msg.table === "string" ? msg.table : msg.table && msg.table.id;
        if (table) this.versions.set(table, msg.v);
      }
      if (msg.type === "welcome") {
        const first = !this.welcomed;
        this.welcomed = true;
        this.onOpen(msg); // subscribes first: the early presses then act on a page that is up to date
        if (first) this.sendEarly();
      }
      if (msg.type === "tournament_game") tournamentReady(msg);
      if (msg.type === "error" && msg.ref !== undefined && this.pending.has(msg.ref)) {
        const cb = this.pending.get(msg.ref);
        this.pending.delete(msg.ref);
        cb(msg);
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.failEarly();
      this.onStatus("offline");
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    });
  }

  /** Send a message; ``onError`` is called with the server's error if this request causes one, or at
   * once with ``conn.offline`` when no open connection can carry it, so that no press goes unanswered.
   * Before the page's first welcome the message waits for it (and is answered as offline if that
   * first connection closes instead). */
  send(msg, onError = null) {
    if (!this.welcomed && (!this.ws || this.ws.readyState !== WebSocket.CLOSED)) {
      this.early.push([msg, onError]);
      return true;
    }
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      if (onError) onError({ key: "conn.offline" });
      return false;
    }
    const ref = this.nextRef++;
    if (onError) {
      this.pending.set(ref, onError);
      // Requests that succeed never hear back by ref; forget the oldest ones.
      if (this.pending.size > 100) this.pending.delete(this.pending.keys().next().value);
    }
    this.ws.send(JSON.stringify({ ...msg, ref }));
    return true;
  }

  sendEarly() {
    const early = this.early;
    this.early = [];
    for (const [msg, onError] of early) this.send(msg, onError);
  }

  /** The first connection closed before its welcome: what waited for it is answered as offline. */
  failEarly() {
    const early = this.early;
    this.early = [];
    for (const [, onError] of early) if (onError) onError({ key: "conn.offline" });
  }
}
