// What every page shares: the language switch, the name in the header, the connection light,
// short notices, and turning the server's message keys into sentences.

import { getJSON, links, postJSON } from "./api.js";
import { KINDS } from "./art.js";
import { LANGUAGES, chooseLanguage, has, language, loadLanguage, rememberLanguage, t, translatePage } from "./i18n.js";

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
      pageHeading();
      if (lastYou) setMe(lastYou);
      onChange();
    });
  }
  translatePage();
  pageHeading();
  wireSkipLink();
  document.querySelector('[data-testid="btn-logout"]')?.addEventListener("click", logout);
  whoAmI();
  // The HTML holds English placeholders; show the page once it speaks the chosen language.
  document.body.classList.add("ready");
}

/**
 * The skip link, the first stop of Tab: to the page's board when it has one (the square that holds
 * the board's tab stop), else to the start of the page's content.
 */
/** A page without a heading of its own (a table's page) gets one, for readers to find it by. */
function pageHeading() {
  const main = document.querySelector("main");
  if (!main) return;
  let h1 = main.querySelector('h1[data-testid="page-heading"]');
  if (!h1) {
    if (main.querySelector("h1")) return;
    h1 = el("h1", { class: "sr-only", "data-testid": "page-heading" });
    main.prepend(h1);
  }
  const id = /^\/table\/([^/]+)/.exec(location.pathname)?.[1];
  h1.textContent = id ? t("lobby.table_name", { id: decodeURIComponent(id).replace(/^t_/, "") }) : document.title;
}

function wireSkipLink() {
  const link = document.querySelector('[data-testid="skip-link"]');
  const main = document.querySelector("main");
  if (!link || !main) return;

  if (!main.id) main.id = "main";
  if (!main.hasAttribute("tabindex")) main.tabIndex = -1;
  link.href = `#${main.id}`;
  link.addEventListener("click", (e) => {
    e.preventDefault();
    const cell = [...main.querySelectorAll('[role="grid"] [tabindex="0"]')].find((c) => c.getClientRects().length);
    (cell || main).focus();
  });
}

let meAccount = null; // the welcome message may not say; /api/me does
let lastYou = null;

/**
 * Who this browser is, in the header: the name (a link to the profile), "guest" or "account", and
 * log in / log out. ``you.account`` missing keeps what /api/me said last.
 */
export function setMe(you) {
  if (!you) return;
  lastYou = you;
  if (typeof you.account === "boolean") meAccount = you.account;
  const me = document.querySelector('[data-testid="me-name"]');
  if (me) {
    me.textContent = you.name;
    me.title = you.name || ""; // cut short on a phone: the whole name on hover
    me.hidden = !you.name; // an empty link is nothing to read out or to click: shown once it has a name
    me.dataset.id = you.id;
    if (me.tagName === "A") me.href = links.player(you.id);
  }
  const kind = document.querySelector('[data-testid="me-kind"]');
  if (kind && meAccount !== null) {
    kind.hidden = false;
    kind.dataset.kind = meAccount ? "account" : "guest";
    kind.textContent = t(meAccount ? "me.account" : "me.guest");
  }
  const login = document.querySelector('[data-testid="link-login"]');
  if (login) {
    login.hidden = meAccount !== false;
    login.href = links.account(location.pathname + location.search);
  }
  const logout = document.querySelector('[data-testid="btn-logout"]');
  if (logout) logout.hidden = meAccount !== true;
}

let mePromise = null;

/** Who this browser is, asked once per page (pages that need the answer await it). */
export function whoAmI() {
  if (!mePromise) mePromise = loadMe();
  return mePromise;
}

/** Ask the server who this browser is (and get the session cookie on a fresh visit). */
export async function loadMe() {
  try {
    const you = await getJSON("/api/me");
    setMe(you);
    return you;
  } catch {
    return null;
  }
}

async function logout() {
  try {
    await postJSON("/api/logout", {});
  } catch (err) {
    toast(errorText(err), "error");
    return;
  }
  // The session is gone: the next load is a new guest, and its socket gets the new cookie.
  location.reload();
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

/** A computer level's name as the level chooser shows it (bot names are not translated). */
export function levelName(level, name) {
  return name ? `${name}` : String(level);
}

/**
 * The one name of a computer player, wherever it shows (tables of both games, the chat, results,
 * lobby cards, ratings, replays): "Computer (greedy)", or with its seat's number where the server
 * numbers it ("Computer 2 (heuristic)"; the rule is ``computer_number`` in server/views.py).
 */
export function computerName(level, name, number = null) {
  const level_ = levelName(level, name);
  return number ? t("seat.bot_name_n", { name: level_, number }) : t("seat.bot_name", { name: level_, level });
}

/** A name as the server sends it: a person's name, or a computer as ``{bot, name, number}``. */
export function nameText(who) {
  if (who && typeof who === "object") return who.bot ? computerName(who.bot, who.name, who.number) : String(who.name ?? "?");
  return who === null || who === undefined ? "?" : String(who);
}

/** The sentence for a server message key; params the sentence shows are translated first. */
export function keyText(key, params = {}) {
  const p = { ...params };
  if (typeof p.seat === "number") p.seat = p.seat + 1;
  if (key === "chat.game_over" || key === "chat.match_over") {
    if (p.winner === null || p.winner === undefined) key = `${key}_draw`;
  }
  if (Array.isArray(p.totals)) p.totals = p.totals.join(" : ");
  // Notices stored before computers were named as objects carry the level's name and its level.
  if ((key === "chat.bot_added" || key === "chat.bot_removed") && typeof p.name === "string") p.name = computerName(p.level, p.name);
  if (key === "chat.rating" && typeof p.name === "string" && p.bot) p.name = computerName(p.bot, p.name);
  for (const k of ["name", "winner", "by", "blue", "brown"]) if (p[k] && typeof p[k] === "object") p[k] = nameText(p[k]);
  if (Array.isArray(p.winners)) p.winners = listText(p.winners.map(nameText), "conjunction");
  if (key === "chat.hare_over" && Array.isArray(params.winners) && params.winners.length > 1) key = "chat.hare_over_shared";
  if (key === "error.cannot_start" && p.reason) key = `error.cannot_start.${p.reason}`;
  if (key === "error.bad_name" && p.reason) key = `error.bad_name.${p.reason}`;
  // A field a person can get wrong through the page has its own sentence; any other is the page's fault.
  if (key === "error.bad_request" && p.field && has(`error.field.${p.field}`)) key = `error.field.${p.field}`;
  if (key === "error.bad_password" && p.reason) key = `error.bad_password.${p.reason}`;
  if ((key === "chat.started" || key === "chat.hare_started") && p.rated === false) key = `${key}_unrated`;
  if (key === "error.too_many_attempts") p.retry_after = waitText(Number(p.retry_after) || 0);
  if (key === "chat.rating") {
    if (typeof p.after === "number" && typeof p.before === "number") p.change = signed(p.after - p.before);
    if (p.provisional) key = "chat.rating_provisional";
  }
  if (Array.isArray(p.levels)) p.levels = p.levels.join(", ");
  const text = t(key, p);
  return text === key ? null : text;
}

/** A wait in seconds as words: "45 s", "3 min" (rounded up, so the wait is never too short). */
export function waitText(seconds) {
  if (seconds < 60) return t("time.seconds", { n: Math.max(1, Math.ceil(seconds)) });
  return t("time.minutes", { n: Math.ceil(seconds / 60) });
}

/** How a game ended off the board, as words ("on time", "by resignation"), or "" for one played out. */
export function terminationText(termination) {
  const key = { time: "result.on_time", resign: "result.resign", abandon: "result.abandon", deadline: "result.deadline" }[termination];
  return key ? t(key) : "";
}

/** A number with its sign, "+12" / "−3" / "±0". */
export function signed(n, digits = 0) {
  const v = Number(n.toFixed(digits));
  if (v === 0) return `±${(0).toFixed(digits)}`;
  return v > 0 ? `+${v.toFixed(digits)}` : `−${Math.abs(v).toFixed(digits)}`;
}

/** Items as a list in the page's language: "2 and 3" (``conjunction``), "c6, e6 or h6" (``disjunction``). */
export function listText(items, type) {
  const words = items.map(String);
  try {
    return new Intl.ListFormat(language(), { style: "long", type }).format(words);
  } catch {
    return words.join(", ");
  }
}

/**
 * A rule the engine names as a sentence: the forest's (``rule.rifle`` with params, see
 * games/forest/explain.py) and the hare hunt's (``rule.hare.*``, see RULE_KEYS in games/hare/legality.py).
 * Tile names, colours and directions in the params are translated too.
 */
export function ruleText(key, params = {}) {
  const p = { ...params };
  if (key.startsWith("rule.hare.")) {
    if (key === "rule.hare.phase") key = `rule.hare.phase.${params.phase}`;
    if (p.facing) p.facing = t(`hare.dir.${p.facing}`);
    if (Array.isArray(p.dice)) p.dice = listText(p.dice, "conjunction");
    if (typeof p.allowed === "string") p.allowed = listText(p.allowed.split(", "), "disjunction");
  }
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
  // A request that never reached the server (the network is down) has no key: the browser's own
  // English words ("Failed to fetch") are not shown.
  if (!err?.key) return t("conn.unreachable");
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

/** A table's kind: rated or not, live or correspondence, and its clock (fields of lobby and table). */
export function tableKind(table) {
  const parts = [];
  if (typeof table.rated === "boolean") parts.push(t(table.rated ? "games.rated" : "games.unrated"));
  if (table.mode) parts.push(t(`mode.${table.mode}`));
  if (table.clock) parts.push(clockText(table.clock));
  return parts;
}

export function clockText(clock) {
  return t("clock.preset", { min: +(clock.initial / 60).toFixed(1), inc: clock.increment });
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

// docs/protocol.md: a name has 1 to 24 characters once its spaces are collapsed (server/people.py).
export const NAME_MAX = 24;

/**
 * What is wrong with a name typed into a form, as a sentence, or null: the page says it at once
 * rather than cutting a pasted name short without a word, or sending a blank one.
 */
export function nameProblem(value) {
  const name = String(value ?? "").trim().split(/\s+/).filter(Boolean).join(" ");
  const n = [...name].length;
  if (!n) return t("name.empty");
  if (n > NAME_MAX) return t("name.too_long", { n, max: NAME_MAX });
  return null;
}

/**
 * A name field that says, while one types, when the name has grown too long (the field itself takes
 * any length, so a paste is never cut short); ``box`` is the form's error line.
 */
export function watchNameLength(input, box) {
  input.addEventListener("input", () => {
    const long = [...input.value.trim()].length > NAME_MAX;
    input.setAttribute("aria-invalid", long ? "true" : "false");
    if (long) {
      box.say = () => nameProblem(input.value); // a page may word it again in another language
      box.textContent = box.say();
      box.hidden = false;
    } else if (box.dataset.kind === "length" || !box.hidden) {
      box.hidden = true;
    }
    box.dataset.kind = long ? "length" : "";
  });
}

/**
 * A person's name where it may not fit: cut with an ellipsis by the style (`.name`) when it must be,
 * the whole name on hover (``title``) and, being the element's text, whole to a screen reader.
 */
export function nameEl(name, attrs = {}) {
  const text = String(name ?? "");
  const cls = attrs.class ? `name ${attrs.class}` : "name";
  return el(attrs.tag || "span", { ...attrs, tag: null, class: cls, title: text, text });
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
