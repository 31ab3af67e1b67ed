// Small line charts in inline SVG: the rating history on the profile and the evaluation over a game
// on the replay page. Drawn here so the pages need no chart library and scale with the page.

const NS = "http://www.w3.org/2000/svg";

function svg(name, attrs = {}, parent = null, text = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

/** Round numbers for an axis from ``lo`` to ``hi``: about ``n`` steps of 1, 2 or 5 times a power of ten. */
export function ticks(lo, hi, n = 4) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

/**
 * A line chart of ``points`` ({x, y, lo?, hi?, title?}, x ascending; y null = a gap).
 * Options: ``band`` draws lo..hi around the line, ``zero`` a middle line with the areas above and
 * below filled (``above`` / ``below`` classes), ``marker`` an x to highlight, ``onPick(index)`` makes
 * the points clickable, ``xLabel`` / ``yLabel`` (text), ``testid``.
 */
export function lineChart(points, opts = {}) {
  const W = opts.width ?? 640;
  const H = opts.height ?? 220;
  const pad = { l: 48, r: 14, t: opts.yLabel ? 24 : 14, b: opts.xLabel ? 38 : 26 };
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: `chart ${opts.className || ""}`, role: "img",
    "data-testid": opts.testid, "aria-label": opts.label });
  const known = points.filter((p) => p.y !== null && p.y !== undefined);
  if (!known.length) {
    svg("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "chart-empty" }, root, opts.empty || "–");
    return root;
  }
  const { X, Y } = frame(root, points.map((p) => p.x), known.flatMap((p) => [p.y, p.lo ?? p.y, p.hi ?? p.y]),
    W, H, pad, opts);

  // Runs of known points: a gap (y null) breaks the line.
  const runs = [];
  let run = [];
  for (const p of points) {
    if (p.y === null || p.y === undefined) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(p);
  }
  if (run.length) runs.push(run);
  const path = (ps, key = "y") => ps.map((p, i) => `${i ? "L" : "M"}${X(p.x).toFixed(1)} ${Y(p[key]).toFixed(1)}`).join(" ");

  if (opts.band) {
    for (const r of runs) {
      const upper = r.map((p) => ({ x: p.x, y: p.hi ?? p.y }));
      const lower = r.map((p) => ({ x: p.x, y: p.lo ?? p.y })).reverse();
      svg("path", { d: `${path(upper)} ${path(lower).replace(/^M/, "L")} Z`, class: "chart-band" }, root);
    }
  }
  if (opts.zero) {
    const clipAbove = `clip-a-${Math.random().toString(36).slice(2, 8)}`;
    const clipBelow = `${clipAbove}-b`;
    const defs = svg("defs", {}, root);
    svg("rect", { x: 0, y: 0, width: W, height: Y(0) }, svg("clipPath", { id: clipAbove }, defs));
    svg("rect", { x: 0, y: Y(0), width: W, height: H - Y(0) }, svg("clipPath", { id: clipBelow }, defs));
    for (const r of runs) {
      const area = `${path(r)} L${X(r[r.length - 1].x).toFixed(1)} ${Y(0).toFixed(1)} L${X(r[0].x).toFixed(1)} ${Y(0).toFixed(1)} Z`;
      svg("path", { d: area, class: "chart-area above", "clip-path": `url(#${clipAbove})` }, root);
      svg("path", { d: area, class: "chart-area below", "clip-path": `url(#${clipBelow})` }, root);
    }
    svg("line", { x1: pad.l, x2: W - pad.r, y1: Y(0), y2: Y(0), class: "chart-zero" }, root);
  }
  for (const r of runs) svg("path", { d: path(r), class: "chart-line" }, root);
  if (opts.marker !== null && opts.marker !== undefined) {
    svg("line", { x1: X(opts.marker), x2: X(opts.marker), y1: pad.t, y2: H - pad.b, class: "chart-marker",
      "data-testid": opts.testid ? `${opts.testid}-marker` : null, "data-x": opts.marker }, root);
  }
  const dots = svg("g", { class: "chart-dots" }, root);
  points.forEach((p, i) => {
    if (p.y === null || p.y === undefined) return;
    const c = svg("circle", { cx: X(p.x), cy: Y(p.y), r: opts.dot ?? 3.5, class: "chart-dot", "data-x": p.x, "data-y": p.y }, dots);
    if (p.title) svg("title", {}, c, p.title);
  });
  if (opts.onPick) {
    // The whole width is clickable: the nearest point's index is picked.
    const hit = svg("rect", { x: pad.l, y: pad.t, width: W - pad.l - pad.r, height: H - pad.t - pad.b, class: "chart-hit" }, root);
    hit.addEventListener("click", (e) => {
      const pt = root.createSVGPoint();
      pt.x = e.clientX;
      pt.y = e.clientY;
      const { x } = pt.matrixTransform(root.getScreenCTM().inverse());
      let best = 0;
      points.forEach((p, i) => {
        if (Math.abs(X(p.x) - x) < Math.abs(X(points[best].x) - x)) best = i;
      });
      opts.onPick(best);
    });
  }
  return root;
}

/** The axes of a chart: x from the lowest to the highest of ``xs``, y around ``ys`` (``zero``
 * includes 0, ``symmetric`` centres it, ``minRange`` is the least span), the grid and the labels
 * drawn into ``root``; returns the scales. */
function frame(root, xs, ys, W, H, pad, opts) {
  let x0 = Math.min(...xs);
  let x1 = Math.max(...xs);
  if (x1 === x0) {
    x0 -= 1;
    x1 += 1;
  }
  let y0 = Math.min(...ys, ...(opts.zero ? [0] : []));
  let y1 = Math.max(...ys, ...(opts.zero ? [0] : []));
  if (opts.symmetric) {
    const m = Math.max(Math.abs(y0), Math.abs(y1), opts.minRange ?? 1);
    y0 = -m;
    y1 = m;
  } else if (y1 - y0 < (opts.minRange ?? 1)) {
    const mid = (y0 + y1) / 2;
    y0 = mid - (opts.minRange ?? 1) / 2;
    y1 = mid + (opts.minRange ?? 1) / 2;
  }
  const margin = (y1 - y0) * 0.08;
  y0 -= margin;
  y1 += margin;
  const X = (x) => pad.l + ((x - x0) / (x1 - x0)) * (W - pad.l - pad.r);
  const Y = (y) => pad.t + ((y1 - y) / (y1 - y0)) * (H - pad.t - pad.b);
  const grid = svg("g", { class: "chart-grid" }, root);
  for (const v of ticks(y0, y1, 4)) {
    svg("line", { x1: pad.l, x2: W - pad.r, y1: Y(v), y2: Y(v) }, grid);
    svg("text", { x: pad.l - 6, y: Y(v) + 4, "text-anchor": "end" }, grid, String(v));
  }
  for (const v of ticks(x0, x1, 6).filter((v) => Number.isInteger(v))) {
    svg("text", { x: X(v), y: H - pad.b + 16, "text-anchor": "middle" }, grid, String(v));
  }
  if (opts.yLabel) svg("text", { x: 4, y: 12, class: "chart-axis-label" }, root, opts.yLabel);
  if (opts.xLabel) svg("text", { x: (pad.l + W - pad.r) / 2, y: H - 3, "text-anchor": "middle", class: "chart-axis-label" }, root, opts.xLabel);
  return { X, Y };
}

/**
 * A bar chart of ``bars`` ({x, y, title?, className?, testid?}) from a zero line, on an x axis
 * from ``opts.from`` to ``opts.to`` (so that it lines up with a line chart of the same game).
 * Options as ``lineChart``'s: ``marker``, ``onPick(bar)``, ``xLabel`` / ``yLabel``, ``label``, ``testid``.
 */
export function barChart(bars, opts = {}) {
  const W = opts.width ?? 640;
  const H = opts.height ?? 180;
  const pad = { l: 48, r: 14, t: opts.yLabel ? 24 : 14, b: opts.xLabel ? 38 : 26 };
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: `chart bar-chart ${opts.className || ""}`, role: "img",
    "data-testid": opts.testid, "aria-label": opts.label });
  if (!bars.length) {
    svg("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "chart-empty" }, root, opts.empty || "–");
    return root;
  }
  const xs = [opts.from ?? Math.min(...bars.map((b) => b.x)), opts.to ?? Math.max(...bars.map((b) => b.x))];
  const { X, Y } = frame(root, xs, bars.map((b) => b.y), W, H, pad, { ...opts, zero: true, symmetric: true });
  const width = Math.max(2, Math.min(10, (W - pad.l - pad.r) / Math.max(1, xs[1] - xs[0]) * 0.7));
  const group = svg("g", { class: "chart-bars" }, root);
  for (const b of bars) {
    const top = Math.min(Y(b.y), Y(0));
    const rect = svg("rect", { x: X(b.x) - width / 2, y: top, width, height: Math.max(1, Math.abs(Y(b.y) - Y(0))),
      class: `chart-bar ${b.y >= 0 ? "above" : "below"} ${b.className || ""}`, "data-x": b.x, "data-y": b.y,
      "data-testid": b.testid }, group);
    if (b.title) svg("title", {}, rect, b.title);
    if (opts.onPick) {
      rect.addEventListener("click", () => opts.onPick(b));
      rect.style.cursor = "pointer";
    }
  }
  svg("line", { x1: pad.l, x2: W - pad.r, y1: Y(0), y2: Y(0), class: "chart-zero" }, root);
  if (opts.marker !== null && opts.marker !== undefined) {
    svg("line", { x1: X(opts.marker), x2: X(opts.marker), y1: pad.t, y2: H - pad.b, class: "chart-marker",
      "data-x": opts.marker }, root);
  }
  return root;
}
