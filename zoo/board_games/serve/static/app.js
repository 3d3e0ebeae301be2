// The page of `lzero serve`: it shows what the server says and sends what is clicked or typed.
// The server (the env) checks every move; nothing here decides what is legal.

const $ = (id) => document.getElementById(id);
let games = [];       // GET /api/games
let state = null;     // the game's state, as the server last gave it
let polling = null;   // timer while the opponent thinks
let analysisFor = -1; // version the analysis panel shows

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error ? data.error.message : response.statusText);
  return data;
}

function say(text) { $("message").textContent = text || ""; }

function moveText(action, style, height, width) {
  if (style !== "column" && action === height * width) return "pass";  // Othello's pass
  if (style !== "coordinate" && style !== "grid") return String(action + 1);
  const row = Math.floor(action / width), col = action % width;
  // coordinate (Gomoku): rows counted from the bottom; grid (Othello): from the top
  return "abcdefghijklmnopqrstuvwxyz"[col] + String(style === "grid" ? row + 1 : height - row);
}

function currentGame() { return games.find((g) => g.name === $("game").value); }

function fillOpponents() {
  const game = currentGame();
  const select = $("opponent");
  const previous = select.value;
  select.replaceChildren();
  for (const o of game.opponents) {
    const option = new Option(o.label, o.id);
    if (o.unavailable) { option.disabled = true; option.title = o.unavailable; }
    select.add(option);
  }
  if ([...select.options].some((o) => o.value === previous && !o.disabled)) select.value = previous;
  else select.value = game.opponents.some((o) => o.id === "rule") ? "rule" : game.opponents[0].id;
  $("size-field").hidden = game.board_size === null;
  if (game.board_size !== null && !$("board-size").value) $("board-size").value = game.board_size;
  fillSimulations();
}

function fillSimulations() {
  const o = currentGame().opponents.find((x) => x.id === $("opponent").value);
  const takes = o && o.max_simulations !== null;
  $("sims-field").hidden = !takes;
  $("colour-field").hidden = o && o.id === "human";
  if (takes) {
    const input = $("simulations");
    input.min = o.min_simulations; input.max = o.max_simulations;
    input.value = o.simulations === null ? "" : o.simulations;
    input.placeholder = o.simulations === null ? "checkpoint's" : "";
  }
}

async function newGame(event) {
  if (event) event.preventDefault();
  const game = currentGame();
  const body = { game: game.name, opponent: $("opponent").value, colour: $("colour").value };
  busy(+1);
  const sims = $("simulations").value;
  if (!$("sims-field").hidden && sims !== "") body.simulations = Number(sims);
  if (game.board_size !== null && Number($("board-size").value) !== game.board_size) {
    body.board_size = Number($("board-size").value);
  }
  try {
    show(await api("POST", "/api/sessions", body));
    say("");
  } catch (err) { say(err.message); }
  finally { busy(-1); }
}

async function send(path, body) {
  if (!state) return;
  busy(+1);
  try { show(await api("POST", `/api/sessions/${state.id}/${path}`, body)); say(""); }
  catch (err) { say(err.message); }
  finally { busy(-1); }
}

// Requests in flight, and whether the opponent thinks, as data on <body> (tests wait on it).
let inFlight = 0;
function busy(delta) { inFlight += delta; document.body.dataset.busy = inFlight ? "1" : "0"; }

function show(next) {
  state = next;
  drawBoard();
  drawStatus();
  $("moves").replaceChildren(...state.moves.map((m, i) => {
    const li = document.createElement("li");
    li.textContent = `${"XO"[i % 2]} ${m}`;
    return li;
  }));
  const legal = state.legal.map((a) => moveText(a, state.move_style, state.height, state.width));
  $("hint").textContent = state.over ? "" : `Type ${state.hint}, or click the board. Legal: `
    + (legal.length <= 12 ? legal.join(", ") : `${legal.length} moves`) + ".";
  const pass = state.height * state.width;
  $("pass").hidden = !state.has_pass;
  $("pass").disabled = state.over || !state.legal.includes(pass);
  $("move-text").placeholder = `e.g. ${moveText(state.legal[0] ?? 0, state.move_style, state.height, state.width)}`;
  $("downloads").hidden = false;
  $("gif-link").href = `/api/sessions/${state.id}/game.gif?v=${state.version}`;
  $("moves-link").href = `/api/sessions/${state.id}/moves.txt?v=${state.version}`;
  clearTimeout(polling);
  if (state.thinking) polling = setTimeout(poll, 150);
  document.body.dataset.thinking = state.thinking ? "1" : "0";
  document.body.dataset.version = state.version;
  drawAnalysis();
}

async function poll() {
  try { show(await api("GET", `/api/sessions/${state.id}`)); }
  catch (err) { say(err.message); }
}

function drawStatus() {
  let text = state.status;
  if (state.over) {
    const you = state.humans.length === 1 ? state.humans[0] : null;
    if (you !== null && state.winner === you) text += ": you win";
    else if (you !== null && state.winner > 0) text += ": you lose";
    text = `Game over. ${text}`;
  } else if (state.thinking) text += ` (the ${state.opponent.label} is thinking...)`;
  else if (state.humans.includes(state.to_play)) text += state.humans.length === 1 ? ": your move" : "";
  if (state.error) text += ` ${state.error}`;
  $("status").textContent = text;
  $("undo").disabled = state.moves.length === 0;
}

function drawBoard() {
  const board = $("board");
  board.className = (state.gravity ? "gravity " : "") + (state.letters ? "letters" : "");
  board.style.gridTemplateColumns = `repeat(${state.width}, 1fr)`;
  $("scores").style.gridTemplateColumns = `repeat(${state.width}, 1fr)`;
  const legal = new Set(state.legal);
  const won = new Set(state.winning_cells);
  const cells = [];
  for (let r = 0; r < state.height; r++) {
    for (let c = 0; c < state.width; c++) {
      const cell = r * state.width + c;
      const action = state.move_style === "column" ? c : cell;
      const v = state.board[r][c];
      const b = document.createElement("button");
      b.className = "cell" + (v ? ` p${v}` : "") + (legal.has(action) ? " legal" : "")
        + (cell === state.last_cell ? " last" : "") + (won.has(cell) ? " won" : "");
      b.dataset.row = r; b.dataset.col = c; b.dataset.action = action;
      b.setAttribute("role", "gridcell");
      b.setAttribute("aria-label", `${moveText(action, state.move_style, state.height, state.width)}: ${["empty", "X", "O"][v]}`);
      if (state.letters && v) b.textContent = " XO"[v];
      b.addEventListener("click", () => send("move", { action }));
      cells.push(b);
    }
  }
  board.replaceChildren(...cells);
}

async function drawAnalysis() {
  const on = $("show-analysis").checked;
  $("scores").hidden = !on;
  if (!on) { $("analysis").replaceChildren(); $("scores").replaceChildren(); analysisFor = -1; return; }
  if (state.thinking || analysisFor === state.version) return;
  const version = state.version;
  analysisFor = version;
  $("analysis").textContent = state.over ? "" : "Analysing...";
  $("scores").replaceChildren();
  if (state.over) { $("analysis").textContent = "The game is over."; return; }
  let data;
  try { data = await api("GET", `/api/sessions/${state.id}/analysis`); }
  catch (err) { $("analysis").textContent = err.message; return; }
  if (!state || state.version !== version) return;  // the position changed meanwhile
  const parts = [];
  if (data.solver) {
    const scores = data.solver.map((s, a) => {
      const span = document.createElement("span");
      span.className = "score" + (s === null ? "" : s > 0 ? " win" : s < 0 ? " loss" : " draw");
      span.dataset.action = a;
      span.textContent = s === null ? "·" : (s > 0 ? `+${s}` : String(s));
      return span;
    });
    if (state.move_style === "column") $("scores").replaceChildren(...scores);
    const p = document.createElement("p");
    p.id = "solver-line";
    p.textContent = "Solver, for the player to move (above 0 wins, 0 draws, below 0 loses; larger is sooner): "
      + data.solver.map((s, a) => `${moveText(a, state.move_style, state.height, state.width)}:${s === null ? "full" : s}`).join(" ");
    parts.push(p);
  }
  if (data.agent) parts.push(agentTable(data.agent));
  if (data.note) { const p = document.createElement("p"); p.textContent = data.note; parts.push(p); }
  if (!parts.length) { const p = document.createElement("p"); p.textContent = "No solver or agent for this game and opponent."; parts.push(p); }
  $("analysis").replaceChildren(...parts);
  document.body.dataset.analysed = version;
}

function agentTable(view) {
  const div = document.createElement("div");
  div.id = "agent-view";
  const kind = view.simulations ? `its search, ${view.simulations} simulations` : "its network alone";
  div.innerHTML = `<p>The agent (${kind}): value ${view.value.toFixed(3)} for the player to move; it would play ${moveText(view.action, state.move_style, state.height, state.width)}.</p>`;
  const table = document.createElement("table");
  table.innerHTML = "<tr><th>move</th><th>share</th></tr>";
  const order = view.policy.map((p, a) => [p, a]).filter(([p]) => p > 0).sort((x, y) => y[0] - x[0]).slice(0, 8);
  for (const [p, a] of order) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${moveText(a, state.move_style, state.height, state.width)}</td><td>${(100 * p).toFixed(1)}%</td>`;
    table.append(tr);
  }
  div.append(table);
  return div;
}

async function main() {
  try { games = (await api("GET", "/api/games")).games; }
  catch (err) { say(`Cannot reach the server: ${err.message}`); return; }
  const select = $("game");
  for (const g of games) select.add(new Option(g.name, g.name));
  select.value = games.some((g) => g.name === "tictactoe") ? "tictactoe" : games[0].name;
  fillOpponents();
  select.addEventListener("change", fillOpponents);
  $("opponent").addEventListener("change", fillSimulations);
  $("setup").addEventListener("submit", newGame);
  $("typed").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("move-text").value;
    $("move-text").value = "";
    send("move", { move: text });
  });
  $("undo").addEventListener("click", () => send("undo"));
  $("pass").addEventListener("click", () => send("move", { action: state.height * state.width }));
  $("restart").addEventListener("click", () => send("new"));
  $("show-analysis").addEventListener("change", () => { analysisFor = -1; if (state) drawAnalysis(); });
  document.body.dataset.busy = "0";
  document.body.dataset.ready = "1";
}

main();
