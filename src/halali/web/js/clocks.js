// The table's clocks as the server last sent them, the running one counted down here between
// messages. The server's value is the truth: every `game` message resets both, and only the server
// ends a game on time.

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

/** ``clockAt``: performance.now() when the game's clock values arrived. */
function clockMillis(game, table, seat, clockAt) {
  const c = game.clock;
  const left = c.remaining[seat];
  if (game.over || c.running !== seat || table?.state !== "playing") return left;
  return Math.max(0, left - (performance.now() - clockAt));
}

export function clockFace(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `0:0${(Math.floor(s * 10) / 10).toFixed(1)}`;
  const whole = Math.ceil(s - 1e-9);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** Write both seats' clocks (the boxes `clock-0`, `clock-1` the players' panels hold). */
export function showClocks(game, table, clockAt) {
  if (!game || !game.clock) return;
  for (const seat of [0, 1]) {
    const box = $(`clock-${seat}`);
    if (!box) continue;
    const ms = clockMillis(game, table, seat, clockAt);
    const running = !game.over && game.clock.running === seat && table?.state === "playing";
    const face = clockFace(ms);
    if (box.textContent !== face) box.textContent = face; // ten ticks a second; the face changes less often
    box.dataset.ms = String(Math.round(ms));
    box.classList.toggle("running", running);
    box.classList.toggle("low", ms < 30000);
    box.classList.toggle("out", ms <= 0);
  }
}
