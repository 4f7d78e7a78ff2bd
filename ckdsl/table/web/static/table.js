// The ckdsl web table: draws what the server says this seat sees, and sends answers.
// The server checks everything; this page only shows and asks.
"use strict";
const params = new URLSearchParams(location.search);
const seat = params.get("seat") || "";
const host = params.get("host");  // the host's link only: new, load and save at once
let lang = params.get("lang") || localStorage.getItem("ckdsl-lang") || "en";
let version = null;
let busy = false;
let words = {};
let logSeen = null;  // the log lines already shown, to toast only the new ones

const $ = (id) => document.getElementById(id);
function text(el, value) { el.textContent = value; return el; }
function make(tag, value) { return text(document.createElement(tag), value ?? ""); }
// "name: value" as the table's language writes it (messages.table_label: French "name : value")
function label(name, value) {
  return (words.label || "{label}: {value}").replace(/\{(label|value)\}/g, (_, k) => (k === "label" ? name : value));
}

async function call(path, payload) {
  const reply = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seat, ...(host ? { host } : {}), ...payload }),
  });
  const data = await reply.json();
  text($("message"), reply.ok ? (data.waiting ? `… ${data.waiting.join(", ")}` : "") : data.error).className = "";
  if (reply.ok) await refresh(true);
  return reply.ok;
}

async function answer(value) {
  if (busy) return;
  busy = true;
  try { await call("/api/answer", { answer: value, lang }); } finally { busy = false; }
}

// The build chosen in the build bar ("road", "improve:trade"): the board lights only its
// spots, and a click on one builds it. Kept while it can still be bought.
let chosen = null;
let purchases = [];

function picture(kind, colour, label) {
  // One of the page's own pictures (#pictures), in ``colour``; ``label`` written on it.
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", kind.startsWith("g-") ? "0 0 20 20" : "0 0 40 40");
  svg.classList.add(kind.startsWith("g-") ? "good-icon" : "piece-icon");
  if (colour) svg.style.color = colour;
  const known = document.getElementById(kind);
  if (known) {
    const use = document.createElementNS(ns, "use");
    use.setAttribute("href", `#${kind}`);
    svg.append(use);
  } else {  // a good the page has no picture of (a variant's own): its initial in a circle
    const c = document.createElementNS(ns, "circle");
    for (const [k, v] of [["cx", 10], ["cy", 10], ["r", 8.5], ["fill", "#e0e0e0"], ["stroke", "#455a64"]]) c.setAttribute(k, v);
    svg.append(c);
  }
  if (label) {
    const t = document.createElementNS(ns, "text");
    const small = kind.startsWith("g-");
    for (const [k, v] of [["x", small ? 10 : 20], ["y", small ? 14 : 30], ["text-anchor", "middle"],
      ["font-size", small ? 11 : 13], ["font-weight", "bold"], ["fill", "#212121"]]) t.setAttribute(k, v);
    t.textContent = label;
    svg.append(t);
  }
  return svg;
}

function costRow(cost) {
  // A price as goods: a picture of each with how many, the names read out and in a tooltip.
  const row = make("span"); row.className = "cost";
  for (const c of cost) {
    const chip = make("span"); chip.className = "good";
    chip.title = `${c.count} × ${c.name}`;
    chip.setAttribute("aria-label", chip.title);
    const known = document.getElementById(`g-${c.good}`);
    chip.append(make("b", c.count), picture(`g-${c.good}`, null, known ? "" : c.name.slice(0, 1)));
    row.append(chip);
  }
  return row;
}

function buyKey(p) { return p.id ? `${p.kind}:${p.id}` : p.kind; }

function drawPurchases(s) {
  // The pieces, knight moves, improvements and actions, each a picture with its price;
  // lit when they can be bought now.
  purchases = s.purchases;
  const box = $("buy");
  box.replaceChildren();
  const me = s.spectator ? null : s.players[s.seat];
  if (!purchases.some((p) => buyKey(p) === chosen && p.answers.length)) chosen = null;
  for (const p of purchases) {
    const b = document.createElement("button");
    b.className = "buy"; b.dataset.kind = buyKey(p);
    b.disabled = !p.answers.length;
    b.classList.toggle("chosen", buyKey(p) === chosen);
    const colour = p.kind === "improve" ? p.colour : me?.screen;
    const icon = picture(`i-${p.kind}`, colour, p.kind === "improve" ? String(p.level) : "");
    const name = make("span", p.kind === "improve" ? label(p.name, p.level_name) : p.name);
    name.className = "buy-name";
    b.append(icon, name, costRow(p.cost));
    b.title = label(name.textContent, p.cost.map((c) => `${c.count} × ${c.name}`).join(", "));
    b.addEventListener("click", () => choose(p));
    box.append(b);
  }
  // On the seat's own move, only where something can be bought (not in a discard, a
  // robber's move or the roll: their answers come first); otherwise a table of prices.
  const buying = !s.pending.yours || ["main", "phase"].includes(s.pending.kind);
  $("build").hidden = s.spectator || s.over || !purchases.length || !buying;
}

function choose(p) {
  // A build chosen: its spots on the board glow (a second click lets go); one with no
  // place on the board (an improvement) is bought at once.
  const spots = new Set([...$("board").querySelectorAll(".option")].flatMap((el) => JSON.parse(el.dataset.answers)));
  const placed = p.answers.filter((a) => spots.has(a.answer));
  if (!placed.length) {
    if (p.answers.length === 1) answer(p.answers[0].answer); else pick(p.answers.map((a) => a.answer));
    return;
  }
  chosen = chosen === buyKey(p) ? null : buyKey(p);
  lightBoard();
  text($("message"), chosen ? words.pick_spot : "").className = chosen ? "hint" : "";
}

function lightBoard() {
  // With a build chosen, only its spots are shown, each holding the answer that builds it.
  const found = purchases.find((p) => buyKey(p) === chosen);
  const mine = new Set(found ? found.answers.map((a) => a.answer) : []);
  for (const el of $("board").querySelectorAll(".option")) {
    const match = JSON.parse(el.dataset.answers).find((a) => mine.has(a));
    el.classList.toggle("off", Boolean(found) && !match);
    el.classList.toggle("lit", Boolean(match));
    el.dataset.chosen = match || "";
  }
  for (const b of $("buy").querySelectorAll(".buy")) b.classList.toggle("chosen", b.dataset.kind === chosen);
}

function pick(answers) {
  // A place on the board several answers name: show them as buttons to choose from.
  if (answers.length === 1) { answer(answers[0]); return; }
  for (const b of $("options").querySelectorAll("button")) {
    b.classList.toggle("picked", answers.includes(b.dataset.answer));
  }
  $("all-moves").open = true;
  text($("message"), "");
}

function die(cls, value) { const d = make("span", value); d.className = `die ${cls}`; return d; }

function toast(lines) {
  // The events since the last look, one after another: bots' turns are read, not missed.
  lines.slice(-8).forEach((line, i) => setTimeout(() => {
    const t = make("div", line); t.className = "toast"; $("toasts").append(t);
    setTimeout(() => { t.style.opacity = "0"; setTimeout(() => t.remove(), 700); }, 3500);
  }, i * 450));
}

function showCard(c) {
  // A progress card whole: its name, track and when it may be played, its text in the
  // table's language, and the answer that plays it when it may be played now.
  text($("card-name"), c.name);
  $("card").style.setProperty("--track", c.colour);
  text($("card-about"), [c.track, c.timing].filter(Boolean).join(" · "));
  text($("card-text"), c.text);
  const play = $("card-play");
  play.hidden = !c.play;
  if (c.play) { text(play, c.play.label); play.dataset.answer = c.play.answer; }
  $("card").showModal();
}

function cardFace(c) {
  // A progress card in hand, drawn as a card: a band of its track's colour, its name and
  // the start of its text; a tap (or a click) shows it whole.
  const card = document.createElement("button");
  card.className = "card"; card.dataset.card = c.card;
  card.style.setProperty("--track", c.colour);
  card.classList.toggle("playable", Boolean(c.play));
  const band = make("span", c.track); band.className = "band";
  const name = make("strong", c.name);
  const gist = make("span", c.text); gist.className = "gist";
  card.append(band, name, gist);
  card.addEventListener("click", () => showCard(c));
  return card;
}

function tradeForm(goods) {
  // The offer as goods to give and to get; sent as the answer "offer 1 brick for 1 ore".
  const trade = $("trade");
  if (trade.dataset.goods === JSON.stringify(goods)) return;
  trade.dataset.goods = JSON.stringify(goods);
  for (const [row, side] of [[0, "give"], [1, "get"]]) {
    const tr = trade.rows[row];
    while (tr.cells.length > 1) tr.deleteCell(1);
    const td = tr.insertCell();
    for (const g of goods) {
      const label = make("label", `${g.name} `);
      const input = document.createElement("input");
      input.type = "number"; input.min = "0"; input.max = "19"; input.value = "0";
      input.dataset.good = g.good; input.dataset.side = side;
      label.append(input); td.append(label);
    }
  }
}

function offerText() {
  const part = (side) => [...$("trade").querySelectorAll(`input[data-side=${side}]`)]
    .filter((i) => Number(i.value) > 0).map((i) => `${Number(i.value)} ${i.dataset.good}`).join(" + ");
  return `offer ${part("give")} for ${part("get")}`;
}

function show(s) {
  document.documentElement.lang = s.language;
  text($("heading"), s.heading);
  const w = s.words;
  words = w;
  for (const el of document.querySelectorAll("[data-word]")) text(el, w[el.dataset.word]);
  $("board-svg").innerHTML = s.board;  // the server's own SVG: every text in it is escaped
  for (const el of $("board").querySelectorAll(".option")) {
    el.addEventListener("click", () => {
      if (el.dataset.chosen) answer(el.dataset.chosen); else pick(JSON.parse(el.dataset.answers));
    });
  }
  drawPurchases(s);
  lightBoard();
  const options = $("options");
  options.replaceChildren();
  for (const o of s.pending.options) {
    const b = make("button", o.label);
    b.dataset.answer = o.answer;
    b.addEventListener("click", () => answer(o.answer));
    options.append(b);
  }
  $("options-title").hidden = !s.pending.yours;
  // Every answer a place on the board: the board is where to choose, the list of all
  // moves stays folded (for experts); otherwise it is open.
  const onBoard = new Set([...$("board").querySelectorAll(".option")]
    .flatMap((el) => JSON.parse(el.dataset.answers)));
  const folded = s.pending.options.length > 1 && s.pending.options.every((o) => onBoard.has(o.answer));
  if ($("all-moves").dataset.version !== String(s.version)) $("all-moves").open = !folded;
  $("all-moves").dataset.version = s.version;
  $("all-moves").hidden = !s.pending.yours;
  // A spectator (the plain address) has no hand, no answers and no say over the game.
  for (const id of ["save", "new", "you-title", "hand", "rates", "cards"]) $(id).hidden = s.spectator;
  $("load").parentElement.hidden = s.spectator;
  $("offer").hidden = !s.pending.offers;
  if (s.pending.offers) tradeForm(s.goods);
  text($("details"), s.pending.details || "");
  const dice = $("dice");
  dice.replaceChildren();
  if (s.dice) dice.append(make("span", `${w.dice}: `), die("white", s.dice.white), die("red", s.dice.red), die("event", s.dice.event));
  const b = s.barbarians;
  text($("barbarians"), `${b.name} ${b.at}/${b.track} · ${b.said}`);
  text($("titles"), label(w.titles, s.titles));
  text($("counters"), s.counters);
  const r = s.rules;
  $("rules-text").replaceChildren(
    make("div", `${r.name}${r.description ? ": " + r.description : ""}`),
    make("div", label(w.points_to_win, r.points_to_win)),
    ...r.differences.map((d) => make("div", d)));
  const hand = s.hand.map((h) => h.said).join(", ");
  text($("hand"), hand || "–");
  text($("rates"), s.rates);
  $("cards").replaceChildren(...s.progress.map(cardFace));
  const rows = [["", w.vp, w.cards, w.progress, w.knights, s.tracks.join(" / ")]];
  const table = $("players");
  table.replaceChildren();
  const head = document.createElement("tr");
  for (const h of rows[0]) head.append(make("th", h));
  table.append(head);
  s.players.forEach((p, i) => {
    const tr = document.createElement("tr");
    if (i === s.seat) tr.className = "you";
    const name = make("td", p.name);
    const sw = make("span"); sw.className = "swatch"; sw.style.background = p.screen;
    name.prepend(sw);
    const points = make("td", p.points);
    const parts = make("div", p.breakdown.map((x) => `${x.source} ${x.points}`).join(", "));
    parts.className = "breakdown"; points.append(parts);
    tr.append(name, points, make("td", p.cards), make("td", p.progress),
      make("td", p.knights), make("td", p.levels.join(" / ")));
    table.append(tr);
  });
  const log = $("log");
  if (logSeen !== null && s.language === logSeen.language) {
    const fresh = s.log.slice(overlap(logSeen.lines, s.log));
    if (fresh.length) toast(fresh);
  }
  logSeen = { language: s.language, lines: s.log };
  log.replaceChildren(...s.log.map((line) => make("li", line)));
  log.scrollTop = log.scrollHeight;
  const final = $("final");
  final.hidden = !s.over;
  if (s.over) {
    const lines = Object.entries(s.scores).map(([c, n]) => label(s.players.find((p) => p.colour === c).name, n));
    final.replaceChildren(make("strong", s.final_title), ...lines.map((l) => make("div", l)));
    final.dataset.scores = JSON.stringify(s.scores);
  }
}

function overlap(before, now) {
  // How many of ``now``'s first lines ``before`` already ended with.
  for (let n = Math.min(before.length, now.length); n > 0; n--) {
    if (before.slice(before.length - n).join("\n") === now.slice(0, n).join("\n")) return n;
  }
  return 0;
}

async function refresh(force) {
  const since = force || version === null ? "" : `&since=${version}`;
  const reply = await fetch(`/api/state?seat=${encodeURIComponent(seat)}&lang=${lang}${since}`);
  const data = await reply.json();
  if (!reply.ok) { text($("message"), data.error); return; }
  if (data.board === undefined) return;  // unchanged
  version = data.version;
  if ($("lang").options.length === 0) {
    for (const l of data.languages) { const o = make("option", l); o.value = l; $("lang").append(o); }
  }
  $("lang").value = data.language;
  show(data);
  document.body.dataset.version = data.version;  // for tests and tools that watch the page
}

$("lang").addEventListener("change", () => {
  lang = $("lang").value; localStorage.setItem("ckdsl-lang", lang); refresh(true);
});
$("new").addEventListener("click", () => {
  if (confirm(words.confirm_new || "Start a new game?")) call("/api/new", {});
});
$("save").addEventListener("click", () => { location.href = `/api/save?seat=${encodeURIComponent(seat)}${host ? `&host=${encodeURIComponent(host)}` : ""}`; });
$("load").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (file && confirm(words.confirm_load || "Load this save?")) await call("/api/load", { save: await file.text() });
  e.target.value = "";
});
$("offer").addEventListener("submit", (e) => { e.preventDefault(); answer(offerText()); });

$("card-play").addEventListener("click", () => answer($("card-play").dataset.answer));

// Pan and zoom the board (Panzoom, vendored): the wheel or two fingers zoom, a drag
// pans; a drag never counts as a click on the spot where it ends. Not zoomed, a finger
// moving up or down on the board scrolls the page (a phone's board is most of its width).
const zoomed = $("board-svg");
const panzoom = Panzoom(zoomed, { maxScale: 6, minScale: 1, contain: "outside", step: 0.4, touchAction: "pan-y" });
$("board-area").addEventListener("wheel", (e) => panzoom.zoomWithWheel(e));
$("zoom-in").addEventListener("click", () => panzoom.zoomIn());
$("zoom-out").addEventListener("click", () => panzoom.zoomOut());
$("zoom-fit").addEventListener("click", () => panzoom.reset());
let pressed = null;
$("board-area").addEventListener("pointerdown", (e) => { pressed = [e.clientX, e.clientY]; }, true);
$("board-area").addEventListener("click", (e) => {
  if (pressed && Math.hypot(e.clientX - pressed[0], e.clientY - pressed[1]) > 8) e.stopPropagation();
}, true);
zoomed.addEventListener("panzoomchange", (e) => {
  document.body.dataset.zoom = e.detail.scale.toFixed(2);
  const touch = e.detail.scale > 1.01 ? "none" : "pan-y";  // zoomed: a finger pans the board
  zoomed.style.touchAction = touch; $("board-area").style.touchAction = touch;
});

refresh(true);
setInterval(() => { if (!busy) refresh(false); }, 400);
