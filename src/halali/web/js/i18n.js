// Translations: one JSON file per language under /static/i18n/. The browser's language is the
// default, a choice on the page is remembered in localStorage, and English fills any gap so that a
// missing string shows as text rather than as a key.

export const LANGUAGES = { de: "Deutsch", en: "English", fr: "Français", it: "Italiano", cs: "Čeština" };
const STORE_KEY = "halali.lang";

let strings = {};
let fallback = {};
let current = "en";

export function chooseLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem(STORE_KEY);
  } catch {
    saved = null;
  }
  if (saved && LANGUAGES[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

async function fetchStrings(lang) {
  const r = await fetch(`/static/i18n/${lang}.json`);
  if (!r.ok) throw new Error(`no translations for ${lang}`);
  return r.json();
}

export async function loadLanguage(lang) {
  if (!LANGUAGES[lang]) lang = "en";
  if (!Object.keys(fallback).length) fallback = await fetchStrings("en");
  strings = lang === "en" ? fallback : await fetchStrings(lang);
  current = lang;
  document.documentElement.lang = lang;
  return lang;
}

export function language() {
  return current;
}

export function rememberLanguage(lang) {
  try {
    localStorage.setItem(STORE_KEY, lang);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

/**
 * The translation of ``key`` with ``{name}`` placeholders filled from ``params``. A placeholder
 * ``{name:one=point|other=points}`` is the word that goes with the number ``params[name]`` in this
 * language (Intl.PluralRules: Czech has one, few and other, English one and other), so that no
 * string has to say "1 points".
 */
export function t(key, params = {}) {
  let s = strings[key] ?? fallback[key];
  if (s === undefined) return key;
  return s.replace(/\{(\w+)(?::([^{}]*))?\}/g, (m, name, forms) => {
    const v = params[name];
    if (v === undefined || v === null) return m;
    return forms === undefined ? String(v) : pluralForm(forms, Number(v));
  });
}

// One Intl.PluralRules per language: building one is far dearer than asking it.
const pluralRules = new Map();

function pluralForm(forms, n) {
  const words = {};
  for (const part of forms.split("|")) {
    const at = part.indexOf("=");
    if (at > 0) words[part.slice(0, at)] = part.slice(at + 1);
  }
  if (!pluralRules.has(current)) pluralRules.set(current, new Intl.PluralRules(current));
  return words[pluralRules.get(current).select(n)] ?? words.other ?? "";
}

export function has(key) {
  return key in strings || key in fallback;
}

/** Fill every element marked ``data-i18n`` (text), ``data-i18n-title`` and ``data-i18n-placeholder``. */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  const title = document.querySelector("title[data-i18n-doc]");
  if (title) document.title = t(title.dataset.i18nDoc);
}
