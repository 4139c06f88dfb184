// The hint at a backgammon table whose creator allows it (the table's `hints`): the seat to
// decide asks the server (GET /api/tables/{id}/hint, view.hint) for the best action as the
// 3-ply analysis ranks it, shown in words under the actions and, for a play, on the board.
import { h, t, has, LANG } from "./common.js";

/** The phases in which the seat decides (a hint can be asked for). */
const DECIDING = ["play", "double", "cube", "take"];
// the hint asked for the state shown (its key): a new state forgets it
const asked = { key: "", found: null, error: "", busy: false };

function equityText(x) {
  const text = `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(3)}`;
  return LANG === "pt" ? text.replace(".", ",") : text;
}

/** A hint's suggestion in words. */
export function hintWords(found) {
  const equity = equityText(Number(found.equity));
  const a = String(found.action || "");
  if (found.kind === "play") return a === "pass" ? t("bg.hint.pass") : t("bg.hint.play", { play: a, equity });
  if (found.kind === "named_double") return t("bg.hint.named_double", { n: a.split(" ")[1] ?? "", equity });
  const key = `bg.hint.cube.${a}`;
  return has(key) ? t(key, { equity }) : t("bg.hint.other", { action: a, equity });
}

/** The Hint button (only at a table with hints, for the seat to decide) and, once asked,
 * the suggestion in words; `key` names the state shown, `again` renders it anew. */
export function hintControls(view, key, again) {
  const obs = view.obs || {};
  const me = view.me ? view.me.seat : null;
  const deciding = DECIDING.includes(obs.phase) && view.info?.to_roll !== me;
  if (!view.mine || !view.info?.hints || !view.hint || !deciding) return [];
  if (asked.key !== key) Object.assign(asked, { key, found: null, error: "", busy: false });
  const ask = async () => {
    asked.busy = true;
    again();
    try {
      const found = await view.hint();
      if (asked.key === key) asked.found = found;
    } catch (err) {
      if (asked.key === key) asked.error = err.message;
    } finally {
      if (asked.key === key) asked.busy = false;
      again();
    }
  };
  const nodes = [h("button.btn", { type: "button", id: "hint", disabled: asked.busy, onclick: ask }, t("bg.hint.button"))];
  const said = asked.found ? hintWords(asked.found) : asked.error;
  if (said) nodes.push(h("span.label.bg-hint", { id: "hint-text", role: "status" }, said));
  return nodes;
}

/** The places the suggested play moves from and to (its steps in obs.play_steps), to be
 * outlined on the board; empty unless a play was suggested for the state `key`. */
export function hintPlaces(obs, key) {
  const places = new Set();
  if (asked.key !== key || asked.found?.kind !== "play") return places;
  for (const step of (obs.play_steps || {})[asked.found.action] || []) {
    places.add(String(step.from));
    places.add(String(step.to));
  }
  return places;
}
