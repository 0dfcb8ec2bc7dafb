// pokerlab spot solver page: enter a spot, solve it on the server (background thread,
// polled), walk the tree.  The server does all the poker; this file draws.  API: solver_page.py.
"use strict";

const $ = (id) => document.getElementById(id);
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
};
window.solverPage = sp;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(url, opts);
  } catch (e) {
    throw new Error("the server cannot be reached");
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) throw new Error((data && data.error) || `request failed (${resp.status})`);
  return data;
}

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
  for (const k of Object.keys(body)) if (body[k] === null || Number.isNaN(body[k])) delete body[k];
  return body;
}

function mb(bytes) { return bytes >= 1e9 ? (bytes / 1e9).toFixed(2) + " GB" : (bytes / 1e6).toFixed(1) + " MB"; }

async function treeSize() {
  showError("");
  try {
    const r = await api("POST", "/api/solver/tree", spotBody());
    $("tree-info").textContent = `${r.nodes.toLocaleString()} nodes, about ${mb(r.memory_bytes)}` +
      (r.over_limit ? ` (over the server's limit of ${mb(r.max_memory)})` : "");
  } catch (e) { showError(e.message); }
}

async function solve() {
  showError("");
  const body = spotBody();
  const target = Number($("target").value);
  const iters = Number($("iterations").value);
  if ($("target").value.trim() !== "") body.target_pct = target;
  if ($("iterations").value.trim() !== "") body.iterations = Number.isInteger(iters) ? iters : iters.toString();
  if (sp.session) body.session = sp.session;
  $("btn-solve").disabled = true;
  try {
    const st = await api("POST", "/api/solver/solve", body);
    sp.session = st.session;
    try { sessionStorage.setItem("pokerlab-solver", st.session); } catch (e) { /* private mode */ }
    sp.path = [];
    sp.node = null;
    sp.show = null;
    $("browser").classList.add("hidden");
    $("tree-info").textContent = `${st.nodes.toLocaleString()} nodes, about ${mb(st.memory_bytes)}`;
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

async function poll() {
  if (sp.polling) return;
  sp.polling = true;
  try {
    while (sp.session) {
      let st;
      try {
        st = await api("GET", `/api/solver/${sp.session}/status`);
      } catch (e) {
        showError(e.message);
        break;
      }
      sp.polls++;
      drawStatus(st);
      if (st.state !== "running" && st.state !== "starting") {
        if (st.state === "error") showError(st.message);
        else if (st.iteration > 0) await loadNode(sp.path);
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    sp.polling = false;
  }
}

function drawStatus(st) {
  sp.status = st;
  const running = st.state === "running" || st.state === "starting";
  $("btn-solve").disabled = running;
  $("btn-stop").disabled = !running;
  const frac = st.reason === "target" ? 1 : Math.min(1, st.iteration / Math.max(1, st.max_iterations));
  $("progress-bar").style.width = (100 * frac).toFixed(1) + "%";
  const why = { target: "target reached", iterations: "iteration limit", stopped: "stopped",
    "time limit": "time limit", error: "error" }[st.reason] || st.state;
  $("progress-text").textContent = `${running ? "Solving" : "Done"}: iteration ${st.iteration} / ` +
    `${st.max_iterations} \u00b7 ${st.seconds.toFixed(1)} s` + (running ? "" : ` \u00b7 ${why}`) +
    (st.message ? ` \u00b7 ${st.message}` : "");
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
    const hr = el("tr");
    ["combo", "weight"].concat(side.mix ? rep.actions : []).concat(["EV", "equity"])
      .forEach((h) => hr.appendChild(el("th", "", h)));
    table.appendChild(hr);
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

// ------------------------------------------------------------------ start
async function init() {
  try {
    const cfg = await api("GET", "/api/solver/config");
    sp.classes = cfg.classes;
    $("target").value = cfg.target_pct;
    $("iterations").value = cfg.iterations;
    $("iterations").max = cfg.max_iterations;
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
  $("btn-solve").addEventListener("click", solve);
  $("btn-stop").addEventListener("click", stop);
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
  sp.ready = true;
}

init();
