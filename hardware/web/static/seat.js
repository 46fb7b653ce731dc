// One phone seat: the seat's screen drawn pixel for pixel, ACT and PEEK, the seat's vibration
// and its tunes.
// Every message both ways is sealed with the seat's key (ChaCha20-Poly1305), which this page
// reads from its link's #fragment: the browser never sends a fragment to the server.
// The messages are hardware/web/wire.py's; what is protected is in docs/phones.md.
import { chacha20poly1305 } from "./vendor/noble-ciphers/chacha.js";

const FRAME = 1, VIBRATE = 2, WELCOME = 3, ACK = 4, TUNE = 5; // to the phone
const TUNE_STEPS = 16;
const HELLO = 1, EDGE = 2; // from the phone
const BUTTONS = { act: 0, peek: 1 };
const NOT_THIS_SEAT = 4401, TAKEN = 4409, REPLACED = 4000, FREED = 4001;
const WIDTH = 128, HEIGHT = 64;

const seat = Number(location.pathname.split("/").pop());
const key = fromBase64Url(location.hash.slice(1));
const text = new TextEncoder();
const toTable = text.encode(`table-companion seat ${seat} to-table`);
const toPhone = text.encode(`table-companion seat ${seat} to-phone`);
// The phone's clock, in ms; a test may stand a fake one in, as the table's tests do.
const now = () => (window.seatClock ? window.seatClock() : performance.now());

const canvas = document.getElementById("screen");
const paint = canvas.getContext("2d");
const pixels = paint.createImageData(WIDTH, HEIGHT);
const status = document.getElementById("status");

let socket = null;
let welcomed = false; // the table told us its last press: our numbering is known
let nextPress = 1;
let outbox = []; // edges not yet acknowledged: [number, sealed-later plain]
let lastFrame = 0;
let retryIn = 250;
const held = { act: false, peek: false };
let audio = null; // made at the first press: a browser lets a page sound only after a gesture

document.title = `Seat ${seat}`;

function fromBase64Url(value) {
  try {
    const plain = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(plain, (c) => c.charCodeAt(0));
    return bytes.length === 32 ? bytes : null;
  } catch {
    return null;
  }
}

function device() {
  let id = localStorage.getItem("table-companion-device");
  if (!id || !/^[0-9a-f]{32}$/.test(id)) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(16)),
      (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("table-companion-device", id);
  }
  return Uint8Array.from(id.match(/../g), (h) => parseInt(h, 16));
}

function seal(plain) {
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const box = chacha20poly1305(key, nonce, toTable).encrypt(plain);
  const out = new Uint8Array(12 + box.length);
  out.set(nonce);
  out.set(box, 12);
  return out;
}

function unseal(sealed) {
  if (sealed.length < 28) return null;
  try {
    return chacha20poly1305(key, sealed.subarray(0, 12), toPhone).decrypt(sealed.subarray(12));
  } catch {
    return null; // not sealed with our key: not for us
  }
}

function setState(state, words) {
  document.body.dataset.state = state;
  status.textContent = words;
}

function refuse(title, words) {
  setState("refused", title);
  document.getElementById("seat").hidden = true;
  document.getElementById("refused").hidden = false;
  document.getElementById("refused-title").textContent = title;
  document.getElementById("refused-text").textContent = words;
}

function hello() {
  const plain = new Uint8Array(21);
  plain[0] = HELLO;
  plain.set(device(), 1);
  new DataView(plain.buffer).setUint32(17, Math.floor(now()) >>> 0);
  return plain;
}

function edge(number, button, pressed, ms) {
  const plain = new Uint8Array(11);
  const view = new DataView(plain.buffer);
  plain[0] = EDGE;
  view.setUint32(1, number);
  plain[5] = BUTTONS[button];
  plain[6] = pressed ? 1 : 0;
  view.setUint32(7, ms >>> 0);
  return plain;
}

function send(plain) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(seal(plain));
}

// One socket at a time: the retry and the network's coming back each connect only if no
// socket is open or opening, and a socket this page has left behind is not listened to (a
// second one would seat this phone again, and the table would close the first as REPLACED).
function connect() {
  const mine = new WebSocket(`ws://${location.host}/ws/seat/${seat}`);
  socket = mine;
  mine.binaryType = "arraybuffer";
  mine.onopen = () => mine.send(seal(hello()));
  mine.onmessage = (event) => {
    if (socket !== mine) return;
    const plain = unseal(new Uint8Array(event.data));
    if (plain) receive(plain);
  };
  mine.onclose = (event) => {
    if (socket !== mine) return;
    socket = null;
    if (event.code === TAKEN) {
      refuse("This seat is taken",
        "Another phone holds this seat. If this phone should have it, ask a player at the " +
        "table to free the seat, then open the link again.");
    } else if (event.code === NOT_THIS_SEAT) {
      refuse("This link is old",
        "The table makes new links each time it starts or reloads its settings, so this " +
        "one no longer opens a seat. Ask the table for your seat's new link.");
    } else if (event.code === FREED) {
      refuse("Seat freed",
        "A player at the table freed this seat for another phone. To play here, ask the " +
        "table for a seat's link.");
    } else if (event.code === REPLACED) {
      refuse("Seat opened elsewhere", "This seat is open in another tab on this phone.");
    } else {
      setState("offline", "Offline: reconnecting...");
      setTimeout(reconnect, retryIn);
      retryIn = Math.min(retryIn * 2, 4000);
    }
  };
}

function reconnect() {
  if (!socket) connect();
}

function receive(plain) {
  const view = new DataView(plain.buffer, plain.byteOffset, plain.byteLength);
  if (plain[0] === WELCOME && plain.length === 6) {
    const last = view.getUint32(1);
    outbox = outbox.filter(([number]) => number > last);
    nextPress = Math.max(nextPress, last + 1);
    welcomed = true;
    retryIn = 250;
    setState("playing", "");
    for (const [, message] of outbox) send(message); // what the table missed, in order
  } else if (plain[0] === ACK && plain.length === 5) {
    const number = view.getUint32(1);
    outbox = outbox.filter(([n]) => n > number);
    unacked();
  } else if (plain[0] === FRAME && plain.length === 6 + WIDTH * HEIGHT / 8) {
    const number = view.getUint32(1);
    if (number <= lastFrame) return; // an old frame played back: never shown
    lastFrame = number;
    draw(plain.subarray(6), plain[5] === 1);
  } else if (plain[0] === TUNE && plain.length === 3 + 4 * TUNE_STEPS) {
    const steps = [];
    for (let i = 0; i < Math.min(plain[2], TUNE_STEPS); i++) {
      steps.push([view.getUint16(3 + 4 * i), view.getUint16(5 + 4 * i)]);
    }
    play(steps, plain[1] / 255);
  } else if (plain[0] === VIBRATE && plain.length === 6 && navigator.vibrate) {
    const on = view.getUint16(1), off = view.getUint16(3), pattern = [];
    for (let i = 0; i < plain[5]; i++) pattern.push(on, off);
    navigator.vibrate(pattern);
  }
}

function draw(rows, lit) {
  const data = pixels.data;
  for (let i = 0; i < WIDTH * HEIGHT; i++) {
    const on = lit && (rows[i >> 3] & (0x80 >> (i & 7))) !== 0;
    data[i * 4] = on ? 0xe8 : 0;
    data[i * 4 + 1] = on ? 0xf4 : 0;
    data[i * 4 + 2] = on ? 0xff : 0;
    data[i * 4 + 3] = 0xff;
  }
  paint.putImageData(pixels, 0, 0);
  let digest = 0x811c9dc5; // FNV-1a of what is shown: the page's state, read by tests
  for (const byte of lit ? rows : new Uint8Array(rows.length)) {
    digest = Math.imul(digest ^ byte, 0x01000193) >>> 0;
  }
  document.body.dataset.frame = String(lastFrame);
  document.body.dataset.digest = digest.toString(16).padStart(8, "0");
}

function unlockAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
  if (audio && audio.state === "suspended") audio.resume();
}

// A tune as a pod's piezo plays it: square-wave notes, 0 Hz a rest. Before the first press the
// browser keeps the page silent, so a tune then is not heard (the table's buzzer still is).
function play(steps, level) {
  if (!audio || audio.state !== "running") return;
  const gain = audio.createGain();
  gain.gain.value = 0.25 * level;
  gain.connect(audio.destination);
  let at = audio.currentTime;
  for (const [hz, ms] of steps) {
    if (hz > 0) {
      const note = audio.createOscillator();
      note.type = "square";
      note.frequency.value = hz;
      note.connect(gain);
      note.start(at);
      note.stop(at + ms / 1000);
    }
    at += ms / 1000;
  }
  // What was played, the page's state read by tests: how many tunes, and the last one's steps.
  document.body.dataset.tunes = String(Number(document.body.dataset.tunes || 0) + 1);
  document.body.dataset.tune = steps.map(([hz, ms]) => `${hz}:${ms}`).join(" ");
}

function unacked() {
  document.body.dataset.unacked = String(outbox.length); // the page's state, read by tests
}

function press(button, pressed) {
  unlockAudio();
  if (!welcomed || held[button] === pressed) return;
  held[button] = pressed;
  document.getElementById(button).classList.toggle("down", pressed);
  const message = edge(nextPress, button, pressed, Math.floor(now()));
  outbox.push([nextPress, message]);
  nextPress += 1;
  unacked();
  send(message); // offline: kept in the outbox, sent when the seat is back
}

for (const button of ["act", "peek"]) {
  const element = document.getElementById(button);
  element.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    element.setPointerCapture(event.pointerId);
    press(button, true);
  });
  for (const end of ["pointerup", "pointercancel", "lostpointercapture"]) {
    element.addEventListener(end, () => press(button, false));
  }
  element.addEventListener("contextmenu", (event) => event.preventDefault());
}

const KEYS = { a: "act", Enter: "act", p: "peek", " ": "peek" };
for (const [type, pressed] of [["keydown", true], ["keyup", false]]) {
  document.addEventListener(type, (event) => {
    const button = KEYS[event.key];
    if (!button) return;
    event.preventDefault();
    if (!event.repeat) press(button, pressed);
  });
}

if (key === null) {
  refuse("No seat in this link",
    "This address has no seat's key: open the whole link the table shows, or scan its code.");
} else {
  addEventListener("online", reconnect);
  connect();
}
