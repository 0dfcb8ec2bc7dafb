// pokerlab play: the page.  The server is the only authority; this file only renders what
// it is sent and sends the person's intentions.  Protocol: docs/play.md.
"use strict";

const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const HOLDEM = (g) => g === "hunl" || g === "pushfold";
const params = new URLSearchParams(location.search);

const app = {
  ws: null,
  connected: false,
  session: null,
  game: "hunl",
  state: null,      // last table snapshot
  summary: null,
  history: [],      // finished hands: {hand, result, aborted, log}
  replay: null,     // {hand, frames, i}
  coachOn: false,
  bigBlind: 100,
  unit: localStorage.getItem("pokerlab-unit") === "chips" ? "chips" : "bb",
  pace: params.has("pace") ? Math.max(0, Number(params.get("pace")) || 0) : 550,
  pending: false,   // a move or a deal was sent: input is locked until the reply
  pacing: false,    // the agent's moves and the streets are being shown one by one
  reqId: 0,
  sent: 0,          // moves and deals sent (tests read it)
  tables: 0,        // table messages rendered (tests wait on it)
  queue: Promise.resolve(),
  retries: 0,
  strengths: {},
  starting: null,   // the id of the "start" request in flight (input is locked meanwhile)
  current: null,    // the session being played: {spec, name, game, stack, status}
  startErrors: 0,   // failed starts (tests read it)
};
window.pokerlab = app;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


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

// ------------------------------------------------------------------ units
// One unit everywhere: big blinds by default in hold'em (chips with the toggle); the
// small and generic games count chips.  Every amount element keeps its chips in data-chips.
function unit() { return HOLDEM(app.game) ? app.unit : "chips"; }
function round2(x) { const r = Math.round(x * 100) / 100; return Number.isInteger(r) ? String(r) : String(r); }
function amt(chips) {
  if (chips === null || chips === undefined) return "\u2013";
  return unit() === "bb" ? round2(chips / app.bigBlind) : String(chips);
}
function withUnit(chips) { return `${amt(chips)} ${unit()}`; }
function setAmt(id, chips) {
  const e = $(id);
  e.textContent = amt(chips);
  e.dataset.chips = chips === null || chips === undefined ? "" : String(chips);
}
// a result the server sends in bb (hold'em) or chips (the other games), in the page's unit
function resultText(r) {
  const v = HOLDEM(app.game) && app.unit === "chips" ? r * app.bigBlind : r;
  return round2(v);
}
function fmt(x) { return Number.isInteger(x) ? String(x) : x.toFixed(2); }

function addGames(games) {
  // the shipped definitions and the configured game join the selector (value = game string)
  const sel = $("game-select");
  (games || []).forEach((g) => {
    if (![...sel.options].some((o) => o.value === g)) sel.appendChild(new Option(g.replace(/^gamedef:/, "ACPC: "), g));
  });
}

function setAgents(agents, strengths) {
  // every agent spec the server offers (the registry's), its league strength as a tooltip
  app.strengths = strengths || {};
  const sel = $("agent-select");
  const keep = sel.value;
  sel.replaceChildren();
  (agents || []).forEach((a) => {
    const o = new Option(a, a);
    o.title = app.strengths[a] || "not measured in the league";
    sel.appendChild(o);
  });
  if (keep && (agents || []).includes(keep)) sel.value = keep;
  agentTitle();
}
function agentTitle() {
  const sel = $("agent-select");
  sel.title = app.strengths[sel.value] || "the agent you play against (not measured in the league)";
}

function send(obj) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) return false;
  obj.id = ++app.reqId;
  app.ws.send(JSON.stringify(obj));
  return true;
}

function status(text) { $("status").textContent = text; }
function showError(text) { $("error").textContent = text || ""; }
function notice(text, kind, retry) {
  const n = $("notice");
  if (!text) { n.classList.add("hidden"); return; }
  n.classList.remove("hidden");
  n.classList.toggle("info", kind === "info");
  n.dataset.kind = kind || "";
  $("notice-text").textContent = text;
  $("notice-retry").classList.toggle("hidden", !retry);
  $("notice-retry").onclick = retry || null;
}

// ------------------------------------------------------------------ connection
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  app.ws = ws;
  ws.onopen = () => {
    app.connected = true;
    app.retries = 0;
    if ($("notice").dataset.kind === "conn") notice("");
    status("connected");
    const saved = sessionStorage.getItem("pokerlab-session");
    if (saved) send({ type: "resume", session: saved });
    else startSession();
  };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    app.queue = app.queue.then(() => onMessage(m)).catch((e) => console.error(e));
  };
  ws.onclose = () => {
    if (app.ws !== ws) return;
    app.connected = false;
    app.pending = false;
    app.starting = null;  // the reconnection resumes or starts again
    thinking(false);
    renderActions(null);
    const delay = Math.min(10, 2 ** app.retries);
    app.retries++;
    notice(`Connection lost; reconnecting in ${delay} s...`, "conn", () => { connect(); });
    status("disconnected");
    setTimeout(() => { if (app.ws === ws) connect(); }, delay * 1000);
  };
}

function startSession() {
  const msg = { type: "start", game: $("game-select").value };
  const agent = $("agent-select").value;
  if (agent && msg.game === "hunl") msg.agent = agent;
  const stack = parseFloat($("stack-input").value);
  if (!Number.isNaN(stack) && HOLDEM(msg.game)) msg.stack = stack;
  msg.carry = $("carry-toggle").checked;
  app.replay = null;
  $("replay-bar").classList.add("hidden");
  if (!send(msg)) return;
  app.starting = msg.id;  // nothing is played until the server answers this start
  status(`starting ${msg.game}${msg.agent ? ` against ${msg.agent}` : ""}...`);
  renderActions(null);
}

function startFailed(m) {
  // the server refused or could not build the new session: say so, and show the session
  // this tab still plays (menus, status) -- never a table played against another agent
  app.starting = null;
  app.startErrors++;
  const cur = app.current;
  let text = `Could not start the session: ${m.message}`;
  if (cur) {
    text += `. You are still playing the previous session (${cur.game} against ${cur.name}).`;
    $("game-select").value = cur.game;
    if (cur.game === "hunl") $("agent-select").value = cur.spec;
    if (HOLDEM(cur.game)) $("stack-input").value = cur.stack;
    $("agent-select").disabled = cur.game !== "hunl";
    $("stack-input").disabled = !HOLDEM(cur.game);
    agentTitle();
    status(cur.status);
  } else {
    status("not started");
  }
  notice(text, "start");
  showError(text);
}

async function onMessage(m) {
  if (m.type === "session") {
    app.starting = null;
    app.session = m.session;
    app.game = m.game;
    if (m.big_blind) app.bigBlind = m.big_blind;
    sessionStorage.setItem("pokerlab-session", m.session);
    sessionStorage.setItem("pokerlab-query", location.search);
    addGames(m.games);
    $("game-select").value = m.game;
    if (m.stack && HOLDEM(m.game)) $("stack-input").value = m.stack;
    setAgents(m.agents, m.strengths);
    if (m.game === "hunl" && m.agent_spec) $("agent-select").value = m.agent_spec;
    agentTitle();
    $("agent-select").disabled = m.game !== "hunl";
    $("stack-input").disabled = !HOLDEM(m.game);
    $("carry-toggle").checked = !!m.carry;
    $("unit-toggle").classList.toggle("hidden", !HOLDEM(m.game));
    $("opp-name").textContent = m.agent;
    $("download-phh").classList.toggle("hidden", !m.phh);
    $("download-phh").href = `/api/session/${encodeURIComponent(m.session)}/hands.phhs`;
    $("ev-loss-row").classList.toggle("hidden", m.game !== "pushfold");
    app.coachOn = !!m.coach_on;
    $("coach-toggle").checked = app.coachOn;
    app.history = m.history || [];
    app.state = null;
    renderHistory();
    if (!m.history) {
      $("coach").textContent = app.coachOn ? "Coach on: notes appear after each hand." :
        "Switch the coach on to see, after each hand, what the agent's own policy would have done with your cards.";
      $("grid").replaceChildren();
      $("grid-title").textContent = "";
    }
    if ($("notice").dataset.kind !== "conn") notice("");
    const line = `session ${m.session.slice(0, 6)}... - ${m.game} vs ${m.agent}${m.tabs > 1 ? ` (${m.tabs} tabs)` : ""}`;
    app.current = { spec: m.agent_spec, name: m.agent, game: m.game, stack: m.stack, status: line };
    status(line);
  } else if (m.type === "table") {
    await onTable(m);
  } else if (m.type === "progress") {
    status(m.message);
    notice(m.message, "info");
  } else if (m.type === "error") {
    app.pending = false;
    thinking(false);
    if (app.starting !== null && (m.id === app.starting || m.code === "start")) {
      if (m.code === "full") {
        app.starting = null;
        status(app.current ? app.current.status : "not started");
        notice(m.message, "", () => { notice(""); startSession(); });
      } else {
        startFailed(m);
      }
      if (!app.replay) renderActions(app.state);
      return;
    }
    if (m.code === "full") {
      status(app.state ? status_text() : "not started");
      notice(m.message, "", () => { notice(""); startSession(); });
    } else if (m.code === "stale") {
      showError("That move was for a decision that has passed; nothing was applied. The table is up to date.");
    } else {
      showError(m.message);
      if (!app.state) status("not started");
    }
    if (/unknown or expired session/.test(m.message)) {
      sessionStorage.removeItem("pokerlab-session");
      startSession();
      return;
    }
    if (!app.replay) renderActions(app.state);
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

function status_text() { return `session ${String(app.session).slice(0, 6)}... - ${app.game}`; }

function lastEvent(s) { return s && s.log && s.log.length ? s.log[s.log.length - 1] : null; }
function byAgent(e) { return e && e.event === "ActionTaken" && e.who === "agent"; }

async function onTable(m) {
  thinking(false);
  const steps = m.steps || [];
  if (app.pace > 0 && steps.length && !app.replay) {
    // show the agent's moves and each street one by one, input locked meanwhile
    app.pacing = true;
    renderActions(null);
    // (the agent's real think time passed while the page waited for this message, with
    // "thinking..." shown; each move then shows what it took: no invented delay)
    for (const f of steps) {
      const e = lastEvent(f);
      renderTable(f, false);
      if (byAgent(e) || (e && e.event === "BoardDealt")) await sleep(app.pace);
    }
    app.pacing = false;
  }
  app.state = m.state;
  app.summary = m.summary;
  if (m.state.big_blind) app.bigBlind = m.state.big_blind;
  app.pending = false;
  showError("");
  const s = m.state;
  if (s.over && s.hand > 0 && !app.history.some((h) => h.hand === s.hand)) {
    app.history.push({ hand: s.hand, result: s.result, aborted: s.aborted, log: s.log });
    if (app.history.length > 500) app.history.shift();
    renderHistory();
  }
  if (!app.replay) renderTable(s, true);
  // a click meant for the previous decision (a slow double click) does not land on this one
  app.guardUntil = s.to_act === "you" && app.pace > 0 ? performance.now() + Math.min(300, app.pace) : 0;
  renderSummary(m.summary);
  app.tables++;
}

// ------------------------------------------------------------------ rendering
function thinking(on) { $("opp-thinking").classList.toggle("hidden", !on); }

// the agent's measured think time of a move (the server's think_ms), and whether it searched
function thinkText(e) {
  if (!e || e.think_ms === undefined || e.think_ms === null) return "";
  const ms = Number(e.think_ms);
  const t = ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  return e.searched ? `searched ${t}` : `${t}`;
}

function actionText(e) {
  switch (e.kind) {
    case "fold": return "Fold";
    case "check": return "Check";
    case "call": return `Call ${withUnit(e.amount)}`;
    case "bet": return `Bet ${withUnit(e.amount)}`;
    case "raise": return `Raise to ${withUnit(e.amount)}`;
    default: return e.label || e.kind;
  }
}

function seatActions(s) {
  // each player's last move of the current street (shown at the seat)
  const out = { you: null, agent: null };
  (s.log || []).forEach((e) => {
    if (e.event === "BoardDealt" || e.event === "HandStarted") { out.you = null; out.agent = null; }
    if (e.event === "ActionTaken") out[e.who] = e;
  });
  return out;
}

function showdownText(s) {
  const sd = s.showdown;
  if (!sd) return "";
  const you = sd.you, op = sd.opponent;
  let text;
  if (sd.winner === "split") text = `Split pot: ${withUnit(you.collected)} each`;
  else if (sd.winner === "you") text = `You win ${withUnit(you.collected)}`;
  else text = `Agent wins ${withUnit(op.collected)}`;
  const win = sd.winner === "you" ? you.hand : sd.winner === "agent" ? op.hand : you.hand;
  if (sd.showdown && win) {
    text += ` with ${win}`;
    const lose = sd.winner === "you" ? op.hand : you.hand;
    if (sd.winner !== "split" && lose) text += lose === win ? ` (the kickers decide; ${sd.winner === "you" ? "agent" : "you"}: ${lose})` : ` against ${lose}`;
  } else if (!sd.showdown) {
    text += sd.winner === "split" ? "" : " (no showdown)";
  }
  return text;
}

function renderTable(s, live) {
  if (!s || !s.you) return;
  const generic = "info_state" in s;
  setCards("you-cards", s.you.cards, 0);
  const oppCount = s.opponent.hidden !== undefined ? s.opponent.hidden : (HOLDEM(s.game) ? 2 : 1);
  setCards("opp-cards", s.opponent.cards, oppCount);
  setCards("board", s.board, 0);
  setAmt("you-stack", s.you.stack);
  setAmt("you-bet", s.you.bet);
  setAmt("opp-stack", s.opponent.stack);
  setAmt("opp-bet", s.opponent.bet);
  $("you-stack-box").classList.toggle("hidden", s.you.stack === null);
  $("opp-stack-box").classList.toggle("hidden", s.opponent.stack === null);
  // a generic game without cards: its own state text is the only way to see your hand
  const textOnly = generic && !(s.you.cards && s.you.cards.length);
  $("state-lines").classList.toggle("hidden", !textOnly);
  if (textOnly) {
    $("state-lines").open = true;
    $("info-state").textContent = s.info_state;
    $("public-state").textContent = s.public_state;
    $("opp-info-row").classList.toggle("hidden", !s.opponent.info_state);
    $("opp-info-state").textContent = s.opponent.info_state || "";
  }
  $("you-button").classList.toggle("hidden", !s.you.button);
  $("opp-button").classList.toggle("hidden", !s.opponent.button);
  setAmt("pot", s.pot);
  $("pot-won").textContent = showdownText(s);
  // at the end of a hand the pot line names who won it and with what, not "Pot 0"
  $("pot-line").classList.toggle("hidden", !!s.showdown);
  const sd = s.showdown;
  $("you-hand-name").textContent = sd && sd.showdown && sd.you.hand ? sd.you.hand : "";
  $("opp-hand-name").textContent = sd && sd.showdown && sd.opponent.hand ? sd.opponent.hand : "";
  $("street").textContent = s.street || "";
  $("hand-no").textContent = `Hand ${s.hand}`;
  $("blinds").textContent = s.small_blind !== null && s.small_blind !== undefined ?
    `Blinds ${amt(s.small_blind)}/${amt(s.big_blind)} ${unit()}` : "";
  let policy;
  if (HOLDEM(s.game)) policy = s.carry ? "stacks carry over between hands" : "new stacks each hand";
  else if (s.you.stack === null && s.pot !== null) policy = "limit betting: no stack limit";
  else policy = "new stacks each hand";
  $("stack-policy").textContent = policy;
  setAmt("to-call", s.to_call);
  let res = "";
  if (s.over && s.aborted) res = s.error || "hand cancelled";
  else if (s.over && s.result !== null) {
    const r = s.result;
    res = r > 0 ? `You win ${resultText(r)} ${unit()}` : r < 0 ? `You lose ${resultText(-r)} ${unit()}` : "Split pot";
  }
  $("hand-result").textContent = res;
  const acts = seatActions(s);
  [["opp-action", acts.agent], ["you-action", acts.you]].forEach(([id, e]) => {
    $(id).classList.toggle("hidden", !e);
    $(id).textContent = e ? actionText(e) : "";
    $(id).classList.toggle("aggr", !!e && (e.kind === "bet" || e.kind === "raise"));
  });
  const think = $("opp-think"), a = acts.agent;
  const tt = thinkText(a);
  think.classList.toggle("hidden", !tt);
  think.classList.toggle("searched", !!(a && a.searched));
  think.textContent = tt;
  think.title = a && a.searched ? "the agent searched for this move (real-time search)" :
    "the agent answered this move from its policy without searching";
  think.dataset.ms = tt ? String(a.think_ms) : "";
  think.dataset.searched = tt ? String(!!a.searched) : "";
  renderLog(s.log);
  renderActions(live ? s : null);
  // what was drawn, in order (tests check the pacing): [board cards, agent's seat label]
  app.trace = (app.trace || []).slice(-199).concat([[(s.board || []).length, $("opp-action").textContent]]);
}

function describe(e) {
  const who = e.who === "you" ? "You" : "Agent";
  const sfx = e.who === "you" ? "" : "s";
  switch (e.event) {
    case "HandStarted": return `Hand ${e.hand}: ${e.button === "you" ? "you have" : "the agent has"} the button; your cards ${e.cards.join(" ")}`;
    case "BoardDealt": return `${e.street}: ${e.cards.join(" ")}`;
    case "ActionTaken": {
      const tt = thinkText(e);  // the agent's moves: its think time, and whether it searched
      return actionLine(e, who, sfx) + (tt ? ` [${tt}]` : "");
    }
    case "CardsShown": return `${who} show${sfx} ${e.cards.join(" ")}`;
    case "HandEnded":
      if (e.aborted) return `Hand cancelled: ${e.error}`;
      return `Result: ${e.result > 0 ? "+" : ""}${resultText(e.result)} ${unit()}${e.showdown ? " at the showdown" : ""}`;
    default: return e.event;
  }
}

function actionLine(e, who, sfx) {
  const pot = e.pot ? ` (pot ${withUnit(e.pot)})` : "";
  if (e.kind === "action") return `${who}: ${e.label}`;
  if (e.kind === "fold") return `${who} fold${sfx}`;
  if (e.kind === "check") return `${who} check${sfx}`;
  if (e.kind === "call") return `${who} call${sfx} ${withUnit(e.amount)}${pot}`;
  return `${who} ${e.kind}${sfx}${e.kind === "raise" ? " to" : ""} ${withUnit(e.amount)}${pot}`;
}

function renderLog(log) {
  const ol = $("log");
  ol.replaceChildren();
  (log || []).forEach((e) => ol.appendChild(el("li", "", describe(e))));
  ol.scrollTop = ol.scrollHeight;
}

function renderHistory() {
  // the text hand history across hands, and the past-hands list with replay / coach
  const box = $("history");
  box.replaceChildren();
  app.history.forEach((h) => {
    const d = el("div", "hh");
    d.dataset.hand = h.hand;
    d.textContent = (h.log || []).map(describe).join("\n");
    box.appendChild(d);
  });
  box.scrollTop = box.scrollHeight;
  renderHandList();
}

function renderGenericActions(s, lg) {
  // one button per legal action, with the verb the situation calls for
  const box = $("generic-actions");
  box.replaceChildren();
  (lg && lg.actions ? lg.actions : []).forEach((a, i) => {
    const b = el("button", `act generic ${a.kind}`, a.text || a.label);
    b.title = a.label;
    if (i < 9) b.appendChild(el("kbd", "", String(i + 1)));
    b.dataset.action = a.id;
    b.onclick = () => act("action", undefined, a.id);
    box.appendChild(b);
  });
}

function locked() { return app.pending || app.pacing || app.starting !== null || !app.connected; }

function renderActions(s) {
  const lg = s && s.to_act === "you" && !locked() ? s.legal : null;
  const over = !!s && s.over;
  const generic = !!s && "info_state" in s;
  const turn = !!lg;
  $("your-turn").classList.toggle("hidden", !turn);
  $("you-seat").classList.toggle("turn", turn);
  ["btn-fold", "btn-call", "btn-raise"].forEach((id) => $(id).classList.toggle("hidden", generic));
  $("raise-row").classList.toggle("hidden", generic);
  $("generic-actions").classList.toggle("hidden", !generic);
  if (generic || !s) renderGenericActions(s, lg);
  $("btn-fold").disabled = !lg || !lg.fold;
  const call = $("btn-call");
  call.disabled = !lg || lg.call < 0;
  if (lg) call.firstChild.textContent = lg.check ? "Check " : `Call ${withUnit(lg.call)} `;
  const canRaise = !!lg && lg.raise;
  ["btn-raise", "raise-slider", "raise-amount", "quick-half", "quick-pot", "quick-2pot", "quick-allin"]
    .forEach((id) => { $(id).disabled = !canRaise; });
  $("btn-deal").disabled = !over || app.replay !== null || locked();
  $("amount-error").textContent = "";
  if (canRaise) {
    const slider = $("raise-slider");
    slider.min = lg.min;
    slider.max = lg.max;
    slider.step = 1;
    const q = lg.quick || {};
    [["quick-half", "half"], ["quick-pot", "pot"], ["quick-2pot", "2pot"]].forEach(([id, k]) => {
      $(id).disabled = q[k] === undefined;
      if (q[k] !== undefined) $(id).dataset.amount = q[k];
    });
    $("quick-allin").dataset.amount = lg.max;
    setRaise(lg.min);
    const word = lg.verb === "bet" ? "bet" : lg.verb === "all-in" ? "all-in" : "raise to";
    $("legal-range").textContent = lg.min === lg.max ? `(${word} ${withUnit(lg.min)})` :
      `(${word} ${amt(lg.min)} \u2013 ${amt(lg.max)} ${unit()})`;
  } else {
    $("legal-range").textContent = "";
    $("btn-raise").firstChild.textContent = s && s.legal && s.legal.verb === "bet" ? "Bet " : "Raise ";
  }
}

function raiseWord(lg, chips) {
  if (lg.verb === "all-in") return "All-in";
  const base = lg.verb === "bet" ? "Bet" : "Raise to";
  return chips === lg.max ? `All-in: ${base.toLowerCase()}` : base;
}

function updateRaiseLabel() {
  const lg = app.state && app.state.legal;
  if (!lg || !lg.raise) return;
  const chips = parseAmount($("raise-amount").value);
  const shown = typeof chips === "number" ? withUnit(chips) : $("raise-amount").value;
  $("btn-raise").firstChild.textContent = `${raiseWord(lg, chips)} ${shown} `;
}

// the amount box holds the page's unit; the server counts whole chips.  Plain digits with
// at most one decimal separator: a decimal comma is a decimal point ("2,5" is 2.5), never
// a thousands separator (so never 25); "1,000" (a comma and three digits) is refused as
// ambiguous, and so is anything else ("1e3", "0x10", "2.5.1", "1 000")
function parseAmount(text) {
  const t = String(text).trim();
  const m = /^(\d*)(?:([.,])(\d+))?$/.exec(t);
  if (t === "" || !m || (m[1] === "" && !m[2])) return "not a number";
  if (m[2] === "," && m[1] !== "" && m[3].length === 3) {
    return `ambiguous: a comma is read as a decimal point; write ${m[1]}${m[3]} or ${m[1]}.${m[3]}`;
  }
  const v = Number(`${m[1] || "0"}.${m[3] || "0"}`);
  if (!Number.isFinite(v)) return "not a number";
  const chips = unit() === "bb" ? v * app.bigBlind : v;
  if (Math.abs(chips - Math.round(chips)) > 1e-6) {
    return unit() === "bb" ? `amounts are whole chips (1 chip = ${round2(1 / app.bigBlind)} bb)` : "amounts are whole chips";
  }
  return Math.round(chips);
}

function setRaise(chips) {
  $("raise-slider").value = chips;
  $("raise-amount").value = amt(Number(chips));
  updateRaiseLabel();
}

function renderSummary(sm) {
  if (!sm) return;
  document.querySelectorAll(".unit").forEach((u) => {
    u.textContent = u.textContent.replace(/^(bb|chips)/, unit());
  });
  $("hands-played").textContent = sm.hands;
  $("result-bb").textContent = resultText(sm.total);
  $("per100").textContent = resultText(sm.per100);
  $("per100-ci").textContent = resultText(sm.per100_ci95);
  $("ev-loss").textContent = fmt(sm.ev_loss);
  $("graded").textContent = sm.decisions_graded;
  if (sm.running) { app.running = sm.running; drawChart(sm.running); }
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

const GRID_RANKS = "AKQJT98765432";

// the coach names hold'em amounts in chips ("raise to 300"): shown in the page's unit
function inUnit(text) {
  if (!HOLDEM(app.game)) return text;
  return String(text).replace(/\b(to|call|bet) (\d+)\b/g, (m, w, n) => `${w} ${withUnit(Number(n))}`);
}

function renderCoach(m) {
  const box = $("coach");
  box.replaceChildren();
  box.appendChild(el("div", "", `Hand ${m.hand}: your decisions`));
  let lastGrid = null, lastTitle = "", lastMine = null;
  (m.decisions || []).forEach((d) => {
    const t = el("table");
    const head = el("tr");
    const td0 = el("td", "", `${d.street}: you ${inUnit(d.chosen)}`);
    td0.colSpan = 2;
    head.appendChild(td0);
    t.appendChild(head);
    if (d.frequencies && d.reached === false) {
      const tr = el("tr");
      const td = el("td", "unreached", `not reached by the agent's policy: ${d.note || ""}`);
      td.colSpan = 2;
      tr.appendChild(td);
      t.appendChild(tr);
    }
    if (d.frequencies) {
      d.frequencies.forEach(([label, p]) => {
        const tr = el("tr");
        tr.appendChild(el("td", "", `agent would ${inUnit(label)}`));
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

function renderHandList() {
  const ul = $("hand-list");
  ul.replaceChildren();
  app.history.slice().reverse().slice(0, 100).forEach((h) => {
    const li = el("li");
    li.appendChild(el("span", "", `#${h.hand}`));
    const r = h.aborted ? "cancelled" : `${h.result > 0 ? "+" : ""}${resultText(h.result)} ${unit()}`;
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

// ------------------------------------------------------------------ actions
function act(kind, amount, action) {
  const s = app.state;
  if (!s || s.over || s.to_act !== "you" || app.replay || locked()) return;
  if (app.guardUntil && performance.now() < app.guardUntil) return;
  const msg = { type: "action", session: app.session, hand: s.hand, kind };
  if (s.decision !== undefined && s.decision !== null) msg.decision = s.decision;
  if (amount !== undefined) msg.amount = amount;
  if (action !== undefined) msg.action = action;
  if (!send(msg)) return;
  app.sent++;
  app.pending = true;  // one move per decision: locked until the server answers
  renderActions(s);
  $("your-turn").classList.add("hidden");
  if (kind !== "fold") thinking(true);
}

function deal() {
  const s = app.state;
  if (!s || !s.over || app.replay || locked()) return;
  if (!send({ type: "deal", session: app.session })) return;
  app.sent++;
  app.pending = true;
  renderActions(s);
}

function submitRaise(text) {
  // refused, never clamped: an amount outside the legal range is not sent
  const lg = app.state && app.state.to_act === "you" ? app.state.legal : null;
  if (!lg || !lg.raise || locked()) return;
  const chips = parseAmount(text);
  const word = lg.verb === "bet" ? "Bet" : lg.verb === "all-in" ? "All-in" : "Raise to";
  if (typeof chips !== "number") {
    $("amount-error").textContent = `${text}: ${chips}; nothing was sent`;
    return;
  }
  if (chips < lg.min || chips > lg.max) {
    const range = lg.min === lg.max ? `exactly ${withUnit(lg.min)}` : `${amt(lg.min)} \u2013 ${amt(lg.max)} ${unit()}`;
    $("amount-error").textContent = `${word} ${withUnit(chips)} is outside the legal range (${range}); nothing was sent`;
    return;
  }
  act("raise", chips);
}

$("btn-fold").onclick = () => act("fold");
$("btn-call").onclick = () => {
  const lg = app.state && app.state.legal;
  act(lg && lg.check ? "check" : "call");
};
$("btn-raise").onclick = () => submitRaise($("raise-amount").value);
$("btn-deal").onclick = deal;
$("raise-slider").oninput = () => setRaise($("raise-slider").value);
$("raise-amount").oninput = () => {
  const chips = parseAmount($("raise-amount").value);
  if (typeof chips === "number") $("raise-slider").value = chips;
  $("amount-error").textContent = "";
  updateRaiseLabel();
};
$("raise-amount").onkeydown = (ev) => {
  if (ev.key === "Enter") { ev.preventDefault(); submitRaise($("raise-amount").value); }
};
["quick-half", "quick-pot", "quick-2pot", "quick-allin"].forEach((id) => {
  $(id).onclick = () => setRaise($(id).dataset.amount);
});
$("btn-new").onclick = () => { sessionStorage.removeItem("pokerlab-session"); startSession(); };
$("game-select").onchange = () => {
  const g = $("game-select").value;
  if (g === "pushfold") $("stack-input").value = 10;
  if (g === "hunl") $("stack-input").value = 100;
  $("stack-input").disabled = !HOLDEM(g);
  $("agent-select").disabled = g !== "hunl";
};
$("agent-select").onchange = agentTitle;
$("unit-toggle").onclick = () => {
  app.unit = app.unit === "bb" ? "chips" : "bb";
  localStorage.setItem("pokerlab-unit", app.unit);
  $("unit-toggle").textContent = `Units: ${app.unit}`;
  if (app.replay) renderReplay(); else renderTable(app.state, true);
  renderSummary(app.summary);
  renderHistory();
};
$("unit-toggle").textContent = `Units: ${app.unit}`;
$("coach-toggle").onchange = () => {
  app.coachOn = $("coach-toggle").checked;
  if (app.session) send({ type: "coach", session: app.session, on: app.coachOn });
};
$("replay-prev").onclick = () => { if (app.replay && app.replay.i > 0) { app.replay.i--; renderReplay(); } };
$("replay-next").onclick = () => { if (app.replay && app.replay.i < app.replay.frames.length - 1) { app.replay.i++; renderReplay(); } };
$("replay-exit").onclick = exitReplay;

document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  if ((t && (t.tagName === "INPUT" && t.type !== "checkbox" && t.type !== "range")) || (t && t.tagName === "SELECT") ||
      ev.ctrlKey || ev.metaKey || ev.altKey || ev.repeat) return;
  const k = ev.key.toLowerCase();
  const lg = app.state && app.state.to_act === "you" && !locked() ? app.state.legal : null;
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
  else if (k === "r" && lg && lg.raise) submitRaise($("raise-amount").value);
  else if (k === "a" && lg && lg.raise) act("raise", lg.max);
  else if ((k === "n" || (k === "enter" && !(t && t.tagName === "BUTTON"))) && app.state && app.state.over) deal();
  else return;
  ev.preventDefault();
});

window.addEventListener("resize", () => { if (app.running) drawChart(app.running); });

renderActions(null);
fetch("/api/config").then((r) => r.json()).then((cfg) => {
  setAgents(cfg.agents, cfg.strengths);
  addGames(cfg.games);
  const asked = params.get("game");
  $("game-select").value = asked && cfg.games.includes(asked) ? asked : cfg.game;
  $("agent-select").value = params.get("agent") || cfg.agent;
  agentTitle();
  $("carry-toggle").checked = params.has("carry") ? params.get("carry") === "1" : !!cfg.carry;
  $("stack-input").value = params.get("stack") || ($("game-select").value === cfg.game ? cfg.stack : ($("game-select").value === "pushfold" ? 10 : 100));
  // a link naming a game starts that game, but a reload of the same page resumes
  if (params.get("game") && sessionStorage.getItem("pokerlab-query") !== location.search) sessionStorage.removeItem("pokerlab-session");
  connect();
}).catch(() => connect());
