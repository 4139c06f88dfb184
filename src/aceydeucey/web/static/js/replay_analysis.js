// The replay viewer's analysis of a backgammon record (POST /replay/analysis, the analysis
// `aceydeucey analyze backgammon` prints): each player's error rate and marks, the equity
// lost at every decision (marked in the moves list and said under the board), and the
// game's graph: the first seat's chance of winning after every decision, an inline SVG.
// At a play that was not the best, "Show best play" (or the B key) draws the board after the
// best play instead, the server's board and moves (`best_view`), and back.
import { api, h, s, t } from "./common.js";

const $ = (id) => document.getElementById(id);
const GW = 600, GH = 150;
let found = null; // the analysis, once it came
let byStep = new Map(); // a step's number (its action's index + 1) -> the decision there
let goTo = () => {};
let bestAt = null; // the step whose board shows its decision's best play instead

/** Ask for the analysis of `record` (shown in the #analysis panel); `go` moves the viewer
 * to a step, `name` names a seat. */
export async function showAnalysis(record, go, name) {
  const panel = $("analysis");
  if (!panel) return;
  goTo = go;
  found = null;
  byStep = new Map();
  bestAt = null;
  panel.hidden = false;
  panel.setAttribute("aria-busy", "true");
  $("an-status").textContent = t("an.running");
  $("an-status").dataset.state = "running";
  $("an-graph").replaceChildren();
  $("an-players").replaceChildren();
  try {
    found = await api("POST", "/replay/analysis", record);
  } catch (err) {
    $("an-status").textContent = t("an.failed", { why: err.message });
    $("an-status").dataset.state = "failed";
    panel.removeAttribute("aria-busy");
    return;
  }
  panel.removeAttribute("aria-busy");
  $("an-status").textContent = t(found.unit === "points" ? "an.unit.points" : "an.unit.money");
  $("an-status").dataset.state = "done";
  for (const d of found.decisions) byStep.set(d.index + 1, d);
  $("an-players").replaceChildren(...found.players.map((p) => h("li", { "data-seat": p.seat }, t("an.player", {
    who: name(p.seat), n: p.decisions, rate: round(p.error_rate, 1), blunders: p.marks.blunder ?? 0,
    errors: p.marks.error ?? 0, doubtful: p.marks.doubtful ?? 0, luck: signed(p.luck) }))));
  $("an-graph").replaceChildren(graph(found.decisions, name));
  markMoves();
  const here = Number($("scrub")?.value || 0);
  if (byStep.get(here)?.best_view) goTo(here); // the played move's marks on the board
  else noteStep(here);
}

/** A decision's best choice as the page writes it: a play numbered as the board is, a named
 * double in the page's words. */
const bestWords = (d) => (d.best_double ? t("an.double_n", { n: d.best_double }) : d.best_shown ?? d.best);
const playedWords = (d) => (d.played_double ? t("an.double_n", { n: d.played_double }) : d.played_shown ?? d.played);
const round = (x, n) => Number(Number(x).toFixed(n));
const decimal = (x) => String(x).replace(".", document.documentElement.lang.startsWith("pt") ? "," : ".");
const signed = (x) => (x >= 0 ? "+" : "") + decimal(round(x, 2));

/** The first seat's winning chance after each decision, errors and blunders as dots. */
function graph(decisions, name) {
  const svg = s("svg", { viewBox: `0 0 ${GW} ${GH}`, class: "an-graph", role: "img", "aria-label": t("an.graph", { who: name(0) }) });
  svg.append(s("rect", { x: 0, y: 0, width: GW, height: GH, rx: 6, class: "an-bg" }));
  svg.append(s("line", { x1: 0, x2: GW, y1: GH / 2, y2: GH / 2, class: "an-mid" }));
  const n = Math.max(1, decisions.length - 1);
  const at = (d, i) => [(i / n) * GW, (1 - (d.seat === 0 ? d.win : 1 - d.win)) * GH];
  const points = decisions.map((d, i) => at(d, i).map((v) => v.toFixed(1)).join(",")).join(" ");
  if (decisions.length) svg.append(s("polyline", { points, class: "an-line", fill: "none" }));
  svg.append(s("line", { x1: 0, x2: 0, y1: 0, y2: GH, class: "an-here", id: "an-here" }));
  decisions.forEach((d, i) => {
    if (d.mark !== "blunder" && d.mark !== "error") return;
    const [x, y] = at(d, i);
    const dot = s("circle", { cx: x, cy: y, r: d.mark === "blunder" ? 5 : 3.5, class: `an-dot ${d.mark}`, "data-step": d.index + 1, tabindex: 0, role: "button",
      "aria-label": `${t(`an.mark.${d.mark}`)}: ${name(d.seat)} ${playedWords(d)}` });
    dot.append(s("title", { text: `${name(d.seat)} ${playedWords(d)}: ${t("an.lost", { loss: round(d.loss, 3), best: bestWords(d) })}` }));
    dot.addEventListener("click", () => goTo(d.index + 1));
    dot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); goTo(d.index + 1); } });
    svg.append(dot);
  });
  svg.dataset.decisions = String(decisions.length);
  return svg;
}

/** Each marked decision's line in the moves list gets its mark and the equity lost. */
function markMoves() {
  for (const li of document.querySelectorAll("#moves li[data-step]")) {
    const d = byStep.get(Number(li.dataset.step));
    li.querySelector(".an-mark")?.remove();
    if (!d) continue;
    const lost = round(d.loss, 3);
    if (!d.mark) { // every decision says what it cost, as gnubg's move list does; the best costs nothing
      if (lost > 0) li.append(h("span.an-mark.an-loss", { title: t("an.lost", { loss: lost, best: bestWords(d) }) }, ` −${decimal(lost)}`));
      continue;
    }
    li.dataset.mark = d.mark;
    li.append(h(`span.an-mark.${d.mark}`, { title: t("an.lost", { loss: round(d.loss, 3), best: bestWords(d) }) }, ` ${t(`an.mark.${d.mark}`)} −${decimal(round(d.loss, 3))}`));
  }
}

/** What the board draws at step `k` (its observation `obs`): the board after the best play
 * while it is asked for, else the step's own; `marks`: the moves drawn on it (the best play's,
 * or the move played at a step whose decision has a better play). */
export function boardAt(k, obs) {
  const view = byStep.get(k)?.best_view;
  if (!view) return { obs, marks: [] };
  if (bestAt === k) return { obs: view.board, marks: view.moves.map((m) => ({ ...m, kind: "best" })), tableId: "replay-best" };
  return { obs, marks: view.played_moves.map((m) => ({ ...m, kind: "played" })) };
}

function toggleBest() {
  const k = Number($("scrub")?.value || 0);
  if (!byStep.get(k)?.best_view) return;
  bestAt = bestAt === k ? null : k;
  goTo(k);
}

$("an-best")?.addEventListener("click", toggleBest);
document.addEventListener("keydown", (e) => {
  if (e.key !== "b" && e.key !== "B") return;
  if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest?.("input, select, textarea")) return;
  if ($("an-best") && !$("an-best").hidden) { e.preventDefault(); toggleBest(); }
});

/** The decision at step `k` under the board (what it lost and the best choice), the control
 * that draws its best play, and the graph's marker at it. */
export function noteStep(k) {
  const line = $("an-step");
  if (!line || !found) return;
  const d = byStep.get(k);
  if (bestAt !== k) bestAt = null; // another step shows its own board
  line.textContent = d ? `${d.mark ? t(`an.mark.${d.mark}`) + ": " : ""}${t("an.lost", { loss: round(d.loss, 3), best: bestWords(d) })}` : "";
  line.dataset.mark = d?.mark || "";
  const button = $("an-best");
  if (button) {
    const view = d?.best_view;
    const best = bestAt === k;
    button.hidden = !view;
    button.setAttribute("aria-pressed", String(best));
    button.textContent = t(best ? "an.show_played" : "an.show_best");
    $("an-legend").hidden = !view;
    $("an-legend").dataset.kind = best ? "best" : "played";
    const double = d?.kind === "named_double";
    const words = !view ? "" : best ? t(double ? "an.legend_best_double" : "an.legend_best", { play: view.shown, n: d.best_double })
      : t(double ? "an.legend_played_double" : "an.legend_played", { play: playedWords(d), n: d.played_double });
    $("an-legend").textContent = words;
  }
  const i = d ? found.decisions.indexOf(d) : found.decisions.findIndex((x) => x.index + 1 > k);
  const here = $("an-here");
  if (here && i >= 0) {
    const x = (i / Math.max(1, found.decisions.length - 1)) * GW;
    here.setAttribute("x1", x.toFixed(1));
    here.setAttribute("x2", x.toFixed(1));
  }
}
