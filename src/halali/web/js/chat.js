// The table chat of both games. The history comes once per connection and later lines one by one,
// so a private reply (/help) is not wiped by the next table update; the server's notices are keys
// with params, shown in the reader's language and translated again after a language switch. A game
// may tell its actions in the chat too (the hare hunt does, in words): each server line marked
// ``at`` ({match, ply}) was said after that many actions of that match and is woven in after them.

import { botBadge } from "./challenges.js";
import { el, keyText } from "./common.js";

// Items the log shows at most. Past that the oldest action goes first (the moves list keeps every
// action), so what people said, and the replies to their commands, stay through a long hunt.
const MAX_LINES = 400;
const KEEP_LINES = 400; // server lines kept to weave the actions in again
// Notices the summary dialog says as it opens: the log shows them but does not say them again.
const SAID_IN_THE_DIALOG = new Set(["chat.game_over", "chat.match_over", "chat.rating"]);

export class Chat {
  /** ``send(text, onError)`` sends what the player typed, and the form clears; ``showError`` shows a
   * refusal. A line that goes unsent after all (no connection; or the page's first connection, which
   * held it, closed before its welcome) comes back into an empty box, to be sent again. */
  constructor({ log, form, input, send, showError }) {
    this.log = log; // the scrolling box (a live log); its lines are the <li> of the list inside
    this.list = log.querySelector("ol") || log;
    this.loaded = false;
    this.said = []; // the server's lines since the history, in order
    this.acts = []; // the current match's actions in words: {words, notation}
    this.actsMatch = null;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      const refused = (error) => {
        if (error?.key === "conn.offline" && !input.value) input.value = text;
        showError(error);
      };
      if (send(text, refused) !== false) input.value = "";
    });
  }

  /** A new connection: the next history replaces what is shown. */
  reconnected() {
    this.loaded = false;
  }

  /** The table's chat history, taken only once per connection. */
  history(lines) {
    if (this.loaded) return;
    this.loaded = true;
    this.said = [...lines];
    this.render();
  }

  add(line) {
    this.said.push(line);
    if (this.said.length > KEEP_LINES) this.said.splice(0, this.said.length - KEEP_LINES);
    this.list.append(this.item(line));
    this.trim();
    this.log.scrollTop = this.log.scrollHeight;
  }

  /**
   * The actions of match ``match`` in words (``items``: ``{words, notation}`` in order). New actions
   * of the same match are added at the end, as they come; anything else (another match, ``redo``
   * after a language switch) weaves the whole chat again.
   */
  setActions(match, items, { redo = false } = {}) {
    const grows = !redo && match === this.actsMatch && items.length >= this.acts.length
      && this.acts.every((a, i) => a.notation === items[i].notation);
    const from = this.acts.length;
    this.acts = items;
    this.actsMatch = match;
    if (!this.loaded) return;
    if (!grows) {
      this.render();
      return;
    }
    if (items.length === from) return;
    for (const item of items.slice(from)) this.list.append(actionItem(item));
    this.trim();
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** Every line and action again, the actions placed by the lines' ``at``. */
  render() {
    const out = [];
    let next = 0;
    for (const line of this.said) {
      const at = line.at;
      if (at && at.match === this.actsMatch) {
        while (next < Math.min(at.ply, this.acts.length)) out.push(actionItem(this.acts[next++]));
      }
      out.push(this.item(line));
    }
    while (next < this.acts.length) out.push(actionItem(this.acts[next++]));
    this.list.replaceChildren(...out);
    this.trim();
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** At most MAX_LINES items: the oldest actions leave first, then the oldest lines. */
  trim() {
    let over = this.list.children.length - MAX_LINES;
    if (over <= 0) return;
    for (const li of [...this.list.querySelectorAll(":scope > li.action")].slice(0, over)) li.remove();
    over = this.list.children.length - MAX_LINES;
    while (over-- > 0) this.list.firstChild.remove();
  }

  /** The lines shown, as the server sent them. */
  lines() {
    return [...this.list.children].map((li) => li._line).filter(Boolean);
  }

  retranslate() {
    for (const li of this.list.children) if (li._line?.key) li.textContent = text(li._line);
  }

  item(line) {
    const li = el("li", { class: line.key ? "notice" : "said" });
    if (line.private) li.classList.add("private");
    if (line.key) {
      li.dataset.key = line.key;
      li.textContent = text(line);
      if (SAID_IN_THE_DIALOG.has(line.key)) li.setAttribute("aria-hidden", "true");
    } else {
      const badge = botBadge(line.from);
      li.append(el("b", { text: `${line.from?.name ?? "?"}` }), ...(badge ? [badge] : []), el("b", { text: ": " }), line.text);
    }
    li._line = line;
    return li;
  }
}

/** An action in the chat: its words, and the notation beside them for the eye (a reader hears the words). */
function actionItem(item) {
  return el("li", { class: "action", "data-notation": item.notation },
    el("span", { class: "words", text: item.words }), " ",
    el("code", { class: "notation", "aria-hidden": "true", text: item.notation }));
}

function text(line) {
  return line.key ? keyText(line.key, line.params || {}) ?? line.key : line.text;
}
