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
let goodsById = {};  // each good's id -> its name and badge (state.goods)
let state = null;  // the last state shown

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
  // the seats still to agree (a new game, a save loaded), by their names in this language
  const named = (c) => state?.players.find((p) => p.colour === c)?.name || c;
  const waiting = data.waiting ? `… ${data.waiting.map(named).join(", ")}` : "";
  text($("message"), reply.ok ? waiting : data.error).className = "";
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

const SVG = "http://www.w3.org/2000/svg";
function svgElement(tag, attributes) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  return el;
}

function picture(kind, colour, label) {
  // One of the page's own pictures (#pictures), in ``colour``; ``label`` written on it.
  const svg = svgElement("svg", { viewBox: "0 0 40 40" });
  svg.classList.add("piece-icon");
  if (colour) svg.style.color = colour;
  svg.append(svgElement("use", { href: `#${kind}` }));
  if (label) {
    const t = svgElement("text", { x: 20, y: 30, "text-anchor": "middle", "font-size": 13,
      "font-weight": "bold", fill: "#212121" });
    t.textContent = label;
    svg.append(t);
  }
  return svg;
}

function goodPicture(good) {
  // A good's picture: the page's own for the rule book's goods; for a good it has none
  // of (a variant's own), the badge the server made for it: its initial in the table's
  // language on a colour of its own (the same for that good at every table).
  const svg = svgElement("svg", { viewBox: "0 0 20 20", "data-good": good });
  svg.classList.add("good-icon");
  const name = goodsById[good]?.name || good;
  svg.append(svgElement("title", {}));
  svg.firstChild.textContent = name;
  if (document.getElementById(`g-${good}`)) {
    svg.append(svgElement("use", { href: `#g-${good}` }));
    return svg;
  }
  const badge = goodsById[good]?.badge || { initial: name.slice(0, 1).toUpperCase(), colour: "#607d8b" };
  svg.classList.add("badge");
  svg.append(svgElement("circle", { cx: 10, cy: 10, r: 8.6, fill: badge.colour, stroke: "#263238", "stroke-width": 1.2 }));
  const t = svgElement("text", { x: 10, y: 14.2, "text-anchor": "middle", "font-size": 11.5,
    "font-weight": "bold", fill: "#fff" });
  t.textContent = badge.initial;
  svg.append(t);
  return svg;
}

function goodChip(c) {
  // How many of a good, as its picture and the number; its name in a tooltip and read out.
  const chip = make("span"); chip.className = "good"; chip.dataset.good = c.good;
  chip.title = `${c.count} × ${c.name}`;
  chip.setAttribute("aria-label", chip.title);
  chip.append(make("b", c.count), goodPicture(c.good));
  return chip;
}

function costRow(cost) {
  // A price as goods: a picture of each with how many.
  const row = make("span"); row.className = "cost";
  row.append(...cost.map(goodChip));
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
  // A place on the board several answers name: they are the answers to choose from now,
  // shown where the moves of the moment are (and marked in the drawer).
  if (answers.length === 1) { answer(answers[0]); return; }
  const found = state.pending.options.filter((o) => answers.includes(o.answer));
  drawQuick(found, true);
  for (const b of $("options").querySelectorAll("button")) {
    b.classList.toggle("picked", answers.includes(b.dataset.answer));
  }
  text($("message"), words.pick_one || "").className = "hint";
}

function answerButton(o) {
  // An answer as a button: its label in the table's language, the good it is about drawn.
  const b = make("button", o.label);
  b.dataset.answer = o.answer;
  if (o.good) b.prepend(goodPicture(o.good));
  b.addEventListener("click", () => answer(o.answer));
  return b;
}

function drawQuick(options, picked) {
  // The moves of the moment, as buttons of their own: rolling, ending a turn, answering an
  // offer, the goods of a discard, a card's choices; or the answers a board spot shares.
  const quick = $("quick");
  quick.replaceChildren(...options.map((o) => {
    const b = answerButton(o);
    b.classList.toggle("picked", Boolean(picked));
    return b;
  }));
  quick.hidden = !options.length;
}

const QUICK_MAX = 12;  // more answers than this off the board: the drawer is opened instead
const GROUPS = ["build", "knights", "trade", "cards", "end", "other"];

function quickOptions(s, onBoard) {
  // A turn's (or a phase's) moves are made on the board, the build bar, the cards and the
  // trade dialog: only its end is a button. Another decision's answers that are not
  // places on the board are buttons, when they are few enough to be read at a glance.
  const options = s.pending.options;
  if (["main", "phase"].includes(s.pending.kind)) return options.filter((o) => o.group === "end");
  if (options.length <= 3) return options;  // the city to lose: on the board and a button
  const off = options.filter((o) => !onBoard.has(o.answer));
  return off.length <= QUICK_MAX ? off : [];
}

function drawMoves(s, quick, onBoard) {
  // The "all moves" drawer: every legal answer in groups (build, knights, trade, cards,
  // end of turn, other) with their counts; folded unless some answer can be given
  // nowhere else, and scrolled within its own height (a main turn has dozens).
  const options = s.pending.options;
  const box = $("options");
  box.replaceChildren();
  const groups = GROUPS.map((g) => [g, options.filter((o) => o.group === g)]).filter(([, list]) => list.length);
  for (const [g, list] of groups) {
    const section = document.createElement("section");
    section.className = "group"; section.dataset.group = g;
    const head = make("h3", `${words[`group_${g}`] || g} (${list.length})`);
    head.hidden = groups.length < 2;
    section.append(head, ...list.map(answerButton));
    box.append(section);
  }
  text($("moves-count"), options.length ? `(${options.length})` : "");
  const elsewhere = new Set([...onBoard, ...quick.map((o) => o.answer)]);
  const main = ["main", "phase"].includes(s.pending.kind);
  const stranded = !main && options.some((o) => !elsewhere.has(o.answer));
  if ($("all-moves").dataset.version !== String(s.version)) $("all-moves").open = stranded;
  $("all-moves").dataset.version = s.version;
  // nothing more in it than the buttons above: no drawer
  $("all-moves").hidden = !s.pending.yours || quick.length === options.length;
}

// Where a die's pips sit on a face of 40 (columns and rows at 11, 20, 29).
const PIPS = { 1: ["22"], 2: ["13", "31"], 3: ["13", "22", "31"], 4: ["11", "13", "31", "33"],
  5: ["11", "13", "22", "31", "33"], 6: ["11", "13", "21", "23", "31", "33"] };

function die(cls, value, said, colour, name) {
  // A die drawn: the white and red ones with their pips (a number a variant's die has no
  // face of pips for is written), the event die as its face's picture (a ship, or a gate
  // in its track's colour); its words in a tooltip and for a screen reader.
  const svg = svgElement("svg", { viewBox: "0 0 40 40", role: "img", "aria-label": said });
  svg.classList.add("die", cls);
  svg.dataset.value = value;
  svg.append(svgElement("title", {}));
  svg.firstChild.textContent = said;
  svg.append(svgElement("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 7, class: "face" }));
  const pips = cls === "event" ? null : PIPS[value];
  if (pips) {
    for (const [c, r] of pips) svg.append(svgElement("circle", { cx: 2 + 9 * c, cy: 2 + 9 * r, r: 3.8, class: "pip" }));
  } else if (cls === "event" && ["ship", "gate"].includes(value)) {
    const face = svgElement("use", { href: `#e-${value}` });
    if (colour) face.style.color = colour;
    svg.append(face);
  } else {
    const t = svgElement("text", { x: 20, y: 27, "text-anchor": "middle", "font-size": 20, "font-weight": "bold" });
    t.textContent = cls === "event" ? (name || "?").slice(0, 1).toUpperCase() : value;
    svg.append(t);
  }
  return svg;
}

function drawDice(s) {
  // The roll: the white die, the red die (red: it decides who draws progress cards) and
  // the event die; nothing before the first roll.
  const dice = $("dice");
  dice.replaceChildren();
  dice.hidden = !s.dice;
  if (!s.dice) return;
  const d = s.dice;
  dice.setAttribute("aria-label", s.words.dice);
  dice.append(die("white", d.white, d.said.white), die("red", d.red, d.said.red),
    die("event", d.kind, d.said.event, d.colour, d.event));
  dice.lastChild.dataset.face = d.face;
}

const toastQueue = [];  // the events still to be told
let toasting = false;

function toast(lines) {
  // Every event since the last look, told one after another in a short toast: a bot's
  // turn is read, not missed; a long backlog is told faster, and few stay on screen.
  toastQueue.push(...lines);
  if (!toasting) nextToast();
}

function nextToast() {
  const line = toastQueue.shift();
  toasting = line !== undefined;
  if (!toasting) return;
  const t = make("div", line); t.className = "toast"; $("toasts").append(t);
  document.body.dataset.toasts = Number(document.body.dataset.toasts || 0) + 1;
  while ($("toasts").children.length > 5) $("toasts").firstChild.remove();
  setTimeout(() => { t.style.opacity = "0"; setTimeout(() => t.remove(), 700); }, 3500);
  setTimeout(nextToast, toastQueue.length > 10 ? 120 : 450);
}

// The attacks already shown in a note (by their event's index): each is told once, as
// it comes; one older than this turn when the page opens is only in the facts bar.
let attackShown = null;

function drawAttack(s) {
  // The last barbarian attack as it was fought (its strength and defence then, won or
  // lost, the Defender, the cities lost), not the facts of now (after it, every knight is
  // inactive): a line in the facts bar, and a note that stays until it is closed.
  const a = s.attack;
  $("attack").hidden = !a;
  if (!a) { $("attack-note").hidden = true; return; }
  text($("attack"), a.said);
  $("attack").dataset.won = a.won;
  text($("attack-heading"), a.heading);
  text($("attack-said"), a.said);
  $("attack-lines").replaceChildren(...a.lines.map((line) => make("li", line)));
  if (attackShown === null && a.turn < s.turn) attackShown = a.id;  // old news at opening
  if (attackShown !== a.id) { attackShown = a.id; $("attack-note").hidden = false; }
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
  // The trade dialog: each good's picture with how many to give and to get; sent to the
  // other players as the answer "offer 1 brick for 1 ore", or to the bank when it is one
  // of the seat's trades with the bank (at its rate, for one good).
  const trade = $("trade");
  if (trade.dataset.goods === JSON.stringify(goods)) return;
  trade.dataset.goods = JSON.stringify(goods);
  for (const [row, side] of [[0, "give"], [1, "get"]]) {
    const tr = trade.rows[row];
    while (tr.cells.length > 1) tr.deleteCell(1);
    const td = tr.insertCell();
    for (const g of goods) {
      const label = make("label"); label.className = "trade-good"; label.title = g.name;
      const input = document.createElement("input");
      input.type = "number"; input.min = "0"; input.max = "19"; input.value = "0";
      input.dataset.good = g.good; input.dataset.side = side;
      input.setAttribute("aria-label", `${trade.rows[row].cells[0].textContent}: ${g.name}`);
      input.addEventListener("input", bankMatch);
      label.append(goodPicture(g.good), input); td.append(label);
    }
  }
}

function tradeSide(side) {
  return [...$("trade").querySelectorAll(`input[data-side=${side}]`)]
    .filter((i) => Number(i.value) > 0).map((i) => [i.dataset.good, Number(i.value)]);
}

function offerText() {
  const part = (side) => tradeSide(side).map(([g, n]) => `${n} ${g}`).join(" + ");
  return `offer ${part("give")} for ${part("get")}`;
}

function bankMatch() {
  // The trade with the bank the dialog's goods make (rate of one good for one of another),
  // if the seat may make it now: the bank button is lit for it.
  const give = tradeSide("give"), get = tradeSide("get");
  const found = give.length === 1 && get.length === 1 && get[0][1] === 1 && state
    ? state.pending.bank.find((t) => t.give === give[0][0] && t.count === give[0][1] && t.get === get[0][0])
    : undefined;
  $("bank-send").disabled = !found;
  $("bank-send").dataset.answer = found ? found.answer : "";
  return found;
}

function offerShown(offer) {
  // The offer a trade answer is about, its goods drawn: "Red offers [2 wool] for [1 ore]".
  const box = make("div"); box.className = "offer-shown";
  const parts = offer.said.split(/(\{give\}|\{get\})/);
  for (const part of parts) {
    if (part === "{give}" || part === "{get}") {
      const goods = make("span"); goods.className = "cost";
      goods.append(...offer[part.slice(1, -1)].map(goodChip));
      box.append(goods);
    } else if (part) box.append(document.createTextNode(part));
  }
  return box;
}

function show(s) {
  state = s;
  goodsById = Object.fromEntries(s.goods.map((g) => [g.good, g]));
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
  zoomToSpots(s);
  $("options-title").hidden = !s.pending.yours;
  const onBoard = new Set([...$("board").querySelectorAll(".option")]
    .flatMap((el) => JSON.parse(el.dataset.answers)));
  const quick = quickOptions(s, onBoard);
  drawQuick(quick, false);
  drawMoves(s, quick, onBoard);
  // A spectator (the plain address) has no hand, no answers and no say over the game.
  for (const id of ["save", "new", "you-title", "hand", "rates", "cards"]) $(id).hidden = s.spectator;
  $("load").parentElement.hidden = s.spectator;
  $("offer").hidden = !s.pending.offers;
  if (s.pending.offers) { tradeForm(s.goods); bankMatch(); }
  // what the decision is about: the offer, the count to discard; or, when every answer is
  // a place on the board, that the board is where to answer
  const boardOnly = s.pending.options.length > 0 && s.pending.options.every((o) => onBoard.has(o.answer));
  if (s.pending.offer) $("details").replaceChildren(offerShown(s.pending.offer));
  else text($("details"), s.pending.details || (boardOnly ? words.pick_spot : ""));
  drawDice(s);
  const b = s.barbarians;
  text($("barbarians"), `${b.name} ${b.at}/${b.track} · ${b.said}`);
  drawAttack(s);
  text($("titles"), label(w.titles, s.titles));
  text($("counters"), s.counters);
  const r = s.rules;
  $("rules-text").replaceChildren(
    make("div", `${r.name}${r.description ? ": " + r.description : ""}`),
    make("div", label(w.points_to_win, r.points_to_win)),
    ...r.differences.map((d) => make("div", d)));
  // the hand as goods drawn with their counts (its words for a screen reader)
  if (s.hand.length) {
    $("hand").replaceChildren(...s.hand.map((h) => {
      const chip = goodChip(h); chip.classList.add("held");
      chip.append(make("span", h.name));
      chip.setAttribute("aria-label", h.said);
      return chip;
    }));
  } else text($("hand"), "–");
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
      make("td", p.knights), make("td", p.levels.join("/")));
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
    const winner = s.winner_said ? [make("div", s.winner_said)] : [];
    winner.forEach((w) => { w.className = "winner"; });
    final.replaceChildren(make("strong", s.final_title), ...winner, ...lines.map((l) => make("div", l)));
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
$("bank-send").addEventListener("click", () => { const t = bankMatch(); if (t) answer(t.answer); });

$("card-play").addEventListener("click", () => answer($("card-play").dataset.answer));
$("attack-close").addEventListener("click", () => { $("attack-note").hidden = true; });
$("attack").addEventListener("click", () => { $("attack-note").hidden = !$("attack-note").hidden; });

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

const PHONE = 700;  // px: a window this narrow is a phone's (the page's own layout too)
const TAP = 28;  // px: a spot smaller than this on screen is zoomed to it at set-up
let zoomedFor = null;  // the version whose set-up decision the board was zoomed for

function zoomToSpots(s) {
  // At set-up on a small screen (a phone: 54 spots a few pixels wide), the board zooms by
  // itself until a spot is a finger's size, centred on the legal spots (a road's two or
  // three, or the board's middle for a settlement); once per decision, and "fit" undoes it.
  if (!s.pending.yours || !s.pending.kind.startsWith("setup") || zoomedFor === s.version) return;
  if (innerWidth > PHONE) return;
  zoomedFor = s.version;
  const spots = [...$("board").querySelectorAll(".option")].map((el) => el.getBoundingClientRect());
  if (!spots.length) return;
  // a spot's size: a circle's width, a road's length (an upright road has no width)
  const size = Math.min(...spots.map((r) => Math.max(r.width, r.height)));
  const scale = panzoom.getScale();
  if (size >= TAP) return;
  const left = Math.min(...spots.map((r) => r.left)), right = Math.max(...spots.map((r) => r.right));
  const top = Math.min(...spots.map((r) => r.top)), bottom = Math.max(...spots.map((r) => r.bottom));
  const to = Math.min(6, (scale * TAP) / size);
  panzoom.zoomToPoint(to, { clientX: (left + right) / 2, clientY: (top + bottom) / 2 }, { animate: false });
}

refresh(true);
setInterval(() => { if (!busy) refresh(false); }, 400);
