// Backgammon: the board as SVG, checkers moved step by step (click or drag) within the legal
// plays the server lists, undoable until the play is confirmed.
import { h, s, t, has, keepChildren } from "./common.js";
import { dieSvg } from "./cards.js";
import { CUBE_WORDS, cubeControls, describeCube, drawCube, matchEnd, matchLine, pts } from "./bgcube.js";
import { hintControls, hintPlaces } from "./bghint.js";

// the board's two shapes: a desk's board keeps its tray at the right; a narrow screen (a phone
// held upright) spends its whole width on the points, the trays becoming strips above and
// below, so each point is a column wide enough for a finger (the whole column answers for it)
const WIDE = { W: 36, L: 14, BAR: 36, TOP: 14, H: 400, TRAY: 66, STRIP: 0 };
const NARROW = { W: 36, L: 2, BAR: 36, TOP: 14, H: 400, TRAY: 0, STRIP: 46 };
const NARROW_MEDIA = "(max-width: 600px)";
let G = WIDE;
const boardW = () => G.L * 2 + G.W * 12 + G.BAR;
const PH = 160, R = 16;
const LIGHT = { fill: "#f4ecd8", stroke: "#8d7a58" };
const DARK = { fill: "#2a2523", stroke: "#000" };
const GOLD = "#f6c445";
const TRAY_FILL = "#4e2c14";
const LABEL_INK = "#f2e6d6";

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

function colX(col) { return G.L + col * G.W + (col >= 6 ? G.BAR : 0); }
function pointCol(p) { return p <= 12 ? 12 - p : p - 13; }
function pointX(p) { return colX(pointCol(p)) + G.W / 2; }
function isTop(p) { return p >= 13; }
const barX = () => G.L + G.W * 6 + G.BAR / 2;

function checker(x, y, colour, attrs = {}) {
  return s("circle", { cx: x, cy: y, r: R, fill: colour.fill, stroke: colour.stroke, "stroke-width": 2, class: "checker", ...attrs });
}

function label(node, x, y, text, attrs = {}) {
  node.append(s("text", { x, y, "text-anchor": "middle", "font-size": 12, fill: LABEL_INK, "pointer-events": "none", class: "bg-label", text, ...attrs }));
}

// `place` names where the stack stands (a point, "bar" or "bar-opp"), for the tests and tools
function stack(node, x, baseY, dir, count, colour, attrs, label, place) {
  const shown = Math.min(count, 5);
  const side = { "data-at": place, "data-side": colour === LIGHT ? "light" : "dark" };
  for (let i = 0; i < shown; i += 1) node.append(checker(x, baseY + dir * (R + i * (2 * R - 2)), colour, { ...side, ...(i === shown - 1 ? attrs : { "pointer-events": "none" }) }));
  if (count > 5 || label) node.append(s("text", { x, y: baseY + dir * (R + (shown - 1) * (2 * R - 2)) + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: colour === LIGHT ? "#333" : "#fff", "pointer-events": "none", text: String(count) }));
}

/** A checker's attributes as a source the player may move from `place`. */
function sourceAttrs(state, place, colour) {
  const source = state.sources.has(String(place));
  const chosen = String(state.selected) === String(place);
  return { "data-from": source ? place : undefined, class: source ? "checker movable" : "checker", stroke: chosen ? GOLD : colour.stroke, "stroke-width": chosen ? 4 : 2 };
}

/** A transparent hit area: a finger anywhere on it means `place` (a point, the bar, the tray). */
function hit(node, place, x, y, width, height) {
  node.append(s("rect", { x, y, width, height, fill: "transparent", class: "hit", "data-hit": place }));
}

function boardSvg(obs, pos, view, state) {
  const mySeat = typeof obs.seat === "number" ? obs.seat : 0;
  const own = mySeat === 1 ? DARK : LIGHT, opp = mySeat === 1 ? LIGHT : DARK;
  const { W, L, BAR, TOP, H, TRAY, STRIP } = G;
  const BW = boardW();
  // the side to act (to throw its dice, or to move): its tray is outlined in gold
  const info = view.info || {};
  const turn = view.over ? null : typeof info.to_roll === "number" ? info.to_roll : obs.current_player;
  const svg = s("svg", { viewBox: `0 0 ${BW + TRAY} ${H + 2 * STRIP}`, class: `bg-board ${STRIP ? "narrow" : "wide"}`, role: "img", "aria-label": t("bg.board") });
  const g = s("g", { transform: `translate(0 ${STRIP})` });
  svg.append(g);
  g.append(s("rect", { x: 0, y: 0, width: BW, height: H, rx: STRIP ? 4 : 10, fill: "#6b3f1f" }));
  g.append(s("rect", { x: L, y: TOP, width: W * 6, height: H - 2 * TOP, fill: "#d9c08f" }));
  g.append(s("rect", { x: L + W * 6 + BAR, y: TOP, width: W * 6, height: H - 2 * TOP, fill: "#d9c08f" }));
  g.append(s("rect", { x: L + W * 6, y: TOP, width: BAR, height: H - 2 * TOP, fill: TRAY_FILL }));
  // generous hit areas under the drawing: a whole half-column answers for its point (a finger
  // on a phone is wider than a point), the own half of the bar for the bar
  for (let p = 1; p <= 24; p += 1) hit(g, p, colX(pointCol(p)), isTop(p) ? 0 : H / 2, W, H / 2);
  hit(g, "bar", L + W * 6, H / 2, BAR, H / 2);
  for (let p = 1; p <= 24; p += 1) {
    const x = colX(pointCol(p));
    const top = isTop(p);
    const y0 = top ? TOP : H - TOP;
    const tip = top ? TOP + PH : H - TOP - PH;
    const fill = (p % 2 === 0) ? "#a3262a" : "#2f4f3f";
    const target = state.targets.has(String(p));
    g.append(s("polygon", { points: `${x},${y0} ${x + W},${y0} ${x + W / 2},${tip}`, fill, opacity: 0.92, "data-point": p, class: target ? "target" : "" }));
    label(g, x + W / 2, top ? TOP - 3 : H - 3, String(p), { "font-size": 11, class: "bg-num" });
    // a destination lights its whole half-column, the zone a tap on it may land in
    if (target) g.append(s("rect", { x: x + 1, y: top ? 0 : H / 2, width: W - 2, height: H / 2, rx: 4, fill: GOLD, opacity: 0.5, "data-point": p, class: "target", "data-target": p }));
    // a hint's play: the points it moves from and to, outlined
    if (state.hinted.has(String(p))) g.append(s("rect", { x: x + 2, y: top ? TOP : H / 2, width: W - 4, height: H / 2 - TOP, rx: 4, fill: "none", stroke: GOLD, "stroke-width": 3, "stroke-dasharray": "6 4", "pointer-events": "none", class: "hint", "data-hint": p }));
  }
  for (let p = 1; p <= 24; p += 1) {
    const n = pos.points[p - 1];
    if (!n) continue;
    const colour = n > 0 ? own : opp;
    const base = isTop(p) ? TOP : H - TOP;
    const dir = isTop(p) ? 1 : -1;
    stack(g, pointX(p), base, dir, Math.abs(n), colour, n > 0 ? sourceAttrs(state, p, colour) : {}, false, p);
  }
  if (pos.bar[1]) stack(g, barX(), TOP + 40, 1, pos.bar[1], opp, {}, pos.bar[1] > 1, "bar-opp");
  if (pos.bar[0]) stack(g, barX(), H - TOP - 40, -1, pos.bar[0], own, sourceAttrs(state, "bar", own), pos.bar[0] > 1, "bar");
  if (STRIP) {
    strip(svg, 0, opp, pos.unentered[1], pos.off[1], obs.pip?.[1], null, turn === 1 - mySeat);
    strip(svg, H + STRIP, own, pos.unentered[0], pos.off[0], obs.pip?.[0], state, turn === mySeat);
  } else {
    tray(svg, 0, opp, pos.unentered[1], pos.off[1], null, turn === 1 - mySeat);
    tray(svg, H / 2, own, pos.unentered[0], pos.off[0], state, turn === mySeat);
  }
  // dice on the right half
  const dice = obs.dice || [];
  const used = state.usedDice;
  const size = 36;
  dice.forEach((d, i) => {
    const x = L + W * 6 + BAR + W * 3 - (dice.length * (size + 6) - 6) / 2 + i * (size + 6);
    const die = dieSvg(d, { cls: "bg-die", x, y: H / 2 - size / 2, size });
    if (used[i]) die.setAttribute("opacity", "0.35");
    g.append(die);
  });
  drawCube(svg, obs, G, mySeat, view.names());
  if (view.marks?.length) svg.append(marks(view.marks, pos, mySeat));
  return svg;
}

// -- a play's moves as arrows (the replay's analysis: the best play, or the one played) ---------

const MARK_INK = { best: "#2ee07f", played: "#ff9a3c" };

/** Where an arrow ends at `place` of `seat`'s: a point's top checker (`end`) or the slot the
 * checker left, the bar's stack, the side's tray (its strip on a narrow board). */
function markAt(place, seat, pos, mySeat, end) {
  const { TOP, H, TRAY, STRIP } = G;
  const own = seat === mySeat;
  if (place === "bar") return [barX(), own ? H - TOP - 40 : TOP + 40];
  if (place === "in" || place === "off") return STRIP ? [boardW() - 28, own ? H + STRIP / 2 : -STRIP / 2] : [boardW() + TRAY / 2 + 2, own ? H * 0.75 : H * 0.25];
  const n = Math.abs(pos.points[place - 1] || 0);
  const slot = Math.min(end ? Math.max(n - 1, 0) : n, 4);
  return [pointX(place), isTop(place) ? TOP + R + slot * (2 * R - 2) : H - TOP - R - slot * (2 * R - 2)];
}

/** Each move of `list` (`{from, to, seat, kind}`, numbered as the board is) as an arrow bowed
 * toward the board's middle, the checker it brings outlined; the best play's solid, the one
 * played dashed, in colours of their own. */
function marks(list, pos, mySeat) {
  const layer = s("g", { transform: `translate(0 ${G.STRIP})`, class: "bg-marks", "pointer-events": "none" });
  const drawn = new Set();
  for (const m of list) {
    const key = `${m.from}>${m.to}`;
    if (drawn.has(key)) continue; // two checkers along one path: one arrow
    drawn.add(key);
    const [x1, y1] = markAt(m.from, m.seat, pos, mySeat, false);
    const [x2, y2] = markAt(m.to, m.seat, pos, mySeat, true);
    const mid = G.H / 2;
    const side = (y) => Math.sign(y - mid);
    const bow = side(y1) === side(y2) ? 0.55 : 0.1;
    const cx = (x1 + x2) / 2, cy = (y1 + y2) / 2 + (mid - (y1 + y2) / 2) * bow;
    const len = Math.hypot(x2 - cx, y2 - cy) || 1;
    const ux = (x2 - cx) / len, uy = (y2 - cy) / len;
    const tx = x2 - ux * (R - 2), ty = y2 - uy * (R - 2); // the head's tip at the checker's edge
    const bx = tx - ux * 13, by = ty - uy * 13;
    const d = `M ${x1} ${y1} Q ${cx} ${cy} ${bx} ${by}`;
    const ink = MARK_INK[m.kind] || MARK_INK.best;
    const dash = m.kind === "played" ? "8 5" : undefined;
    const arrow = s("g", { class: "bg-arrow", "data-kind": m.kind, "data-from": m.from, "data-to": m.to });
    arrow.append(
      s("path", { d, fill: "none", stroke: "#111", "stroke-width": 7, opacity: 0.55, "stroke-linecap": "round" }),
      s("path", { d, fill: "none", stroke: ink, "stroke-width": 4, "stroke-dasharray": dash, "stroke-linecap": "round" }),
      s("polygon", { points: `${tx},${ty} ${bx - uy * 8},${by + ux * 8} ${bx + uy * 8},${by - ux * 8}`, fill: ink, stroke: "#111", "stroke-width": 1.5 }),
      s("circle", { cx: x2, cy: y2, r: R + 2, fill: "none", stroke: ink, "stroke-width": 3, "stroke-dasharray": dash }));
    layer.append(arrow);
  }
  return layer;
}

/** One side's tray on a desk's board (`y` its top, half the board high): the checkers still to
 * enter while there are some (none is borne off before all have entered), else those borne off.
 * `state` is given for the player's own side: the tray is then the zone for "in" and "off". */
function tray(svg, y, colour, stock, off, state, moving) {
  const { TOP, H, TRAY } = G;
  const BW = boardW();
  const x = BW + TRAY / 2 + 2, mine = Boolean(state), h0 = H / 2;
  svg.append(s("rect", { x: BW + 4, y, width: TRAY - 4, height: h0, rx: 8, fill: TRAY_FILL, ...turnMark(moving, mine) }));
  const inner = { x: BW + 6, y: y + (mine ? 0 : TOP), width: TRAY - 8, height: h0 - TOP };
  const near = mine ? y + h0 - TOP : y + TOP; // the tray's end by the player's side of the board
  const dir = mine ? -1 : 1;
  if (mine) trayZone(svg, inner, state);
  if (stock) {
    svg.append(checker(x, near + dir * 22, colour, mine ? sourceAttrs(state, "in", colour) : { "pointer-events": "none" }));
    svg.append(s("text", { x, y: near + dir * 22 + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: colour === LIGHT ? "#333" : "#fff", "pointer-events": "none", text: String(stock) }));
    label(svg, x, near + dir * 52 + (mine ? 0 : 4), t("bg.in"), { "font-size": 11 });
  } else {
    for (let i = 0; i < off; i += 1) svg.append(s("rect", { x: x - 16, y: mine ? near - 6 - i * 7 : near + i * 7, width: 32, height: 6, rx: 2, fill: colour.fill, stroke: colour.stroke, "stroke-width": 1, "pointer-events": "none" }));
    label(svg, x, near + dir * (off * 7 + 14) + (mine ? 0 : 6), `${t("bg.off")} ${off}`, { "font-size": 11 });
  }
}

/** One side's strip on a narrow board (`y` its top): the side's pips and borne-off count, its
 * checkers to enter or those borne off; the player's own strip is the zone for "in" and "off". */
function strip(svg, y, colour, stock, off, pip, state, moving) {
  const { STRIP } = G;
  const BW = boardW(), mine = Boolean(state);
  const box = { x: 0, y: y + (mine ? 4 : 0), width: BW, height: STRIP - 4 };
  svg.append(s("rect", { ...box, rx: 6, fill: TRAY_FILL, ...turnMark(moving, mine) }));
  if (mine) trayZone(svg, box, state);
  const mid = box.y + box.height / 2;
  svg.append(checker(22, mid, colour, { "pointer-events": "none", r: 12 }));
  label(svg, 42, mid + 6, t("bg.balance", { pip: pip ?? "", off }), { "text-anchor": "start", "font-size": 17 });
  const right = BW - 14;
  if (stock) {
    label(svg, right - 38, mid + 6, t("bg.in"), { "text-anchor": "end", "font-size": 17 });
    svg.append(checker(right - 14, mid, colour, mine ? sourceAttrs(state, "in", colour) : { "pointer-events": "none" }));
    svg.append(s("text", { x: right - 14, y: mid + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: colour === LIGHT ? "#333" : "#fff", "pointer-events": "none", text: String(stock) }));
  } else {
    for (let i = 0; i < off; i += 1) svg.append(s("rect", { x: right - 6 - i * 8, y: mid - 16, width: 6, height: 32, rx: 2, fill: colour.fill, stroke: colour.stroke, "stroke-width": 1, "pointer-events": "none" }));
  }
}

/** A tray's outline: gold for the side to act (data-turn names it, for the tests and tools). */
function turnMark(moving, mine) {
  return moving ? { stroke: GOLD, "stroke-width": 3, "data-turn": mine ? "own" : "opp" } : {};
}

/** The player's tray as one zone: "off" while it is a destination, else the checkers to enter. */
function trayZone(svg, box, state) {
  const target = state.targets.has("off");
  const place = target ? "off" : "in";
  if (target) svg.append(s("rect", { ...box, rx: 6, fill: GOLD, opacity: 0.45, "data-point": "off", "data-target": "off", class: "target" }));
  if (target || state.sources.has("in")) hit(svg, place, box.x, box.y, box.width, box.height);
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
  // in the board's own coordinates (a narrow board's strips lie above and below it)
  const stockAt = G.STRIP ? [boardW() - 28, -G.STRIP / 2] : [boardW() + G.TRAY / 2 + 2, G.TOP + 22];
  const seenFrom = (p) => (p === "bar" ? [barX(), G.TOP + 40] : p === "in" ? stockAt
    : [pointX(p), isTop(p) ? G.TOP + R : G.H - G.TOP - R]);
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

// the board's shape follows the window (a phone turned round draws the other one)
let media = null;
function narrow() {
  if (typeof matchMedia !== "function") return false;
  if (!media) {
    media = matchMedia(NARROW_MEDIA);
    media.addEventListener?.("change", () => last && again());
  }
  return media.matches;
}

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
  G = narrow() ? NARROW : WIDE;
  const state = { sources: playing ? sources : new Set(), targets, selected: turn.selected, usedDice, hinted: hintPlaces(obs, key) };
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
  // a narrow board shows each side's pips in its strip, and the dice's kind beside them: the
  // player's own board has no line above it, so that it and the actions fit a small phone
  const kind = dice.length && obs.dice_kind && obs.dice_kind !== "roll" ? (has(`bg.kind.${obs.dice_kind}`) ? t(`bg.kind.${obs.dice_kind}`) : obs.dice_kind) : "";
  if (G.STRIP && kind) label(svg.firstChild, G.L + G.W * 3, G.H / 2 + 6, kind, { "font-size": 16, fill: "#2b1d00", "font-weight": 700 });
  const info = G.STRIP && seated ? null : h("div.bg-info", {},
    G.STRIP ? null : h("span", {}, seated ? t("bg.pips", { own: pip[0] ?? "", opp: pip[1] ?? "" })
      : t("bg.pips_of", { a: names[mySeat] ?? "", own: pip[0] ?? "", b: names[1 - mySeat] ?? "", opp: pip[1] ?? "" })),
    h("span", {}, dice.length ? t("bg.dice", { dice: dice.join(" · ") }) + (kind ? ` (${kind})` : "") : ""),
    h("span", {}, seated ? t(mySeat === 1 ? "bg.you_dark" : "bg.you_light") : t("bg.colours", { light: names[0] ?? "", dark: names[1] ?? "" })));
  board.className = "felt bg";
  board.replaceChildren(...[matchLine(obs, names, view.over), view.over && obs.outcome ? ending(obs.outcome, view) : info, svg].filter(Boolean));
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
    const cube = ["cube", "take"].includes(obs.phase) ? cubeControls(obs, legal, names, view.act, again) : [];
    nodes.push(...cube);
    for (const a of legal.filter((x) => !x.includes("/") && !/^double \d$/.test(x) && !(cube.length && CUBE_WORDS.includes(x)))) {
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
    nodes.push(...hintControls(view, key, again));
  }
  keepChildren(controls, nodes);
}

/** The game's end on the board, where the player is looking: who won, and what it was worth. */
function ending(outcome, view) {
  const winner = (outcome.winners || [])[0];
  const me = view.me ? view.me.seat : null;
  const who = typeof winner === "number" ? (winner === me ? t("bg.end.you_won") : t("bg.end.won", { who: view.names()[winner] ?? "" })) : t("table.game_over");
  const won = winner === me ? "won" : me === null ? "" : "lost";
  return h("div", { class: `bg-end ${won}`, role: "status" }, h("strong", {}, who), " ", h("span", {}, resultWords(outcome)), matchEnd(view.obs, view.names()));
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
  if (kind === "game_over") return matches(entry, event.last || {});
  return DECISIONS.includes(entry.kind) ? ["play", "double", "cube"].includes(kind) : ["roll", "opening", "double"].includes(kind);
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
  if (p.result === "single" && p.points !== 1) return t("bg.result.single_n", { pts: pts(p.points) });
  if (p.result === "dropped") return t("bg.result.dropped", { pts: pts(p.points) });
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
  if (kind === "game_over") {
    const before = event.last ? describe(event.last, view) : null;
    // a pass has said who won what: the score is what is left to say
    const dropped = event.last && (event.last.kind === "cube") && event.result === "dropped";
    const score = dropped ? t("bg.event.score", { a: names[0] ?? "", x: (event.score || [])[0], y: (event.score || [])[1], b: names[1] ?? "" }) : describeCube(event, names);
    return [before, score].filter(Boolean).join(". ");
  }
  const cube = describeCube(event, names);
  if (cube) return cube;
  switch (kind) {
    case "opening": return t("bg.event.opening", { a: (event.dice || [])[0], b: (event.dice || [])[1], who: names[event.first] ?? "" });
    case "roll": return t("bg.event.roll", { who, dice });
    case "double": return t("bg.event.double", { who, n: event.value });
    case "play": return event.play === "pass" || !event.play ? t("bg.event.pass", { who }) : t("bg.event.play", { who, play: seen(event.play, event.seat, view) });
    case "resign": return t("bg.event.resign", { who });
    default: return null;
  }
}
