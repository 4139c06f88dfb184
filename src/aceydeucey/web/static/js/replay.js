// The replay viewer: steps back and forth through a record's public observations,
// which the server computes by replaying the record with the engine.
import { api, h, t, has, tableTitle, showError, gameModule, addMessages, botName, PAGE, mixed } from "./common.js";
import { boardAt, noteStep, showAnalysis } from "./replay_analysis.js";

const $ = (id) => document.getElementById(id);
let data = null;
let module = null;
let index = 0;

async function open(record) {
  showError($("page-error"), "");
  try {
    data = await api("POST", "/replay/steps", record);
  } catch (err) { showError($("page-error"), err.message); return; }
  module = await gameModule(data.game);
  if (module.messages) addMessages(module.messages());
  $("viewer").hidden = false;
  const title = tableTitle(data.game, (data.rules || {}).variant);
  $("replay-title").textContent = `${t("replay.title")} · ${title}`;
  const rules = data.rules || {};
  const preset = rules.preset || rules.variant; // in the players' words, as the table names it
  const presetKey = `preset.${data.game}.${preset}`;
  const variant = preset && has(presetKey) ? t(presetKey) : preset;
  $("replay-sub").textContent = [variant !== title && variant, t("replay.actions", { n: data.steps.length - 1 })].filter(Boolean).join(" · ");
  $("scrub").max = data.steps.length - 1;
  const fair = data.fairness || {};
  $("seed").textContent = fair.server_seed || fair.seed || "–";
  const out = data.outcome;
  $("replay-result").textContent = out ? resultText(out) : t("replay.unfinished");
  const check = data.verification || {};
  $("verified").textContent = `${check.ok === true ? "✔ " : check.ok === false ? "✘ " : ""}${check.message || ""}`;
  $("verified").className = `verified ${check.ok === true ? "ok" : check.ok === false ? "bad" : ""}`;
  listMoves();
  go(0);
  if ($("analysis")) $("analysis").hidden = true;
  if (data.game === "backgammon") showAnalysis(record, go, name);
}

function viewOf(k) {
  const seats = (data.players || []).map((p, i) => ({ name: name(i), taken: true }));
  return { obs: data.steps[k].observation, previous: k > 0 ? data.steps[k - 1].observation : null, legal: [], mine: false, me: null, seats, rules: data.rules, tableId: "replay", seq: k,
    names: () => seats.map((_, i) => name(i)), act: () => {}, refresh: () => go(index), coach: false };
}

function stepText(k) {
  const step = data.steps[k];
  const event = step.observation?.last_event;
  const said = module.describe && event ? module.describe(event, viewOf(k)) : "";
  // an action the last event does not narrate (a session's last pass): the action in words
  const acted = !said && step.action && module.describeAction ? module.describeAction(step, viewOf(k)) : "";
  return said || acted || step.action || "";
}

function listMoves() {
  const items = data.steps.slice(1).map((step, k) => h("li", { "data-step": k + 1 },
    h("a", { href: "#", onclick: (e) => { e.preventDefault(); go(k + 1); } }, `${k + 1}. ${stepText(k + 1)}`)));
  $("moves").replaceChildren(...items);
}

/** The result in the players' words, as the table's end screen says it: an ending by its
 * seat's name, else the game's words for the result and its winners, then each seat's return.
 * The engine's own message (which counts seats by number) stands where a game has no words. */
function resultText(out) {
  const p = out.params || {};
  const ending = String(out.termination || "").replace(/^ending\./, "");
  const parts = [];
  if (typeof p.seat === "number" && has(`table.ended_${ending}`)) parts.push(t(`table.ended_${ending}`, { who: name(p.seat) }));
  else if (!module.resultWords) parts.push(out.message);
  if (module.resultWords) parts.push(module.resultWords(out, viewOf(data.steps.length - 1)));
  const winners = out.winners || [];
  if (typeof p.final === "string" && winners.length === 1) {
    const [x, y] = p.final.split("-").map(Number);
    const w = winners[0];
    parts.push(t("bg.match.won", { who: name(w), x: w === 0 ? x : y, y: w === 0 ? y : x, n: p.match_length }));
  } else if (winners.length) parts.push(t("table.winners", { names: winners.map(name) }));
  parts.push((out.returns || []).map((r, i) => `${name(i)} ${mixed(r, { signed: true })}`).join(" · "));
  return parts.filter(Boolean).join(". ");
}

function name(i) {
  const p = (data.players || [])[i];
  const text = (typeof p === "string" ? p : p?.name) || "";
  if (text.startsWith("bot:")) return t("table.bot_named", { name: botName({ bot: text.slice(4) }), n: i + 1 });
  return text || t("table.seat_n", { n: i + 1 });
}

function go(i) {
  if (!data) return;
  index = Math.max(0, Math.min(data.steps.length - 1, i));
  const step = data.steps[index];
  const view = viewOf(index);
  const seats = view.seats;
  // the analysis may draw the best play instead, and mark the moves of either
  const drawn = boardAt(index, view.obs);
  module.render($("board"), document.createElement("div"), { ...view, ...drawn });
  $("step-no").textContent = t("replay.step", { n: index, of: data.steps.length - 1 });
  $("scrub").value = index;
  const said = stepText(index);
  // the step in words (the record's notation is English code words such as "pass", not the
  // players' words: it stays in the downloaded record, never on the page)
  $("step-action").textContent = step.action ? (said || step.action) : t("replay.start");
  $("first").disabled = $("prev").disabled = index === 0;
  $("last").disabled = $("next").disabled = index === data.steps.length - 1;
  for (const li of $("moves").children) li.classList.toggle("here", Number(li.dataset.step) === index);
  $("moves").querySelector(".here")?.scrollIntoView({ block: "nearest" });
  noteStep(index);
  $("seat-list").replaceChildren(...seats.map((_, k) => h("li", { "data-seat": k }, h("span.dot.on"), h("span.who", {}, name(k)), h("span.bal", {}, module.balance ? module.balance(step.observation, k) ?? "" : ""))));
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(index - 1));
$("next").addEventListener("click", () => go(index + 1));
$("last").addEventListener("click", () => go(data ? data.steps.length - 1 : 0));
$("scrub").addEventListener("input", (e) => go(Number(e.target.value)));
document.addEventListener("keydown", (e) => {
  if (!data || e.target.closest?.("input[type=file]")) return;
  if (e.key === "ArrowLeft") go(index - 1);
  else if (e.key === "ArrowRight") go(index + 1);
});
$("record-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  $("file-name").textContent = file.name;
  let record;
  try { record = JSON.parse(await file.text()); } catch { showError($("page-error"), t("error.record_not_json")); return; }
  open(record);
});

/** A table's record downloads beside its replay: JSON, and .mat where its rules fit one. */
function downloads(path, info) {
  const name = `${info.game || "game"}-${PAGE.table}`;
  $("record-link").href = `${path}/record`;
  $("record-link").setAttribute("download", `${name}.json`);
  $("mat-link").hidden = !(info.record_formats || []).includes("mat");
  $("mat-link").href = `${path}/record.mat`;
  $("mat-link").setAttribute("download", `${name}.mat`);
  $("downloads").hidden = false;
}

if (PAGE.table) {
  const path = `/api/tables/${encodeURIComponent(PAGE.table)}`;
  api("GET", `${path}/record`)
    .then(open)
    .catch((err) => showError($("page-error"), err.message));
  api("GET", path).then((info) => downloads(path, info)).catch(() => { /* the record's error is shown */ });
}
