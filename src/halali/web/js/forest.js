// The forest game as the page needs it: reading the notation the server sends, and explaining in
// words why a dropped tile may not go there. The page never decides legality itself — the server's
// list of legal actions does — so these rules only turn "not in the list" into a reason.

import { KINDS } from "./art.js";

export const FILES = "abcdefg";
export const DIRS = ["N", "E", "S", "W"];
const DELTAS = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
// The square next to each exit.
export const EXIT_SQUARES = { N: "d7", E: "g4", S: "d1", W: "a4" };

const PREY = {
  bear: ["hunter", "lumberjack"],
  fox: ["duck", "pheasant"],
  lumberjack: ["tree"],
  hunter: ["bear", "fox", "duck", "pheasant"],
  duck: [],
  pheasant: [],
  tree: [],
};
export const CAPTURES = PREY;
export const ONE_STEP = new Set(["bear", "lumberjack"]);

export function squareName(file, rank) {
  return FILES[file] + (rank + 1);
}

export function squareXY(name) {
  return [FILES.indexOf(name[0]), Number(name.slice(1)) - 1];
}

export function allSquares() {
  const out = [];
  for (let r = 0; r < 7; r++) for (let f = 0; f < 7; f++) out.push(squareName(f, r));
  return out;
}

/** A position in forest notation → board map (square → letter or "?") and the other fields. */
export function parsePosition(text) {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 9) throw new Error(`a position has 9 fields: ${text}`);
  const [board, turn, lastBlue, lastBrown, lock, final, stall, pileBlue, pileBrown] = fields;
  const rows = board.split("/");
  const squares = {};
  rows.forEach((row, i) => {
    const rank = 6 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-7]/.test(ch)) file += Number(ch);
      else squares[squareName(file++, rank)] = ch;
    }
  });
  return {
    board: squares,
    turn,
    lastMove: { blue: lastBlue === "-" ? null : lastBlue, brown: lastBrown === "-" ? null : lastBrown },
    lock: lock === "-" ? null : lock,
    final: final === "-" ? null : Number(final),
    stall: Number(stall),
    piles: { blue: parsePile(pileBlue), brown: parsePile(pileBrown) },
  };
}

/** A pile field ("DDHP+BF") → {captured: [...letters], exited: [...letters]}. */
export function parsePile(text) {
  if (!text || text === "-") return { captured: [], exited: [] };
  const [captured, exited = ""] = text.split("+");
  return { captured: captured.split(""), exited: exited.split("") };
}

/** An action in notation → {type, from, to, dir, outcome}. */
export function parseAction(text) {
  let m;
  if (text === "pass") return { type: "pass", text };
  if ((m = /^\?([a-g][1-7])(?:=([A-Z]))?$/.exec(text))) return { type: "reveal", to: m[1], outcome: m[2] || null, text };
  if ((m = /^([a-g][1-7])([-x])([a-g][1-7])$/.exec(text)))
    return { type: m[2] === "x" ? "capture" : "move", from: m[1], to: m[3], text };
  if ((m = /^([a-g][1-7])-([NESW])$/.exec(text))) return { type: "exit", from: m[1], dir: m[2], text };
  return null;
}

export function isFaceDown(letter) {
  return letter === "?" || (letter && letter >= "a" && letter <= "z");
}

export function kindOf(letter) {
  return KINDS[letter]?.kind ?? null;
}

function ray(from, dir) {
  const [df, dr] = DELTAS[dir];
  let [f, r] = squareXY(from);
  const out = [];
  for (f += df, r += dr; f >= 0 && f < 7 && r >= 0 && r < 7; f += df, r += dr) out.push(squareName(f, r));
  return out;
}

function directionBetween(from, to) {
  const [f1, r1] = squareXY(from);
  const [f2, r2] = squareXY(to);
  if (f1 === f2 && r2 > r1) return "N";
  if (f1 === f2 && r2 < r1) return "S";
  if (r1 === r2 && f2 > f1) return "E";
  if (r1 === r2 && f2 < f1) return "W";
  return null;
}

function mayMove(colour, letter) {
  const info = KINDS[letter];
  if (!info || info.kind === "tree") return false;
  return info.side === colour || info.side === "green";
}

/**
 * Why moving the tile on ``from`` to ``to`` (a square, or an exit "N".."W") is not legal, as the
 * engine's rule key and params (the same keys the server's `error.illegal` carries), so one
 * translation serves both. ``pos`` is a parsed view, ``colour`` the player to move, ``opts`` holds
 * the stall limit and the last action (for the green lock's wording).
 */
export function explainDrop(pos, colour, from, to, opts = {}) {
  const b = pos.board;
  const letter = b[from];
  const tile = kindOf(letter);
  const exit = DIRS.includes(to);
  const player = colour;
  if (!letter) return ["rule.no_tile", { square: from }];
  const limit = opts.stallLimit ?? 30;
  const hidden = Object.values(b).some(isFaceDown);
  if (hidden && limit && pos.stall >= limit) return ["rule.stall", { turns: pos.stall, player }];
  if (isFaceDown(letter)) return ["rule.face_down", { square: from }];
  if (tile === "tree") return ["rule.tree", {}];
  if (!mayMove(colour, letter)) return ["rule.not_yours", { tile, player }];
  if (from === pos.lock) {
    const how = opts.lastAction && opts.lastAction.startsWith("?") ? "revealed" : "moved";
    return ["rule.green_lock", { tile, how, player: colour === "blue" ? "brown" : "blue" }];
  }
  if (exit) return explainExit(pos, colour, from, to, letter);
  const dir = directionBetween(from, to);
  if (!dir) return ["rule.straight", {}];
  const path = ray(from, dir);
  const steps = path.indexOf(to) + 1;
  if (ONE_STEP.has(tile) && steps > 1) return ["rule.one_square", { tile }];
  for (const sq of path.slice(0, steps - 1)) if (b[sq]) return ["rule.blocked", { square: sq }];
  const target = b[to];
  if (target) {
    if (isFaceDown(target)) return ["rule.capture_face_down", {}];
    const prey = kindOf(target);
    if (!PREY[tile].includes(prey)) return ["rule.cannot_capture", { tile, target: prey }];
    if (tile === "hunter" && KINDS[letter].rifle !== dir) return ["rule.rifle", { rifle: KINDS[letter].rifle, direction: dir }];
  }
  const last = pos.lastMove[colour];
  if (last && last.slice(2, 4) === from && last.slice(0, 2) === to) return ["rule.no_return", { tile, square: to, player }];
  return ["rule.illegal", {}];
}

function explainExit(pos, colour, from, dir, letter) {
  const tile = kindOf(letter);
  if (pos.final === null) return ["rule.exit_final_phase", {}];
  if (KINDS[letter].side !== colour) return ["rule.exit_own", { player: colour }];
  const edge = EXIT_SQUARES[dir];
  const path = ray(from, dir);
  if (from !== edge && !path.includes(edge)) return ["rule.exit_line", { square: from, exit: dir }];
  if (ONE_STEP.has(tile) && from !== edge) return ["rule.exit_next", { tile, square: edge }];
  for (const sq of path) if (pos.board[sq]) return ["rule.exit_blocked", { square: sq, exit: dir }];
  return ["rule.illegal", {}];
}
