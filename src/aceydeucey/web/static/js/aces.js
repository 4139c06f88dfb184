// Aces in the Pot: the dice, everyone's chips, the pot, the finish attempt roll by roll.
import { h, t, has, keepChildren } from "./common.js";
import { dieSvg, chipSvg } from "./cards.js";

function lastDice(obs) {
  const e = obs.last_event || {};
  const m = /^(\d)-(\d)$/.exec(String(e.action || ""));
  if (m) return [Number(m[1]), Number(m[2])];
  const one = /^die (\d)$/.exec(String(e.action || ""));
  if (one) return [Number(one[1])];
  return Array.isArray(e.dice) ? e.dice : [];
}

let heard = "";

/** The result in words (the table's end screen and the replay): the pot the winner took. */
export function resultWords(outcome) {
  const pot = (outcome && outcome.params || {}).pot;
  return typeof pot === "number" ? t("aces.result.pot", { pot }) : "";
}

export function balance(obs, i, view) {
  const { chips } = settled(obs, view?.rules);
  return chips[i] !== undefined ? String(chips[i]) : null;
}

/** Everyone's chips and the pot; once the game is over, after the winner takes the pot
 * (the last state still shows the pot on the table): each seat's start plus its return. */
function settled(obs, rules) {
  const chips = (obs.chips || []).slice();
  const pot = obs.pot ?? 0;
  const out = obs.outcome;
  const start = Number(rules?.starting_chips);
  if (!out || !Array.isArray(out.returns) || out.returns.length !== chips.length || !Number.isFinite(start)) return { chips, pot };
  const total = chips.reduce((a, b) => a + b, 0) + pot;
  const after = out.returns.map((r) => start + Number(r));
  const rest = total - after.reduce((a, b) => a + b, 0);
  if (after.some((x) => !Number.isInteger(x) || x < 0) || rest < 0) return { chips, pot };
  return { chips: after, pot: rest };
}

export function render(board, controls, view) {
  const obs = view.obs;
  const names = view.names();
  const dice = lastDice(obs);
  const { chips, pot } = settled(obs, view.rules);
  const roller = obs.roller;
  const e = obs.last_event || {};
  const parts = [
    h("div.ib-top", {},
      h("div.pot", { "data-pot": pot }, chipSvg(), h("span", {}, t("aces.pot"), " ", h("b", {}, String(pot)))),
      h("div.ib-round", {}, has(`aces.phase.${obs.phase}`) ? t(`aces.phase.${obs.phase}`) : String(obs.phase || ""))),
  ];
  if (obs.phase === "finish") {
    const n = Number(obs.finish_rolls || 0);
    const used = Number(obs.roll_number || 0) - (obs.phase === "finish" ? 1 : 0);
    parts.push(h("div.finish", {},
      t("aces.finish_attempt", { name: names[obs.holder] ?? "", n: Math.max(0, used) + (obs.phase === "finish" ? 1 : 0), of: n }),
      h("div.tries", { "aria-hidden": "true" }, ...Array.from({ length: n }, (_, i) => h("span", { class: `try ${i < used ? "used" : ""}` })))));
  }
  parts.push(h("div.dice-row", { "aria-label": t("aces.last_roll") }, ...(dice.length ? dice : [0, 0]).map((d) => dieSvg(d))));
  if (e.seat !== undefined && e.action) parts.push(h("p.card-label", { "data-seat": e.seat }, describe(e, view) || ""));
  const rolloff = obs.rolloff || null;
  const rolled = (i) => {
    if (!rolloff || !Array.isArray(rolloff.seats)) return null;
    const k = rolloff.seats.indexOf(i);
    const d = k >= 0 ? (rolloff.dice || [])[k] : undefined;
    return d ? dieSvg(d, { cls: "die-small" }) : null;
  };
  parts.push(h("div.aces-seats", {}, ...chips.map((c, i) => h("div", { class: `ib-seat ${i === roller ? "active" : ""}`, "data-seat": i },
    h("span.n", {}, names[i] || t("table.seat_n", { n: i + 1 }), rolled(i)),
    h("b", { "data-chips": c }, String(c)), " ", t(c === 1 ? "ib.chip" : "ib.chips"),
    h("div.chips", { "aria-hidden": "true" }, ...Array.from({ length: Math.min(c, 20) }, () => h("span.chip")))))));
  board.className = "felt aces";
  board.replaceChildren(...parts);
  const key = `${view.tableId}:${view.seq}`;
  if (dice.length && e.action && heard !== key) view.sound?.("roll");
  heard = key;
  const nodes = [];
  if (view.mine) {
    for (const a of view.legal) nodes.push(h("button.btn.primary", { type: "button", "data-action": a, onclick: () => view.act(a) }, has(`aces.action.${a}`) ? t(`aces.action.${a}`) : a));
  }
  keepChildren(controls, nodes);
}

/** The rolls of a step before its last (the person's own, then the bots' replies come in
 * one step): each gets a frame of its own, its dice and what they did, before the step's
 * end, with the chips and the pot that throw left (the event carries them). */
export function interim(data) {
  const events = Array.isArray(data.events) ? data.events : [];
  const obs = data.observation;
  if (!obs) return null;
  return events.slice(0, -1).filter((item) => item?.event?.action && typeof item.event.seat === "number")
    .map((item) => {
      const e = item.event;
      const table = Array.isArray(e.chips) && typeof e.pot === "number" ? { chips: e.chips, pot: e.pot } : {};
      return { observation: { ...obs, ...table, outcome: null, phase: e.phase || obs.phase, last_event: e } };
    });
}

/** How long a state stays before the next (ms at normal pace): each roll is seen. */
export function dwell(obs) {
  const e = obs.last_event || {};
  if (obs.phase === "over" || e.outcome === "over") return 1800;
  return e.action ? 1100 : 500;
}

export function describe(event, view) {
  if (!event || typeof event !== "object") return null;
  const names = view.names();
  const who = typeof event.seat === "number" ? names[event.seat] : "";
  const roll = String(event.action || "").replace(/^die /, "");
  if (!event.action && !event.outcome) return null;
  const outcome = String(event.outcome || event.kind || "");
  const key = `aces.event.${outcome}`;
  const values = { who, roll, pot: event.to_pot, left: event.to_left, next: names[event.next_seat] ?? "", n: event.roll_number,
    tied: (event.tied || []).map((i) => names[i]).join(", ") };
  // the roll, the chips it moved, then what follows: "Ana rolls 6-1 (1 chip to the pot, ...)."
  const moves = [];
  const chips = (n) => ({ n, chips: t(n === 1 ? "ib.chip" : "ib.chips") });
  if (event.to_pot) moves.push(t("aces.event.to_pot", chips(event.to_pot)));
  if (event.to_left) moves.push(t("aces.event.to_left", chips(event.to_left)));
  if (event.unpaid) moves.push(t("aces.event.unpaid", chips(event.unpaid)));
  let text = t("aces.event.rolled", values);
  if (moves.length) text = `${text.replace(/\.$/, "")} (${moves.join(", ")}).`;
  if (has(key)) text += ` ${t(key, values)}`;
  return text;
}
