// pokerlab play: the page.  The server is the only authority; this file only renders what
// it is sent and sends the person's intentions.  Protocol: docs/play.md.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

const app = {
  ws: null,
  session: null,
  game: "hunl",
  state: null,      // last table snapshot
  summary: null,
  hands: [],        // finished hands: {hand, result}
  replay: null,     // {hand, frames, i}
  coachOn: false,
  bigBlind: 100,
  reqId: 0,
  tables: 0,        // table messages received (tests wait on it)
};
window.pokerlab = app;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function cardEl(text) {
  const d = el("div", "card");
  if (text === null) { d.classList.add("back"); return d; }
  const rank = text[0] === "T" ? "10" : text[0];
  d.appendChild(el("span", "rank", rank));
  if (text.length > 1) {
    const s = text[1];
    d.appendChild(el("span", "suit", SUITS[s] || s));
    if (s === "h" || s === "d") d.classList.add("red");
  }
  d.dataset.card = text;
  return d;
}

function setCards(id, cards, hiddenCount) {
  const box = $(id);
  box.replaceChildren();
  if (cards) cards.forEach((c) => box.appendChild(cardEl(c)));
  else for (let i = 0; i < hiddenCount; i++) box.appendChild(cardEl(null));
}

function addGames(games) {
  // the shipped definitions and the configured game join the selector (value = game string)
  const sel = $("game-select");
  (games || []).forEach((g) => {
    if (![...sel.options].some((o) => o.value === g)) sel.appendChild(new Option(g.replace(/^gamedef:/, "ACPC: "), g));
  });
}

function send(obj) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) return;
  obj.id = ++app.reqId;
  app.ws.send(JSON.stringify(obj));
}

function status(text) { $("status").textContent = text; }
function showError(text) { $("error").textContent = text || ""; }

// ------------------------------------------------------------------ connection
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  app.ws = new WebSocket(`${proto}://${location.host}/ws`);
  app.ws.onopen = () => {
    status("connected");
    const saved = sessionStorage.getItem("pokerlab-session");
    if (saved) send({ type: "resume", session: saved });
    else startSession();
  };
  app.ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  app.ws.onclose = () => { status("disconnected - reload the page to reconnect"); };
}

function startSession() {
  const msg = { type: "start", game: $("game-select").value };
  const agent = $("agent-select").value;
  if (agent && msg.game === "hunl") msg.agent = agent;
  const stack = parseFloat($("stack-input").value);
  if (!Number.isNaN(stack) && (msg.game === "hunl" || msg.game === "pushfold")) msg.stack = stack;
  app.hands = [];
  app.replay = null;
  $("hand-list").replaceChildren();
  $("coach").textContent = app.coachOn ? "Coach on: notes appear after each hand." :
    "Switch the coach on to see, after each hand, what the agent's own policy would have done with your cards.";
  $("grid").replaceChildren();
  $("grid-title").textContent = "";
  status("starting...");
  send(msg);
}

function onMessage(m) {
  if (m.type === "session") {
    app.session = m.session;
    app.game = m.game;
    sessionStorage.setItem("pokerlab-session", m.session);
    addGames(m.games);
    $("game-select").value = m.game;
    if (m.stack && (m.game === "hunl" || m.game === "pushfold")) $("stack-input").value = m.stack;
    const sel = $("agent-select");
    if (!sel.options.length) m.agents.forEach((a) => sel.appendChild(new Option(a, a)));
    if (m.game === "hunl") sel.value = m.agent;
    sel.disabled = m.game !== "hunl";
    $("stack-input").disabled = !(m.game === "hunl" || m.game === "pushfold");
    $("opp-name").textContent = m.agent;
    $("download-phh").classList.toggle("hidden", !m.phh);
    $("download-phh").href = `/api/session/${encodeURIComponent(m.session)}/hands.phhs`;
    $("ev-loss-row").classList.toggle("hidden", m.game !== "pushfold");
    document.querySelectorAll(".unit").forEach((u) => {
      u.textContent = u.textContent.replace(/^(bb|chips)/, (m.game === "hunl" || m.game === "pushfold") ? "bb" : "chips");
    });
    status(`session ${m.session.slice(0, 6)}... - ${m.game} vs ${m.agent}`);
    if (app.coachOn) send({ type: "coach", session: app.session, on: true });
  } else if (m.type === "table") {
    app.tables++;
    app.state = m.state;
    app.summary = m.summary;
    app.bigBlind = m.state.big_blind;
    showError("");
    if (m.state.over && m.state.hand > 0 && !app.hands.some((h) => h.hand === m.state.hand)) {
      app.hands.push({ hand: m.state.hand, result: m.state.result, aborted: m.state.aborted });
      renderHandList();
    }
    if (!app.replay) renderTable(m.state, true);
    renderSummary(m.summary);
  } else if (m.type === "error") {
    showError(m.message);
    if (/unknown or expired session/.test(m.message)) {
      sessionStorage.removeItem("pokerlab-session");
      startSession();
    }
  } else if (m.type === "replay") {
    app.replays = (app.replays || 0) + 1;
    app.replay = { hand: m.hand, frames: m.frames, i: 0 };
    renderReplay();
  } else if (m.type === "coach") {
    app.coaches = (app.coaches || 0) + 1;
    renderCoach(m);
  } else if (m.type === "coach_state") {
    app.coachOn = m.on;
    $("coach-toggle").checked = m.on;
  }
}

// ------------------------------------------------------------------ rendering
function fmt(x) { return Number.isInteger(x) ? String(x) : x.toFixed(2); }

function renderTable(s, live) {
  if (!s || !s.you) return;
  setCards("you-cards", s.you.cards, 0);
  const oppCount = s.opponent.hidden !== undefined ? s.opponent.hidden :
    (s.game === "hunl" || s.game === "pushfold" ? 2 : 1);
  setCards("opp-cards", s.opponent.cards, oppCount);
  setCards("board", s.board, 0);
  const money = (v) => (v === null || v === undefined ? "\u2013" : v);
  const stack = (v) => (v === null || v === undefined ? "\u221e" : v);
  $("you-stack").textContent = stack(s.you.stack);
  $("you-bet").textContent = money(s.you.bet);
  $("opp-stack").textContent = stack(s.opponent.stack);
  $("opp-bet").textContent = money(s.opponent.bet);
  // games played through the generic protocol path carry their own state strings
  const generic = "info_state" in s;
  $("state-lines").classList.toggle("hidden", !generic);
  if (generic) {
    $("info-state").textContent = s.info_state;
    $("public-state").textContent = s.public_state;
    $("opp-info-row").classList.toggle("hidden", !s.opponent.info_state);
    $("opp-info-state").textContent = s.opponent.info_state || "";
  }
  $("you-button").classList.toggle("hidden", !s.you.button);
  $("opp-button").classList.toggle("hidden", !s.opponent.button);
  $("pot").textContent = money(s.pot);
  $("street").textContent = `hand ${s.hand} \u00b7 ${s.street || ""}`;
  $("to-call").textContent = s.to_call;
  let res = "";
  if (s.over && s.aborted) res = s.error || "hand cancelled";
  else if (s.over && s.result !== null) {
    const r = s.result;
    const unit = s.game === "hunl" || s.game === "pushfold" ? "bb" : "chips";
    res = r > 0 ? `You win ${fmt(r)} ${unit}` : r < 0 ? `You lose ${fmt(-r)} ${unit}` : "Split pot";
  }
  $("hand-result").textContent = res;
  renderLog(s.log);
  renderActions(live ? s : null);
}

function describe(e) {
  const who = e.who === "you" ? "You" : "Agent";
  switch (e.event) {
    case "HandStarted": return `Hand ${e.hand}: ${e.button === "you" ? "you have" : "the agent has"} the button; your cards ${e.cards.join(" ")}`;
    case "BoardDealt": return `${e.street}: ${e.cards.join(" ")}`;
    case "ActionTaken":
      if (e.kind === "action") return `${who}: ${e.label}`;
      if (e.kind === "fold") return `${who} fold${e.who === "you" ? "" : "s"}`;
      if (e.kind === "check") return `${who} check${e.who === "you" ? "" : "s"}`;
      if (e.kind === "call") return `${who} call${e.who === "you" ? "" : "s"} ${e.amount} (pot ${e.pot})`;
      return `${who} ${e.kind}${e.who === "you" ? "" : "s"} to ${e.amount} (pot ${e.pot})`;
    case "CardsShown": return `${who} show${e.who === "you" ? "" : "s"} ${e.cards.join(" ")}`;
    case "HandEnded":
      if (e.aborted) return `Hand cancelled: ${e.error}`;
      return `Result: ${e.result > 0 ? "+" : ""}${fmt(e.result)}${e.showdown ? " at the showdown" : ""}`;
    default: return e.event;
  }
}

function renderLog(log) {
  const ol = $("log");
  ol.replaceChildren();
  (log || []).forEach((e) => ol.appendChild(el("li", "", describe(e))));
  ol.scrollTop = ol.scrollHeight;
}

function renderGenericActions(s, lg) {
  // one button per legal action, labelled by the game's own action_to_string
  const box = $("generic-actions");
  box.replaceChildren();
  (lg && lg.actions ? lg.actions : []).forEach((a, i) => {
    const b = el("button", `act generic ${a.kind}`, a.label);
    if (i < 9) b.appendChild(el("kbd", "", String(i + 1)));
    b.dataset.action = a.id;
    b.onclick = () => act("action", undefined, a.id);
    box.appendChild(b);
  });
}

function renderActions(s) {
  const lg = s && s.to_act === "you" ? s.legal : null;
  const over = !s || s.over;
  const generic = !!s && "info_state" in s;
  ["btn-fold", "btn-call", "btn-raise"].forEach((id) => $(id).classList.toggle("hidden", generic));
  $("raise-row").classList.toggle("hidden", generic);
  $("generic-actions").classList.toggle("hidden", !generic);
  if (generic || !s) renderGenericActions(s, lg);
  $("btn-fold").disabled = !lg || !lg.fold;
  const call = $("btn-call");
  call.disabled = !lg || lg.call < 0;
  call.firstChild.textContent = lg && !lg.check ? `Call ${lg.call} ` : "Check ";
  const canRaise = !!lg && lg.raise;
  ["btn-raise", "raise-slider", "raise-amount", "quick-half", "quick-pot", "quick-2pot", "quick-allin"]
    .forEach((id) => { $(id).disabled = !canRaise; });
  $("btn-deal").disabled = !over || app.replay !== null;
  if (canRaise) {
    const slider = $("raise-slider"), box = $("raise-amount");
    slider.min = box.min = lg.min;
    slider.max = box.max = lg.max;
    slider.step = box.step = 1;
    slider.value = box.value = lg.min;
    const q = lg.quick || {};
    [["quick-half", "half"], ["quick-pot", "pot"], ["quick-2pot", "2pot"]].forEach(([id, k]) => {
      $(id).disabled = q[k] === undefined;
      if (q[k] !== undefined) $(id).dataset.amount = q[k];
    });
    $("quick-allin").dataset.amount = lg.max;
    $("legal-range").textContent = lg.min === lg.max ? `(raise to ${lg.min})` : `(raise to ${lg.min} .. ${lg.max})`;
    updateRaiseLabel();
  } else {
    $("legal-range").textContent = "";
    $("btn-raise").firstChild.textContent = "Raise ";
  }
}

function facingBet() {
  const s = app.state;
  return s && s.legal && !s.legal.check;
}

function updateRaiseLabel() {
  const amt = $("raise-amount").value;
  const word = facingBet() ? "Raise to" : (app.state && app.state.legal && app.state.legal.min === app.state.legal.max && app.game === "pushfold" ? "All-in" : "Bet");
  $("btn-raise").firstChild.textContent = `${word} ${amt} `;
}

function renderSummary(sm) {
  if (!sm) return;
  $("hands-played").textContent = sm.hands;
  $("result-bb").textContent = fmt(sm.total);
  $("per100").textContent = fmt(sm.per100);
  $("per100-ci").textContent = fmt(sm.per100_ci95);
  $("ev-loss").textContent = fmt(sm.ev_loss);
  $("graded").textContent = sm.decisions_graded;
  if (sm.running) drawChart(sm.running);
}

function drawChart(points) {
  const c = $("chart");
  const w = c.width = c.clientWidth || 300;
  const h = c.height = 120;
  const g = c.getContext("2d");
  g.clearRect(0, 0, w, h);
  const data = [0].concat(points);
  let lo = Math.min(...data), hi = Math.max(...data);
  if (hi - lo < 1e-9) { hi += 1; lo -= 1; }
  const x = (i) => 6 + (w - 12) * (data.length > 1 ? i / (data.length - 1) : 0);
  const y = (v) => h - 8 - (h - 16) * (v - lo) / (hi - lo);
  g.strokeStyle = "#556"; g.beginPath(); g.moveTo(0, y(0)); g.lineTo(w, y(0)); g.stroke();
  g.strokeStyle = "#ffd35c"; g.lineWidth = 2; g.beginPath();
  data.forEach((v, i) => (i ? g.lineTo(x(i), y(v)) : g.moveTo(x(i), y(v))));
  g.stroke();
  g.fillStyle = "#9ab"; g.font = "10px sans-serif";
  g.fillText(fmt(hi), 4, 10); g.fillText(fmt(lo), 4, h - 2);
}

function renderHandList() {
  const ul = $("hand-list");
  ul.replaceChildren();
  app.hands.slice().reverse().slice(0, 100).forEach((h) => {
    const li = el("li");
    li.appendChild(el("span", "", `#${h.hand}`));
    const r = h.aborted ? "cancelled" : `${h.result > 0 ? "+" : ""}${fmt(h.result)}`;
    li.appendChild(el("span", h.result > 0 ? "pos" : h.result < 0 ? "neg" : "", r));
    const b = el("button", "replay-btn", "Replay");
    b.dataset.hand = h.hand;
    b.onclick = () => send({ type: "replay", session: app.session, hand: h.hand });
    li.appendChild(b);
    const cb = el("button", "coach-btn", "Coach");
    cb.onclick = () => send({ type: "coach_report", session: app.session, hand: h.hand });
    li.appendChild(cb);
    ul.appendChild(li);
  });
}

function renderReplay() {
  const r = app.replay;
  $("replay-bar").classList.remove("hidden");
  $("replay-info").textContent = `Replay of hand ${r.hand}: step ${r.i + 1} / ${r.frames.length}`;
  $("replay-prev").disabled = r.i === 0;
  $("replay-next").disabled = r.i >= r.frames.length - 1;
  renderTable(r.frames[r.i], false);
  $("btn-deal").disabled = true;
}

function exitReplay() {
  app.replay = null;
  $("replay-bar").classList.add("hidden");
  renderTable(app.state, true);
}

const GRID_RANKS = "AKQJT98765432";

function renderCoach(m) {
  const box = $("coach");
  box.replaceChildren();
  box.appendChild(el("div", "", `Hand ${m.hand}: your decisions`));
  let lastGrid = null, lastTitle = "", lastMine = null;
  (m.decisions || []).forEach((d) => {
    const t = el("table");
    const head = el("tr");
    const td0 = el("td", "", `${d.street}: you ${d.chosen}`);
    td0.colSpan = 2;
    head.appendChild(td0);
    t.appendChild(head);
    if (d.frequencies) {
      d.frequencies.forEach(([label, p]) => {
        const tr = el("tr");
        tr.appendChild(el("td", "", `agent would ${label}`));
        const td = el("td");
        const bar = el("span", "bar");
        bar.style.width = `${Math.round(60 * p)}px`;
        td.appendChild(bar);
        td.appendChild(document.createTextNode(` ${(100 * p).toFixed(1)}%`));
        tr.appendChild(td);
        t.appendChild(tr);
      });
    } else {
      const tr = el("tr");
      tr.appendChild(el("td", "", d.note || "no frequencies available"));
      t.appendChild(tr);
    }
    if (d.ev_loss_bb !== undefined) {
      const tr = el("tr");
      tr.appendChild(el("td", d.ev_loss_bb > 1e-9 ? "neg" : "pos",
        d.ev_loss_bb > 1e-9 ? `EV loss ${d.ev_loss_bb.toFixed(3)} bb` : "correct (no EV loss)"));
      tr.appendChild(el("td", "", `shove/call - fold = ${d.gain_bb.toFixed(3)} bb`));
      t.appendChild(tr);
    }
    box.appendChild(t);
    if (d.grid) { lastGrid = d.grid; lastTitle = d.grid_title || ""; lastMine = d.class || null; }
  });
  renderGrid(lastGrid, lastTitle, lastMine);
}

function renderGrid(grid, title, mine) {
  const g = $("grid");
  g.replaceChildren();
  $("grid-title").textContent = grid ? `${title} (red: raise/shove, green: call)` : "";
  if (!grid) return;
  for (let i = 0; i < 13; i++) {
    for (let j = 0; j < 13; j++) {
      const [r, c] = grid[13 * i + j];
      const hi = GRID_RANKS[Math.min(i, j)], lo = GRID_RANKS[Math.max(i, j)];
      const name = i === j ? hi + lo : hi + lo + (i < j ? "s" : "o");
      const d = el("div", "", name);
      const red = Math.round(100 * r), green = Math.round(100 * c);
      d.style.background = `linear-gradient(to right, #e0604e ${red}%, #5cbf6a ${red}% ${red + green}%, #9aa3ad ${red + green}%)`;
      d.title = `${name}: raise ${red}%, call ${green}%`;
      if (mine === name) d.classList.add("mine");
      g.appendChild(d);
    }
  }
}

// ------------------------------------------------------------------ actions
function act(kind, amount, action) {
  const s = app.state;
  if (!s || s.over || s.to_act !== "you" || app.replay) return;
  const msg = { type: "action", session: app.session, hand: s.hand, kind };
  if (amount !== undefined) msg.amount = amount;
  if (action !== undefined) msg.action = action;
  send(msg);
}

function raiseTo(amount) {
  const lg = app.state && app.state.legal;
  if (!lg || !lg.raise) return;
  let a = Math.round(Number(amount));
  if (Number.isNaN(a)) a = lg.min;
  a = Math.max(lg.min, Math.min(lg.max, a));  // the minimum raise and the all-in are enforced
  act("raise", a);
}

function setRaise(v) {
  $("raise-slider").value = v;
  $("raise-amount").value = v;
  updateRaiseLabel();
}

$("btn-fold").onclick = () => act("fold");
$("btn-call").onclick = () => {
  const lg = app.state && app.state.legal;
  act(lg && lg.check ? "check" : "call");
};
$("btn-raise").onclick = () => raiseTo($("raise-amount").value);
$("btn-deal").onclick = () => { if (app.state && app.state.over && !app.replay) send({ type: "deal", session: app.session }); };
$("raise-slider").oninput = () => setRaise($("raise-slider").value);
$("raise-amount").oninput = () => { $("raise-slider").value = $("raise-amount").value; updateRaiseLabel(); };
["quick-half", "quick-pot", "quick-2pot", "quick-allin"].forEach((id) => {
  $(id).onclick = () => setRaise($(id).dataset.amount);
});
$("btn-new").onclick = () => { sessionStorage.removeItem("pokerlab-session"); startSession(); };
$("game-select").onchange = () => {
  const g = $("game-select").value;
  if (g === "pushfold") $("stack-input").value = 10;
  if (g === "hunl") $("stack-input").value = 100;
  $("stack-input").disabled = !(g === "hunl" || g === "pushfold");
  $("agent-select").disabled = g !== "hunl";
};
$("coach-toggle").onchange = () => {
  app.coachOn = $("coach-toggle").checked;
  if (app.session) send({ type: "coach", session: app.session, on: app.coachOn });
};
$("replay-prev").onclick = () => { if (app.replay && app.replay.i > 0) { app.replay.i--; renderReplay(); } };
$("replay-next").onclick = () => { if (app.replay && app.replay.i < app.replay.frames.length - 1) { app.replay.i++; renderReplay(); } };
$("replay-exit").onclick = exitReplay;

document.addEventListener("keydown", (ev) => {
  if (ev.target && (ev.target.tagName === "INPUT" && ev.target.type === "number") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  const lg = app.state && app.state.to_act === "you" ? app.state.legal : null;
  if (lg && lg.actions) {  // a generic game: digits pick a button, f / c by the action's kind
    const byKind = (ks) => lg.actions.find((a) => ks.includes(a.kind));
    let pick = null;
    if (/^[1-9]$/.test(k)) pick = lg.actions[Number(k) - 1] || null;
    else if (k === "f") pick = byKind(["fold"]) || null;
    else if (k === "c") pick = byKind(["check", "call"]) || null;
    if (pick) { act("action", undefined, pick.id); ev.preventDefault(); return; }
  }
  if (k === "f" && lg && lg.fold) act("fold");
  else if (k === "c" && lg && lg.call >= 0) act(lg.check ? "check" : "call");
  else if (k === "r" && lg && lg.raise) raiseTo($("raise-amount").value);
  else if (k === "a" && lg && lg.raise) raiseTo(lg.max);
  else if ((k === "n" || k === "enter") && app.state && app.state.over && !app.replay) send({ type: "deal", session: app.session });
  else return;
  ev.preventDefault();
});

fetch("/api/config").then((r) => r.json()).then((cfg) => {
  const sel = $("agent-select");
  cfg.agents.forEach((a) => sel.appendChild(new Option(a, a)));
  addGames(cfg.games);
  const params = new URLSearchParams(location.search);
  $("game-select").value = params.get("game") || cfg.game;
  sel.value = params.get("agent") || cfg.agent;
  $("stack-input").value = params.get("stack") || ($("game-select").value === cfg.game ? cfg.stack : ($("game-select").value === "pushfold" ? 10 : 100));
  if (params.get("game")) sessionStorage.removeItem("pokerlab-session");
  connect();
}).catch(() => connect());
