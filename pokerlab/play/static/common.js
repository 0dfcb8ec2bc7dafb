// What the play pages share (play, solver, hand review, drills), loaded before each page's
// own script: element lookup and making, the JSON API call and the status line.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// a table's header row of the texts `heads`
function headRow(heads) {
  const hr = el("tr");
  for (const h of heads) hr.appendChild(el("th", "", h));
  return hr;
}

// an empty SVG chart `W` x `H` (viewBox units) of class `cls`
function svgChart(W, H, cls) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", cls);
  return svg;
}

// One request to the page's JSON API: `body` is sent as JSON, or as it is when it is already
// bytes or text (an ArrayBuffer, a Blob or a string; `headers` say what it is).  The answer's
// JSON, or an Error with the server's one-line message.
async function api(method, url, body, headers) {
  const opts = { method, headers: Object.assign({}, headers || {}) };
  if (body !== undefined) {
    const raw = body instanceof ArrayBuffer || body instanceof Blob || typeof body === "string";
    if (!raw) opts.headers["Content-Type"] = "application/json";
    opts.body = raw ? body : JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(url, opts);
  } catch (e) {
    throw new Error("the server cannot be reached");
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) throw new Error((data && data.error) || `request failed (HTTP ${resp.status})`);
  return data;
}

// the header's status line (`isError`: shown as an error)
function setStatus(text, isError) {
  const s = $("status");
  s.textContent = text || "";
  s.classList.toggle("error", !!isError);
}
