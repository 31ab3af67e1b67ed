// The fair-deal check (docs/record.md): when a game starts the server publishes
// sha256(deal + "\n" + salt); once it is over it publishes deal and salt. The page recomputes the
// hash itself, so nobody has to trust the server's word that the deal was fixed from the start.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * SHA-256 in plain JavaScript, for pages served over plain http from another host: browsers offer
 * crypto.subtle only in secure contexts (https, or 127.0.0.1 / localhost).
 */
export function sha256Plain(bytes) {
  const len = bytes.length;
  const total = Math.ceil((len + 9) / 64) * 64;
  const m = new Uint8Array(total);
  m.set(bytes);
  m[len] = 0x80;
  const view = new DataView(m.buffer);
  view.setUint32(total - 8, Math.floor((len * 8) / 2 ** 32));
  view.setUint32(total - 4, (len * 8) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rot = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => {
      h[i] = (h[i] + v) >>> 0;
    });
  }
  return [...h].map((v) => v.toString(16).padStart(8, "0")).join("");
}

/** The hex SHA-256 of a string's UTF-8 bytes; ``how`` says which implementation answered. */
export async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  if (globalThis.crypto?.subtle) {
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    return { hex: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join(""), how: "subtle" };
  }
  return { hex: sha256Plain(bytes), how: "plain" };
}

/** The exact text the commitment hashes (docs/record.md). */
export function committedText(deal, salt) {
  return `${deal}\n${salt}`;
}

/**
 * Check a finished game: does sha256(deal + "\n" + salt) equal the commitment, and did every reveal
 * turn up the tile the deal has on that square? (A face-down tile never moves, so the deal's letter
 * on a square is what a reveal there must show.) Returns {state, computed, reveals: [...mismatches]};
 * state is "ok", "mismatch", or "pending" while deal and salt are still secret.
 */
export async function checkDeal({ commitment, deal, salt, actions = [] }) {
  if (!commitment) return { state: "none", computed: null, reveals: [] };
  if (!deal || !salt) return { state: "pending", computed: null, reveals: [] };
  const { hex, how } = await sha256Hex(committedText(deal, salt));
  const squares = dealSquares(deal);
  const reveals = [];
  actions.forEach((a, i) => {
    const m = /^\?([a-g][1-7])=([A-Z])$/.exec(a);
    if (m && (squares[m[1]] || "").toUpperCase() !== m[2]) reveals.push({ ply: i + 1, action: a, deal: squares[m[1]] || null });
  });
  const ok = hex === String(commitment).toLowerCase() && !reveals.length;
  return { state: ok ? "ok" : "mismatch", computed: hex, how, hashOk: hex === String(commitment).toLowerCase(), reveals };
}

/** The deal's board field → square → letter (lowercase: face down in the deal). */
export function dealSquares(deal) {
  const rows = String(deal).trim().split(/\s+/)[0].split("/");
  const out = {};
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[1-7]/.test(ch)) file += Number(ch);
      else out["abcdefg"[file++] + (7 - i)] = ch;
    }
  });
  return out;
}
