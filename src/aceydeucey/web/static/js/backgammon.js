// Backgammon: the board as SVG, checkers moved step by step (click or drag) within the legal
// plays the server lists, undoable until the play is confirmed.
import { h, s, t, has, keepChildren } from "./common.js";
import { dieSvg } from "./cards.js";

const W = 36, L = 14, BAR = 36, TOP = 14, PH = 160, H = 400, TRAY = 66;
const BOARD_W = L * 2 + W * 12 + BAR;
const VIEW_W = BOARD_W + TRAY;
const R = 16;
const LIGHT = { fill: "#f4ecd8", stroke: "#8d7a58" };
const DARK = { fill: "#2a2523", stroke: "#000" };

let turn = { key: "", steps: [], selected: null };
// the latest render's arguments: a control kept from an earlier render acts on the page as it is now
let last = null;
const again = () => render(last.board, last.controls, last.view);

// -- the plays' die-by-die steps, as the observation gives them (obs.play_steps) --------------

const same = (a, b) => String(a.from) === String(b.from) && String(a.to) === String(b.to);

/** Remove `taken` from `steps` (as multisets); null if some step is missing. */
function minus(steps, taken) {
  const left = steps.slice();
  for (const x of taken) {
    const i = left.findIndex((y) => same(x, y));
    if (i < 0) return null;
    left.splice(i, 1);
  }
  return left;
}

function candidates(plays, taken) {
  return plays.map((p) => ({ ...p, left: p.steps ? minus(p.steps, taken) : null })).filter((p) => p.left);
}

// -- the position as the player moves --------------------------------------------------------

function position(obs, steps) {
  const pos = {
    points: (obs.points || Array(24).fill(0)).slice(),
    bar: (obs.bar || [0, 0]).slice(), unentered: (obs.unentered || [0, 0]).slice(), off: (obs.off || [0, 0]).slice(),
  };
  for (const st of steps) {
    if (st.from === "bar") pos.bar[0] -= 1;
    else if (st.from === "in") pos.unentered[0] -= 1;
    else pos.points[st.from - 1] -= 1;
    if (st.to === "off") pos.off[0] += 1;
    else {
      if (st.hit) { pos.points[st.to - 1] = 0; pos.bar[1] += 1; }
      pos.points[st.to - 1] += 1;
    }
  }
  return pos;
}

// -- drawing -----------------------------------------------------------------------------------

function colX(col) { return L + col * W + (col >= 6 ? BAR : 0); }
function pointCol(p) { return p <= 12 ? 12 - p : p - 13; }
function pointX(p) { return colX(pointCol(p)) + W / 2; }
function isTop(p) { return p >= 13; }

function checker(x, y, colour, attrs = {}) {
  return s("circle", { cx: x, cy: y, r: R, fill: colour.fill, stroke: colour.stroke, "stroke-width": 2, class: "checker", ...attrs });
}

// `place` names where the stack stands (a point, "bar" or "bar-opp"), for the tests and tools
function stack(node, x, baseY, dir, count, colour, attrs, label, place) {
  const shown = Math.min(count, 5);
  const side = { "data-at": place, "data-side": colour === LIGHT ? "light" : "dark" };
  for (let i = 0; i < shown; i += 1) node.append(checker(x, baseY + dir * (R + i * (2 * R - 2)), colour, { ...side, ...(i === shown - 1 ? attrs : { "pointer-events": "none" }) }));
  if (count > 5 || label) node.append(s("text", { x, y: baseY + dir * (R + (shown - 1) * (2 * R - 2)) + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: colour === LIGHT ? "#333" : "#fff", "pointer-events": "none", text: String(count) }));
}

function boardSvg(obs, pos, view, state) {
  const mySeat = typeof obs.seat === "number" ? obs.seat : 0;
  const own = mySeat === 1 ? DARK : LIGHT, opp = mySeat === 1 ? LIGHT : DARK;
  const svg = s("svg", { viewBox: `0 0 ${VIEW_W} ${H}`, class: "bg-board", role: "img", "aria-label": t("bg.board") });
  svg.append(s("rect", { x: 0, y: 0, width: BOARD_W, height: H, rx: 10, fill: "#6b3f1f" }));
  svg.append(s("rect", { x: L, y: TOP, width: W * 6, height: H - 2 * TOP, fill: "#d9c08f" }));
  svg.append(s("rect", { x: L + W * 6 + BAR, y: TOP, width: W * 6, height: H - 2 * TOP, fill: "#d9c08f" }));
  svg.append(s("rect", { x: L + W * 6, y: TOP, width: BAR, height: H - 2 * TOP, fill: "#4e2c14" }));
  svg.append(s("rect", { x: BOARD_W + 4, y: 0, width: TRAY - 4, height: H, rx: 8, fill: "#4e2c14" }));
  // generous hit areas under the drawing: a whole half-column answers for its point, since a
  // finger on a phone is wider than a point
  for (let p = 1; p <= 24; p += 1) {
    svg.append(s("rect", { x: colX(pointCol(p)), y: isTop(p) ? 0 : H / 2, width: W, height: H / 2, fill: "transparent", class: "hit", "data-hit": p }));
  }
  for (let p = 1; p <= 24; p += 1) {
    const x = colX(pointCol(p));
    const top = isTop(p);
    const y0 = top ? TOP : H - TOP;
    const tip = top ? TOP + PH : H - TOP - PH;
    const fill = (p % 2 === 0) ? "#a3262a" : "#2f4f3f";
    const target = state.targets.has(String(p));
    svg.append(s("polygon", { points: `${x},${y0} ${x + W},${y0} ${x + W / 2},${tip}`, fill, opacity: 0.92, "data-point": p, class: target ? "target" : "" }));
    svg.append(s("text", { x: x + W / 2, y: top ? TOP - 3 : H - 3, "text-anchor": "middle", "font-size": 10, fill: "#f2e6d6", text: String(p), "pointer-events": "none" }));
    if (target) svg.append(s("polygon", { points: `${x + 2},${y0} ${x + W - 2},${y0} ${x + W / 2},${tip}`, fill: "#f6c445", opacity: 0.55, "data-point": p, class: "target", "data-target": p }));
  }
  for (let p = 1; p <= 24; p += 1) {
    const n = pos.points[p - 1];
    if (!n) continue;
    const colour = n > 0 ? own : opp;
    const base = isTop(p) ? TOP : H - TOP;
    const dir = isTop(p) ? 1 : -1;
    const source = n > 0 && state.sources.has(String(p));
    stack(svg, pointX(p), base, dir, Math.abs(n), colour, { "data-from": source ? p : undefined, class: source ? "checker movable" : "checker", "stroke-width": String(state.selected) === String(p) ? 4 : 2, stroke: String(state.selected) === String(p) ? "#f6c445" : colour.stroke }, false, p);
  }
  const barX = L + W * 6 + BAR / 2;
  if (pos.bar[1]) stack(svg, barX, TOP + 40, 1, pos.bar[1], opp, {}, pos.bar[1] > 1, "bar-opp");
  if (pos.bar[0]) {
    const source = state.sources.has("bar");
    stack(svg, barX, H - TOP - 40, -1, pos.bar[0], own, { "data-from": source ? "bar" : undefined, class: source ? "checker movable" : "checker", stroke: state.selected === "bar" ? "#f6c445" : own.stroke, "stroke-width": state.selected === "bar" ? 4 : 2 }, pos.bar[0] > 1, "bar");
  }
  // the tray: the stock of unentered checkers and those borne off, the opponent's on top
  const trayX = BOARD_W + TRAY / 2 + 2;
  const slab = (y, colour, count, dir) => {
    for (let i = 0; i < count; i += 1) svg.append(s("rect", { x: trayX - 16, y: dir > 0 ? y + i * 7 : y - 6 - i * 7, width: 32, height: 6, rx: 2, fill: colour.fill, stroke: colour.stroke, "stroke-width": 1 }));
  };
  const label = (y, text) => svg.append(s("text", { x: trayX, y, "text-anchor": "middle", "font-size": 10, fill: "#f2e6d6", "pointer-events": "none", text }));
  if (pos.unentered[1]) {
    svg.append(checker(trayX, TOP + 22, opp, { "pointer-events": "none" }));
    svg.append(s("text", { x: trayX, y: TOP + 27, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: opp === LIGHT ? "#333" : "#fff", "pointer-events": "none", text: String(pos.unentered[1]) }));
    label(TOP + 52, t("bg.in"));
  }
  label(H / 2 - 10, `${t("bg.off")} ${pos.off[1]}`);
  slab(TOP + 62, opp, pos.off[1], 1);
  label(H / 2 + 18, `${t("bg.off")} ${pos.off[0]}`);
  slab(H - TOP - 62, own, pos.off[0], -1);
  const offTarget = state.targets.has("off");
  svg.append(s("rect", { x: BOARD_W + 6, y: H / 2, width: TRAY - 8, height: H / 2 - TOP, rx: 6, fill: offTarget ? "#f6c445" : "transparent", opacity: offTarget ? 0.45 : 0, "data-point": "off", "data-target": offTarget ? "off" : undefined, class: offTarget ? "target" : "" }));
  if (pos.unentered[0]) {
    const source = state.sources.has("in");
    label(H - TOP - 46, t("bg.in"));
    svg.append(checker(trayX, H - TOP - 22, own, { "data-from": source ? "in" : undefined, class: source ? "checker movable" : "checker", stroke: state.selected === "in" ? "#f6c445" : own.stroke, "stroke-width": state.selected === "in" ? 4 : 2 }));
    svg.append(s("text", { x: trayX, y: H - TOP - 17, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: own === LIGHT ? "#333" : "#fff", "pointer-events": "none", text: String(pos.unentered[0]) }));
  }
  // dice on the right half
  const dice = obs.dice || [];
  const used = state.usedDice;
  dice.forEach((d, i) => {
    const size = 30;
    const x = L + W * 6 + BAR + W * 3 - (dice.length * (size + 6)) / 2 + i * (size + 6);
    const g = dieSvg(d, { cls: "bg-die", x, y: H / 2 - size / 2, size });
    if (used[i]) g.setAttribute("opacity", "0.35");
    svg.append(g);
  });
  return svg;
}

// -- motion: the dice thrown, another player's checkers sliding to where they went ---------------

/** The points a played move's text names, in order ("13/7/4": 13 to 7, then 7 to 4): notation
 * only, for the slide; which dice and steps a play uses come from the observation. */
function segments(text) {
  const out = [];
  for (const token of String(text || "").trim().split(/\s+/)) {
    const path = token.replace(/\(\d+\)$/, "").split("/").map((x) => x.replace("*", "").toLowerCase());
    for (let i = 0; i + 1 < path.length; i += 1) {
      const from = path[i] === "b" ? "bar" : path[i];
      const to = path[i + 1] === "o" ? "off" : path[i + 1];
      out.push({ from: /^\d+$/.test(from) ? Number(from) : from, to: /^\d+$/.test(to) ? Number(to) : to });
    }
  }
  return out;
}

let moved = "";

function motion(svg, obs, view) {
  const e = obs.last_event || {};
  const kind = e.type || e.kind;
  const key = `${view.tableId}:${view.seq}`;
  if (moved === key) return; // shown once; a re-render of the same state stays still
  moved = key;
  const still = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (kind === "roll" || kind === "opening") {
    view.sound?.("roll");
    if (!still) for (const die of svg.querySelectorAll(".bg-die")) die.classList.add("rolled");
  }
  const me = view.me ? view.me.seat : null;
  if (still || kind !== "play" || !e.play || e.play === "pass" || e.seat === me) return;
  const seenFrom = (p) => (p === "bar" ? [L + W * 6 + BAR / 2, TOP + 40] : p === "in" ? [BOARD_W + TRAY / 2 + 2, TOP + 22]
    : [pointX(p), isTop(p) ? TOP + R : H - TOP - R]);
  const done = new Set();
  for (const step of segments(seen(e.play, e.seat, view))) {
    if (step.to === "off" || done.has(String(step.to))) continue;
    done.add(String(step.to));
    const stack = svg.querySelectorAll(`circle[data-at="${step.to}"]`);
    const top = stack[stack.length - 1];
    if (!top) continue;
    const [fx, fy] = seenFrom(step.from);
    const dx = fx - Number(top.getAttribute("cx")), dy = fy - Number(top.getAttribute("cy"));
    top.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], { duration: 450, easing: "ease-out" });
  }
}

// -- the turn ------------------------------------------------------------------------------------

function isPlayList(legal) { return legal.some((a) => a.includes("/")) ; }

export function render(board, controls, view) {
  const obs = view.obs;
  const legal = view.legal || [];
  last = { board, controls, view };
  const key = `${view.tableId}:${view.seq}`;
  if (turn.key !== key) turn = { key, steps: [], selected: null };
  const dice = (obs.dice || []).map(Number);
  const playing = view.mine && isPlayList(legal);
  const steps = obs.play_steps || {};
  const plays = playing ? legal.filter((a) => a.includes("/")).map((text) => ({ text, steps: steps[text] || null })) : [];
  const left = candidates(plays, turn.steps);
  const sources = new Set();
  const targets = new Set();
  for (const p of left) for (const st of p.left) {
    sources.add(String(st.from));
    if (turn.selected !== null && String(st.from) === String(turn.selected)) targets.add(String(st.to));
  }
  const usedDice = dice.map(() => false);
  for (const st of turn.steps) {
    const i = dice.findIndex((d, k) => !usedDice[k] && d === st.die);
    if (i >= 0) usedDice[i] = true;
  }
  const pos = position(obs, turn.steps);
  const state = { sources: playing ? sources : new Set(), targets, selected: turn.selected, usedDice };
  const svg = boardSvg(obs, pos, view, state);
  const step = (to) => {
    const choice = left.flatMap((p) => p.left).find((st) => String(st.from) === String(turn.selected) && String(st.to) === String(to));
    if (!choice) return;
    turn.steps.push(choice);
    turn.selected = null;
    render(board, controls, view);
  };
  // the keyboard: movable checkers and open points are buttons (Tab, then Enter or Space)
  const placeName = (where) => (where === "in" ? t("bg.in") : where === "bar" ? t("bg.bar") : where === "off" ? t("bg.bear_off") : t("bg.point", { n: where }));
  for (const node of svg.querySelectorAll("[data-from], [data-target]")) {
    const from = node.getAttribute("data-from");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", from ? t("bg.move_from", { place: placeName(from) }) : t("bg.move_to", { place: placeName(node.getAttribute("data-target")) }));
  }
  svg.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const to = e.target.getAttribute && e.target.getAttribute("data-target");
    const from = e.target.getAttribute && e.target.getAttribute("data-from");
    if (!to && !from) return;
    e.preventDefault();
    if (to && turn.selected !== null) step(to);
    else {
      turn.selected = String(turn.selected) === from ? null : (/^\d+$/.test(from) ? Number(from) : from);
      render(board, controls, view);
    }
    board.querySelector(turn.selected !== null ? "[data-target]" : "[data-from]")?.focus();
  });
  // a point under the pointer that accepts the selected checker (a checker on it counts too)
  const hitAt = (x, y) => {
    for (const node of document.elementsFromPoint(x, y)) {
      const p = node.getAttribute && node.getAttribute("data-hit");
      if (p) return p;
    }
    return null;
  };
  const targetAt = (x, y) => {
    for (const node of document.elementsFromPoint(x, y)) {
      const to = node.getAttribute && node.getAttribute("data-target");
      if (to) return to;
    }
    const p = hitAt(x, y);
    return p && targets.has(p) ? p : null;
  };
  svg.addEventListener("pointerdown", (e) => {
    const to = turn.selected !== null ? targetAt(e.clientX, e.clientY) : null;
    if (to) { step(to); return; }
    let from = e.target.getAttribute && e.target.getAttribute("data-from");
    if (!from) {
      const p = hitAt(e.clientX, e.clientY);
      from = p && state.sources.has(p) ? p : null;
    }
    if (!from) return;
    e.preventDefault();
    turn.selected = String(turn.selected) === from ? null : (/^\d+$/.test(from) ? Number(from) : from);
    render(board, controls, view);
    const drop = (up) => {
      const target = turn.selected !== null ? targetAt(up.clientX, up.clientY) : null;
      if (target) step(target);
    };
    document.addEventListener("pointerup", drop, { once: true });
  });
  const mySeat = typeof obs.seat === "number" ? obs.seat : 0;
  const names = view.names();
  const pip = obs.pip || [];
  const seated = Boolean(view.me);
  const info = h("div.bg-info", {},
    h("span", {}, seated ? t("bg.pips", { own: pip[0] ?? "", opp: pip[1] ?? "" })
      : t("bg.pips_of", { a: names[mySeat] ?? "", own: pip[0] ?? "", b: names[1 - mySeat] ?? "", opp: pip[1] ?? "" })),
    h("span", {}, dice.length ? t("bg.dice", { dice: dice.join(" · ") }) + (obs.dice_kind && obs.dice_kind !== "roll" ? ` (${has(`bg.kind.${obs.dice_kind}`) ? t(`bg.kind.${obs.dice_kind}`) : obs.dice_kind})` : "") : ""),
    h("span", {}, seated ? t(mySeat === 1 ? "bg.you_dark" : "bg.you_light") : t("bg.colours", { light: names[0] ?? "", dark: names[1] ?? "" })));
  board.className = "felt bg";
  board.replaceChildren(info, svg);
  motion(svg, obs, view);
  // controls
  const nodes = [];
  if (view.mine) {
    const doubles = legal.filter((a) => /^double \d$/.test(a));
    if (doubles.length) {
      nodes.push(h("span.label", {}, t("bg.name_double")), h("div.named", {}, ...[1, 2, 3, 4, 5, 6].map((n) => {
        const a = `double ${n}`;
        return h("button.btn.gold", { type: "button", "data-action": a, disabled: !legal.includes(a), "aria-label": t("bg.double_n", { n }), onclick: () => view.act(a) }, dieSvg(n, { cls: "", size: 26, x: 0, y: 0 }), String(n));
      })));
    }
    for (const a of legal.filter((x) => !x.includes("/") && !/^double \d$/.test(x))) {
      nodes.push(h("button.btn.primary", { type: "button", "data-action": a, onclick: () => view.act(a) }, has(`bg.action.${a}`) ? t(`bg.action.${a}`) : a));
    }
    if (playing) {
      const complete = left.find((p) => p.left.length === 0);
      nodes.push(h("button.btn.primary", { type: "button", id: "confirm", disabled: !complete, onclick: () => complete && view.act(complete.text) }, complete ? t("bg.confirm_play", { play: complete.text }) : t("bg.confirm")));
      nodes.push(h("button.btn", { type: "button", id: "undo", disabled: !turn.steps.length, onclick: () => { turn.steps.pop(); turn.selected = null; again(); } }, t("bg.undo")));
      const select = h("select", { id: "play-list", "aria-label": t("bg.choose_play") }, ...legal.filter((a) => a.includes("/")).map((a) => h("option", { value: a }, a)));
      nodes.push(h("span.grow"), h("label", { for: "play-list", class: "label" }, t("bg.or_choose")), select,
        h("button.btn", { type: "button", id: "play-chosen", onclick: () => view.act(controls.querySelector("#play-list").value) }, t("bg.play")));
    }
  }
  keepChildren(controls, nodes);
}

export function balance(obs, i) {
  const me = typeof obs.seat === "number" ? obs.seat : 0;
  const k = i === me ? 0 : 1;
  const pip = (obs.pip || [])[k];
  const off = (obs.off || [])[k];
  if (pip === undefined) return null;
  return t("bg.balance", { pip, off: off ?? 0 });
}

const DECISIONS = ["move", "bot", "timeout"];

/** Whether `event` narrates log `entry`: a player's entry is a play or a named double. */
export function matches(entry, event) {
  if (!entry || !("kind" in entry) || !("seq" in entry)) return true;
  const kind = event.type || event.kind; // "type" on older engines, where "kind" is the dice kind
  return DECISIONS.includes(entry.kind) ? ["play", "double"].includes(kind) : ["roll", "opening", "double"].includes(kind);
}

/** A play as the viewer's board numbers it: the record numbers points from the mover's side. */
function seen(play, seat, view) {
  const obs = view.obs || {};
  const side = typeof obs.seat === "number" ? obs.seat : 0;
  if (typeof seat !== "number" || seat === side) return play;
  return String(play).replace(/(\(\d+\))|(\d+)/g, (m, count, n) => count || String(25 - Number(n)));
}

/** What the game's result is worth, in words (single game, gammon, backgammon, per checker). */
export function resultWords(outcome) {
  const p = (outcome && outcome.params) || {};
  const key = `bg.result.${p.result}`;
  return p.result && has(key) ? t(key, { n: p.points }) : "";
}

/** A logged action in words when the game gave no event for it. */
export function describeAction(entry, view) {
  const names = view.names();
  const who = typeof entry.seat === "number" ? names[entry.seat] : "";
  const action = String(entry.action || "");
  if (!who) return null;
  const double = /^double (\d)$/.exec(action);
  if (double) return t("bg.event.double", { who, n: double[1] });
  if (action === "pass") return t("bg.event.pass", { who });
  return action.includes("/") ? t("bg.event.play", { who, play: seen(action, entry.seat, view) }) : null;
}

/** How long a state stays before the next (ms at normal pace): a roll, then the play. */
export function dwell(obs, before, entry) {
  const kind = (obs.last_event || {}).type || (obs.last_event || {}).kind;
  if (kind === "play") return 1000;
  if (kind === "roll" || kind === "opening") return entry.kind === "chance" ? 700 : 400;
  return 600;
}

export function describe(event, view) {
  if (!event || typeof event !== "object") return null;
  const kind = event.type || event.kind; // "type" on older engines, where "kind" is the dice kind
  const names = view.names();
  const who = typeof event.seat === "number" ? names[event.seat] : "";
  const dice = Array.isArray(event.dice) ? event.dice.join("-") : "";
  switch (kind) {
    case "opening": return t("bg.event.opening", { a: (event.dice || [])[0], b: (event.dice || [])[1], who: names[event.first] ?? "" });
    case "roll": return t("bg.event.roll", { who, dice });
    case "double": return t("bg.event.double", { who, n: event.value });
    case "play": return event.play === "pass" || !event.play ? t("bg.event.pass", { who }) : t("bg.event.play", { who, play: seen(event.play, event.seat, view) });
    case "resign": return t("bg.event.resign", { who });
    default: return null;
  }
}
