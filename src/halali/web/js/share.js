// A table waiting for people: its address to send, and a button that copies it. Shown to a seated
// player while a seat is free and the table has not started. On a phone it lies under the board, so
// the first time it shows the page scrolls just enough to bring it into view: the link is what the
// player came for.

import { el, toast } from "./common.js";
import { t } from "./i18n.js";

export class ShareBox {
  constructor(after) {
    this.input = el("input", { id: "share-link", "data-testid": "share-link", readonly: true, value: location.origin + location.pathname });
    this.label = el("label", { for: "share-link", "data-i18n": "share.label", text: t("share.label") });
    this.copy = el("button", { type: "button", "data-testid": "share-copy", "data-i18n": "share.copy", text: t("share.copy"),
      onclick: () => this.copyLink() });
    this.box = el("div", { class: "share", "data-testid": "share", hidden: true }, this.label,
      el("div", { class: "row" }, this.input, this.copy));
    this.shown = false;
    this.input.addEventListener("focus", () => this.input.select());
    after.after(this.box);
  }

  update(table, seat) {
    this.box.hidden = !(table.state === "waiting" && seat !== null && table.seats.some((s) => !s));
    if (!this.box.hidden && !this.shown) {
      this.shown = true;
      requestAnimationFrame(() => {
        if (this.box.getBoundingClientRect().bottom > window.innerHeight) this.box.scrollIntoView({ block: "nearest" });
      });
    }
  }

  async copyLink() {
    this.input.select();
    try {
      await navigator.clipboard.writeText(this.input.value);
      toast(t("share.copied"));
    } catch {
      // No clipboard for the page (a plain http:// address other than localhost): the player copies
      // the selected link, by the keys or, on a touch screen, by holding a finger on it.
      toast(t(matchMedia("(pointer: coarse)").matches ? "share.copy_yourself_touch" : "share.copy_yourself"));
    }
  }
}

/**
 * A one-click game's last steps at its table (``?do=computer&bots=N&level=L`` from the lobby):
 * computers take the free seats and the match starts, unrated. ``send`` adds what the game's
 * messages need (the hare page names its table).
 */
export function startAgainstComputers(params, send) {
  const level = Number(params.get("level")) || undefined;
  const bots = Math.max(1, Math.min(5, Number(params.get("bots")) || 1));
  for (let i = 0; i < bots; i++) send({ type: "bot", level });
  send({ type: "start", rated: false });
}
