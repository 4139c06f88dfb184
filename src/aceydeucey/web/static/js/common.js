// Shared helpers: messages, the JSON API, seat tokens, small DOM helpers.

const read = (id) => {
  const node = document.getElementById(id);
  try { return node ? JSON.parse(node.textContent) : {}; } catch { return {}; }
};

export const MESSAGES = read("messages");
export const PAGE = read("page-data");
export const LANG = document.documentElement.lang.startsWith("pt") ? "pt" : "en";
let extra = read("game-messages");

/** Add more messages (a game's event texts) to the lookup. */
export function addMessages(more) { extra = { ...extra, ...more }; }

/** The message `key` with `{name}` placeholders filled in; the key itself when missing. */
export function t(key, values = {}) {
  const template = MESSAGES[key] ?? extra[key];
  if (template === undefined) return key;
  return fill(template, values);
}

export function has(key) { return key in MESSAGES || key in extra; }

export function fill(template, values) {
  return template.replace(/\{(\w+)(?::[^}]*)?\}/g, (m, name) =>
    name in values ? String(shown(values[name])) : m);
}

function shown(value) {
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "number" && LANG === "pt") return String(value).replace(".", ",");
  return value ?? "";
}

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || "";
    this.params = err.params || {};
  }
}

/** Call the JSON API; a non-2xx answer throws ApiError carrying the server's message. */
export async function api(method, path, body, token) {
  const headers = { "Accept": "application/json", "Accept-Language": LANG };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, { error: { message: t("error.network") } });
  }
  let data = null;
  const text = await response.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// -- seats: the server keeps each table's seat in an HttpOnly cookie no script can read;
// the page never stores a token (a seat's link hands one over, and the server takes it) --

function sessionPath(tableId) { return `/api/tables/${encodeURIComponent(tableId)}/session`; }

/** Hand a seat's token to the server, which holds it as this browser's cookie; true if it did. */
export async function saveSeat(tableId, seat, token) {
  try { await api("POST", sessionPath(tableId), undefined, token); return true; } catch { return false; }
}

/** Always null: which seat this browser holds is the server's `you`. */
export function loadSeat(tableId) { return null; }

/** Ask the server to drop this table's seat cookie. */
export async function forgetSeat(tableId) {
  try { await api("DELETE", sessionPath(tableId)); } catch { /* ignore */ }
}

export function nickname() {
  try { return localStorage.getItem("nickname") || ""; } catch { return ""; }
}
export function saveNickname(name) {
  try { localStorage.setItem("nickname", name); } catch { /* ignore */ }
}

// -- DOM --

/** h("div.cls", {attr}, children...) */
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const node = document.createElement(name);
  if (classes.length) node.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else if (k === "html") node.innerHTML = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * Make `nodes` the children of `parent`, keeping in place every child equal to its new
 * counterpart (same tag, attributes and content): a page re-rendered on every message must
 * not swap a button for its twin under the pointer, which loses a click half made.
 */
export function keepChildren(parent, nodes) {
  for (const node of [...parent.childNodes]) if (node.nodeType !== Node.ELEMENT_NODE) node.remove();
  nodes.forEach((node, i) => {
    const here = parent.children[i];
    if (!here) parent.append(node);
    else if (!here.isEqualNode(node)) here.replaceWith(node);
  });
  while (parent.children.length > nodes.length) parent.lastElementChild.remove();
}

const SVG_NS = "http://www.w3.org/2000/svg";
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function showError(node, message) {
  if (!node) return;
  node.textContent = message || "";
  node.hidden = !message;
}

export function gameName(id) { return has(`game.${id}`) ? t(`game.${id}`) : id; }

/** A table's title: its variant's own name where it has one ("Backgammon"), else the game's. */
export function tableTitle(game, variant) {
  const key = `table.name.${game}.${variant}`;
  return variant && has(key) ? t(key) : gameName(game);
}

/** The seat's display name: its nickname, its bot, or "Seat N". */
export function seatName(seats, i) {
  const seat = (seats || [])[i];
  const fallback = t("table.seat_n", { n: Number(i) + 1 });
  if (!seat) return fallback;
  if (typeof seat === "string") return seat || fallback;
  if (isBotSeat(seat)) return t("table.bot_named", { name: botName(seat), n: Number(i) + 1 });
  return seat.name || fallback;
}

export function botName(seat) {
  const raw = String(seat.bot || seat.kind || "").replace(/^bot:?/, "") || "bot";
  return has(`bot.${raw}`) ? t(`bot.${raw}`) : raw;
}

export function isBotSeat(seat) {
  if (!seat || typeof seat !== "object") return false;
  const kind = String(seat.kind || seat.type || seat.agent || "");
  return kind.startsWith("bot") || seat.bot === true || typeof seat.bot === "string";
}

export function copyText(input) {
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand("copy"));
  else document.execCommand("copy");
}

/** The renderer module of a game (one module per game). */
export async function gameModule(game) {
  const file = { "inbetween": "inbetween.js", "backgammon": "backgammon.js", "aces-in-the-pot": "aces.js" }[game];
  return file ? import(`./${file}`) : import("./generic.js");
}

// the fractions with a character of their own; others are written "2/7"
const VULGAR = { "1/2": "½", "1/3": "⅓", "2/3": "⅔", "1/4": "¼", "3/4": "¾", "1/5": "⅕", "2/5": "⅖", "3/5": "⅗", "4/5": "⅘",
  "1/6": "⅙", "5/6": "⅚", "1/7": "⅐", "1/8": "⅛", "3/8": "⅜", "5/8": "⅝", "7/8": "⅞", "1/9": "⅑", "1/10": "⅒" };

/** An exact number (the engine's text: "3", "-3/2") as people write it: whole where it is
 * whole, else a mixed number ("1½", "−½", "2 3/7"), never "3/2"; `signed` puts "+" on gains. */
export function mixed(value, { signed = false } = {}) {
  const [n, d = 1] = String(value).trim().split("/").map(Number);
  if (!Number.isFinite(n) || !Number.isFinite(d) || d === 0) return String(value);
  const neg = (n < 0) !== (d < 0) && n !== 0;
  const num = Math.abs(n), den = Math.abs(d);
  const whole = Math.floor(num / den), rest = num % den;
  const sign = neg ? "−" : signed && num > 0 ? "+" : "";
  if (!rest) return `${sign}${whole}`;
  const g = (a, b) => (b ? g(b, a % b) : a);
  const k = g(rest, den);
  const part = VULGAR[`${rest / k}/${den / k}`];
  const text = part || `${rest / k}/${den / k}`;
  if (!whole) return `${sign}${text}`;
  return part ? `${sign}${whole}${text}` : `${sign}${whole} ${text}`;
}
