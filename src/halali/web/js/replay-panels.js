// The replay page's panels that stand on their own: the fair-deal check, computed in the browser from
// the published commitment, deal and salt; and the record: download the game's record (plain, or with
// the luck of every reveal and the marked mistakes as headers and comments), or import one.

import { links, postJSON } from "./api.js";
import { el, errorText } from "./common.js";
import { checkDeal, committedText } from "./fairdeal.js";
import { t } from "./i18n.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

/** The download links of game ``game``. */
export function renderRecord(game) {
  const url = `/api/games/${encodeURIComponent(game.id)}/record`;
  const a = $("export-record");
  a.href = url;
  a.download = `halali-${game.id}.txt`;
  const annotated = $("export-record-luck");
  annotated.hidden = !game.over;
  annotated.href = `${url}?luck=1`;
  annotated.download = `halali-${game.id}-luck.txt`;
}

/** The import form: a record from a file or pasted text, replayed on the server and opened. */
export function wireImport() {
  $("import-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    // The server takes an import body of up to 128 KiB; a larger file cannot be a record.
    if (file.size > 128 * 1024) {
      $("import-error").textContent = t("record.too_large");
      $("import-error").hidden = false;
      return;
    }
    $("import-text").value = await file.text();
  });

  $("import-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const box = $("import-error");
    box.hidden = true;
    const record = $("import-text").value;
    if (!record.trim()) {
      box.textContent = t("record.empty");
      box.hidden = false;
      return;
    }
    const button = $("import-submit");
    button.disabled = true;
    try {
      const answer = await postJSON("/api/games/import", { record });
      location.href = links.replay(answer.game);
    } catch (err) {
      box.textContent = errorText(err);
      box.dataset.key = err.key || "";
      box.hidden = false;
      button.disabled = false;
    }
  });
}

/** The fair-deal panel of game ``g``: the published values, the fingerprint computed here, the verdict. */
export async function renderFair(g) {
  const facts = $("fair-facts");
  const row = (label, value, testid) => [el("dt", { text: label }), el("dd", { class: "hex", "data-testid": testid, text: value ?? "–" })];
  const verdict = $("fair-state");
  const r = await checkDeal({ commitment: g.commitment, deal: g.deal, salt: g.salt, actions: g.actions });
  facts.replaceChildren(
    ...row(t("fair.commitment"), g.commitment, "fair-commitment"),
    ...row(t("fair.deal"), g.deal, "fair-deal"),
    ...row(t("fair.salt"), g.salt, "fair-salt"),
    ...(r.computed ? row(t("fair.computed"), r.computed, "fair-computed") : []),
  );
  if (r.computed) {
    facts.append(el("dt", { text: t("fair.hashed") }), el("dd", { class: "hex", text: JSON.stringify(committedText(g.deal, g.salt)) }));
  }
  verdict.dataset.state = r.state;
  const texts = {
    ok: t("fair.ok"),
    pending: t("fair.pending"),
    none: t("fair.none"),
    mismatch: r.hashOk ? t("fair.bad_reveals", { n: r.reveals.length, action: r.reveals[0]?.action ?? "" }) : t("fair.bad_hash"),
  };
  verdict.textContent = texts[r.state];
  $("show-deal").disabled = !g.deal;
  $("show-deal").closest("label").hidden = !g.deal;
}
