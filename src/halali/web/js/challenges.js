// Bot accounts and challenges on the page (docs/bots.md): the BOT badge next to a bot account's name,
// the challenges a player has open (to accept, decline or call off), and sending one from a profile.
// Challenges arrive on any of the player's sockets; the lobby lists them, a profile sends them.

import { clockText, el, errorText, toast } from "./common.js";
import { t } from "./i18n.js";

/** The badge after a bot account's name (``bot_account`` in the server's player objects), or null. */
export function botBadge(p) {
  if (!p || !p.bot_account) return null;
  return el("span", { class: "badge bot-account-badge", "data-testid": "bot-account", title: t("bot.badge_title"),
    text: t("bot.badge") });
}

/** What a challenge proposes, in words: length, rated or not, pace and clock. */
export function challengeTerms(c) {
  const parts = [t(`rules.match.${c.rules?.match || "match"}`), t(c.rated ? "games.rated" : "games.unrated"), t(`mode.${c.mode}`)];
  if (c.clock) parts.push(clockText(c.clock));
  return parts.join(" · ");
}

/**
 * The challenges of one socket's player in a list box: incoming ones with Accept and Decline, one's
 * own with Call off. Returns the message handler (true when it took the message); an accepted one
 * goes to its table.
 */
export function challengeList(box, conn, you) {
  const open = new Map();
  function render() {
    box.hidden = open.size === 0;
    const list = box.querySelector("ul");
    list.replaceChildren(...[...open.values()].map((c) => {
      const incoming = c.to.id === you()?.id;
      const who = incoming ? c.from : c.to;
      const buttons = incoming
        ? [el("button", { type: "button", class: "primary small", "data-testid": "challenge-accept", text: t("challenge.accept"),
          onclick: () => conn.send({ type: "accept", challenge: c.id }, (e) => toast(errorText(e), "error")) }),
        el("button", { type: "button", class: "small", "data-testid": "challenge-decline", text: t("challenge.decline"),
          onclick: () => conn.send({ type: "decline", challenge: c.id, reason: "generic" }) })]
        : [el("button", { type: "button", class: "small", "data-testid": "challenge-cancel", text: t("challenge.cancel"),
          onclick: () => conn.send({ type: "challenge_cancel", challenge: c.id }) })];
      return el("li", { class: "challenge", "data-testid": incoming ? "challenge-in" : "challenge-out", "data-challenge": c.id },
        el("span", { class: "challenge-who" }, t(incoming ? "challenge.from" : "challenge.to", { name: who.name }), botBadge(who)),
        el("span", { class: "help", text: challengeTerms(c) }), ...buttons);
    }));
  }
  function handle(msg) {
    if (msg.type === "challenge") {
      open.set(msg.challenge.id, msg.challenge);
    } else if (msg.type === "challenge_accepted") {
      open.delete(msg.challenge);
      location.href = `/table/${encodeURIComponent(msg.table)}`;
    } else if (["challenge_declined", "challenge_canceled", "challenge_expired"].includes(msg.type)) {
      const c = open.get(msg.challenge);
      open.delete(msg.challenge);
      if (c && c.from.id === you()?.id) toast(outcomeText(msg, c.to.name), msg.type === "challenge_declined" ? "error" : "info");
    } else {
      return false;
    }
    render();
    return true;
  }
  render();
  return handle;
}

/** How a challenge one sent ended, for the challenger. */
export function outcomeText(msg, name) {
  if (msg.type === "challenge_declined") return t("challenge.declined", { name, reason: t(msg.key) });
  if (msg.type === "challenge_expired") return t("challenge.expired", { name });
  return t("challenge.canceled");
}
