// Log in and register. Both are JSON POSTs from this page (the server's CSRF check reads the Origin
// header fetch() sends); a new session cookie comes back, so the page then goes on to where the
// visitor came from and every socket reconnects with the new cookie.

import { getJSON, links, postJSON } from "./api.js";
import { el, errorText, initPage, nameProblem, setMe, watchNameLength, whoAmI } from "./common.js";
import { formatDate } from "./people.js";
import { t } from "./i18n.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
let me = null;

/** Only a path on this site: never an address elsewhere (``//host`` or ``https://…``). */
function nextPath(fallback) {
  const next = new URLSearchParams(location.search).get("next");
  if (next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/account")) return next;
  return fallback;
}

/** Show a refusal in ``box``; ``say`` words it, again after a switch of language (``render``). */
function showError(box, err, say = () => errorText(err)) {
  box.say = say;
  box.textContent = say();
  box.dataset.key = err.key || "";
  box.hidden = false;
}

const ERROR_BOXES = ["login-error", "register-error", "bot-error", "password-error"];

function render() {
  for (const box of ERROR_BOXES.map($)) if (!box.hidden && box.say) box.textContent = box.say();
  const account = me?.account === true;
  $("signed-in").hidden = !account;
  $("login-panel").hidden = account;
  $("register-panel").hidden = account;
  if (account) {
    $("signed-in-text").textContent = t("account.signed_in_as", { name: me.name });
    $("signed-in-profile").href = links.player(me.id);
  }
  $("register-claim").textContent = me && !account ? t("account.claim", { name: me.name }) : "";
  $("register-claim").hidden = !me || account;
  $("bot-panel").hidden = !account;
  $("password-panel").hidden = !account; // a bot account's owner logs in with it too
  if (account) $("password-username").value = me.name; // for the browser's password manager
  $("bot-make").hidden = me?.bot_account === true;
  $("bot-tokens").hidden = me?.bot_account !== true;
}

// ---- a bot account's API tokens (docs/bots.md) ------------------------------------------------
async function loadTokens() {
  if (me?.bot_account !== true) return;
  const { tokens } = await getJSON("/api/tokens");
  $("no-tokens").hidden = tokens.length > 0;
  $("token-list").replaceChildren(...tokens.map((tok) => el("li", { "data-testid": "token", "data-token": tok.id },
    el("b", { text: tok.label }),
    el("span", { class: "help", text: `${t("account.token_created")}: ${formatDate(tok.created)}` }),
    el("span", { class: "help", "data-testid": "token-last-used",
      text: `${t("account.token_last_used")}: ${tok.last_used ? formatDate(tok.last_used) : t("account.token_never")}` }),
    el("button", { type: "button", class: "small", "data-testid": "token-revoke", text: t("account.token_revoke"),
      onclick: () => revoke(tok) }))));
}

/** Revoke a token, once asked: a program that uses it can no longer play. The token just made, if
 * it is this one, is no longer shown to be copied. */
async function revoke(tok) {
  if (!window.confirm(t("account.token_revoke_confirm", { label: tok.label }))) return;
  if (await botRequest(`/api/tokens/${tok.id}/revoke`, {}) === null) return;
  if ($("token-new").dataset.token === String(tok.id)) {
    $("token-new").hidden = true;
    $("token-value").textContent = "";
  }
  loadTokens();
}

async function botRequest(path, body) {
  $("bot-error").hidden = true;
  try {
    return await postJSON(path, body);
  } catch (err) {
    showError($("bot-error"), err);
    return null;
  }
}

$("bot-make-button").addEventListener("click", async () => {
  if (!window.confirm(t("account.make_bot_confirm"))) return;
  const you = await botRequest("/api/bot-account", {});
  if (!you) return;
  me = you;
  setMe(you);
  render();
  loadTokens();
});

$("token-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const made = await botRequest("/api/tokens", { label: e.target.elements.namedItem("label").value });
  if (!made) return;
  $("token-value").textContent = made.token; // shown this once: the server keeps only its hash
  $("token-new").dataset.token = String(made.id);
  $("token-new").hidden = false;
  loadTokens();
});

async function submit(form, path, errorBox, body) {
  errorBox.hidden = true;
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  try {
    const you = await postJSON(path, body);
    setMe(you);
    location.href = nextPath(links.player(you.id));
  } catch (err) {
    showError(errorBox, err);
    button.disabled = false;
  }
}

$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target;
  const field = (n) => f.elements.namedItem(n).value;
  const name = field("name").trim();
  if (!name || !field("password")) return showError($("login-error"), { key: "account.fill_in" }, () => t("account.fill_in"));
  submit(f, "/api/login", $("login-error"), { name, password: field("password") });
});

$("register-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target;
  const field = (n) => f.elements.namedItem(n).value;
  const name = field("name").trim();
  // Only what the form itself can see is checked here (a blank or too long name, two different
  // passwords); the rest of names and passwords is judged by the server.
  const problem = nameProblem(name);
  if (problem) return showError($("register-error"), { key: "name.problem" }, () => nameProblem(name));
  if (field("password") !== field("password2")) {
    return showError($("register-error"), { key: "account.passwords_differ" }, () => t("account.passwords_differ"));
  }
  submit(f, "/api/register", $("register-error"), { name, password: field("password") });
});

$("password-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target;
  const field = (n) => f.elements.namedItem(n).value;
  const box = $("password-error");
  box.hidden = true;
  $("password-changed").textContent = "";
  if (!field("current") || !field("password")) {
    return showError(box, { key: "account.fill_in_passwords" }, () => t("account.fill_in_passwords"));
  }
  if (field("password") !== field("password2")) {
    return showError(box, { key: "account.passwords_differ" }, () => t("account.passwords_differ"));
  }
  const button = f.querySelector('button[type="submit"]');
  button.disabled = true;
  try {
    await postJSON("/api/password", { current: field("current"), password: field("password") });
    f.reset();
    $("password-changed").textContent = t("account.password_changed");
  } catch (err) {
    showError(box, err);
  } finally {
    button.disabled = false;
  }
});

$("signed-in-logout").addEventListener("click", () => $("btn-logout").click());
watchNameLength($("register-name"), $("register-error"));

await initPage(render);
me = await whoAmI();
render();
loadTokens();
if (me && !me.account && !$("register-name").value) $("register-name").value = /^Guest \d+$/.test(me.name) ? "" : me.name;
