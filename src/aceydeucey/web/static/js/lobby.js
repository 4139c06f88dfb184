// The lobby: one-click games against a bot, the open tables (refreshed live, filtered by
// game) and the new-table form built from /api/games, in the player's words.
import { api, h, t, has, gameName, showError, nickname, saveNickname, LANG, botName } from "./common.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 3000;
//: The strongest bot of each game that answers at once (the 2-ply net needs a first compile).
const BEST_BOT = { "inbetween": "ev", "backgammon": "net", "aces-in-the-pot": "random" };
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
function choiceLabel(game, opt, value) {
  const seat = schemaOf(opt).seat;
  if (seat && Number.isInteger(value)) return t("table.seat_n", { n: value + 1 });
  if (value === null || value === undefined) return t(seat ? "lobby.seat_none" : "lobby.none");
  if (value === true) return t("lobby.yes");
  if (value === false) return t("lobby.no");
  if (Array.isArray(value)) return value.join(", ");
  return label(`choice.${game}.${opt.name}.${value}`, String(value));
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
  // hints are backgammon's (the seat to decide may ask for the best play)
  $("hints-box").hidden = current.id !== "backgammon";
  if (current.id !== "backgammon") $("hints").checked = false;
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

/** What an option's JSON schema (the server's one describer) offers the form: its words
 * (an enum's, or the constants beside a number), whether none is a value, a number and its
 * range, a flag, a list, and whether the number is a seat ("x-seat"). */
export function schemaOf(opt) {
  const schema = opt.schema || {};
  const branches = schema.anyOf || [schema];
  const words = [];
  for (const b of branches) {
    if ("const" in b) words.push(b.const);
    if (Array.isArray(b.enum)) words.push(...b.enum);
  }
  const number = branches.find((b) => b.type === "integer");
  return {
    words,
    nullable: branches.some((b) => b.type === "null"),
    integer: Boolean(number),
    boolean: branches.some((b) => b.type === "boolean"),
    min: schema.minimum ?? number?.minimum ?? null,
    max: schema.maximum ?? number?.maximum ?? null,
    seat: schema["x-seat"] === true,
  };
}

/** The widget an option's schema implies: a seat list, a list of words, a checkbox, a
 * number (with a choice of its words or none beside it), or text (a list of numbers). */
export function widgetOf(opt) {
  const s = schemaOf(opt);
  if (s.seat) return "seat";
  // a flag; where it may be none (the rules then choose), yes / no / none in a select
  if (s.boolean) return s.words.length || s.nullable ? "select" : "checkbox";
  if (s.integer) return s.words.length || s.nullable ? "number-or-word" : "number";
  if (s.words.length) return "select";
  return "text";
}

function choiceOption(opt, value) {
  return h("option", { value: JSON.stringify(value) }, choiceLabel(current.id, opt, value));
}

function optionInput(opt, helpId) {
  const id = `opt-${opt.name}`;
  const s = schemaOf(opt);
  const def = optionDefault(current, opt);
  const common = { id, name: opt.name, "aria-describedby": `${helpId} ${id}-error` };
  const keep = () => h("option", { value: "" }, t("lobby.default_value", { value: choiceLabel(current.id, opt, def) }));
  const named = [...(s.boolean ? [true, false] : []), ...s.words, ...(s.nullable ? [null] : [])];
  const number = () => h("input", { ...common, type: "number", inputmode: "numeric", step: 1,
    min: s.min ?? undefined, max: s.max ?? undefined, placeholder: choiceLabel(current.id, opt, def) });
  switch (widgetOf(opt)) {
    case "seat": // every seat by its number from 1, then the option's words (a draw, none)
      return h("select", common, keep(), ...[...Array(seatCount()).keys(), ...named].map((c) => choiceOption(opt, c)));
    case "select":
      return h("select", common, keep(), ...named.map((c) => choiceOption(opt, c)));
    case "checkbox":
      return h("input", { ...common, type: "checkbox", checked: def === true });
    case "number":
      return number();
    case "number-or-word": {
      // a number, or one of the words beside it (none included): the choice wins when made
      const input = number();
      const word = h("select.opt-word", { id: `${id}-word`, "aria-label": optionLabel(current.id, opt.name) },
        h("option", { value: "" }, t("lobby.a_number")), ...named.map((c) => choiceOption(opt, c)));
      word.addEventListener("change", () => { input.disabled = word.value !== ""; });
      const both = h("span.opt-union", {}, input, word);
      both.id = `${id}-box`;
      both.field = input;
      return both;
    }
    default:
      return h("input", { ...common, type: "text", placeholder: choiceLabel(current.id, opt, def) });
  }
}

/** The option's input a label points at (the number of a number-or-word pair). */
function fieldOf(widget) { return widget.field || widget; }

function renderOptions() {
  const box = $("options");
  box.replaceChildren(...current.options.map((opt) => {
    const helpId = `opt-${opt.name}-help`;
    const widget = optionInput(opt, helpId);
    const input = fieldOf(widget);
    widget.addEventListener("change", () => {
      input.closest(".opt").classList.toggle("opt-changed", optionValue(opt) !== undefined);
      fieldError(opt.name, "");
      if (opt.name === "players") { renderSeats(); refreshSeatOptions(); }
    });
    return h("div.opt", { "data-option": opt.name, "data-widget": widgetOf(opt) },
      h("label.opt-name", { for: input.id }, optionLabel(current.id, opt.name)),
      widget,
      h("p.help", { id: helpId }, label(`help.${current.id}.${opt.name}`, opt.help || "")),
      h("p.field-error", { id: `${input.id}-error`, role: "alert", hidden: true }));
  }));
  refreshSeatOptions();
}

/** The seat-valued options offer one entry per seat: redrawn when the player count changes. */
function refreshSeatOptions() {
  for (const opt of current.options) {
    const old = document.getElementById(`opt-${opt.name}`);
    if (widgetOf(opt) !== "seat" || !old) continue;
    const fresh = optionInput(opt, `opt-${opt.name}-help`);
    if ([...fresh.options].some((o) => o.value === old.value)) fresh.value = old.value;
    fresh.addEventListener("change", () => { fresh.closest(".opt").classList.toggle("opt-changed", fresh.value !== ""); fieldError(opt.name, ""); });
    old.replaceWith(fresh);
  }
}

/** The value the form gives an option, or undefined to keep the preset's. */
function optionValue(opt) {
  const input = document.getElementById(`opt-${opt.name}`);
  if (!input) return undefined;
  if (input.type === "checkbox") {
    const def = optionDefault(current, opt) === true;
    return input.checked === def ? undefined : input.checked;
  }
  const word = document.getElementById(`opt-${opt.name}-word`);
  if (word && word.value !== "") return JSON.parse(word.value);
  const text = input.value.trim();
  if (text === "") return undefined;
  try { return JSON.parse(text); } catch { /* plain text */ }
  if (widgetOf(opt) === "text" && text.includes(",")) {
    return text.split(",").map((x) => (Number.isFinite(Number(x)) ? Number(x) : x.trim()));
  }
  return text;
}

function chosenOptions() {
  const options = { [current.presetKey]: $("preset").value };
  for (const opt of current.options) {
    const value = optionValue(opt);
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

/** A refusal of the server shown where it belongs: at the field of each option it names
 * (its params.options), marked invalid, in the server's words (the players', in the page's
 * language); a refusal naming no field of the form is shown above the button. */
function showRefusal(err) {
  const fields = current.options.map((o) => o.name);
  const concerned = Array.isArray(err.params?.options) ? err.params.options : [];
  const named = concerned.filter((n, i) => fields.includes(n) && concerned.indexOf(n) === i);
  if (!named.length) { showError($("create-error"), err.message); return; }
  named.forEach((n) => fieldError(n, err.message));
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
  if (current.id === "backgammon" && $("hints").checked) body.hints = true;
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
      h("span", { class: `badge ${status}` }, has(`status.${status}`) ? t(`status.${status}`) : status),
      tb.hints ? h("span.badge.hints", { title: t("lobby.hints_help") }, t("lobby.hints_allowed")) : null),
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
