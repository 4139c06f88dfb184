// The lobby: the open tables (refreshed live) and the new-table form built from /api/games.
import { api, h, t, gameName, showError, nickname, saveNickname, LANG } from "./common.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 3000;
let games = [];
let current = null;

// -- /api/games, read defensively --------------------------------------------------------

function asList(value, keyName = "name") {
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object") return Object.entries(value).map(([k, v]) => ({ [keyName]: k, ...(typeof v === "object" && v ? v : { value: v }) }));
  return [];
}

function normaliseGame(raw) {
  const id = raw.id || raw.game || raw.name;
  const presetKey = raw.preset_key || raw.presetKey || (id === "backgammon" ? "variant" : "preset");
  const presets = asList(raw.presets).map((p) => (typeof p === "string" ? { name: p } : p));
  const options = asList(raw.options).filter((o) => o.name !== presetKey);
  const bots = asList(raw.bots || raw.bot_strategies || raw.strategies).map((b) => (typeof b === "string" ? b : b.name));
  return { id, presetKey, presets, options, bots, raw,
    defaultPreset: raw.default_preset || raw.defaultPreset || (presets[0] && presets[0].name),
    minPlayers: raw.min_players ?? raw.info?.min_players, maxPlayers: raw.max_players ?? raw.info?.max_players };
}

function presetOptions(game, name) {
  const p = game.presets.find((x) => x.name === name);
  return (p && (p.options || p.values)) || {};
}

function optionDefault(game, opt) {
  const fromPreset = presetOptions(game, $("preset").value);
  return opt.name in fromPreset ? fromPreset[opt.name] : opt.default;
}

// -- the form ------------------------------------------------------------------------------

function renderGames() {
  const box = $("game-choices");
  box.replaceChildren(...games.map((g, i) => h("label", {},
    h("input", { type: "radio", name: "game", value: g.id, checked: i === 0, onchange: () => selectGame(g.id) }),
    h("span", { text: gameName(g.id) }))));
  if (games.length) selectGame(games[0].id);
}

function selectGame(id) {
  current = games.find((g) => g.id === id);
  const select = $("preset");
  select.replaceChildren(...current.presets.map((p) => h("option", { value: p.name, selected: p.name === current.defaultPreset }, p.name)));
  select.onchange = () => { renderPresetHelp(); renderOptions(); renderSeats(); };
  renderPresetHelp();
  renderOptions();
  $("seats").replaceChildren(); // a new game starts from its own default seats
  renderSeats();
  showError($("create-error"), "");
}

function renderPresetHelp() {
  const p = current.presets.find((x) => x.name === $("preset").value) || {};
  const parts = [p.summary || p.help || "", p.source ? t("lobby.source", { source: p.source }) : ""].filter(Boolean);
  $("preset-help").textContent = parts.join(" · ");
  $("preset-rules").href = `/rules/${encodeURIComponent(current.id)}?preset=${encodeURIComponent($("preset").value)}`;
}

function shownValue(value) {
  if (value === true) return t("lobby.yes");
  if (value === false) return t("lobby.no");
  if (value === null || value === undefined) return t("lobby.none");
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  const type = String(opt.type || "").toLowerCase();
  const def = optionDefault(current, opt);
  const keep = h("option", { value: "" }, t("lobby.default_value", { value: shownValue(def) }));
  if (Array.isArray(opt.choices) && opt.choices.length) {
    return h("select", { id, name: opt.name }, keep, ...opt.choices.map((c) => h("option", { value: JSON.stringify(c) }, shownValue(c))));
  }
  if (type.includes("bool") || typeof def === "boolean") {
    return h("select", { id, name: opt.name }, keep,
      h("option", { value: "true" }, t("lobby.yes")), h("option", { value: "false" }, t("lobby.no")));
  }
  if ((type === "int" || type.startsWith("int") || Number.isInteger(def)) && !type.includes("tuple")) {
    return h("input", { id, name: opt.name, type: "number", inputmode: "numeric", step: 1,
      min: opt.min ?? undefined, max: opt.max ?? undefined, placeholder: shownValue(def) });
  }
  return h("input", { id, name: opt.name, type: "text", placeholder: shownValue(def) });
}

function renderOptions() {
  const box = $("options");
  box.replaceChildren(...current.options.map((opt) => {
    const input = optionInput(opt);
    input.addEventListener("change", () => {
      input.closest(".opt").classList.toggle("opt-changed", input.value !== "");
      if (opt.name === "players") renderSeats();
    });
    const help = [opt.help, opt.source ? t("lobby.source", { source: opt.source }) : ""].filter(Boolean);
    return h("div.opt", {},
      h("label.opt-name", { for: input.id }, opt.name),
      input,
      help.length ? h("p.help", {}, help[0], help[1] ? h("span.src", {}, " · " + help[1]) : null) : null);
  }));
}

function optionValue(opt, text) {
  if (text === "") return undefined;
  try { return JSON.parse(text); } catch { /* plain text */ }
  if (String(opt.type || "").includes("tuple") && text.includes(",")) {
    return text.split(",").map((x) => (Number.isFinite(Number(x)) ? Number(x) : x.trim()));
  }
  return text;
}

function chosenOptions() {
  const options = { [current.presetKey]: $("preset").value };
  for (const opt of current.options) {
    const input = document.getElementById(`opt-${opt.name}`);
    const value = input ? optionValue(opt, input.value.trim()) : undefined;
    if (value !== undefined) options[opt.name] = value;
  }
  return options;
}

function seatCount() {
  const input = document.getElementById("opt-players");
  const typed = input && input.value.trim() !== "" ? Number(input.value) : NaN;
  if (Number.isInteger(typed) && typed > 0 && typed <= 12) return typed;
  const players = current.options.find((o) => o.name === "players");
  if (players) { const d = Number(optionDefault(current, players)); if (Number.isInteger(d) && d > 0) return d; }
  return current.minPlayers || 2;
}

function renderSeats() {
  const n = seatCount();
  const old = [...document.querySelectorAll("#seats select.seat-kind")].map((x) => x.value);
  const bots = current.bots.length ? current.bots : ["random"];
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    const kind = h("select.seat-kind", { id: `seat-${i}`, "aria-label": t("table.seat_n", { n: i + 1 }) },
      h("option", { value: "human" }, t("lobby.human")),
      h("option", { value: "bot" }, t("lobby.bot")));
    const strategy = h("select.seat-bot", { id: `seat-bot-${i}`, "aria-label": t("lobby.strategy_for", { n: i + 1 }) },
      ...bots.map((b) => h("option", { value: b, selected: b === (current.bots.includes("ev") ? "ev" : bots[0]) }, botLabel(b))));
    kind.value = old[i] || (i === 0 ? "human" : (i === n - 1 ? "bot" : "human"));
    strategy.disabled = kind.value !== "bot";
    kind.addEventListener("change", () => { strategy.disabled = kind.value !== "bot"; });
    rows.push(h("div.seat-row", {}, h("span.seat-no", {}, t("table.seat_n", { n: i + 1 })), kind, strategy));
  }
  $("seats").replaceChildren(...rows);
}

function botLabel(name) { return t(`bot.${name}`) === `bot.${name}` ? name : t(`bot.${name}`); }

function chosenSeats() {
  return [...document.querySelectorAll("#seats .seat-row")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    return kind === "bot" ? `bot:${row.querySelector(".seat-bot").value}` : "human";
  });
}

async function create(event) {
  event.preventDefault();
  const nick = $("nick").value.trim();
  saveNickname(nick);
  const body = { game: current.id, options: chosenOptions(), seats: chosenSeats(), public: $("public").checked };
  const seconds = $("turn-seconds").value.trim();
  if (seconds) { body.turn_seconds = Number(seconds); body.on_timeout = $("on-timeout").value; }
  const away = $("claim-after").value.trim();
  if (away) body.claim_after = Number(away);
  const button = $("create-btn");
  button.disabled = true;
  showError($("create-error"), "");
  try {
    const made = await api("POST", "/api/tables", body);
    const first = body.seats.indexOf("human");
    let carry = "";
    if (first >= 0 && nick) {
      try {
        // the answer sets the seat's cookie; the token rides in the fragment for the seat's link
        const seat = await api("POST", `/api/tables/${made.id}/seats/${first}`, { name: nick });
        carry = `#token=${encodeURIComponent(seat.token)}`;
      } catch { /* the table page lets the player choose again */ }
    }
    location.href = inviteUrl(made) + carry;
  } catch (err) {
    showError($("create-error"), err.message);
  } finally {
    button.disabled = false;
  }
}

export function inviteUrl(made) {
  const invite = made.invite || "";
  if (invite.startsWith("/")) return invite;
  if (/^https?:/.test(invite)) { const u = new URL(invite); return u.pathname + u.search; }
  return `/tables/${encodeURIComponent(made.id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
}

// -- the list -----------------------------------------------------------------------------

function tableRow(tb) {
  const seats = Array.isArray(tb.seats) ? tb.seats : [];
  const taken = tb.seats_taken ?? tb.taken ?? seats.filter((x) => x && (x.taken || x.name || x.bot || x.kind?.startsWith?.("bot"))).length;
  const total = tb.seats_total ?? tb.num_seats ?? (seats.length || tb.players || "?");
  const status = String(tb.status || "");
  const preset = tb.preset || tb.variant || tb.rules?.preset || tb.rules?.variant || "";
  const spectators = tb.spectators ?? tb.watchers ?? 0;
  const open = taken < total && status !== "over" && status !== "finished";
  return h("li", { "data-table": tb.id },
    h("span.t-game", {}, gameName(tb.game), " ", h("span.badge", { class: `badge ${status}` }, t(`status.${status}`) === `status.${status}` ? status : t(`status.${status}`))),
    h("span.t-meta", {}, [preset, t("lobby.seats_taken", { taken, total }), t("lobby.spectators", { count: spectators })].filter(Boolean).join(" · ")),
    h("a.btn.small", { class: `btn small ${open ? "primary" : ""}`, href: `/tables/${encodeURIComponent(tb.id)}` }, open ? t("lobby.join") : t("lobby.watch")));
}

async function refresh() {
  try {
    const data = await api("GET", "/api/tables");
    const list = Array.isArray(data) ? data : data.tables || [];
    const box = $("tables");
    if (!list.length) box.replaceChildren(h("p.muted", {}, t("lobby.no_tables")));
    else box.replaceChildren(h("ul.tables", {}, ...list.map(tableRow)));
  } catch (err) {
    $("tables").replaceChildren(h("p.error-text", {}, err.message));
  }
}

async function start() {
  $("nick").value = nickname();
  $("create").addEventListener("submit", create);
  try {
    const data = await api("GET", `/api/games?lang=${LANG}`);
    games = (Array.isArray(data) ? data : data.games || asList(data, "id")).map(normaliseGame);
    renderGames();
  } catch (err) {
    showError($("create-error"), err.message);
  }
  refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
}

start();
