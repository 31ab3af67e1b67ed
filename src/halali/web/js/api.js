// The server's JSON API (docs/protocol.md, "Accounts, ratings, history, replays, clocks"). Every
// error arrives as {"error": {key, params, message}}; callers get it as an ApiError and show it with
// errorText(), so a failed request reads the same as a refused WebSocket message.

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.key = error?.key || "error.internal";
    this.params = error?.params || {};
  }
}

async function answer(r) {
  let body = null;
  const type = r.headers.get("content-type") || "";
  if (type.includes("json")) {
    try {
      body = await r.json();
    } catch {
      body = null;
    }
  }
  if (!r.ok) throw new ApiError(r.status, body?.error || { key: r.status === 404 ? "error.not_found" : "error.internal" });
  return body;
}

export async function getJSON(path) {
  return answer(await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" } }));
}

/**
 * A POST the server accepts: JSON from the page's own origin. fetch() sends the Origin header by
 * itself, which is what the server's CSRF check reads; no token is needed.
 */
export async function postJSON(path, body = {}) {
  return answer(await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  }));
}

export async function getText(path) {
  const r = await fetch(path, { credentials: "same-origin" });
  if (!r.ok) await answer(r);
  return r.text();
}

/** The id in a page's path (``/replay/812`` → ``812``), else its ``?id=`` (for ``/static/…html?id=``). */
export function pageId(prefix) {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts.length >= 2 && parts[0] === prefix) return decodeURIComponent(parts[1]);
  return new URLSearchParams(location.search).get("id");
}

// Where the pages live (docs/web.md). One place, so every link agrees.
export const links = {
  lobby: () => "/",
  account: (next = null) => (next ? `/account?next=${encodeURIComponent(next)}` : "/account"),
  player: (id) => `/player/${encodeURIComponent(id)}`,
  leaderboard: (game = "forest") => `/leaderboard?game=${encodeURIComponent(game)}`,
  history: ({ player = null, table = null } = {}) =>
    player ? `/history?player=${encodeURIComponent(player)}` : table ? `/history?table=${encodeURIComponent(table)}` : "/history",
  replay: (id, ply = null) => `/replay/${encodeURIComponent(id)}${ply === null ? "" : `#${ply}`}`,
  importRecord: () => "/replay",
  table: (id) => `/table/${encodeURIComponent(id)}`,
  puzzle: (id) => `/puzzles/${encodeURIComponent(id)}`,
  puzzles: () => "/puzzles",
  learn: () => "/learn",
};
