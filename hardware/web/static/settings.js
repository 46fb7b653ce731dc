// The table's page (hardware/web/table_page.py): the seats for anyone; the rest once the code
// a seat showed (asked for on its menu) was typed in. The session's cookie is HttpOnly; its
// CSRF token lives in this page's memory only and goes back in a header with every change.
const api = "/settings/api/";
let csrf = null;

function say(id, text, ok) {
  const element = document.getElementById(id);
  element.textContent = text;
  element.dataset.ok = String(ok);
}

function items(id, rows, fill) {
  const list = document.getElementById(id);
  list.replaceChildren(...rows.map((row) => {
    const item = document.createElement("li");
    fill(item, row);
    return item;
  }));
}

async function showSeats() {
  const response = await fetch(api + "seats");
  items("seats", await response.json(),
        (item, seat) => { item.textContent = `Seat ${seat.number}: ${seat.kind}, ${seat.link}`; });
}

async function post(path, body) {
  const headers = {"Content-Type": "text/plain; charset=utf-8"};
  if (csrf !== null) headers["X-Table-Token"] = csrf;
  return fetch(api + path, {method: "POST", headers, body});
}

async function enterCode() {
  const response = await post("unlock", document.getElementById("code").value);
  if (!response.ok) {
    say("unlock-said", await response.text(), false);
    return;
  }
  csrf = (await response.json()).csrf;
  await open();
}

async function open() {
  document.body.dataset.access = "open";
  const [settings, doctor, games, log] = await Promise.all(
    ["settings", "doctor", "games", "log"].map((name) => fetch(api + name).then((r) => r.json())));
  document.getElementById("settings").value = settings;
  items("doctor", doctor, (item, finding) => {
    item.className = finding.level;
    item.textContent = `${finding.level} ${finding.where}: ${finding.says}` +
                       (finding.fix ? ` (fix: ${finding.fix})` : "");
  });
  items("games", games, (item, game) => {
    const link = document.createElement("a");
    link.href = `${api}games/${game.number}/audit`;
    link.download = `game-${game.number}-audit.txt`;
    link.textContent = "audit";
    link.dataset.game = String(game.number);
    item.append(`Game ${game.number}: ${game.name}, seats ${game.seats} `, link);
  });
  document.getElementById("log").textContent = log.join("\n");
  document.body.dataset.loaded = "yes";
}

async function save() {
  const response = await post("settings", document.getElementById("settings").value);
  if (response.status === 403) {
    say("save-said", await response.text(), false);
    return;
  }
  const answer = await response.json();
  say("save-said", answer.saved ? "Saved: the table restarts with it." : answer.message,
      answer.saved);
}

async function resume() {
  const response = await fetch(api + "session");  // a session this browser already has
  if (response.ok) {
    csrf = (await response.json()).csrf;
    await open();
  }
}

document.getElementById("enter").addEventListener("click", enterCode);
document.getElementById("save").addEventListener("click", save);
showSeats().then(resume).then(() => { document.body.dataset.ready = "yes"; });
