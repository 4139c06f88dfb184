// The lobby: one-click games against a bot, the open tables (refreshed live, filtered by
// game) and the new-table form built from /api/games, in the player's words.
import { api, h, t, has, gameName, showError, nickname, saveNickname, LANG, botName } from "./common.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 3000;
//: The strongest bot of each game that answers at once (the 2-ply net needs a first compile).
const BEST_BOT = { "inbetween": "ev", "backgammon": "net", "aces-in-the-pot": "random" };
//: Options whose number is a seat (0-based in the rules, "Seat 1" on the screen).
const SEAT_OPTIONS = new Set(["dealer", "first_roller"]);
let games = [];
let current = null;
let listed = [];

// -- /api/games ---------------------------------------------------------------------------

function normaliseGame(raw) {
  const presetKey = raw.preset_key || "preset";
  const presets = (raw.presets || []).map((p) => (typeof p === "string" ? { name: p } : p));
  const options = (raw.options || []).filter((o) => o.name !== presetKey && !o.preset_key);
  const players = options.find((o) => o.name === "players");
  return { id: raw.id, presetKey, presets, options, bots: raw.bots || [], defaultPreset: raw.default_preset || presets[0]?.name,
    minPlayers: Math.max(2, players?.min ?? 2), maxPlayers: players?.max ?? null };
}

/** A player's word for a game's option, preset or choice; the catalog is keyed by game. */
export function optionLabel(game, name) { return label(`option.${game}.${name}`, name); }
export function presetLabel(game, name) { return label(`preset.${game}.${name}`, name); }
function choiceLabel(game, option, value) {
  if (SEAT_OPTIONS.has(option) && Number.isInteger(value)) return t("table.seat_n", { n: value + 1 });
  if (value === null || value === undefined) return t(SEAT_OPTIONS.has(option) ? "lobby.seat_none" : "lobby.none");
  if (value === true) return t("lobby.yes");
  if (value === false) return t("lobby.no");
  if (Array.isArray(value)) return value.join(", ");
  return label(`choice.${game}.${option}.${value}`, String(value));
}
function label(key, fallback) { return has(key) ? t(key) : fallback; }

function presetOptions(game, name) {
  const p = game.presets.find((x) => x.name === name);
  return (p && p.options) || {};
}

function optionDefault(game, opt) {
  const fromPreset = presetOptions(game, $("preset").value);
  return opt.name in fromPreset ? fromPreset[opt.name] : opt.default;
}

// -- play a bot now -----------------------------------------------------------------------

function quickSeats(game) {
  const best = game.bots.includes(BEST_BOT[game.id]) ? BEST_BOT[game.id] : game.bots[0];
  return { seats: ["human", ...Array(game.minPlayers - 1).fill(`bot:${best}`)], bot: best };
}

function renderQuick() {
  $("quick").replaceChildren(...games.map((g) => {
    const { bot } = quickSeats(g);
    return h("li.quick-game", {},
      h("button.btn.primary.quick-btn", { type: "button", "data-game": g.id, onclick: (e) => playBot(g, e.currentTarget) },
        h("span.quick-name", {}, gameName(g.id)),
        h("span.quick-sub", {}, t("lobby.quick_against", { bot: botName({ bot }) }))));
  }));
}

async function playBot(game, button) {
  const { seats } = quickSeats(game);
  const options = { [game.presetKey]: game.defaultPreset };
  if (game.options.some((o) => o.name === "players")) options.players = seats.length;
  button.disabled = true;
  showError($("quick-error"), "");
  try {
    const nick = $("nick").value.trim() || nickname();
    if (nick) saveNickname(nick);
    await createAndSit({ game: game.id, options, seats, public: false }, nick || t("lobby.default_nick"));
  } catch (err) {
    showError($("quick-error"), err.message);
    button.disabled = false;
  }
}

/** Create the table, take its first person's seat, go there (the invite keeps a private seat's key). */
async function createAndSit(body, nick) {
  const made = await api("POST", "/api/tables", body);
  const url = inviteUrl(made);
  const first = body.seats.indexOf("human");
  let carry = "";
  if (first >= 0 && nick) {
    const query = url.includes("?") ? url.slice(url.indexOf("?")) : "";
    try {
      // the answer sets the seat's HttpOnly cookie; the token rides in the fragment for the seat's link
      const seat = await api("POST", `/api/tables/${encodeURIComponent(made.id)}/seats/${first}${query}`, { name: nick });
      carry = `#token=${encodeURIComponent(seat.token)}`;
    } catch { /* the table page lets the player choose again */ }
  }
  location.href = url + carry;
}

export function inviteUrl(made) {
  const invite = made.invite || "";
  if (invite.startsWith("/")) return invite;
  if (/^https?:/.test(invite)) { const u = new URL(invite); return u.pathname + u.search; }
  return `/tables/${encodeURIComponent(made.id)}`;
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
  select.replaceChildren(...current.presets.map((p) => h("option", { value: p.name, selected: p.name === current.defaultPreset }, presetLabel(current.id, p.name))));
  select.onchange = () => { renderPresetHelp(); renderOptions(); renderSeats(); };
  renderPresetHelp();
  renderOptions();
  $("seats").replaceChildren(); // a new game starts from its own default seats
  renderSeats();
  showError($("create-error"), "");
}

function renderPresetHelp() {
  const p = current.presets.find((x) => x.name === $("preset").value) || {};
  $("preset-help").textContent = p.summary || "";
  $("preset-rules").href = `/rules/${encodeURIComponent(current.id)}?preset=${encodeURIComponent($("preset").value)}`;
}

/** The words an option takes beside a number (its JSON schema's constants), and none if nullable. */
function namedValues(opt) {
  const words = (opt.schema?.anyOf || []).filter((s) => "const" in s).map((s) => s.const);
  return opt.nullable ? [...words, null] : words;
}

function optionInput(opt, helpId) {
  const id = `opt-${opt.name}`;
  const type = String(opt.type || "").toLowerCase();
  const def = optionDefault(current, opt);
  const common = { id, name: opt.name, "aria-describedby": `${helpId} ${id}-error` };
  const keep = h("option", { value: "" }, t("lobby.default_value", { value: choiceLabel(current.id, opt.name, def) }));
  if (SEAT_OPTIONS.has(opt.name)) {
    // every seat by its number from 1, then the option's named choices (a draw, none)
    const seats = [...Array(seatCount()).keys()];
    const named = opt.choices?.length ? opt.choices : namedValues(opt);
    return h("select", common, keep, ...[...seats, ...named].map((c) => h("option", { value: JSON.stringify(c) }, choiceLabel(current.id, opt.name, c))));
  }
  if (Array.isArray(opt.choices) && opt.choices.length) {
    return h("select", common, keep, ...opt.choices.map((c) => h("option", { value: JSON.stringify(c) }, choiceLabel(current.id, opt.name, c))));
  }
  if (type.includes("bool") || typeof def === "boolean") {
    return h("select", common, keep, h("option", { value: "true" }, t("lobby.yes")), h("option", { value: "false" }, t("lobby.no")));
  }
  if ((type === "int" || type.startsWith("int") || Number.isInteger(def)) && !type.includes("list")) {
    return h("input", { ...common, type: "number", inputmode: "numeric", step: 1,
      min: opt.min ?? undefined, max: opt.max ?? undefined, placeholder: choiceLabel(current.id, opt.name, def) });
  }
  return h("input", { ...common, type: "text", placeholder: choiceLabel(current.id, opt.name, def) });
}

function renderOptions() {
  const box = $("options");
  box.replaceChildren(...current.options.map((opt) => {
    const helpId = `opt-${opt.name}-help`;
    const input = optionInput(opt, helpId);
    input.addEventListener("change", () => {
      input.closest(".opt").classList.toggle("opt-changed", input.value !== "");
      fieldError(opt.name, "");
      if (opt.name === "players") { renderSeats(); refreshSeatOptions(); }
    });
    return h("div.opt", { "data-option": opt.name },
      h("label.opt-name", { for: input.id }, optionLabel(current.id, opt.name)),
      input,
      h("p.help", { id: helpId }, label(`help.${current.id}.${opt.name}`, opt.help || "")),
      h("p.field-error", { id: `${input.id}-error`, role: "alert", hidden: true }));
  }));
  refreshSeatOptions();
}

/** The seat-valued options offer one entry per seat: redrawn when the player count changes. */
function refreshSeatOptions() {
  for (const opt of current.options) {
    const old = document.getElementById(`opt-${opt.name}`);
    if (!SEAT_OPTIONS.has(opt.name) || !old) continue;
    const fresh = optionInput(opt, `opt-${opt.name}-help`);
    if ([...fresh.options].some((o) => o.value === old.value)) fresh.value = old.value;
    fresh.addEventListener("change", () => { fresh.closest(".opt").classList.toggle("opt-changed", fresh.value !== ""); fieldError(opt.name, ""); });
    old.replaceWith(fresh);
  }
}

function optionValue(opt, text) {
  if (text === "") return undefined;
  try { return JSON.parse(text); } catch { /* plain text */ }
  if (String(opt.type || "").includes("list") && text.includes(",")) {
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
  const old = [...document.querySelectorAll("#seats .seat-row")].map((row) => ({
    kind: row.querySelector(".seat-kind").value, bot: row.querySelector(".seat-bot").value }));
  const bots = current.bots.length ? current.bots : ["random"];
  const best = bots.includes(BEST_BOT[current.id]) ? BEST_BOT[current.id] : bots[0];
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    const kind = h("select.seat-kind", { id: `seat-${i}`, "aria-label": t("lobby.seat_kind_for", { n: i + 1 }) },
      h("option", { value: "human" }, i === 0 ? t("lobby.you") : t("lobby.human")),
      h("option", { value: "bot" }, t("lobby.bot")));
    const strategy = h("select.seat-bot", { id: `seat-bot-${i}`, "aria-label": t("lobby.strategy_for", { n: i + 1 }) },
      ...bots.map((b) => h("option", { value: b }, botName({ bot: b }))));
    // you in the first seat and bots in the others, so a table made alone starts at once
    kind.value = old[i]?.kind || (i === 0 ? "human" : "bot");
    strategy.value = old[i]?.bot || best;
    strategy.disabled = kind.value !== "bot";
    kind.addEventListener("change", () => { strategy.disabled = kind.value !== "bot"; });
    rows.push(h("div.seat-row", {}, h("span.seat-no", {}, t("table.seat_n", { n: i + 1 })), kind, strategy));
  }
  $("seats").replaceChildren(...rows);
}

function chosenSeats() {
  return [...document.querySelectorAll("#seats .seat-row")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    return kind === "bot" ? `bot:${row.querySelector(".seat-bot").value}` : "human";
  });
}

// -- errors at their field, in words --------------------------------------------------------

function fieldError(name, message) {
  const node = document.getElementById(`opt-${name}-error`);
  const input = document.getElementById(`opt-${name}`);
  if (!node || !input) return false;
  showError(node, message);
  if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  return true;
}

function clearFieldErrors() {
  for (const opt of current.options) fieldError(opt.name, "");
}

function rangeText(min, max) {
  if (min !== null && min !== undefined && max !== null && max !== undefined) return t("lobby.err_range", { min, max });
  if (min !== null && min !== undefined) return t("lobby.err_min", { min });
  if (max !== null && max !== undefined) return t("lobby.err_max", { max });
  return t("lobby.err_value");
}

/** Check the typed numbers before asking the server; the first bad field gets the focus. */
function checkFields() {
  let bad = null;
  for (const opt of current.options) {
    const input = document.getElementById(`opt-${opt.name}`);
    if (!input || input.type !== "number" || input.value.trim() === "") continue;
    if (!input.checkValidity() || !Number.isInteger(Number(input.value))) {
      fieldError(opt.name, rangeText(opt.min, opt.max));
      bad = bad || input;
    }
  }
  if (bad) { openOptions(); bad.focus(); }
  return !bad;
}

function openOptions() { $("options-box").open = true; }

/** A refusal of the server shown where it belongs: at the option(s) it names, in words. */
function showRefusal(err) {
  const params = err.params || {};
  const names = current.options.map((o) => o.name);
  const named = [params.option, ...Object.keys(params)].filter((n, i, all) => names.includes(n) && all.indexOf(n) === i);
  if (!named.length) { showError($("create-error"), err.message); return; }
  let message;
  if (err.code === "rules.out_of_range") message = rangeText(params.min, params.max);
  else if (err.code === "rules.wrong_type") message = t("lobby.err_value");
  else {
    const parts = String(err.message || "").split(": ");
    const reason = parts.length > 1 ? parts[parts.length - 1] : "";
    message = t("lobby.err_conflict", { options: named.map((n) => optionLabel(current.id, n)).join(" + ") }) + (reason ? ` (${reason})` : "");
  }
  named.forEach((n) => fieldError(n, message));
  openOptions();
  document.getElementById(`opt-${named[0]}`)?.focus();
  showError($("create-error"), t("lobby.err_see_options"));
}

async function create(event) {
  event.preventDefault();
  showError($("create-error"), "");
  clearFieldErrors();
  if (!checkFields()) { showError($("create-error"), t("lobby.err_see_options")); return; }
  const nick = $("nick").value.trim();
  saveNickname(nick);
  const body = { game: current.id, options: chosenOptions(), seats: chosenSeats(), public: $("public").checked };
  const seconds = $("turn-seconds").value.trim();
  if (seconds) { body.turn_seconds = Number(seconds); body.on_timeout = $("on-timeout").value; }
  const away = $("claim-after").value.trim();
  if (away) body.claim_after = Number(away);
  const button = $("create-btn");
  button.disabled = true;
  try {
    await createAndSit(body, nick || t("lobby.default_nick"));
  } catch (err) {
    showRefusal(err);
  } finally {
    button.disabled = false;
  }
}

// -- the list -----------------------------------------------------------------------------

export function ago(seconds) {
  const s = Math.max(0, Math.round(Number(seconds) || 0));
  if (s < 60) return t("lobby.ago_now");
  if (s < 3600) return t("lobby.ago_minutes", { n: Math.floor(s / 60) });
  if (s < 86400) return t("lobby.ago_hours", { n: Math.floor(s / 3600) });
  return t("lobby.ago_days", { n: Math.floor(s / 86400) });
}

function seatText(seat) {
  if (seat.kind === "bot") return t("lobby.seat_bot", { name: botName(seat) });
  return seat.taken ? seat.name || t("lobby.seat_taken") : t("lobby.seat_free");
}

function tableRow(tb) {
  const seats = Array.isArray(tb.seats) ? tb.seats : [];
  const taken = tb.taken ?? seats.filter((x) => x.taken).length;
  const total = tb.players ?? seats.length;
  const status = String(tb.status || "");
  const open = taken < total && status !== "over";
  // a variant names the game itself (Classic backgammon); a preset follows the game's name
  const variant = games.find((g) => g.id === tb.game)?.presetKey === "variant";
  const title = tb.preset && variant ? presetLabel(tb.game, tb.preset)
    : `${gameName(tb.game)}${tb.preset ? ` · ${presetLabel(tb.game, tb.preset)}` : ""}`;
  return h("li.table-row", { "data-table": tb.id, "data-game": tb.game },
    h("div.t-head", {},
      h("span.t-game", {}, title),
      h("span", { class: `badge ${status}` }, has(`status.${status}`) ? t(`status.${status}`) : status)),
    h("ul.t-seats", { "aria-label": t("lobby.seats") }, ...seats.map((s, i) =>
      h("li", { class: s.taken ? (s.kind === "bot" ? "bot" : "taken") : "free" },
        h("span.visually-hidden", {}, t("table.seat_n", { n: i + 1 }) + ": "), seatText(s)))),
    h("p.t-meta", {},
      h("span", {}, t("lobby.last_action", { when: ago(tb.idle_seconds) })), " · ",
      h("span", {}, t("lobby.spectators", { count: tb.spectators ?? 0 }))),
    h("a", { class: `btn small ${open ? "primary" : ""}`, href: `/tables/${encodeURIComponent(tb.id)}`,
      "aria-label": `${open ? t("lobby.join") : t("lobby.watch")}: ${title}` }, open ? t("lobby.join") : t("lobby.watch")));
}

function renderList() {
  const wanted = $("filter").value;
  const shown = listed.filter((tb) => !wanted || tb.game === wanted);
  const box = $("tables");
  if (!shown.length) box.replaceChildren(h("p.muted", {}, listed.length ? t("lobby.no_tables_of_game") : t("lobby.no_tables")));
  else box.replaceChildren(h("ul.tables", {}, ...shown.map(tableRow)));
}

async function refresh() {
  try {
    const data = await api("GET", "/api/tables");
    listed = Array.isArray(data) ? data : data.tables || [];
    renderList();
  } catch (err) {
    $("tables").replaceChildren(h("p.error-text", {}, err.message));
  }
}

function renderFilter() {
  $("filter").replaceChildren(h("option", { value: "" }, t("lobby.all_games")),
    ...games.map((g) => h("option", { value: g.id }, gameName(g.id))));
  $("filter").addEventListener("change", renderList);
}

async function start() {
  $("nick").value = nickname();
  $("create").addEventListener("submit", create);
  try {
    const data = await api("GET", `/api/games?lang=${LANG}`);
    games = (Array.isArray(data) ? data : data.games || []).map(normaliseGame);
    renderQuick();
    renderFilter();
    renderGames();
  } catch (err) {
    showError($("create-error"), err.message);
  }
  refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
}

start();
