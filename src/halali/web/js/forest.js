// The forest notation as the page needs it: squares, positions, piles and actions. No rules live
// here — what is legal comes from the server's list, and why something is not comes from the
// server's `error.illegal`, both from the one engine.

export const FILES = "abcdefg";
export const DIRS = ["N", "E", "S", "W"];

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

/**
 * The final phase's turns left, per side: the position counts both players' turns together, the
 * side to move having the odd one (9 left, blue to move: blue 5, brown 4).
 */
export function finalTurns(left, toMove) {
  const mover = Math.ceil(left / 2);
  const other = Math.floor(left / 2);
  return toMove === "blue" ? { blue: mover, brown: other } : { blue: other, brown: mover };
}
