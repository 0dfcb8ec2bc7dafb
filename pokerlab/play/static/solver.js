// pokerlab spot solver page: enter a spot, solve it on the server (background thread,
// polled), walk the tree.  The server does all the poker; this file draws.  API: solver_page.py.
"use strict";

const RANKS = "AKQJT98765432";
const SUITS = "shdc";
const SUIT_SYM = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

const sp = {
  classes: [],        // the 169 class names in grid order
  weights: { oop: new Array(169).fill(0), ip: new Array(169).fill(0) },
  session: null,
  status: null,
  node: null,         // last node report
  path: [],
  show: null,         // "oop" | "ip": whose range the grid shows
  nodes: 0,           // node reports drawn (tests wait on it)
  polls: 0,
  polling: false,
  classesDrawn: 0,    // hand-class views drawn (tests wait on them)
  runoutsDrawn: 0,
  chartsDrawn: 0,
  loads: 0,           // solves loaded from a file
  relocks: 0,         // locked re-solves that replaced the view
  view: null,         // "classes" | "runouts": the study view shown under the grid
  classes_: null,     // last hand-class report
  runouts: null,      // last runout report
  charts: null,       // last preflop charts
};
window.solverPage = sp;

function showError(msg) { $("error").textContent = msg || ""; }
function fmt(x, d = 2) { return x === null || x === undefined ? "\u2013" : Number(x).toFixed(d); }
function pct(x, d = 1) { return x === null || x === undefined ? "\u2013" : (100 * x).toFixed(d) + "%"; }

// ------------------------------------------------------------------ board picker
function boardCards() {
  const t = $("board").value.replace(/10/g, "T").replace(/[\s,]/g, "");
  const out = [];
  for (let i = 0; i + 1 < t.length; i += 2) out.push(t[i].toUpperCase() + t[i + 1].toLowerCase());
  return out;
}

function buildPicker() {
  const box = $("board-picker");
  for (const s of SUITS) {
    for (const r of RANKS) {
      const b = el("button", "pcard" + (s === "h" || s === "d" ? " red" : ""), r + SUIT_SYM[s]);
      b.type = "button";
      b.dataset.card = r + s;
      b.addEventListener("click", () => {
        let cards = boardCards();
        const c = r + s;
        if (cards.includes(c)) cards = cards.filter((x) => x !== c);
        else if (cards.length < 5) cards.push(c);
        $("board").value = cards.join("");
        syncPicker();
      });
      box.appendChild(b);
    }
  }
  $("board").addEventListener("input", syncPicker);
  syncPicker();
}

function syncPicker() {
  const cards = boardCards();
  document.querySelectorAll("#board-picker .pcard").forEach((b) => {
    b.classList.toggle("on", cards.includes(b.dataset.card));
  });
}

// ------------------------------------------------------------------ range painter
function painting() { return document.querySelector("input[name=paint]:checked").value; }

function buildPainter() {
  const g = $("range-grid");
  let drag = null; // value being painted
  sp.classes.forEach((name, k) => {
    const c = el("div", "cell", name);
    c.dataset.k = k;
    c.addEventListener("pointerdown", (ev) => {
      ev.preventDefault();
      const w = sp.weights[painting()];
      drag = w[k] >= 0.999 ? 0 : 1;
      w[k] = drag;
      drawPainter();
    });
    c.addEventListener("pointerenter", () => {
      if (drag === null) return;
      sp.weights[painting()][k] = drag;
      drawPainter();
    });
    g.appendChild(c);
  });
  // pointer capture would keep events on the first cell: track by position instead
  g.addEventListener("pointermove", (ev) => {
    if (drag === null) return;
    const t = document.elementFromPoint(ev.clientX, ev.clientY);
    if (t && t.dataset && t.dataset.k !== undefined && t.parentNode === g) {
      const k = Number(t.dataset.k);
      const w = sp.weights[painting()];
      if (w[k] !== drag) { w[k] = drag; drawPainter(); }
    }
  });
  const end = () => {
    if (drag === null) return;
    drag = null;
    paintedToText(painting());
  };
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
  document.querySelectorAll("input[name=paint]").forEach((r) => r.addEventListener("change", drawPainter));
}

function drawPainter() {
  const w = sp.weights[painting()];
  document.querySelectorAll("#range-grid .cell").forEach((c) => {
    const v = w[Number(c.dataset.k)];
    c.style.background = v > 0 ? `rgba(255, 211, 92, ${0.25 + 0.75 * v})` : "";
    c.classList.toggle("in", v > 0);
  });
}

async function paintedToText(who) {
  const w = sp.weights[who];
  const tokens = [];
  sp.classes.forEach((n, k) => {
    if (w[k] >= 0.999) tokens.push(n);
    else if (w[k] > 0) tokens.push(`${n}:${Number(w[k].toFixed(3))}`);
  });
  if (!tokens.length) {
    $(who).value = "";
    $(who + "-info").textContent = "empty range";
    return;
  }
  await loadRange(who, tokens.join(","), true);
}

async function loadRange(who, text, setText) {
  const info = $(who + "-info");
  try {
    const r = await api("POST", "/api/solver/range", { range: text });
    sp.weights[who] = r.weights;
    if (setText) $(who).value = r.text;
    info.textContent = `${fmt(r.combos, 0)} combos (${fmt(r.percent, 1)}%)`;
    info.classList.remove("bad");
  } catch (e) {
    info.textContent = e.message;
    info.classList.add("bad");
  }
  if (painting() === who) drawPainter();
}

function debounce(fn, ms) {
  let t = null;
  return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); };
}

// ------------------------------------------------------------------ the spot
function spotBody() {
  const num = (id) => {
    const v = $(id).value.trim();
    return v === "" ? null : Number(v);
  };
  const body = {
    board: $("board").value.trim(),
    pot: num("pot"), stack: num("stack"),
    oop: $("oop").value.trim(), ip: $("ip").value.trim(),
    allin_threshold: num("allin_threshold"), force_allin: num("force_allin"),
  };
  for (const s of ["flop", "turn", "river"]) {
    for (const k of ["bets", "raises"]) body[`${s}_${k}`] = $(`${s}_${k}`).value.trim() || "none";
  }
  const donk = $("donk").value.trim();
  if (donk) body.donk = donk;
  const cap = num("raise_cap");
  if (cap) body.raise_cap = Number.isInteger(cap) ? cap : cap.toString();
  body.compress = $("compress").checked;
  for (const k of Object.keys(body)) if (body[k] === null || Number.isNaN(body[k])) delete body[k];
  return body;
}

// ------------------------------------------------------------------ the form survives a reload
const FORM = ["board", "pot", "stack", "oop", "ip", "flop_bets", "flop_raises", "turn_bets", "turn_raises",
  "river_bets", "river_raises", "donk", "allin_threshold", "force_allin", "raise_cap", "compress", "target",
  "iterations"];
const FORM_KEY = "pokerlab-solver-form";

function saveForm() {
  const out = {};
  for (const id of FORM) out[id] = $(id).type === "checkbox" ? $(id).checked : $(id).value;
  try { sessionStorage.setItem(FORM_KEY, JSON.stringify(out)); } catch (e) { /* private mode */ }
}

function restoreForm() {
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem(FORM_KEY) || "null"); } catch (e) { saved = null; }
  if (!saved || typeof saved !== "object") return false;
  for (const id of FORM) {
    if (!(id in saved)) continue;
    if ($(id).type === "checkbox") $(id).checked = !!saved[id];
    else $(id).value = String(saved[id]);
  }
  return true;
}

function mb(bytes) { return bytes >= 1e9 ? (bytes / 1e9).toFixed(2) + " GB" : (bytes / 1e6).toFixed(1) + " MB"; }

function sizeText(r) {
  return `${r.nodes.toLocaleString()} nodes (${r.betting_nodes.toLocaleString()} betting), about ` +
    `${mb(r.memory_bytes)}${r.compress ? " in 16 bits" : ""}` +
    (r.over_limit ? ` (over the server's limit of ${mb(r.max_memory)})` : "");
}

// the memory estimate, shown before solving (the server counts the tree in milliseconds)
async function estimate(quiet) {
  sp.estimates = (sp.estimates || 0) + 1;
  const box = $("estimate");
  try {
    const r = await api("POST", "/api/solver/tree", spotBody());
    box.textContent = sizeText(r);
    box.classList.toggle("bad", !!r.over_limit);
    box.dataset.bytes = r.memory_bytes;
    return r;
  } catch (e) {
    box.textContent = quiet ? e.message : "";
    box.classList.add("bad");
    box.dataset.bytes = "";
    if (!quiet) showError(e.message);
    return null;
  }
}

async function treeSize() {
  showError("");
  const r = await estimate(false);
  if (r) $("tree-info").textContent = sizeText(r);
}

function replaceQuestion(st) {
  const what = isRunning(st) ? "is still running" : "has finished";
  return `Your last solve ${what} (iteration ${st.iteration}, ${st.seconds.toFixed(0)} s, ` +
    `exploitability ${st.exploitability_pct === null ? "\u2013" : st.exploitability_pct + "%"}). ` +
    "Replace it with a new solve of this form?";
}

async function solve() {
  showError("");
  const old = sp.status;
  if (sp.session && old && (old.state === "running" || old.state === "starting" || old.iteration > 0)) {
    sp.asked = (sp.asked || 0) + 1;
    if (!window.confirm(replaceQuestion(old))) return;  // keep the old solve and the form
  }
  saveForm();
  const body = spotBody();
  const target = Number($("target").value);
  const iters = Number($("iterations").value);
  if ($("target").value.trim() !== "") body.target_pct = target;
  if ($("iterations").value.trim() !== "") body.iterations = Number.isInteger(iters) ? iters : iters.toString();
  if (sp.session) { body.session = sp.session; body.replace = true; }
  $("btn-solve").disabled = true;
  try {
    const st = await api("POST", "/api/solver/solve", body);
    sp.session = st.session;
    try { sessionStorage.setItem("pokerlab-solver", st.session); } catch (e) { /* private mode */ }
    sp.path = [];
    sp.node = null;
    sp.show = null;
    $("browser").classList.add("hidden");
    $("tree-info").textContent = `${st.nodes.toLocaleString()} nodes, about ${mb(st.memory_bytes)}` +
      (st.compress ? " in 16 bits" : "");
    drawStatus(st);
    poll();
  } catch (e) {
    showError(e.message);
    $("btn-solve").disabled = false;
  }
}

async function stop() {
  if (!sp.session) return;
  try { drawStatus(await api("POST", `/api/solver/${sp.session}/stop`)); } catch (e) { showError(e.message); }
}

// a solve or a report still running (or starting) by its status
function isRunning(st) { return st.state === "running" || st.state === "starting"; }

// One poller at a time per `flag` of sp: `fetchStatus()` every `ms` while `live()`, each
// answer counted in sp[count] and drawn; `ended(st)` once it has stopped running; a failed
// request ends the polling with `fail(message)`.
async function pollLoop({ flag, live, fetchStatus, count, draw, ended, fail, ms }) {
  if (sp[flag]) return;
  sp[flag] = true;
  try {
    while (live()) {
      let st;
      try {
        st = await fetchStatus();
      } catch (e) {
        fail(e.message);
        break;
      }
      sp[count] = (sp[count] || 0) + 1;
      draw(st);
      if (!isRunning(st)) {
        await ended(st);
        break;
      }
      await new Promise((r) => setTimeout(r, ms));
    }
  } finally {
    sp[flag] = false;
  }
}

function poll() {
  return pollLoop({
    flag: "polling", count: "polls", ms: 250, live: () => sp.session, draw: drawStatus, fail: showError,
    fetchStatus: () => api("GET", `/api/solver/${sp.session}/status`),
    ended: async (st) => {
      if (st.state === "error") showError(st.message);
      else if (st.iteration > 0) await loadNode(sp.path);
    },
  });
}

function drawStatus(st) {
  sp.status = st;
  const running = isRunning(st);
  $("btn-solve").disabled = running;
  $("btn-stop").disabled = !running;
  // progress toward the target exploitability (log scale), not iterations of the maximum
  const frac = Math.max(0, Math.min(1, st.progress || 0));
  $("progress-bar").style.width = (100 * frac).toFixed(1) + "%";
  $("progress-bar").dataset.progress = frac;
  const why = { target: "target reached", iterations: "iteration limit", stopped: "stopped",
    "time limit": "time limit", unwatched: "stopped unwatched", error: "error", loaded: "loaded" }[st.reason] ||
    st.state;
  $("btn-save").disabled = running || !(st.iteration > 0);
  let eta = "";
  if (running && st.eta_seconds !== null && st.eta_seconds !== undefined) {
    const secs = st.eta_seconds < 90 ? `${Math.ceil(st.eta_seconds)} s` : `${Math.ceil(st.eta_seconds / 60)} min`;
    eta = st.expected_end === "target" ? ` \u00b7 about ${secs} to the target` :
      ` \u00b7 ends at the ${st.expected_end === "iterations" ? "iteration" : "time"} limit in about ${secs}` +
      " before the target";
  }
  $("progress-text").dataset.eta = running && st.eta_seconds !== null ? st.eta_seconds : "";
  $("progress-text").textContent = `${running ? "Solving" : "Done"}: ${(100 * frac).toFixed(0)}% of the way ` +
    `to ${st.target_pct}% \u00b7 iteration ${st.iteration} / ${st.max_iterations} \u00b7 ` +
    `${st.seconds.toFixed(1)} s` + eta + (running ? "" : ` \u00b7 ${why}`) + (st.message ? ` \u00b7 ${st.message}` : "");
  $("expl").textContent = st.exploitability_pct === null ? "\u2013" :
    `${st.exploitability_pct.toFixed(3)}% of pot (${st.exploitability.toFixed(3)} chips)`;
  $("expl").dataset.pct = st.exploitability_pct === null ? "" : st.exploitability_pct;
  $("expl-target").textContent = `target ${st.target_pct}%`;
  $("values").textContent = st.ev_oop === undefined ? "" :
    `EV OOP ${fmt(st.ev_oop)} \u00b7 EV IP ${fmt(st.ev_ip)} chips \u00b7 OOP equity ${pct(st.equity_oop)}`;
  $("status").textContent = running ? "solving\u2026" : "";
  drawChart(st);
}

function drawChart(st) {
  const svg = $("chart");
  // one viewBox unit per pixel, so that the text is not stretched
  const W = Math.max(200, Math.round(svg.clientWidth || 400)), H = Math.max(100, Math.round(svg.clientHeight || 150));
  const L = 44, R = 8, T = 8, B = 20;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const pts = st.history.filter((p) => p[1] !== null && p[1] > 0);
  const parts = [];
  const x0 = 0, x1 = Math.max(st.max_iterations, 1);
  const ys = pts.map((p) => p[1]).concat([st.target_pct]);
  let lo = Math.floor(Math.log10(Math.min(...ys))), hi = Math.ceil(Math.log10(Math.max(...ys)));
  if (hi <= lo) hi = lo + 1;
  // zoom the x axis to what has been run once the solve is over
  const xmax = st.state === "running" ? x1 : Math.max(pts.length ? pts[pts.length - 1][0] : 1, 1);
  const X = (i) => L + (W - L - R) * (i - x0) / Math.max(xmax - x0, 1);
  const Y = (v) => T + (H - T - B) * (hi - Math.log10(v)) / (hi - lo);
  for (let e = lo; e <= hi; e++) {
    const y = Y(10 ** e);
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y}" y2="${y}" class="gridline"/>`);
    parts.push(`<text x="${L - 4}" y="${y + 3}" class="axis" text-anchor="end">${10 ** e >= 1 ? 10 ** e : (10 ** e).toPrecision(1)}%</text>`);
  }
  parts.push(`<text x="${W - R}" y="${H - 5}" class="axis" text-anchor="end">iteration ${xmax}</text>`);
  parts.push(`<text x="${L}" y="${H - 5}" class="axis">0</text>`);
  const ty = Y(st.target_pct);
  parts.push(`<line x1="${L}" x2="${W - R}" y1="${ty}" y2="${ty}" class="target"/>`);
  if (pts.length) {
    const d = pts.map((p, i) => `${i ? "L" : "M"}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(" ");
    parts.push(`<path d="${d}" class="line"/>`);
    const last = pts[pts.length - 1];
    parts.push(`<circle cx="${X(last[0]).toFixed(1)}" cy="${Y(last[1]).toFixed(1)}" r="2.5" class="dot"/>`);
  }
  svg.innerHTML = parts.join("");
  svg.dataset.points = pts.length;
}

// ------------------------------------------------------------------ the tree
async function loadNode(path) {
  try {
    const rep = await api("POST", `/api/solver/${sp.session}/node`, { path });
    sp.path = path;
    sp.node = rep;
    if (rep.kind === "decision") sp.show = rep.player;
    else if (!sp.show) sp.show = "oop";
    drawNode();
    sp.nodes++;
  } catch (e) {
    showError(e.message);
  }
}

function actionColour(name, actions) {
  const head = name.split(" ")[0];
  if (head === "fold") return "#5b8def";
  if (head === "check" || head === "call") return "#4caf50";
  if (head === "allin") return "#8e24aa";
  const bets = actions.filter((a) => a.startsWith("bet") || a.startsWith("raise"));
  const shades = ["#f28b82", "#e53935", "#b71c1c", "#7f0000", "#4a0000"];
  return shades[Math.min(bets.indexOf(name), shades.length - 1)];
}

function cardSpan(c) {
  const s = el("span", "bcard" + (c[1] === "h" || c[1] === "d" ? " red" : ""), c[0] + SUIT_SYM[c[1]]);
  s.dataset.card = c;
  return s;
}

function drawNode() {
  const rep = sp.node;
  $("browser").classList.remove("hidden");
  // crumbs
  const crumbs = $("crumbs");
  crumbs.replaceChildren();
  const root = el("button", "crumb", "root");
  root.type = "button";
  root.addEventListener("click", () => loadNode([]));
  crumbs.appendChild(root);
  rep.path.forEach((step, i) => {
    const b = el("button", "crumb", step);
    b.type = "button";
    b.addEventListener("click", () => loadNode(rep.path.slice(0, i + 1)));
    crumbs.appendChild(b);
  });
  const who = rep.player ? rep.player.toUpperCase() : "";
  const what = { decision: `${who} to act`, chance: "deal the next card", fold: "a player folded",
    showdown: "showdown" }[rep.kind];
  $("node-info").textContent = `${rep.street} \u00b7 pot ${fmt(rep.pot, 0)} \u00b7 ${what}`;
  if (rep.locked) {
    const badge = el("span", "locked", "locked");
    badge.title = (rep.locks || []).map((l) => `${l.hands}: ` +
      Object.entries(l.mix).map(([a, f]) => `${a} ${pct(f, 0)}`).join(", ")).join("; ") || "locked in the file";
    $("node-info").append(" \u00b7 ", badge);
  }
  $("node-info").dataset.locked = rep.locked ? "1" : "";
  drawLockBox(rep);
  $("btn-runouts").disabled = rep.kind !== "chance";
  if (sp.view === "runouts" && rep.kind !== "chance") sp.view = null;
  showStudy();
  $("node-board").replaceChildren(...(rep.board.match(/../g) || []).map(cardSpan));
  // actions
  const acts = $("actions");
  acts.replaceChildren();
  rep.actions.forEach((a, i) => {
    const b = el("button", "act");
    b.type = "button";
    b.dataset.action = a;
    const sw = el("span", "swatch");
    sw.style.background = actionColour(a, rep.actions);
    b.append(sw, el("span", "", a), el("span", "freq", pct(rep.frequencies[i])));
    b.addEventListener("click", () => loadNode(rep.path.concat([a])));
    acts.appendChild(b);
  });
  // chance: the cards that can come
  const deal = $("deal");
  deal.replaceChildren();
  deal.classList.toggle("hidden", rep.kind !== "chance");
  if (rep.kind === "chance") {
    deal.appendChild(el("div", "info", "Deal:"));
    const legal = new Set(rep.cards);
    for (const s of SUITS) {
      for (const r of RANKS) {
        const c = r + s;
        const b = el("button", "pcard" + (s === "h" || s === "d" ? " red" : ""), r + SUIT_SYM[s]);
        b.type = "button";
        b.dataset.card = c;
        b.disabled = !legal.has(c);
        b.addEventListener("click", () => loadNode(rep.path.concat([c])));
        deal.appendChild(b);
      }
    }
  }
  $("show-oop").checked = sp.show === "oop";
  $("show-ip").checked = sp.show === "ip";
  drawGrid();
}

function drawGrid() {
  const rep = sp.node;
  const side = rep[sp.show];
  const mix = side.mix;
  const grid = $("grid");
  grid.replaceChildren();
  const colours = rep.actions.map((a) => actionColour(a, rep.actions));
  sp.classes.forEach((name, k) => {
    const c = el("div", "cell");
    c.dataset.k = k;
    c.dataset.cls = name;
    const reach = side.reach[k] || 0;
    if (reach > 1e-6) {
      const fill = el("div", "fill");
      fill.style.height = Math.max(8, Math.min(100, 100 * reach)).toFixed(1) + "%";
      if (mix && mix[k]) {
        let x = 0;
        const stops = [];
        mix[k].forEach((f, a) => {
          const x2 = x + 100 * (f || 0);
          stops.push(`${colours[a]} ${x.toFixed(2)}% ${x2.toFixed(2)}%`);
          x = x2;
        });
        fill.style.background = `linear-gradient(to right, ${stops.join(", ")})`;
        c.dataset.mix = mix[k].join(",");
      } else {
        const eq = side.equity[k];
        fill.style.background = eq === null ? "#78909c" : `hsl(${(120 * eq).toFixed(0)}, 55%, 45%)`;
      }
      c.appendChild(fill);
      c.classList.add("in");
    }
    c.appendChild(el("span", "label", name));
    c.addEventListener("mouseenter", (ev) => showTip(k, ev));
    c.addEventListener("mousemove", moveTip);
    c.addEventListener("mouseleave", hideTip);
    c.addEventListener("click", (ev) => showTip(k, ev));
    grid.appendChild(c);
  });
  const legend = $("legend");
  legend.replaceChildren();
  if (mix) {
    rep.actions.forEach((a, i) => {
      const item = el("span", "item");
      const sw = el("span", "swatch");
      sw.style.background = colours[i];
      item.append(sw, el("span", "", `${a} ${pct(rep.frequencies[i])}`));
      legend.appendChild(item);
    });
  } else {
    legend.appendChild(el("span", "info", `${sp.show.toUpperCase()}'s range, coloured by equity (red 0% \u2013 green 100%)`));
  }
  $("range-summary").textContent = `${sp.show.toUpperCase()}: ${fmt(side.combo_count, 1)} combos \u00b7 ` +
    `EV ${fmt(side.range_ev)} \u00b7 equity ${pct(side.range_equity)}`;
}

function showTip(k, ev) {
  const rep = sp.node;
  const side = rep[sp.show];
  const tip = $("tip");
  tip.replaceChildren();
  const name = sp.classes[k];
  const head = el("div", "tip-head", `${name} \u00b7 ${sp.show.toUpperCase()}`);
  tip.appendChild(head);
  const rows = side.combos.filter((r) => r[1] === k);
  if (!rows.length) {
    tip.appendChild(el("div", "info", "not in range here"));
  } else {
    tip.appendChild(el("div", "", `EV ${fmt(side.ev[k])} \u00b7 equity ${pct(side.equity[k])}`));
    const table = el("table");
    table.appendChild(headRow(["combo", "weight"].concat(side.mix ? rep.actions : []).concat(["EV", "equity"])));
    rows.forEach((r) => {
      const tr = el("tr");
      tr.appendChild(el("td", "", r[0]));
      tr.appendChild(el("td", "", fmt(r[2], 2)));
      if (side.mix) r[5].forEach((f) => tr.appendChild(el("td", "", pct(f, 0))));
      tr.appendChild(el("td", "", fmt(r[3])));
      tr.appendChild(el("td", "", pct(r[4])));
      table.appendChild(tr);
    });
    tip.appendChild(table);
  }
  tip.classList.remove("hidden");
  moveTip(ev);
}

function moveTip(ev) {
  const tip = $("tip");
  if (tip.classList.contains("hidden")) return;
  const pad = 14;
  const w = tip.offsetWidth, h = tip.offsetHeight;
  let x = ev.clientX + pad, y = ev.clientY + pad;
  if (x + w > window.innerWidth - 4) x = Math.max(4, ev.clientX - w - pad);
  if (y + h > window.innerHeight - 4) y = Math.max(4, ev.clientY - h - pad);
  tip.style.left = x + "px";
  tip.style.top = y + "px";
}

function hideTip() { $("tip").classList.add("hidden"); }

// ------------------------------------------------------------------ save and load a solve
function saveSolve() {
  if (!sp.session) return;
  const a = document.createElement("a");
  a.href = `/api/solver/${sp.session}/save`;
  a.download = "";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function loadSolve() {
  const input = $("load-file");
  const file = input.files && input.files[0];
  if (!file) return;
  showError("");
  $("file-info").textContent = `loading ${file.name}\u2026`;
  try {
    const data = await api("POST", "/api/solver/load", await file.arrayBuffer(),
      { "Content-Type": "application/octet-stream" });
    sp.session = data.session;
    try { sessionStorage.setItem("pokerlab-solver", data.session); } catch (e) { /* private mode */ }
    sp.path = [];
    sp.show = null;
    sp.view = null;
    $("file-info").textContent = `${file.name}: ${data.board}, ${data.iteration.toLocaleString()} iterations`;
    drawStatus(data);
    await loadNode([]);
    sp.loads++;
  } catch (e) {
    $("file-info").textContent = "";
    showError(e.message);
  } finally {
    input.value = "";
  }
}

// ------------------------------------------------------------------ node locking
function drawLockBox(rep) {
  const box = $("lockbox");
  box.classList.toggle("hidden", rep.kind !== "decision");
  if (rep.kind !== "decision") return;
  const mix = $("lock-mix");
  mix.replaceChildren();
  rep.actions.forEach((a, i) => {
    const lab = el("label", "lockact");
    const inp = el("input");
    inp.type = "number";
    inp.min = "0";
    inp.max = "100";
    inp.step = "1";
    inp.value = i === 0 ? "100" : "0";
    inp.dataset.action = a;
    lab.append(el("span", "", a + " %"), inp);
    mix.appendChild(lab);
  });
  const here = (sp.status && sp.status.locks) || [];
  $("lock-info").textContent = here.length ? "Locks of this solve: " + here.map((l) =>
    `${l.path.join(" / ") || "root"}: ${l.hands} (${l.player.toUpperCase()}) ` +
    Object.entries(l.mix).map(([a, f]) => `${a} ${pct(f, 0)}`).join(", ")).join("; ") : "";
}

async function lockAndSolve() {
  showError("");
  if (!sp.session || !sp.node || sp.node.kind !== "decision") return;
  const mix = {};
  let tot = 0;
  document.querySelectorAll("#lock-mix input").forEach((inp) => {
    const v = Number(inp.value || 0);
    mix[inp.dataset.action] = v / 100;
    tot += v;
  });
  if (Math.abs(tot - 100) > 0.1) { showError(`the locked mix must add up to 100%, got ${tot}%`); return; }
  const body = { path: sp.node.path, hands: $("lock-hands").value.trim(), mix };
  const target = Number($("target").value), iters = Number($("iterations").value);
  if ($("target").value.trim() !== "") body.target_pct = target;
  if ($("iterations").value.trim() !== "") body.iterations = Number.isInteger(iters) ? iters : iters.toString();
  $("btn-lock").disabled = true;
  try {
    const st = await api("POST", `/api/solver/${sp.session}/lock`, body);
    $("lock-info").textContent = "re-solving with the lock\u2026";
    await pollRelock(st.session);
  } catch (e) {
    showError(e.message);
  } finally {
    $("btn-lock").disabled = false;
  }
}

// the re-solve runs in its own session; the view it replaces stays until it is done
async function pollRelock(sid) {
  for (;;) {
    const st = await api("GET", `/api/solver/${sid}/status`);
    if (isRunning(st)) {
      $("lock-info").textContent = `re-solving with the lock: iteration ${st.iteration} / ${st.max_iterations}` +
        (st.exploitability_pct === null ? "" : ` \u00b7 exploitability ${st.exploitability_pct}%`);
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    if (st.state === "error") throw new Error(st.message || "the re-solve failed");
    sp.session = sid;
    try { sessionStorage.setItem("pokerlab-solver", sid); } catch (e) { /* private mode */ }
    drawStatus(st);
    await loadNode(sp.path);
    sp.relocks++;
    return;
  }
}

// ------------------------------------------------------------------ study views
function mixBar(actions, freqs) {
  const bar = el("div", "mixbar");
  actions.forEach((a, i) => {
    const f = freqs[i] || 0;
    if (f <= 0) return;
    const seg = el("span", "seg");
    seg.style.width = (100 * f).toFixed(2) + "%";
    seg.style.background = actionColour(a, actions);
    seg.title = `${a} ${pct(f)}`;
    bar.appendChild(seg);
  });
  bar.title = actions.map((a, i) => `${a} ${pct(freqs[i] || 0)}`).join(", ");
  return bar;
}

function toggleView(which) {
  sp.view = sp.view === which ? null : which;
  showStudy();
}

// the study view chosen (sp.view: "classes" | "runouts") shown under the grid, for the node shown
function showStudy() {
  $("classes-view").classList.toggle("hidden", sp.view !== "classes");
  $("runouts-view").classList.toggle("hidden", sp.view !== "runouts");
  if (sp.view) loadStudy(sp.view);
}

async function loadStudy(which) {
  try {
    const rep = await api("POST", `/api/solver/${sp.session}/${which}`, { path: sp.path });
    if (which === "classes") {
      sp.classes_ = rep;
      drawClasses(rep);
      sp.classesDrawn++;
    } else {
      sp.runouts = rep;
      drawRunouts(rep);
      sp.runoutsDrawn++;
    }
  } catch (e) { showError(e.message); }
}

function drawClasses(rep) {
  const box = $("classes-view");
  box.replaceChildren();
  for (const who of ["oop", "ip"]) {
    const rows = rep.classes.filter((r) => r.player === who);
    const acting = rep.kind === "decision" && rep.player === who;
    box.appendChild(el("h3", "", `${who.toUpperCase()} by hand class` + (acting ? " (to act)" : "")));
    const t = el("table", "study-table");
    t.dataset.player = who;
    t.appendChild(headRow(["class", "combos", "share", acting ? "action mix" : "", "EV", "equity", "EQR"]));
    for (const r of rows) {
      const tr = el("tr");
      tr.dataset.name = r.name;
      for (const k of ["combos", "share", "ev", "equity", "eqr"]) tr.dataset[k] = r[k] === null ? "" : r[k];
      tr.appendChild(el("td", "", r.name));
      tr.appendChild(el("td", "num", fmt(r.combos, 1)));
      tr.appendChild(el("td", "num", pct(r.share)));
      const td = el("td");
      if (acting) {
        td.appendChild(mixBar(rep.actions, rep.actions.map((a) => r.actions[a])));
        tr.dataset.mix = rep.actions.map((a) => r.actions[a]).join(",");
      }
      tr.appendChild(td);
      tr.appendChild(el("td", "num", fmt(r.ev)));
      tr.appendChild(el("td", "num", pct(r.equity)));
      tr.appendChild(el("td", "num", fmt(r.eqr)));
      t.appendChild(tr);
    }
    box.appendChild(t);
  }
  const cmp = rep.comparison;
  box.appendChild(el("h3", "", "Equity distribution"));
  box.appendChild(el("div", "info", `nut share (equity \u2265 ${pct(cmp.nut_equity, 0)}): OOP ` +
    `${pct(cmp.nut_share.oop)} \u00b7 IP ${pct(cmp.nut_share.ip)} \u00b7 nut advantage OOP ${pct(cmp.nut_advantage)}`));
  box.appendChild(curvesChart(cmp));
}

function curvesChart(cmp) {
  const W = 400, H = 160, L = 34, R = 8, T = 8, B = 20;
  const svg = svgChart(W, H, "curves");
  svg.id = "curves";
  const X = (p) => L + (W - L - R) * p / 100, Y = (e) => T + (H - T - B) * (1 - e);
  const parts = [];
  for (const e of [0, 0.5, 1]) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${Y(e)}" y2="${Y(e)}" class="gridline"/>`);
    parts.push(`<text x="${L - 4}" y="${Y(e) + 3}" class="axis" text-anchor="end">${100 * e}%</text>`);
  }
  parts.push(`<text x="${W - R}" y="${H - 5}" class="axis" text-anchor="end">range percentile</text>`);
  let n = 0;
  for (const [who, cls] of [["oop", "curve-oop"], ["ip", "curve-ip"]]) {
    const ys = cmp.curves[who];
    if (!ys) continue;
    n++;
    const d = ys.map((e, i) => `${i ? "L" : "M"}${X(cmp.percentiles[i]).toFixed(1)},${Y(e).toFixed(1)}`).join(" ");
    parts.push(`<path d="${d}" class="${cls}"><title>${who.toUpperCase()}</title></path>`);
  }
  parts.push(`<text x="${W - R - 60}" y="${T + 12}" class="axis curve-oop-t">OOP</text>`);
  parts.push(`<text x="${W - R - 30}" y="${T + 12}" class="axis curve-ip-t">IP</text>`);
  svg.innerHTML = parts.join("");
  svg.dataset.curves = n;
  return svg;
}

function drawRunouts(rep) {
  const box = $("runouts-view");
  box.replaceChildren();
  box.appendChild(el("h3", "", `Runouts: the ${rep.next_street} card (${rep.unseen} cards; weight 1 = an average card)`));
  box.appendChild(el("div", "info", `here: EV OOP ${fmt(rep.ev_oop)} \u00b7 EV IP ${fmt(rep.ev_ip)} \u00b7 ` +
    `OOP equity ${pct(rep.equity_oop)}`));
  box.appendChild(runoutChart(rep));
  const t = el("table", "study-table");
  t.id = "runout-table";
  t.appendChild(headRow(["card", "weight", "EV OOP", "EV IP", "equity OOP", "next to act", "mix"]));
  for (const r of rep.cards) {
    const tr = el("tr");
    tr.dataset.card = r.card;
    tr.dataset.cards = r.cards.join(",");
    tr.dataset.weight = r.relative;
    tr.appendChild(el("td", "", r.cards.join(" ")));
    tr.appendChild(el("td", "num", fmt(r.relative, 3)));
    tr.appendChild(el("td", "num", fmt(r.ev_oop)));
    tr.appendChild(el("td", "num", fmt(r.ev_ip)));
    tr.appendChild(el("td", "num", pct(r.equity_oop)));
    tr.appendChild(el("td", "", r.player ? r.player.toUpperCase() : "\u2013"));
    const td = el("td");
    const acts = Object.keys(r.actions);
    if (acts.length) td.appendChild(mixBar(acts, acts.map((a) => r.actions[a])));
    tr.appendChild(td);
    tr.addEventListener("click", () => loadNode(sp.path.concat([r.card])));
    t.appendChild(tr);
  }
  box.appendChild(t);
}

function runoutChart(rep) {
  // OOP's equity per card (bars), the chance node's equity as a line
  const n = rep.cards.length, W = 400, H = 140, L = 30, R = 6, T = 6, B = 18;
  const svg = svgChart(W, H, "runout-chart");
  const bw = (W - L - R) / Math.max(n, 1);
  const Y = (e) => T + (H - T - B) * (1 - e);
  const parts = [`<text x="${L - 4}" y="${Y(1) + 8}" class="axis" text-anchor="end">100%</text>`,
    `<text x="${L - 4}" y="${Y(0)}" class="axis" text-anchor="end">0%</text>`];
  rep.cards.forEach((r, i) => {
    const e = r.equity_oop === null ? 0 : r.equity_oop;
    const x = L + i * bw;
    parts.push(`<rect x="${(x + 0.5).toFixed(1)}" y="${Y(e).toFixed(1)}" width="${Math.max(bw - 1, 1).toFixed(1)}" ` +
      `height="${(Y(0) - Y(e)).toFixed(1)}" class="bar"><title>${r.cards.join(" ")}: OOP equity ${pct(r.equity_oop)}, ` +
      `EV ${fmt(r.ev_oop)} / ${fmt(r.ev_ip)}</title></rect>`);
    parts.push(`<text x="${(x + bw / 2).toFixed(1)}" y="${H - 5}" class="axis" text-anchor="middle">${r.card[0]}</text>`);
  });
  if (rep.equity_oop !== null) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${Y(rep.equity_oop)}" y2="${Y(rep.equity_oop)}" class="target"/>`);
  }
  svg.innerHTML = parts.join("");
  svg.dataset.bars = n;
  return svg;
}

// ------------------------------------------------------------------ preflop charts
async function loadCharts() {
  showError("");
  const stack = $("chart-stack").value;
  $("chart-info").textContent = "loading the blueprint's charts\u2026";
  try {
    const ch = await api("GET", `/api/solver/charts?stack=${encodeURIComponent(stack)}`);
    sp.charts = ch;
    const sel = $("chart-line");
    sel.replaceChildren();
    ch.charts.forEach((c, i) => {
      const o = el("option", "", `${c.line} (${c.player} to act)`);
      o.value = i;
      sel.appendChild(o);
    });
    $("chart-info").textContent = `${ch.stack_bb} bb blueprint: ${ch.charts.length} charts, ` +
      `${ch.flop_lines.length} lines to the flop`;
    drawChartGrid();
    drawFlopLines();
    sp.chartsDrawn++;
  } catch (e) {
    $("chart-info").textContent = "";
    showError(e.message);
  }
}

function drawChartGrid() {
  const ch = sp.charts;
  const c = ch.charts[Number($("chart-line").value) || 0];
  const grid = $("chart-grid");
  grid.replaceChildren();
  const colours = c.actions.map((a) => chartColour(a));
  sp.classes.forEach((name, k) => {
    const cell = el("div", "cell in");
    cell.dataset.cls = name;
    const fill = el("div", "fill");
    fill.style.height = "100%";
    let x = 0;
    const stops = [];
    const mix = c.grid.map((g) => g[k]);
    mix.forEach((f, a) => {
      const x2 = x + 100 * (f || 0);
      stops.push(`${colours[a]} ${x.toFixed(2)}% ${x2.toFixed(2)}%`);
      x = x2;
    });
    fill.style.background = `linear-gradient(to right, ${stops.join(", ")})`;
    cell.dataset.mix = mix.join(",");
    cell.title = `${name}: ` + c.actions.map((a, i) => `${a} ${pct(mix[i])}`).join(", ");
    cell.append(fill, el("span", "label", name));
    grid.appendChild(cell);
  });
  const legend = $("chart-legend");
  legend.replaceChildren();
  c.actions.forEach((a, i) => {
    const item = el("span", "item");
    const sw = el("span", "swatch");
    sw.style.background = colours[i];
    item.append(sw, el("span", "", `${a} ${pct(c.frequencies[i])}`));
    legend.appendChild(item);
  });
}

function chartColour(a) {
  if (a === "fold") return "#5b8def";
  if (a === "call" || a === "check" || a === "limp") return "#4caf50";
  if (a === "all-in") return "#8e24aa";
  return "#e53935";
}

function drawFlopLines() {
  const t = $("flop-lines");
  t.replaceChildren(headRow(["line", "pot (bb)", "stack (bb)", "OOP combos", "IP combos", ""]));
  sp.charts.flop_lines.forEach((f, i) => {
    const tr = el("tr");
    tr.dataset.line = f.line;
    tr.appendChild(el("td", "", f.line));
    tr.appendChild(el("td", "num", fmt(f.pot_bb, 1)));
    tr.appendChild(el("td", "num", fmt(f.stack_bb, 1)));
    tr.appendChild(el("td", "num", fmt(f.oop_combos, 1)));
    tr.appendChild(el("td", "num", fmt(f.ip_combos, 1)));
    const b = el("button", "use", "Use");
    b.type = "button";
    b.dataset.i = i;
    b.addEventListener("click", () => useFlopLine(f));
    const td = el("td");
    td.appendChild(b);
    tr.appendChild(td);
    t.appendChild(tr);
  });
}

async function useFlopLine(f) {
  $("oop").value = f.oop;
  $("ip").value = f.ip;
  $("pot").value = f.pot;
  $("stack").value = f.stack;
  saveForm();
  await Promise.all([loadRange("oop", f.oop, false), loadRange("ip", f.ip, false)]);
  sp.filled = (sp.filled || 0) + 1;
  estimate(true);
}

// ------------------------------------------------------------------ the flop report
// The form's spot without its board solved on every flop of a set (pokerlab spot report);
// the server filters the rows by texture and averages them (subgame/aggregate.py); this
// part sorts and draws.
const REPORT_KEY = "pokerlab-solver-report";

function reportError(msg) { $("report-error").textContent = msg || ""; }

function reportFilter() {
  return ["rf-suits", "rf-pairing", "rf-conn", "rf-high"].map((id) => $(id).value).filter((v) => v).join(",");
}

async function runReport() {
  reportError("");
  saveForm();
  const body = spotBody();
  delete body.board;  // each flop of the set replaces the form's board
  const set = $("report-set").value;
  body.flops = set === "list" ? $("report-list").value.trim() : set;
  const tex = $("report-texture").value.trim();
  if (tex) body.texture = tex;
  const target = Number($("target").value);
  const iters = Number($("iterations").value);
  if ($("target").value.trim() !== "") body.target_pct = target;
  if ($("iterations").value.trim() !== "") body.iterations = Number.isInteger(iters) ? iters : iters.toString();
  $("btn-report").disabled = true;
  try {
    const st = await api("POST", "/api/solver/report", body);
    sp.report = st.report;
    sp.reportSort = null;
    try { sessionStorage.setItem(REPORT_KEY, st.report); } catch (e) { /* private mode */ }
    drawReport(st);
    pollReport();
  } catch (e) {
    reportError(e.message);
    $("btn-report").disabled = false;
  }
}

async function stopReport() {
  if (!sp.report) return;
  try { drawReport(await api("POST", `/api/solver/report/${sp.report}/stop`)); } catch (e) { reportError(e.message); }
}

async function reportStatus() {
  const f = reportFilter();
  return api("GET", `/api/solver/report/${sp.report}/status` + (f ? `?texture=${encodeURIComponent(f)}` : ""));
}

async function refreshReport() {
  if (!sp.report) return;
  try { drawReport(await reportStatus()); } catch (e) { reportError(e.message); }
}

function pollReport() {
  return pollLoop({
    flag: "reportPolling", count: "reportPolls", ms: 400, live: () => sp.report, draw: drawReport,
    fail: reportError, fetchStatus: reportStatus, ended: () => {},
  });
}

function drawReport(st) {
  sp.reportStatus = st;
  const running = isRunning(st);
  $("btn-report").disabled = running;
  $("btn-report-stop").disabled = !running || st.stopping;
  $("report-bar").style.width = (100 * st.progress).toFixed(1) + "%";
  const p = $("report-progress");
  p.dataset.done = st.done;
  p.dataset.total = st.total;
  p.dataset.state = st.state;
  let eta = "";
  if (running && st.eta_seconds !== null) {
    eta = st.eta_seconds < 90 ? ` \u00b7 about ${Math.ceil(st.eta_seconds)} s left` :
      ` \u00b7 about ${Math.ceil(st.eta_seconds / 60)} min left`;
  }
  const why = { done: "done", stopped: "stopped", "time limit": "time limit", unwatched: "stopped unwatched",
    error: "error" }[st.reason] || st.state;
  p.textContent = `${running ? "Solving" : "Report"}: ${st.done} / ${st.total} flops` +
    (st.texture.length ? ` (${st.texture.join(", ")})` : "") +
    (st.current ? ` \u00b7 solving ${st.current}` : "") + ` \u00b7 ${st.seconds.toFixed(1)} s` + eta +
    (st.stopping ? " \u00b7 stopping after this flop" : "") + (running ? "" : ` \u00b7 ${why}`) +
    (st.message ? ` \u00b7 ${st.message}` : "");
  if (st.state === "error") reportError(st.message);
  $("report-view").classList.toggle("hidden", st.done === 0);
  drawReportTable(st);
  drawReportChart(st);
  sp.reportDrawn = (sp.reportDrawn || 0) + 1;
}

function rankValue(ch) { return 12 - RANKS.indexOf(ch); }

function reportValue(r, key) {
  if (key === "board") return rankValue(r.board[0]) * 169 + rankValue(r.board[2]) * 13 + rankValue(r.board[4]);
  if (key.startsWith("a:")) return r.root_actions[key.slice(2)] || 0;
  const v = r[key];
  return v === null || v === undefined ? -Infinity : v;
}

function sortedReportRows(st) {
  const rows = st.rows.slice();
  const s = sp.reportSort;
  if (!s) return rows;  // the set's order
  rows.sort((a, b) => {
    const x = reportValue(a, s.key), y = reportValue(b, s.key);
    return (x < y ? -1 : x > y ? 1 : 0) * (s.dir === "asc" ? 1 : -1);
  });
  return rows;
}

function sortReport(key) {
  const s = sp.reportSort;
  sp.reportSort = s && s.key === key ? { key, dir: s.dir === "asc" ? "desc" : "asc" } :
    { key, dir: "desc" };
  drawReportTable(sp.reportStatus);
  drawReportChart(sp.reportStatus);
}

function drawReportTable(st) {
  const t = $("report-table");
  t.replaceChildren();
  const cols = [["board", "board"], ["weight", "weight"], ["ev_oop", "EV OOP"], ["ev_ip", "EV IP"],
    ["equity_oop", "equity OOP"]].concat(st.actions.map((a) => ["a:" + a, a]))
    .concat([["exploitability_pct", "expl. % pot"]]);
  const hr = el("tr");
  for (const [key, label] of cols) {
    const th = el("th", "", label);
    th.dataset.key = key;
    th.title = "sort by " + label;
    if (sp.reportSort && sp.reportSort.key === key) th.classList.add("sorted-" + sp.reportSort.dir);
    th.addEventListener("click", () => sortReport(key));
    hr.appendChild(th);
  }
  t.appendChild(hr);
  const rows = sortedReportRows(st);
  for (const r of rows) {
    const tr = el("tr");
    tr.dataset.board = r.board;
    const td = el("td");
    const b = el("button", "open", r.board);
    b.type = "button";
    b.title = `open ${r.board} in the solver (fills the form's board)`;
    b.addEventListener("click", () => openFlop(r.board));
    td.appendChild(b);
    tr.appendChild(td);
    tr.appendChild(el("td", "num", fmt(r.weight, 2)));
    tr.appendChild(el("td", "num", fmt(r.ev_oop)));
    tr.appendChild(el("td", "num", fmt(r.ev_ip)));
    tr.appendChild(el("td", "num", pct(r.equity_oop)));
    for (const a of st.actions) tr.appendChild(el("td", "num", pct(r.root_actions[a] || 0)));
    tr.appendChild(el("td", "num", fmt(r.exploitability_pct, 3)));
    tr.title = `${r.texture.suits}, ${r.texture.pairing}, ${r.texture.high}-high, ${r.texture.connectedness}`;
    t.appendChild(tr);
  }
  const s = st.summary;
  if (s) {
    const tr = el("tr", "avg");
    tr.appendChild(el("td", "", `weighted average (${rows.length})`));
    tr.appendChild(el("td", "num", fmt(s.weight, 2)));
    tr.appendChild(el("td", "num", fmt(s.ev_oop)));
    tr.appendChild(el("td", "num", fmt(s.ev_ip)));
    tr.appendChild(el("td", "num", pct(s.equity_oop)));
    for (const a of st.actions) tr.appendChild(el("td", "num", pct(s.root_actions[a] || 0)));
    tr.appendChild(el("td", "num", ""));
    t.appendChild(tr);
  }
  $("report-shown").textContent = `${st.shown} of ${st.done} flops` +
    (st.filter.length ? ` (${st.filter.join(", ")})` : "");
  $("report-shown").dataset.shown = st.shown;
}

function drawReportChart(st) {
  // the first decision's action mix per flop (the table's order) as stacked bars, the average last
  const svg = $("report-chart");
  const W = Math.max(240, Math.round(svg.clientWidth || 600)), H = 170, L = 34, R = 6, T = 6, B = 24;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const rows = sortedReportRows(st);
  const bars = rows.map((r) => [r.board, r.root_actions]);
  if (st.summary) bars.push(["avg", st.summary.root_actions]);
  const n = bars.length;
  const bw = (W - L - R) / Math.max(n, 1);
  const Y = (v) => T + (H - T - B) * (1 - v);
  const parts = [];
  for (const v of [0, 0.5, 1]) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${Y(v)}" y2="${Y(v)}" class="gridline"/>`);
    parts.push(`<text x="${L - 4}" y="${Y(v) + 3}" class="axis" text-anchor="end">${100 * v}%</text>`);
  }
  const colours = st.actions.map((a) => actionColour(a, st.actions));
  bars.forEach(([label, mix], i) => {
    let y = 0;
    const x = L + i * bw;
    st.actions.forEach((a, k) => {
      const f = mix[a] || 0;
      if (f <= 0) return;
      parts.push(`<rect x="${(x + 0.5).toFixed(1)}" y="${Y(y + f).toFixed(1)}" width="${Math.max(bw - 1, 1).toFixed(1)}" ` +
        `height="${(Y(y) - Y(y + f)).toFixed(1)}" fill="${colours[k]}"><title>${label}: ${a} ${pct(f)}</title></rect>`);
      y += f;
    });
    const text = n <= 30 || label === "avg" ? label : label[0];
    parts.push(`<text x="${(x + bw / 2).toFixed(1)}" y="${H - 8}" class="axis" text-anchor="middle"` +
      `${n > 12 ? ' font-size="8"' : ""}>${text}</text>`);
  });
  svg.innerHTML = parts.join("");
  svg.dataset.bars = n;
  const legend = $("report-legend");
  legend.replaceChildren();
  st.actions.forEach((a, i) => {
    const item = el("span", "item");
    const sw = el("span", "swatch");
    sw.style.background = colours[i];
    item.append(sw, el("span", "", a));
    legend.appendChild(item);
  });
}

function openFlop(board) {
  // the flop's spot in the normal solve view: the form's board, then Solve
  $("board").value = board;
  syncPicker();
  saveForm();
  estimate(true);
  sp.opened = (sp.opened || 0) + 1;
  $("report-info").textContent = `${board} is in the form: press Solve`;
  $("spot").scrollIntoView({ block: "start" });
  $("btn-solve").focus();
}

function initReport(cfg) {
  const sel = $("report-set");
  if (cfg.report_sets) {
    sel.replaceChildren();
    for (const n of cfg.report_sets) {
      const o = el("option", "", `${n} flops`);
      o.value = String(n);
      sel.appendChild(o);
    }
    const o = el("option", "", "a list of boards");
    o.value = "list";
    sel.appendChild(o);
  }
  for (const r of RANKS) {
    const o = el("option", "", `${r}-high`);
    o.value = `${r}-high`;
    $("rf-high").appendChild(o);
  }
  $("report-list").addEventListener("input", () => { if ($("report-list").value.trim()) sel.value = "list"; });
  $("btn-report").addEventListener("click", runReport);
  $("btn-report-stop").addEventListener("click", stopReport);
  for (const id of ["rf-suits", "rf-pairing", "rf-conn", "rf-high"]) $(id).addEventListener("change", refreshReport);
  window.addEventListener("resize", debounce(() => { if (sp.reportStatus) drawReportChart(sp.reportStatus); }, 150));
}

async function resumeReport() {
  let saved = null;
  try { saved = sessionStorage.getItem(REPORT_KEY); } catch (e) { saved = null; }
  if (!saved) return;
  sp.report = saved;
  try {
    drawReport(await reportStatus());
    pollReport();
  } catch (e) {
    sp.report = null;
  }
}

// ------------------------------------------------------------------ start
async function init() {
  try {
    const cfg = await api("GET", "/api/solver/config");
    sp.classes = cfg.classes;
    $("target").value = cfg.target_pct;
    $("target").min = cfg.min_target_pct;
    $("iterations").value = cfg.iterations;
    $("iterations").max = cfg.max_iterations;
    restoreForm();  // a reload keeps what was typed
    initReport(cfg);
  } catch (e) {
    showError(e.message);
    return;
  }
  buildPicker();
  buildPainter();
  for (const who of ["oop", "ip"]) {
    const reload = debounce(() => loadRange(who, $(who).value, false), 300);
    $(who).addEventListener("input", reload);
    await loadRange(who, $(who).value, false);
  }
  drawPainter();
  $("btn-tree").addEventListener("click", treeSize);
  const later = debounce(() => estimate(true), 400);
  for (const id of FORM) {
    $(id).addEventListener("input", () => { saveForm(); if (id !== "target" && id !== "iterations") later(); });
    $(id).addEventListener("change", saveForm);
  }
  document.querySelectorAll("#board-picker .pcard").forEach((b) => b.addEventListener("click", () => {
    saveForm();
    later();
  }));
  estimate(true);
  $("btn-solve").addEventListener("click", solve);
  $("btn-stop").addEventListener("click", stop);
  $("btn-save").addEventListener("click", saveSolve);
  $("load-file").addEventListener("change", loadSolve);
  $("btn-lock").addEventListener("click", lockAndSolve);
  $("btn-classes").addEventListener("click", () => toggleView("classes"));
  $("btn-runouts").addEventListener("click", () => toggleView("runouts"));
  $("btn-charts").addEventListener("click", loadCharts);
  $("chart-line").addEventListener("change", () => { if (sp.charts) drawChartGrid(); });
  window.addEventListener("resize", debounce(() => { if (sp.status) drawChart(sp.status); }, 150));
  document.querySelectorAll("input[name=show]").forEach((r) => r.addEventListener("change", () => {
    sp.show = r.value;
    if (sp.node) drawGrid();
  }));
  drawChart({ history: [], max_iterations: Number($("iterations").value) || 1000,
    target_pct: Number($("target").value) || 0.3, state: "idle" });
  // a solve of this tab that is still held by the server
  let saved = null;
  try { saved = sessionStorage.getItem("pokerlab-solver"); } catch (e) { saved = null; }
  if (saved) {
    sp.session = saved;
    try {
      drawStatus(await api("GET", `/api/solver/${saved}/status`));
      poll();
    } catch (e) {
      sp.session = null;
    }
  }
  await resumeReport();
  sp.ready = true;
}

init();
