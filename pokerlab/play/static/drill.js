// The drill page: start a drill, answer dealt hands, show each grade with the numbers the
// API returns (EV of the answer and of the best action in bb and % of the pot, the EV
// loss, the solution's mix) and the session score kept in DuckDB.
"use strict";
(function () {
  const state = { ready: false, session: null, info: null, hand: null, next: null,
                  lastGrade: null, lastScore: null, lastAll: null, spots: null, answered: 0 };
  window.drillPage = state;

  function cardsHtml(text) {
    const out = [];
    for (let i = 0; i + 1 < text.length; i += 2) {
      const c = text.slice(i, i + 2);
      const span = document.createElement("span");
      span.className = "card " + c[1];
      span.textContent = c[0] + { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" }[c[1]];
      span.dataset.card = c;
      out.push(span);
    }
    return out;
  }

  function put(el, nodes) {
    el.replaceChildren(...nodes);
  }

  function fmt(x, d) { return (x === null || x === undefined) ? "-" : Number(x).toFixed(d); }

  function showHand(hand) {
    state.hand = hand;
    put($("hand"), cardsHtml(hand.cards));
    $("hand").dataset.combo = String(hand.combo);
    $("hand").dataset.deal = String(hand.deal);
    $("hand-class").textContent = "(" + hand.class + ")";
    for (const b of $("actions").querySelectorAll("button")) b.disabled = false;
    $("btn-next").hidden = true;
  }

  function showInfo(info) {
    state.info = info;
    $("node-title").textContent = (info.player === "oop" ? "Out of position" : "In position") +
      " to act" + (info.node ? " after " + info.node.split(",").join(" / ") : " (first)");
    $("spot-info").textContent = info.spot + ": " + info.street + ", pot " + fmt(info.pot_bb, 1) +
      " bb" + (info.facing_bb > 0 ? ", facing " + fmt(info.facing_bb, 1) + " bb" : "") +
      ", " + fmt(info.combos, 1) + " combos at the node";
    put($("board"), cardsHtml(info.board));
    const acts = info.actions.map((a) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "act";
      b.dataset.action = a;
      b.textContent = a;
      b.addEventListener("click", () => answer(a));
      return b;
    });
    put($("actions"), acts);
    $("table").hidden = false;
  }

  function showGrade(g) {
    state.lastGrade = g;
    const verdict = g.in_mix ? '<span class="ok">in the mix</span>' : '<span class="bad">not in the mix</span>';
    const el = $("grade");
    el.innerHTML = "";
    const line = (html) => { const d = document.createElement("div"); d.innerHTML = html; el.appendChild(d); };
    line(`${g.cards} (${g.class}): you chose <b>${g.chosen}</b>, EV <span id="ev-chosen">${fmt(g.ev_chosen_bb, 3)}</span> bb ` +
         `(${fmt(g.ev_chosen_pct, 2)}% of the pot)`);
    line(`best: <b id="best">${g.best}</b>, EV <span id="ev-best">${fmt(g.ev_best_bb, 3)}</span> bb (${fmt(g.ev_best_pct, 2)}%)`);
    line(`EV loss <b id="ev-loss">${fmt(g.ev_loss_bb, 3)}</b> bb (<span id="ev-loss-pct">${fmt(g.ev_loss_pct, 2)}</span>% of the pot): ${verdict}`);
    el.dataset.lossBb = String(g.ev_loss_bb);
    el.dataset.best = g.best;
    el.dataset.inMix = String(g.in_mix);
    const rows = g.actions.map((r) => {
      const tr = tableRow([r.action, fmt(r.ev_bb, 3), fmt(r.ev_pct, 2), fmt(r.loss_bb, 3), fmt(100 * r.frequency, 1) + "%"]);
      tr.dataset.action = r.action;
      if (r.action === g.best) tr.classList.add("best");
      if (r.action === g.chosen) tr.classList.add("chosen");
      return tr;
    });
    put($("grade-table").querySelector("tbody"), rows);
    $("result").hidden = false;
  }

  // a table row of text cells
  function tableRow(cells) {
    const tr = document.createElement("tr");
    for (const v of cells) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    return tr;
  }

  function scoreText(s, what) {
    if (!s || !s.decisions) return what + ": no decisions yet";
    const ci = s.ci95_bb === null ? "" : " \u00b1 " + fmt(s.ci95_bb, 3);
    return `${what}: mean EV loss ${fmt(s.mean_ev_loss_bb, 3)}${ci} bb per decision (95% CI) over ` +
           `${s.decisions} decisions, ${fmt(100 * s.accuracy, 0)}% in the mix`;
  }

  function showScore(score, all) {
    state.lastScore = score;
    state.lastAll = all;
    $("score").textContent = scoreText(score, "this session");
    $("score").dataset.decisions = String(score.decisions);
    $("score").dataset.mean = String(score.mean_ev_loss_bb);
    $("score-all").textContent = scoreText(all, "all sessions of this drill");
    const rows = Object.entries(score.by_class || {}).map(([cls, r]) =>
      tableRow([cls, String(r.decisions), fmt(100 * r.accuracy, 0) + "%", fmt(r.mean_ev_loss_bb, 3)]));
    put($("class-table").querySelector("tbody"), rows);
    $("scores").hidden = false;
  }

  async function start() {
    const spot = $("spot").value;
    const seed = parseInt($("seed").value || "0", 10);
    const body = { spot, seed: isNaN(seed) ? 0 : seed };
    if ($("node").value.trim()) body.node = $("node").value.trim();
    $("btn-start").disabled = true;
    setStatus("loading the drill (a library spot is solved on first use: up to a minute)\u2026");
    try {
      const r = await api("POST", "/api/drill/start", body);
      state.session = r.session;
      state.answered = 0;
      showInfo(r.info);
      showHand(r.hand);
      showScore(r.score, r.all_sessions);
      $("result").hidden = true;
      setStatus("");
    } catch (e) {
      setStatus(e.message, true);
    } finally {
      $("btn-start").disabled = false;
    }
  }

  async function answer(action) {
    if (!state.session || !state.hand) return;
    for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
    try {
      const r = await api("POST", `/api/drill/${state.session}/answer`, { action, deal: state.hand.deal });
      state.answered += 1;
      state.next = r.hand;
      showGrade(r.grade);
      showScore(r.score, r.all_sessions);
      $("btn-next").hidden = false;
      setStatus("");
    } catch (e) {
      setStatus(e.message, true);
      for (const b of $("actions").querySelectorAll("button")) b.disabled = false;
    }
  }

  async function init() {
    $("btn-start").addEventListener("click", start);
    $("btn-next").addEventListener("click", () => { if (state.next) showHand(state.next); state.next = null; });
    try {
      const s = await api("GET", "/api/drill/spots");
      state.spots = s;
      const opts = [];
      for (const f of s.files) {
        const o = document.createElement("option");
        o.value = f; o.textContent = f + " (drill folder)";
        opts.push(o);
      }
      for (const e of s.library) {
        const o = document.createElement("option");
        o.value = e.name; o.textContent = e.name + (e.built ? "" : " (solved on first use)");
        o.dataset.label = e.label;
        opts.push(o);
      }
      put($("spot"), opts);
      const label = () => {
        const o = $("spot").selectedOptions[0];
        $("spot-label").textContent = o && o.dataset.label ? o.dataset.label : "";
      };
      $("spot").addEventListener("change", label);
      label();
    } catch (e) {
      setStatus(e.message, true);
    }
    state.ready = true;
  }

  init();
})();
