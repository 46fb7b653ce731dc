// The public screen in a browser (hardware/web/public.py): each page the table pushes is
// drawn as it comes; between pages the hourglass's sand runs on here, from the remaining
// seconds, the glass's length and whether it runs, so a running glass needs no message.
// Nothing here is secret: the page is what the HDMI screen shows.

const REVEAL_MS = 5000; // as long as the HDMI screen shows a reveal card
const TUNE_MS = 2000;
const RETRY_MS = 1000;
const now = () => (window.tableClock ? window.tableClock() : performance.now());
const $ = (id) => document.getElementById(id);
const body = document.body;

let page = null; // the last page, and when it came (the clock above, in ms)
let pageAt = 0;
let messages = 0;
let animating = false;
const timers = {};

function clockText(seconds) {
  // Rounded up, "0:00" only once the sand has run out: as the seat screens show it.
  const whole = Math.max(0, Math.ceil(seconds - 1e-9));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function sandLeft() {
  const sand = page.sand;
  if (!sand.running) return sand.remaining;
  return Math.max(0, sand.remaining - (now() - pageAt) / 1000);
}

function show(element, text) {
  element.hidden = !text;
  element.textContent = text || "";
}

function drawPage() {
  $("title").textContent = page.title;
  document.title = page.title || "Table";
  body.classList.toggle("highlight", page.highlight);
  show($("banner"), page.banner);
  const lines = page.sand && page.sand.shown === "none"
    ? [page.sand.running ? "Hourglass running" : "Hourglass stopped", ...page.lines]
    : page.lines;
  $("lines").replaceChildren(...lines.slice(0, 5).map((line) => {
    const row = document.createElement("p");
    row.textContent = line;
    return row;
  }));
  // Which phone seats are free, never their links: each holds its seat's key, and this page
  // is readable by any device on the network (the HDMI screen shows the links' QR codes).
  show($("joinable"), page.joinable.length ? `Free phone seats: ${page.joinable.join(" ")}` : "");
  drawCode(page.code);
  $("glass").hidden = !page.sand;
  drawSand();
}

function drawSand() {
  // The sand and the big clock as of now; while it runs, again at the next animation frame.
  const sand = page.sand;
  let big = page.big;
  if (sand) {
    const left = sandLeft();
    if (sand.shown === "exact") big = clockText(left);
    const share = sand.shown === "none" || !sand.length ? null : left / sand.length;
    drawGlass(share, sand.running);
    body.dataset.sand = share === null ? "" : share.toFixed(3);
  }
  if (!page.banner) show($("big"), big);
  body.dataset.big = big || "";
  const moving = sand && sand.running && sandLeft() > 0;
  if (moving && !animating) {
    animating = true;
    requestAnimationFrame(() => { animating = false; drawSand(); });
  }
}

function drawGlass(share, running) {
  // Two bulbs: the top one holds ``share`` of the sand, the bottom one the rest.
  const canvas = $("glass");
  const g = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height, half = h / 2;
  g.clearRect(0, 0, w, h);
  g.strokeStyle = "#ebebf0";
  g.lineWidth = 4;
  g.beginPath();
  g.moveTo(6, 4); g.lineTo(w - 6, 4); g.lineTo(w / 2 + 4, half); g.lineTo(w - 6, h - 4);
  g.lineTo(6, h - 4); g.lineTo(w / 2 - 4, half); g.closePath();
  g.stroke();
  if (share === null) return;
  g.fillStyle = "#f5c446";
  const top = (half - 8) * Math.min(1, Math.max(0, share));
  const bottom = (half - 8) - top;
  triangle(g, w, half - top, half, top / (half - 8));
  g.fillRect(8 + (w - 16) * (1 - bottom / (half - 8)) / 2, h - 6 - bottom,
             (w - 16) * bottom / (half - 8), bottom);
  if (running && share > 0) g.fillRect(w / 2 - 1, half, 2, h - half - 6 - bottom);
}

function triangle(g, w, y, apex, spread) {
  // The top bulb's sand: a triangle whose tip is at the neck.
  g.beginPath();
  g.moveTo(w / 2 - (w / 2 - 8) * spread, y);
  g.lineTo(w / 2 + (w / 2 - 8) * spread, y);
  g.lineTo(w / 2, apex);
  g.closePath();
  g.fill();
}

function drawCode(code) {
  $("code").hidden = !code;
  if (!code) return;
  $("code-label").textContent = code.label;
  $("code-text").textContent = code.text.match(/.{1,16}/g).join(" ");
  const canvas = $("qr");
  const size = code.qr.length;
  canvas.width = canvas.height = size;
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, size, size);
  g.fillStyle = "#000";
  code.qr.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] === "1") g.fillRect(x, y, 1, 1);
  });
}

function flash(name, box, words, text, ms) {
  // A reveal card or a tune's name, shown for a few seconds.
  words.textContent = text;
  box.hidden = false;
  clearTimeout(timers[name]);
  timers[name] = setTimeout(() => { box.hidden = true; }, ms);
}

function take(message) {
  messages += 1;
  body.dataset.messages = String(messages); // the page's state, read by tests
  if (message.kind === "page") {
    page = message;
    pageAt = now();
    drawPage();
  } else if (message.kind === "reveal") {
    flash("reveal", $("reveal"), $("reveal-text"), message.text, REVEAL_MS);
  } else if (message.kind === "cue") {
    flash("tune", $("tune"), $("tune"), `♪ ${message.tune}`, TUNE_MS);
  }
}

function connect() {
  const socket = new WebSocket(`ws://${location.host}/ws/table`);
  socket.binaryType = "arraybuffer";
  socket.onopen = () => { body.dataset.state = "showing"; };
  socket.onmessage = (event) => take(JSON.parse(new TextDecoder().decode(event.data)));
  socket.onclose = () => {
    body.dataset.state = "offline";
    setTimeout(connect, RETRY_MS); // the table restarted or the Wi-Fi dropped: try again
  };
}

connect();
