// The table chat of both games. The history comes once per connection and later lines one by one,
// so a private reply (/help) is not wiped by the next table update; the server's notices are keys
// with params, shown in the reader's language and translated again after a language switch.

import { botBadge } from "./challenges.js";
import { el, keyText } from "./common.js";

const MAX_LINES = 200;
// Notices the summary dialog says as it opens: the log shows them but does not say them again.
const SAID_IN_THE_DIALOG = new Set(["chat.game_over", "chat.match_over", "chat.rating"]);

export class Chat {
  /** ``send(text)`` sends what the player typed; the form clears when it was sent. */
  constructor({ log, form, input, send }) {
    this.log = log; // the scrolling box (a live log); its lines are the <li> of the list inside
    this.list = log.querySelector("ol") || log;
    this.loaded = false;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      if (send(text) !== false) input.value = ""; // unsent (no connection), the words stay to send again
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
    this.list.replaceChildren(...lines.map((line) => this.item(line)));
    this.log.scrollTop = this.log.scrollHeight;
  }

  add(line) {
    this.list.append(this.item(line));
    while (this.list.children.length > MAX_LINES) this.list.firstChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
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

function text(line) {
  return line.key ? keyText(line.key, line.params || {}) ?? line.key : line.text;
}
