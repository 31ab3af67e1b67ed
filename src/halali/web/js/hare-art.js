// The hare hunt's pictures, drawn in SVG: a hunter as the forest tiles are drawn (a face under a hat
// of its club's colour, the rifle along its facing), the hare sitting up, the bush, and the dice.
// The table's board, its tray and the hunt's replay all draw with these.

// The outline of a hat: white and yellow hats need a dark edge on the light board.
const HAT_EDGE = { R: "#5a1010", Y: "#6b5400", G: "#123d14", B: "#0b3a6e", W: "#444", K: "#000" };
export const CLUB_COLOURS = { R: "#c62828", Y: "#f2c200", G: "#2e7d32", B: "#1565c0", W: "#fafafa", K: "#212121" };
// Screen angle of each facing (y grows downwards): E, NE, NW, W, SW, SE.
export const ANGLE = { E: 0, NE: -60, NW: -120, W: 180, SW: 120, SE: 60 };

/**
 * A hunter at (x, y): the rifle first (under the figure), along the facing so it reads at a glance,
 * its muzzle in the club's colour; then a round face under a hat of that colour with a band.
 */
export function hunterArt(x, y, club, dir) {
  const colour = CLUB_COLOURS[club] || "#888";
  const edge = HAT_EDGE[club] || "#222";
  return `
  <g class="rifle" transform="rotate(${ANGLE[dir]} ${x} ${y})">
    <rect x="${x + 8}" y="${y - 3}" width="20" height="6" rx="1.5" fill="#5b3b1e" stroke="#2a1a0c" stroke-width="1"/>
    <rect x="${x + 20}" y="${y - 1.8}" width="9" height="3.6" fill="#3a3a3a"/>
    <polygon points="${x + 34},${y} ${x + 27},${y - 6} ${x + 27},${y + 6}" fill="${colour}" stroke="${edge}" stroke-width="1.2"/>
  </g>
  <g class="figure" transform="translate(${x} ${y}) scale(1.2) translate(${-x} ${-y})">
  <circle class="base" cx="${x}" cy="${y + 1}" r="14" fill="#f6efd9" stroke="${edge}" stroke-width="1.6"/>
  <circle cx="${x}" cy="${y + 4}" r="7.5" fill="#f1c59b" stroke="#7a4f2c" stroke-width="0.8"/>
  <circle cx="${x - 2.6}" cy="${y + 3.5}" r="1.1" fill="#2a2118"/><circle cx="${x + 2.6}" cy="${y + 3.5}" r="1.1" fill="#2a2118"/>
  <path d="M${x - 2.5} ${y + 7.2} q2.5 1.8 5 0" stroke="#7a4f2c" stroke-width="1" fill="none"/>
  <ellipse cx="${x}" cy="${y - 2.5}" rx="12" ry="3.2" fill="${colour}" stroke="${edge}" stroke-width="1.2"/>
  <path d="M${x - 7} ${y - 3} Q${x - 6.5} ${y - 13} ${x} ${y - 13} Q${x + 6.5} ${y - 13} ${x + 7} ${y - 3} Z" fill="${colour}" stroke="${edge}" stroke-width="1.2"/>
  <rect x="${x - 7}" y="${y - 6.5}" width="14" height="2.6" fill="${edge}" opacity="0.55"/>
  </g>`;
}

/** The hare, sitting up: long ears, a white tail, an eye. */
export function hareArt(x, y) {
  return `
  <ellipse cx="${x + 1}" cy="${y + 8}" rx="15" ry="11" fill="#9a7148" stroke="#4e3520" stroke-width="1.2"/>
  <circle cx="${x + 15}" cy="${y + 9}" r="4" fill="#fff" stroke="#4e3520" stroke-width="0.8"/>
  <circle cx="${x - 7}" cy="${y - 3}" r="8.5" fill="#a57b50" stroke="#4e3520" stroke-width="1.2"/>
  <ellipse cx="${x - 11}" cy="${y - 19}" rx="3.4" ry="10" fill="#a57b50" stroke="#4e3520" stroke-width="1.1" transform="rotate(-12 ${x - 11} ${y - 19})"/>
  <ellipse cx="${x - 4}" cy="${y - 20}" rx="3.4" ry="10" fill="#a57b50" stroke="#4e3520" stroke-width="1.1" transform="rotate(10 ${x - 4} ${y - 20})"/>
  <ellipse cx="${x - 4}" cy="${y - 20}" rx="1.4" ry="6.5" fill="#e8b8a0" transform="rotate(10 ${x - 4} ${y - 20})"/>
  <circle cx="${x - 9.5}" cy="${y - 4.5}" r="1.6" fill="#1d140c"/>
  <circle cx="${x - 14.6}" cy="${y - 1.5}" r="1.3" fill="#6b3b2a"/>`;
}

/** The bush: leafy clumps in two greens with a few berries. */
export function bushArt(x, y) {
  const clumps = [[-10, 5, 11], [10, 5, 11], [0, -6, 12], [-4, 8, 10], [5, 9, 10]];
  return clumps.map(([dx, dy, r]) => `<circle cx="${x + dx}" cy="${y + dy}" r="${r}" fill="#2f6b2a" stroke="#1b4218" stroke-width="1.2"/>`).join("")
    + `<circle cx="${x - 3}" cy="${y - 8}" r="5" fill="#4f9a3f"/><circle cx="${x + 8}" cy="${y + 2}" r="4" fill="#4f9a3f"/>`
    + `<circle cx="${x - 7}" cy="${y + 4}" r="2" fill="#c0392b"/><circle cx="${x + 4}" cy="${y - 2}" r="2" fill="#c0392b"/>`;
}

// Where the pips of each face sit on a die of 24 units (the blank has none).
const PIPS = { 0: [], 1: [[12, 12]], 2: [[6, 6], [18, 18]], 3: [[6, 6], [12, 12], [18, 18]], 4: [[6, 6], [18, 6], [6, 18], [18, 18]] };

/** A die showing ``face`` (0 for the blank) as an inline SVG, for the tray and the replay. */
export function dieSVG(face) {
  const pips = (PIPS[face] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.6" fill="#2a2118"/>`).join("");
  return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="1" y="1" width="22" height="22" rx="4"
    fill="#fffdf6" stroke="#2a2118" stroke-width="1.6"/>${pips}</svg>`;
}
