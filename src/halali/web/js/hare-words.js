// Hare hunt actions in words, for the table's moves list and chat (which a screen reader hears as
// they come) and the hunt's replay: "Computer 2 (heuristic) rolls a blank and 3.", "Ann turns the
// hunter on f4 to the north-west.", "The hunter on e5 shoots the hunter on f3." What an action
// brought about beyond itself (a shot's lines, removals, a seat out) is the server's ``event``
// (games/hare/events.py): the page knows no rules. The notation is shown beside the words.

import { listText } from "./common.js";
import { language, t } from "./i18n.js";

const face = (d) => (d === "0" ? t("hare.say.blank") : d);
const cells = (list) => listText(list, "conjunction");

/**
 * ``action`` in hare notation played by ``name``, and what it brought about (``event``), as one or
 * more sentences. ``seatName(i)`` and ``clubOf(i)`` name a seat the action put out of the hunt.
 */
export function hareActionWords(action, name, event = {}, { seatName = String, clubOf = () => null } = {}) {
  const ev = event || {};
  const out = [mainWords(action, name, ev)];
  const implied = new Set();
  for (const line of ev.shot?.lines || []) {
    out.push(t(`hare.say.line.${line.outcome}`, { from: line.from, to: line.to ?? "", name }));
    if (line.outcome === "hit") implied.add(line.to);
    if (line.outcome === "both") implied.add(line.from).add(line.to);
  }
  if (ev.still) out.push(t("hare.say.still"));
  if (ev.dice) out.push(t("hare.say.double", { choice: t("hare.assign", { hunters: ev.dice[0], points: ev.dice[1] }) }));
  if (ev.aim?.length) out.push(t("hare.say.aim", { n: ev.aim.length, cells: cells(ev.aim) }));
  const m = /^x(.+)$/.exec(action);
  if (m) implied.add(m[1]);
  const extra = (ev.removed || []).filter((c) => !implied.has(c));
  if (extra.length) out.push(t("hare.say.removed", { n: extra.length, cells: cells(extra) }));
  for (const seat of ev.out || []) {
    const club = clubOf(seat);
    out.push(t("hare.say.out", { name: seatName(seat), club: club ? t(`hare.club.${club}`) : "?" }));
  }
  if (ev.over) out.push(t("hare.status.over"));
  return out.join(" ");
}

function mainWords(action, name, ev) {
  let m;
  if (action === "roll") return t("hare.say.roll", { name });
  if (action === "end") return t("hare.say.end", { name });
  if ((m = /^roll=(\d),(\d)$/.exec(action))) {
    if (ev.shot?.explosion) return t("hare.say.explosion", { name });
    if (ev.shot) return t("hare.say.shot_roll", { name, a: face(m[1]), b: face(m[2]), d: ev.shot.d });
    return t("hare.say.rolled", { name, a: face(m[1]), b: face(m[2]) });
  }
  if ((m = /^(\d)x(\d)$/.exec(action))) {
    return t("hare.say.assign", { name, choice: t("hare.assign", { hunters: Number(m[1]), points: Number(m[2]) }) });
  }
  if ((m = /^bush=(.+)$/.exec(action))) return t("hare.say.bush", { name, cell: m[1] });
  if ((m = /^x(.+)$/.exec(action))) return t("hare.say.remove", { name, cell: m[1] });
  if ((m = /^(.+)-(.+)$/.exec(action))) return t("hare.say.step", { name, from: m[1], to: m[2] });
  if ((m = /^(.+)>(.+)$/.exec(action))) return t("hare.say.turn", { name, from: m[1], toward: t(`hare.toward.${m[2]}`) });
  return `${name}: ${action}`;
}

/**
 * The actions of a hunt as items for a list: ``{index, words, notation}``; ``hunt`` has ``actions``,
 * ``movers`` and ``events`` as the server sends them. ``told``, a Map the caller keeps, holds the words
 * already made: a table's page tells the whole hunt again at each message, and making every sentence
 * anew made each message cost as much as the hunt was long. Words are made again when anything they
 * are made of differs: the language, the action, its mover's name, its event, a name or club it tells.
 */
export function huntItems(hunt, names, told = null) {
  const events = hunt.events || {};
  const lang = language();
  return (hunt.actions || []).map((a, i) => {
    const name = names.seatName(hunt.movers?.[i] ?? null);
    const ev = events[String(i)];
    const make = () => hareActionWords(a, name, ev, names);
    if (!told) return { index: i, notation: a, words: make() };
    const outs = (ev?.out || []).map((seat) => `${names.seatName?.(seat)}:${names.clubOf?.(seat)}`);
    const key = `${lang}|${a}|${name}|${ev ? JSON.stringify(ev) : ""}|${outs.join(",")}`;
    let known = told.get(i);
    if (!known || known.key !== key) told.set(i, known = { key, words: make() });
    return { index: i, notation: a, words: known.words };
  });
}
