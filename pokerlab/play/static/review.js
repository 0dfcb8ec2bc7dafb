// The hand review page: upload a hand history, pick the hero, review in the background,
// then the decisions (sortable) with the totals per street and per situation.
"use strict";

const state = { upload: null, job: null, timer: null, rows: [], sortKey: "ev_loss_bb", sortDir: -1 };

function fmt(x, digits) {
  return (x === null || x === undefined) ? "-" : Number(x).toFixed(digits);
}

async function loadConfig() {
  const c = await api("GET", "/api/review/config");
  $("cap-bytes").textContent = `${Math.round(c.max_upload_bytes / 1024)} KB`;
  $("cap-hands").textContent = String(c.max_hands);
  $("iterations").max = String(c.max_iterations);
  $("iterations").value = String(c.default_iterations);
}

async function upload() {
  const f = $("file").files[0];
  if (!f) return;
  state.upload = null;
  $("hero").disabled = true;
  $("start").disabled = true;
  $("hero").innerHTML = "";
  setStatus("reading the file...");
  try {
    const buf = await f.arrayBuffer();
    const up = await api("POST", "/api/review/upload", buf,
      { "Content-Type": "application/octet-stream", "X-File-Name": f.name });
    state.upload = up.upload;
    for (const p of up.players) {
      const o = document.createElement("option");
      o.value = p.name;
      o.textContent = `${p.name} (${p.hands} hands)`;
      $("hero").appendChild(o);
    }
    $("upload-info").textContent = `${up.hands} hands read` +
      (up.rejected ? `, ${up.rejected} refused` : "") + `, ${up.players.length} players`;
    $("hero").disabled = false;
    $("start").disabled = false;
    setStatus("choose the hero and review");
  } catch (e) {
    $("upload-info").textContent = "";
    setStatus(e.message, true);
  }
}

async function start() {
  if (!state.upload) return;
  const it = parseInt($("iterations").value, 10);
  try {
    const st = await api("POST", "/api/review/start",
      { upload: state.upload, hero: $("hero").value, iterations: it, replace: true });
    state.job = st.job;
    document.body.dataset.job = st.job;
    $("results").hidden = true;
    $("stop").disabled = false;
    $("start").disabled = true;
    $("progress").hidden = false;
    show(st);
    poll();
  } catch (e) {
    setStatus(e.message, true);
  }
}

async function stop() {
  if (!state.job) return;
  try { show(await api("POST", `/api/review/${state.job}/stop`)); } catch (e) { setStatus(e.message, true); }
}

function poll() {
  clearTimeout(state.timer);
  state.timer = setTimeout(async () => {
    if (!state.job) return;
    try {
      const st = await api("GET", `/api/review/${state.job}/status`);
      show(st);
      if (st.state === "starting" || st.state === "running") poll();
    } catch (e) {
      setStatus(e.message, true);
    }
  }, 500);
}

function show(st) {
  const active = st.state === "starting" || st.state === "running";
  $("progress").max = Math.max(st.total, 1);
  $("progress").value = st.done;
  document.body.dataset.state = st.state;
  if (active) {
    setStatus(`reviewing: ${st.done} of ${st.total} hands, ${st.elapsed.toFixed(0)} s`);
    return;
  }
  $("stop").disabled = true;
  $("start").disabled = !state.upload;
  setStatus(st.message || st.state, st.state === "failed");
  if (st.report) render(st.report);
}

function totalsRows(tbody, groups) {
  tbody.innerHTML = "";
  for (const [name, g] of Object.entries(groups)) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td></td><td class="num">${g.decisions}</td><td class="num">${fmt(g.total, 3)}</td>` +
      `<td class="num">${fmt(g.mean, 3)}</td>`;
    tr.firstChild.textContent = name;
    tr.dataset.group = name;
    tbody.appendChild(tr);
  }
}

function render(rep) {
  $("results").hidden = false;
  const s = rep.ev_loss_bb;
  const skipped = Object.entries(rep.skipped).map(([k, v]) => `${k}: ${v}`).join(", ");
  $("summary").textContent = `${rep.hands} hands, ${rep.hands_reviewed} reviewed, ${rep.reviewed} decisions: ` +
    `EV loss ${fmt(s.total, 3)} bb, ${fmt(s.mean, 3)} bb per decision` +
    (s.ci95[0] !== null ? ` (95% CI ${fmt(s.ci95[0], 3)} .. ${fmt(s.ci95[1], 3)})` : "") +
    (skipped ? `; skipped ${skipped}` : "") + (rep.stopped ? " (stopped early)" : "");
  totalsRows($("by-street").querySelector("tbody"), rep.by_street);
  totalsRows($("by-situation").querySelector("tbody"), rep.by_situation);
  state.rows = rep.decisions;
  drawRows();
}

function drawRows() {
  const key = state.sortKey;
  const dir = state.sortDir;
  const rows = state.rows.slice().sort((a, b) => {
    const x = a[key], y = b[key];
    if (x === y) return a.n - b.n;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * dir;
  });
  for (const th of document.querySelectorAll("#decisions th.sortable")) {
    th.classList.toggle("sorted-desc", th.dataset.key === key && dir < 0);
    th.classList.toggle("sorted-asc", th.dataset.key === key && dir > 0);
  }
  const tbody = $("decisions").querySelector("tbody");
  tbody.innerHTML = "";
  for (const d of rows) {
    const tr = document.createElement("tr");
    tr.dataset.n = String(d.n);
    const cells = [
      [String(d.n), "num"], [d.hand, ""], [d.street, ""], [d.board, ""], [d.cards, ""], [d.situation, ""],
      [d.action, "action"], [d.best_action, "best"], [fmt(d.ev_loss_bb, 3), "num loss"],
      [fmt(d.ev_loss_pct_pot, 1), "num pct"],
    ];
    for (const [text, cls] of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.appendChild(td);
    }
    const mix = document.createElement("td");
    mix.className = "mix";
    for (const [a, p] of Object.entries(d.mix)) {
      const sp = document.createElement("span");
      sp.textContent = `${a} ${fmt(100 * p, 0)}%`;
      mix.appendChild(sp);
    }
    tr.appendChild(mix);
    if (d.ev_loss_pct_pot !== null && d.ev_loss_pct_pot >= 5) tr.classList.add("loss-big");
    tbody.appendChild(tr);
  }
}

function sortBy(key) {
  if (state.sortKey === key) state.sortDir = -state.sortDir;
  else { state.sortKey = key; state.sortDir = key === "ev_loss_bb" || key === "ev_loss_pct_pot" ? -1 : 1; }
  drawRows();
}

window.addEventListener("DOMContentLoaded", () => {
  loadConfig().catch((e) => setStatus(e.message, true));
  $("file").addEventListener("change", upload);
  $("start").addEventListener("click", start);
  $("stop").addEventListener("click", stop);
  for (const th of document.querySelectorAll("#decisions th.sortable")) {
    th.addEventListener("click", () => sortBy(th.dataset.key));
  }
});
