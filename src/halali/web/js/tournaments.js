// The tournaments page: the list (upcoming and running first, then the newest finished, as the
// API orders them) and the form that creates one. Creating goes over the WebSocket
// (`tournament_create`, docs/protocol.md "Tournaments"); the answer leads to the new tournament's page.

import { chosenClock, fillClockOptions, isCustom } from "./clock-choice.js";
import { errorText, initPage, setConnection, setMe, whoAmI } from "./common.js";
import { Connection } from "./net.js";
import { loadCards, startTicking, tournamentCard, tournamentLink } from "./tournament-cards.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const form = $("tournament-form");
const field = (name) => form.elements.namedItem(name);
const state = { cards: [], you: null };

const conn = new Connection({
  onOpen(welcome) {
    state.you = welcome.you;
    setMe(welcome.you);
  },
  onMessage(msg) {
    if (msg.type === "tournament_created") location.href = tournamentLink(msg.id);
  },
  onStatus: setConnection,
});

async function load() {
  $("page-error").hidden = true;
  try {
    state.cards = await loadCards();
  } catch (err) {
    $("page-error").textContent = errorText(err);
    $("page-error").hidden = false;
  }
  render();
}

function render() {
  $("tournament-list").replaceChildren(...state.cards.map(tournamentCard));
  $("no-tournaments").hidden = state.cards.length > 0;
}

/** Only what fits the chosen game and pace is shown: a clock for live forest rounds, a table size for the hunt. */
function sync() {
  const hare = field("game").value === "hare";
  const live = field("pace").value === "live";
  if (hare && !live) field("pace").value = "live"; // the hunt is played live only
  form.querySelector('option[value="correspondence"]').disabled = hare;
  const liveNow = field("pace").value === "live";
  $("tf-minutes-label").hidden = !liveNow;
  $("tf-days-label").hidden = liveNow;
  $("tf-clock-label").hidden = hare || !liveNow;
  $("tf-clock-custom").hidden = hare || !liveNow || !isCustom(field("clock").value);
  $("tf-forest-rules").hidden = hare;
  $("tf-hare-rules").hidden = !hare;
}

function number(name) {
  const v = field(name).value.trim();
  return v === "" ? null : Number(v);
}

/** The `tournament_create` request the form describes. */
function request() {
  const hare = field("game").value === "hare";
  const live = field("pace").value === "live";
  const msg = {
    type: "tournament_create", game: field("game").value, name: field("name").value.trim(), rounds: number("rounds"),
    pace: field("pace").value, rated: field("rated").checked, starts_in: Math.round((number("starts_in") ?? 0) * 60),
    entry: { accounts: field("accounts").value === "accounts", bots: field("bots").checked, min_rating: number("min_rating"),
      max: number("max") },
  };
  if (live) msg.round_minutes = number("round_minutes");
  else msg.round_days = number("round_days");
  if (hare) {
    msg.table_size = Number(field("table_size").value);
    msg.rules = { bush: field("bush").checked ? "on" : "off", overshoot: field("overshoot").value };
  } else {
    msg.rules = { match: "match", green_lock: field("green_lock").value, stall_limit: number("stall_limit") ?? 30 };
    const clock = live ? chosenClock(field("clock").value, field("clock_minutes").value, field("clock_increment").value) : null;
    if (clock) msg.clock = clock;
  }
  return msg;
}

function showError(err) {
  $("tf-error").textContent = errorText(err);
  $("tf-error").hidden = false;
}

form.addEventListener("change", sync);
form.addEventListener("submit", (e) => {
  e.preventDefault();
  $("tf-error").hidden = true;
  conn.send(request(), showError);
});

await initPage(() => {
  fillClockOptions(field("clock"));
  render();
});
fillClockOptions(field("clock"));
sync();
startTicking();
const me = await whoAmI();
const guest = !me || me.account === false;
$("create-login").hidden = !guest;
form.hidden = guest;
conn.connect();
await load();
setInterval(load, 30_000); // the list is plain HTTP: a look now and then keeps rounds and counts fresh
