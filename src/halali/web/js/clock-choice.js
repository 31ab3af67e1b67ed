// The clocks a new live table or tournament may have (the lobby's form and the tournament form):
// presets of minutes each and seconds added per action, and "other…" with two fields of its own.

import { clockText, el } from "./common.js";
import { t } from "./i18n.js";

// Seconds each, seconds added per action; null is no clock, "custom" opens the two fields.
export const CLOCKS = [null, [180, 2], [300, 3], [600, 5], [900, 10], [1800, 20], "custom"];

/** Fill a select with the choices (again after a change of language), keeping what was chosen. */
export function fillClockOptions(select, initial = "0") {
  const keep = select.value;
  select.replaceChildren(...CLOCKS.map((c, i) => el("option", { value: String(i),
    text: c === null ? t("clock.none") : c === "custom" ? t("clock.custom") : clockText({ initial: c[0], increment: c[1] }) })));
  select.value = keep || initial;
}

export function isCustom(choice) {
  return CLOCKS[Number(choice)] === "custom";
}

/** The `clock` of a request from the choice and the two custom fields, or null for none. */
export function chosenClock(choice, minutesValue, incrementValue) {
  const c = CLOCKS[Number(choice)];
  if (c === null || c === undefined) return null;
  if (c !== "custom") return { initial: c[0], increment: c[1] };
  const minutes = Number(minutesValue);
  const inc = Number(incrementValue);
  return { initial: Math.round((Number.isFinite(minutes) ? minutes : 10) * 60), increment: Number.isFinite(inc) ? Math.round(inc) : 0 };
}
