// What every page shares: the language switch, the name in the header, the connection light,
// short notices, and turning the server's message keys into sentences.

import { KINDS } from "./art.js";
import { LANGUAGES, chooseLanguage, language, loadLanguage, rememberLanguage, t, translatePage } from "./i18n.js";

/** Load the language and wire the switch; ``onChange`` redraws what the page built itself. */
export async function initPage(onChange = () => {}) {
  try {
    await loadLanguage(chooseLanguage());
  } catch {
    await loadLanguage("en").catch(() => {});
  }
  const select = document.querySelector('[data-testid="lang-select"]');
  if (select) {
    select.replaceChildren(
      ...Object.entries(LANGUAGES).map(([code, name]) => {
        const o = document.createElement("option");
        o.value = code;
        o.textContent = name;
        return o;
      }),
    );
    select.value = language();
    select.addEventListener("change", async () => {
      rememberLanguage(select.value);
      await loadLanguage(select.value);
      translatePage();
      onChange();
    });
  }
  translatePage();
  // The HTML holds English placeholders; show the page once it speaks the chosen language.
  document.body.classList.add("ready");
}

export function setMe(you) {
  const me = document.querySelector('[data-testid="me-name"]');
  if (me && you) {
    me.textContent = you.name;
    me.dataset.id = you.id;
  }
}

export function setConnection(state) {
  const c = document.querySelector('[data-testid="conn"]');
  if (!c) return;
  c.dataset.state = state;
  c.title = t(state === "online" ? "conn.online" : "conn.offline");
}

let toastTimer = null;
export function toast(text, kind = "info") {
  const box = document.querySelector('[data-testid="toast"]');
  if (!box) return;
  box.textContent = text;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
  }, 4000);
}

export function tileName(kind) {
  return t(`tile.${kind}`);
}

export function colourName(colour) {
  return t(`colour.${colour}`);
}

/** A computer player's name: its level and the bot's own name (bot names are not translated). */
export function levelName(level, name) {
  return name ? `${name}` : String(level);
}

/** The sentence for a server message key; params the sentence shows are translated first. */
export function keyText(key, params = {}) {
  const p = { ...params };
  if (typeof p.seat === "number") p.seat = p.seat + 1;
  if (key === "chat.game_over" || key === "chat.match_over") {
    if (p.winner === null || p.winner === undefined) key = `${key}_draw`;
  }
  if (Array.isArray(p.totals)) p.totals = p.totals.join(" : ");
  if (key === "chat.bot_added" || key === "chat.bot_removed") p.name = levelName(p.level, p.name);
  if (key === "error.cannot_start" && p.reason) key = `error.cannot_start.${p.reason}`;
  if (key === "error.bad_name" && p.reason) key = `error.bad_name.${p.reason}`;
  if (Array.isArray(p.levels)) p.levels = p.levels.join(", ");
  const text = t(key, p);
  return text === key ? null : text;
}

/**
 * A rule the engine names (``rule.rifle`` with params, see games/forest/explain.py) as a sentence:
 * tile names, colours and directions in the params are translated too.
 */
export function ruleText(key, params = {}) {
  const p = { ...params };
  for (const k of ["tile", "target"]) if (p[k]) p[k] = t(`tile.${p[k]}`);
  if (key === "rule.cannot_capture" && params.tile) p.captures = t(`hint.captures.${params.tile}`);
  if (key === "rule.one_square" && params.tile) p.moves = t(`hint.moves.${params.tile}`);
  for (const k of ["rifle", "direction", "exit"]) if (p[k]) p[k] = t(`dir.${p[k]}`);
  if (p.player) p.player = colourName(p.player);
  if (key === "rule.green_lock") key = `rule.green_lock.${params.how === "revealed" ? "revealed" : "moved"}`;
  const text = t(key, p);
  return text === key ? null : text;
}

/** An `error` message as a sentence in the page's language (the English text is the fallback). */
export function errorText(err) {
  const params = err.params || {};
  if (err.key === "error.illegal" && params.rule) {
    const text = ruleText(params.rule, params.rule_params || {});
    if (text) return text;
  }
  return keyText(err.key, params) ?? err.message ?? err.key;
}

export function ruleSummary(rules) {
  const parts = [t(`rules.match.${rules.match}`)];
  parts.push(`${t("rules.green_lock")}: ${t(`rules.green_lock.${rules.green_lock}`)}`);
  parts.push(`${t("rules.stall_limit")}: ${rules.stall_limit === 0 ? t("rules.off") : rules.stall_limit}`);
  if (rules.no_return_neutrals) parts.push(t("rules.no_return_neutrals"));
  return parts;
}

/** What a tile does, for the hover / long-press hint and the how-to-play page. */
export function tileHint(letter) {
  const info = KINDS[letter];
  if (!info) return null;
  const lines = [t(`hint.moves.${info.kind}`), t(`hint.captures.${info.kind}`)];
  if (info.rifle) lines.push(t("hint.rifle", { dir: t(`dir.${info.rifle}`) }));
  lines.push(t("hint.value", { value: info.value }));
  return {
    title: `${tileName(info.kind)} · ${colourName(info.side)}`,
    lines,
  };
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k === "html") e.innerHTML = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}
