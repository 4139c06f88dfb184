// The table page: seat choice, the live observation over a WebSocket, actions, log and chat.
import { api, h, t, has, tableTitle, seatName, isBotSeat, botName, showError, loadSeat, saveSeat, forgetSeat,
  nickname, saveNickname, copyText, gameModule, addMessages, keepChildren, PAGE, LANG, ApiError, mixed } from "./common.js";

const $ = (id) => document.getElementById(id);
const tableId = PAGE.table;
const params = new URLSearchParams(location.search);
const invite = params.get("invite");

// a seat's own link (#token=...) carries the seat to another device; the fragment never
// reaches the server, and it is taken out of the address at once; the server turns the
// token into its HttpOnly cookie, and the page keeps it in memory only (for the link)
const carried = new URLSearchParams(location.hash.slice(1)).get("token");
if (carried) {
  history.replaceState(null, "", location.pathname + location.search);
  await saveSeat(tableId, null, carried);
}

const ctx = {
  tableId, me: carried ? { seat: null, token: carried } : loadSeat(tableId), info: null, obs: null, seq: 0, seats: [], rules: {},
  game: null, module: null, coach: false, pending: false, lang: LANG, clock: null, actedAt: -1, stepEvents: [], interim: false,
  act, refresh: () => render(), hint: () => api("GET", tablePath("/hint"), undefined, ctx.me?.token), names: () => ctx.seats.map((_, i) => seatName(ctx.seats, i)),
};
window.aceydeucey = ctx; // handy in the console and for the browser tests

let socket = null;
let retry = 0;
let eventsSeen = 0;
let watching = false;

// -- loading and syncing ------------------------------------------------------------------

async function load() {
  try {
    const info = await api("GET", tablePath(""), undefined, ctx.me?.token);
    await accept(info);
  } catch (err) {
    if (ctx.me && err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      await forgetSeat(tableId); ctx.me = null; return load();
    }
    showError($("page-error"), err.message);
    if (!ctx.info) $("lost").hidden = false;
  }
}

function tablePath(rest) {
  const q = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  return `/api/tables/${encodeURIComponent(tableId)}${rest}${q}`;
}

async function accept(info) {
  ctx.info = info;
  $("table-grid").hidden = false;
  $("table-sub").hidden = false;
  showError($("page-error"), "");
  ctx.seats = info.seats || [];
  ctx.rules = info.rules || {};
  ctx.obs = info.observation || ctx.obs;
  ctx.seq = info.seq ?? ctx.seq;
  ctx.received = ctx.seq;
  queue.length = 0;
  if (!ctx.module || ctx.game !== info.game) {
    ctx.game = info.game;
    ctx.module = await gameModule(info.game);
    if (ctx.module.messages) addMessages(ctx.module.messages());
  }
  if (typeof info.you === "number") ctx.me = { ...(ctx.me || {}), seat: info.you }; // the cookie's seat
  else if (ctx.me) { await forgetSeat(tableId); ctx.me = null; } // the server does not know this token
  // the new clock with the seat it is read against: the clock ticks while the page waits
  // above, and would name the person rather than "you" until it knew which seat is theirs
  ctx.clock = { deadline: info.deadline, seat: info.to_act, skew: 0 };
  header();
  render();
  tick(); // drawn with the turn it belongs to, not half a second later
  await loadEvents();
  connect();
  if (isOver() && !ctx.revealed) revealSeed();
}

let loadingEvents = null;

function loadEvents() {
  // one fetch at a time; a later call waits for it and fetches again from where it ended
  loadingEvents = (loadingEvents || Promise.resolve()).then(fetchEvents);
  return loadingEvents;
}

async function fetchEvents() {
  try {
    const data = await api("GET", tablePath("/events") + (invite ? "&" : "?") + `since=${eventsSeen}`);
    const list = Array.isArray(data) ? data : data.events || [];
    for (const item of list) logEvent(item, item.seq);
  } catch { /* the log is a convenience; the board is the truth */ }
}

function connect() {
  if (socket && socket.readyState <= 1) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = new URLSearchParams();
  if (ctx.me?.token) q.set("token", ctx.me.token); // else the seat cookie goes with the handshake
  if (invite) q.set("invite", invite);
  if (ctx.seq) q.set("since", ctx.seq);
  socket = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}?${q}`);
  socket.onopen = () => { retry = 0; };
  socket.onmessage = (msg) => {
    let data;
    try { data = JSON.parse(msg.data); } catch { return; }
    onMessage(data);
  };
  socket.onclose = () => {
    socket = null;
    retry = Math.min(retry + 1, 6);
    setTimeout(() => resync(), 300 * 2 ** retry);
  };
}

async function resync() {
  try {
    const info = await api("GET", tablePath(""), undefined, ctx.me?.token);
    await accept(info);
  } catch { setTimeout(resync, 3000); }
}

function onMessage(data) {
  switch (data.type) {
    case "state":
      if (typeof data.seq === "number" && data.seq <= ctx.received) return;
      if (typeof data.seq === "number" && data.seq > ctx.received + 1 && ctx.received > 0 && !data.observation) { resync(); return; }
      if (typeof data.seq === "number") ctx.received = data.seq;
      enqueue(data);
      break;
    case "clock":
      // in line with the states: the clock starts on screen with the turn it belongs to
      data.skew = typeof data.now === "number" ? data.now - Date.now() / 1000 : 0;
      if (queue.some((item) => item.type !== "clock")) queue.push(data);
      else setClock(data);
      break;
    case "chat":
      chatLine(data.chat || data);
      break;
    case "seats":
      absorb(data);
      header(); render();
      break;
    case "events":
      for (const e of data.events || []) logEvent(e, e.seq);
      break;
    case "ack": case "pong":
      break;
    case "error":
      showError($("action-error"), data.error?.message || data.message || "");
      break;
    default:
      if (data.observation) onMessage({ ...data, type: "state" });
  }
}

// the deadline comes with "clock" messages: a state message is sent before the timer is set
const TABLE_FIELDS = ["status", "to_act", "to_roll", "ended", "fairness", "rematch", "spectators", "public"];

// -- pace: the states arrive in bursts (a deal, a bot's reply); each is shown long enough to
// be seen (a third card and its result, a roll), at the speed the person chose ---------------

const PACE = { slow: 1.8, normal: 1, fast: 0.3 };
const queue = [];
let holding = null;

function pace() {
  try { const p = localStorage.getItem("pace"); return p in PACE ? p : "normal"; } catch { return "normal"; }
}

function setClock(data) {
  ctx.clock = { deadline: data.deadline, seat: data.seat, skew: data.skew };
  tick();
}

function enqueue(data) {
  // a step that settled something before its last entry (a hand's third card, a roll before
  // the bots' replies): the game's page shows that first, in a frame of its own (or several:
  // the game gives each frame's fields), then the step's end
  const before = ctx.module?.interim?.(data);
  if (Array.isArray(before)) for (const frame of before) queue.push({ ...data, ...frame, interim: true });
  else if (before) queue.push({ ...data, interim: true });
  queue.push(data);
  pump();
}

function pump() {
  if (holding || !queue.length) return;
  const data = queue.shift();
  if (data.type === "clock") { setClock(data); pump(); return; }
  const before = ctx.obs;
  show(data);
  while (queue.length && queue[0].type === "clock") setClock(queue.shift());
  let wait = dwell(data, before) * PACE[pace()];
  // far behind (back from a lost connection), or nobody looking (a tab in the background)
  if (queue.length > 24 || document.hidden) wait = 0;
  holding = setTimeout(() => { holding = null; pump(); }, wait);
}

/** How long (ms, at normal pace) a state stays before the next replaces it. */
function dwell(data, before) {
  const entry = data.event || {};
  const own = ctx.me && entry.seat === ctx.me.seat && entry.kind === "move";
  const given = ctx.module?.dwell ? ctx.module.dwell(ctx.obs, before, entry, ctx) : null;
  if (typeof given === "number") return own ? Math.min(given, 300) : given;
  return own ? 0 : entry.kind === "chance" ? 350 : 700;
}

function show(data) {
  if (data.observation) ctx.obs = data.observation;
  // the step's entries as this page may see them (a game's page may show an earlier one)
  ctx.stepEvents = Array.isArray(data.events) ? data.events : [];
  ctx.interim = Boolean(data.interim);
  if (typeof data.seq === "number") ctx.seq = data.seq;
  absorb(data);
  if (Array.isArray(data.events) && data.events.length) {
    // one message per step: its entries in order (a fetch fills any gap before them)
    const first = data.events[0].seq;
    if (typeof first === "number" && eventsSeen > 0 && first > eventsSeen + 1) loadEvents();
    else for (const e of data.events) logEvent(e, e.seq);
  } else if (data.event) {
    const at = data.event.seq ?? data.seq;
    // several entries may have landed at once (a bot's reply, a deal): fetch what is missing
    if (typeof at === "number" && eventsSeen > 0 && at > eventsSeen + 1) loadEvents();
    else logEvent(data.event, at);
  }
  header(); render(); tick();
  if (isOver() && !ctx.revealed) revealSeed();
}

function absorb(data) {
  for (const k of TABLE_FIELDS) if (k in data) ctx.info[k] = data[k];
  if (Array.isArray(data.seats)) ctx.seats = data.seats;
  if (data.rematch) offerRematch(data.rematch);
}

// -- acting -------------------------------------------------------------------------------

async function act(action) {
  if (!ctx.me || ctx.pending) return;
  ctx.pending = true;
  showError($("action-error"), "");
  try {
    const at = ctx.seq;
    const done = await api("POST", tablePath("/actions"), { action, seq: at }, ctx.me.token);
    ctx.actedAt = at; // no second action on the state already acted on
    // with the socket open its messages bring each state in turn, shown at the chosen pace
    const live = socket && socket.readyState === 1;
    if (!live && done && typeof done.seq === "number" && done.seq >= ctx.seq) {
      queue.length = 0;
      ctx.received = done.seq;
      ctx.seq = done.seq;
      if (done.observation) ctx.obs = done.observation;
      absorb(done);
    }
  } catch (err) {
    showError($("action-error"), err.message);
    if (err.status === 409) resync();
  } finally {
    ctx.pending = false;
    header(); render();
    if (isOver() && !ctx.revealed) revealSeed();
  }
}

// -- rendering ------------------------------------------------------------------------------

function isOver() {
  if (ctx.interim) return false; // an earlier moment of the step: the game went on from it
  const o = ctx.obs || {};
  return Boolean(o.outcome) || o.current_player === -4 || o.phase === "over" || ["over", "finished"].includes(ctx.info?.status);
}

function header() {
  const info = ctx.info || {};
  const rules = ctx.rules || {};
  $("table-title").textContent = tableName();
  const preset = rules.preset || rules.variant || "";
  const presetKey = `preset.${info.game}.${preset}`; // the preset in the players' words
  const variant = preset && has(presetKey) ? t(presetKey) : preset;
  $("table-variant").textContent = variant;
  // "Acey-Deucey backgammon · Acey-Deucey backgammon · playing": the title says it already
  $("table-variant-box").hidden = !variant || variant === $("table-title").textContent;
  $("watchers").textContent = t("lobby.spectators", { count: info.spectators ?? 0 });
  $("table-status").textContent = t(`status.${info.status}`) === `status.${info.status}` ? (info.status || "") : t(`status.${info.status}`);
  const url = new URL(location.href);
  url.search = "";
  if (info.invite) url.search = info.invite.startsWith("?") ? info.invite : `?invite=${encodeURIComponent(info.invite)}`;
  else if (invite) url.searchParams.set("invite", invite);
  $("table-invite").value = url.toString();
  $("seat-link-box").hidden = !ctx.me?.token;
  if (ctx.me?.token) $("seat-link").value = `${url}#token=${encodeURIComponent(ctx.me.token)}`;
  const fair = info.fairness || {};
  $("commitment").textContent = fair.commitment || "–";
  $("record-link").href = tablePath("/record");
  $("record-link").setAttribute("download", `${info.game || "game"}-${tableId}.json`);
  // a .mat file (GNU Backgammon, eXtreme Gammon) where the table's rules fit one
  $("mat-link").hidden = !(info.record_formats || []).includes("mat");
  $("mat-link").href = tablePath("/record.mat");
  $("mat-link").setAttribute("download", `${info.game || "game"}-${tableId}.mat`);
  $("rules-link").href = `/rules/${info.game}?preset=${encodeURIComponent(rules.preset || rules.variant || "")}`;
  $("replay-link").href = `/tables/${encodeURIComponent(tableId)}/replay`;
  $("resign").hidden = !(ctx.me && info.game === "backgammon" && !isOver());
  claimButton();
  $("chat-form").hidden = !ctx.me;
  $("chat-note").hidden = Boolean(ctx.me);
  const join = $("join");
  const free = freeSeats();
  join.hidden = Boolean(ctx.me) || watching || !free.length || isOver();
  $("join-hints").hidden = !info.hints; // who sits down at this table agrees to hints
  $("table-hints").hidden = !info.hints;
  if (!join.hidden) {
    keepChildren($("join-seats"), free.map((i) => h("button.btn.primary", { type: "button", "data-seat": i, onclick: () => takeSeat(i) }, t("table.take_seat", { n: i + 1 }))));
  }
}

function claimButton() {
  const info = ctx.info || {};
  const away = ctx.me && !isOver() && info.status === "playing"
    ? ctx.seats.findIndex((seat, i) => i !== ctx.me.seat && seat && seat.kind === "human" && seat.taken && !seat.connected)
    : -1;
  if (away >= 0 && awaySince[away] === undefined) awaySince[away] = Date.now() / 1000;
  for (const i of Object.keys(awaySince)) if (Number(i) !== away) delete awaySince[i];
  // the claim is open once the seat has been away the table's time (the server's default: 60 s)
  const wait = typeof info.claim_after === "number" ? info.claim_after : 60;
  const open = away >= 0 && Date.now() / 1000 - awaySince[away] >= wait;
  $("claim").hidden = !open;
  if (open) {
    const mode = ctx.seats.length === 2 ? "win" : "bot";
    $("claim").textContent = t(`table.claim_${mode}`, { who: seatName(ctx.seats, away) });
    $("claim").onclick = () => claim(away, mode);
  }
}

function freeSeats() {
  return ctx.seats.map((seat, i) => [seat, i]).filter(([seat]) => {
    if (!seat || typeof seat !== "object") return false;
    if (isBotSeat(seat)) return false;
    return !seat.taken;
  }).map(([, i]) => i);
}

async function takeSeat(i) {
  const name = $("join-nick").value.trim() || nickname();
  saveNickname(name);
  showError($("join-error"), "");
  try {
    const got = await api("POST", tablePath(`/seats/${i}`), { name });
    ctx.me = { seat: i, token: got.token }; // the answer also set the seat's cookie
    if (socket) { socket.onclose = null; socket.close(); socket = null; }
    await load();
  } catch (err) {
    showError($("join-error"), err.message);
    resync();
  }
}

function turnText() {
  const o = ctx.obs || {};
  if (isOver()) return { text: t("table.game_over"), mine: false };
  let cp = o.current_player;
  if (typeof ctx.info?.to_roll === "number") cp = ctx.info.to_roll;
  if (ctx.me && cp === ctx.me.seat) return { text: t("table.your_turn"), mine: true };
  if (typeof cp === "number" && cp >= 0) return { text: t("table.turn_of", { name: seatName(ctx.seats, cp) }), mine: false };
  return { text: t("table.waiting"), mine: false };
}

function render() {
  if (!ctx.module || !ctx.obs) return;
  const turn = turnText();
  $("turn").textContent = turn.text;
  $("turn").classList.toggle("mine", turn.mine);
  announceTurn(turn.mine);
  let legal = ctx.obs.legal_actions || [];
  if (ctx.me && ctx.info?.to_roll === ctx.me.seat && !isOver() && !legal.includes("roll")) legal = [...legal, "roll"];
  // an interim frame (a step's earlier moment, see enqueue) offers no action: its moment is past
  if (ctx.interim) legal = [];
  const mine = Boolean(ctx.me) && legal.length > 0 && !ctx.pending && ctx.actedAt !== ctx.seq;
  const view = { ...ctx, legal: ctx.me ? legal : [], mine, over: isOver() };
  ctx.module.render($("board"), $("controls"), view);
  seatList();
  const over = isOver();
  $("after").hidden = !over;
  if (over) $("result").textContent = resultText();
}

function balanceOf(i) {
  return ctx.module.balance ? ctx.module.balance(ctx.obs, i, ctx) : null;
}

function seatList() {
  const o = ctx.obs || {};
  const items = ctx.seats.map((seat, i) => {
    const on = seat && typeof seat === "object" ? (seat.connected ?? seat.online ?? isBotSeat(seat)) : false;
    const kind = isBotSeat(seat) ? t("table.bot_kind", { name: botName(seat) }) : (seat && seat.taken ? t("table.human") : t("table.free"));
    const bal = balanceOf(i);
    return h("li", { class: [o.current_player === i ? "current" : "", ctx.me?.seat === i ? "me" : ""].join(" "), "data-seat": i },
      h("span", { class: `dot ${on ? "on" : ""}`, title: on ? t("table.connected") : t("table.away") }),
      h("span.who", { "data-you": ` ${t("table.you")}` }, seatName(ctx.seats, i), h("span.kind", {}, kind)),
      h("span.bal", {}, bal ?? ""));
  });
  $("seat-list").replaceChildren(...items);
}

function resultText() {
  const o = ctx.obs || {};
  const ended = ctx.info?.ended || null;
  const out = o.outcome || ended || {};
  const parts = [];
  if (ended && ["resigned", "claimed"].includes(ended.termination)) {
    parts.push(t(`table.ended_${ended.termination}`, { who: seatName(ctx.seats, ended.seat) }));
  } else if (out.message) parts.push(out.message);
  const words = ctx.module?.resultWords ? ctx.module.resultWords(out, ctx) : "";
  if (words) parts.push(words);
  const winners = out.winners || (typeof o.winner === "number" ? [o.winner] : []);
  if (winners.length) parts.push(t("table.winners", { names: winners.map((i) => seatName(ctx.seats, i)) }));
  // everyone who ended ahead is named, also where the game's winners are fewer (Red Dog)
  const ahead = Array.isArray(out.returns) ? out.returns.map((r, i) => [ratio(r), i]).filter(([v, i]) => v > 0 && !winners.includes(i)).map(([, i]) => i) : [];
  if (ahead.length) parts.push(t("table.also_ahead", { names: ahead.map((i) => seatName(ctx.seats, i)) }));
  // exact results: whole chips where they are whole, a mixed number ("+1½") where not
  if (Array.isArray(out.returns)) parts.push(out.returns.map((r, i) => `${seatName(ctx.seats, i)} ${mixed(r, { signed: true })}`).join(" · "));
  return parts.join(". ") || t("table.game_over");
}

function ratio(text) {
  const [n, d] = String(text).split("/").map(Number);
  return d ? n / d : n;
}

async function revealSeed() {
  ctx.revealed = true;
  try {
    const record = await api("GET", tablePath("/record"));
    const fair = record?.fairness || {};
    const seed = fair.server_seed || fair.seed;
    if (seed) { $("seed").textContent = seed; $("seed-row").hidden = false; }
  } catch { /* shown when the record is fetched again */ }
}

// -- the log and chat -------------------------------------------------------------------------

/** One entry of the table's log ({seq, kind, seat, action, event}) in words. */
function entryText(entry) {
  const event = entry && typeof entry === "object" && "event" in entry && "seq" in entry ? entry.event : entry;
  const who = entry && typeof entry.seat === "number" ? seatName(ctx.seats, entry.seat) : "";
  if (entry && ["resign", "claim", "handover"].includes(entry.kind)) return t(`log.${entry.kind}`, { who });
  // an event that does not belong to this entry (a game's narration may lag) is not used
  const fits = event && (!ctx.module?.matches || ctx.module.matches(entry, event));
  let text = fits && ctx.module?.describe ? ctx.module.describe(event, ctx) : null;
  if (!text && entry?.action && ctx.module?.describeAction) text = ctx.module.describeAction(entry, ctx);
  if (entry && entry.kind === "timeout") text = t("log.timeout", { who, action: text || entry.action || "" });
  if (text) return text;
  if (!entry || typeof entry !== "object") return null;
  if (entry.action && who) return t("log.acted", { who, action: entry.action });
  if (entry.action && entry.kind === "chance") return t("log.chance", { action: entry.action });
  return null;
}

function logEvent(entry, seq) {
  if (!entry) return;
  if (typeof seq === "number") { if (seq <= eventsSeen) return; eventsSeen = seq; }
  const text = entryText(entry);
  if (!text) return;
  const log = $("log");
  log.append(h("li", { "data-seq": seq ?? "" }, text));
  while (log.children.length > 300) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
  log.classList.toggle("more-above", log.scrollTop > 0);
}

const chatSeen = new Set();

function chatLine(msg) {
  if (msg.id !== undefined) { if (chatSeen.has(msg.id)) return; chatSeen.add(msg.id); }
  const chat = $("chat");
  const name = msg.name || seatName(ctx.seats, msg.seat);
  chat.append(h("li", {}, h("b", {}, name), ": ", msg.text || ""));
  chat.scrollTop = chat.scrollHeight;
}

async function sendChat(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) return;
  try {
    await api("POST", tablePath("/chat"), { text }, ctx.me?.token);
    input.value = "";
  } catch (err) { showError($("action-error"), err.message); }
}

async function loadChat() {
  try {
    const data = await api("GET", tablePath("/chat"));
    const list = Array.isArray(data) ? data : data.chat || data.messages || [];
    for (const m of list) chatLine(m);
  } catch { /* no history */ }
}

function offerRematch() {
  // another player asked for the rematch: the same button joins it (the seat is kept)
  $("rematch").textContent = t("table.join_rematch");
}

async function rematch() {
  try {
    const made = await api("POST", tablePath("/rematch"), {}, ctx.me?.token);
    const id = made.id || made.table;
    const carry = ctx.me && made.token ? `#token=${encodeURIComponent(made.token)}` : "";
    location.href = (made.invite && made.invite.startsWith("/") ? made.invite : `/tables/${encodeURIComponent(id)}`) + carry;
  } catch (err) { showError($("action-error"), err.message); }
}

async function claim(seat, mode) {
  try { await api("POST", tablePath("/claim"), { seat, mode }, ctx.me?.token); await resync(); }
  catch (err) {
    // the page words the refusal itself: the seat by its player's name
    const key = `table.refused.${err.code}`;
    showError($("action-error"), has(key) ? t(key, { ...err.params, who: seatName(ctx.seats, seat) }) : err.message);
  }
}

async function simple(path) {
  try { await api("POST", tablePath(path), {}, ctx.me?.token); await resync(); }
  catch (err) { showError($("action-error"), err.message); }
}

const awaySince = {};

/** The table's name: the game, and the variant where it is not the game's own (classic). */
function tableName() {
  return tableTitle(ctx.info?.game, ctx.rules?.variant);
}

// -- the turn clock: every running clock, seen by everyone, with a warning before it runs out --

function clockLeft() {
  const c = ctx.clock;
  if (!c || typeof c.deadline !== "number" || isOver()) return null;
  return c.deadline - (Date.now() / 1000 + (c.skew || 0));
}

function tick() {
  const node = $("timer");
  const left = clockLeft();
  claimButton();
  // a clock belongs to the turn on screen: the person it runs for must be the one to act there
  const current = left !== null && ctx.clock.seat === ctx.info?.to_act;
  if (left === null || left < -1 || !current) { node.hidden = true; return; }
  const secs = Math.max(0, Math.ceil(left));
  const seat = ctx.clock.seat;
  const who = ctx.me && seat === ctx.me.seat ? t("table.clock_you") : (typeof seat === "number" ? seatName(ctx.seats, seat) : "");
  const total = Number(ctx.info?.turn_seconds) || 60;
  const low = secs <= Math.max(5, Math.min(10, total / 4));
  node.hidden = false;
  node.dataset.seat = seat ?? "";
  node.dataset.left = secs;
  node.textContent = t("table.clock", { who, time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` });
  node.classList.toggle("low", low);
  node.setAttribute("aria-label", t("table.clock_label", { who, s: secs }));
  if (low && warned !== ctx.clock.deadline) {
    warned = ctx.clock.deadline;
    if (ctx.me && seat === ctx.me.seat) {
      $("clock-warning").textContent = t("table.clock_warning", { s: secs });
      sound("warn");
    }
  }
}
let warned = null;
setInterval(tick, 500);

// -- your turn: the tab's title, a sound (when chosen), a notification (when allowed) --

let wasMine = false;

function announceTurn(mine) {
  const base = `${tableName()} · ${t("site.name")}`;
  document.title = mine ? `${t("table.your_turn")} · ${base}` : base;
  if (mine && !wasMine) {
    sound("turn");
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification(tableName(), { body: t("table.your_turn"), tag: `table-${tableId}` }); } catch { /* not allowed here */ }
    }
  }
  wasMine = mine;
}

// sounds are made with the Web Audio API (no files); off until the person turns them on
let audio = null;

function soundOn() {
  try { return localStorage.getItem("sound") === "on"; } catch { return false; }
}

export function sound(kind) {
  if (!soundOn()) return;
  try {
    audio ||= new AudioContext();
    const notes = { turn: [660, 880], deal: [300], roll: [180, 150], warn: [520, 520, 520] }[kind] || [440];
    notes.forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const at = audio.currentTime + i * 0.14;
      osc.type = kind === "deal" || kind === "roll" ? "triangle" : "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.13);
    });
  } catch { /* no audio here */ }
}
ctx.sound = sound;

function prefs() {
  const speed = $("pace");
  speed.value = pace();
  speed.addEventListener("change", () => { try { localStorage.setItem("pace", speed.value); } catch { /* private mode */ } });
  const box = $("sound");
  box.checked = soundOn();
  box.addEventListener("change", () => {
    try { localStorage.setItem("sound", box.checked ? "on" : "off"); } catch { /* private mode */ }
    if (box.checked) sound("turn");
  });
  const notify = $("notify");
  notify.hidden = !("Notification" in window) || Notification.permission !== "default";
  notify.addEventListener("click", () => { Notification.requestPermission().finally(() => { notify.hidden = true; }); });
}

// -- start ----------------------------------------------------------------------------------

$("join-nick").value = nickname();
prefs();
$("watch").addEventListener("click", () => { watching = true; $("join").hidden = true; });
$("copy-table-invite").addEventListener("click", () => copyText($("table-invite")));
$("copy-seat-link").addEventListener("click", () => copyText($("seat-link")));
$("chat-form").addEventListener("submit", sendChat);
$("log").addEventListener("scroll", (e) => e.target.classList.toggle("more-above", e.target.scrollTop > 0), { passive: true });
$("rematch").addEventListener("click", rematch);
$("resign").addEventListener("click", () => { if (confirm(t("table.resign_confirm"))) simple("/resign"); });
load().then(loadChat);
