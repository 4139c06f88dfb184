// Backgammon's doubling cube and match play on the table page: the cube drawn on the bar
// (centred, or on its owner's side), the cube's actions with what each one means, the
// match's score line, the narration of cube actions and of a game of a match ending.
// Every field comes from the observation (cube_view on the server: cube, cube_owner,
// may_double, cube_offer, match_length, match_score, crawford, post_crawford, games).
import { h, s, t, has } from "./common.js";

export const CUBE_WORDS = ["double", "roll", "take", "drop", "beaver"];

/** Whether the observation carries the cube's or the match's fields. */
export function hasCube(obs) { return Boolean(obs) && typeof obs.cube === "number"; }

export const isMatch = (obs) => hasCube(obs) && typeof obs.match_length === "number" && obs.match_length > 0;

/** "1 point" / "N points". */
export function pts(n) { return Number(n) === 1 ? t("bg.pts.one") : t("bg.pts.many", { n }); }

/** The cube on the board (`g` the whole drawing, drawn over the trays; `geo` its sizes; `mySeat` the seat drawn
 * at the bottom): its value (64 while centred and never turned), an offer waiting for an
 * answer pushed to the taker's side with the value it would have, outlined in gold. */
export function drawCube(g, obs, geo, mySeat, names) {
  if (!hasCube(obs)) return;
  const { L, W, BAR, H } = geo;
  const offer = obs.cube_offer;
  const owner = offer ? 1 - offer.seat : obs.cube_owner;
  const side = owner === null || owner === undefined ? "centre" : owner === mySeat ? "own" : "opp";
  const value = offer ? offer.value : obs.cube;
  const shown = side === "centre" && value === 1 ? 64 : value;
  const size = Math.min(BAR - 6, 30);
  // a desk's board: in the tray's column, between the two sides' trays, pushed to the
  // owner's half; a narrow board: centred on the bar, else in the owner's strip
  const { TRAY, STRIP } = geo;
  const BW = L * 2 + W * 12 + BAR;
  let x, y;
  if (TRAY) {
    x = BW + TRAY / 2 + 2 - size / 2;
    y = side === "centre" ? H / 2 - size / 2 : side === "own" ? H / 2 + 8 : H / 2 - 8 - size;
  } else if (side === "centre") {
    x = L + W * 6 + (BAR - size) / 2;
    y = STRIP + H / 2 - size / 2;
  } else {
    x = BW / 2 - size / 2;
    y = side === "own" ? H + STRIP + 4 + (STRIP - 4 - size) / 2 : (STRIP - 4 - size) / 2;
  }
  const who = owner === null || owner === undefined ? t("bg.cube.centred") : t("bg.cube.owned", { who: names[owner] ?? "" });
  const label = offer ? t("bg.cube.offer_label", { who: names[offer.seat] ?? "", n: offer.value }) : t("bg.cube.label", { n: value, where: who });
  const node = s("g", { class: `bg-cube${offer ? " offered" : ""}`, "pointer-events": "none", "data-cube": value, "data-side": side, role: "img", "aria-label": label });
  node.append(s("title", { text: label }));
  node.append(s("rect", { x, y, width: size, height: size, rx: 5, fill: "#fbf6ea", stroke: offer ? "#f6c445" : "#3a2a1a", "stroke-width": offer ? 4 : 2 }));
  node.append(s("text", { x: x + size / 2, y: y + size / 2 + 6, "text-anchor": "middle", "font-size": shown >= 10 ? 15 : 18, "font-weight": 800, fill: "#2b1d00", "pointer-events": "none", text: String(shown) }));
  g.append(node);
}

/** The match's line above the board: the score, the length, the Crawford game, the game
 * just finished (the next one has begun), or the cube's offer; null outside cube and match. */
export function matchLine(obs, names, over) {
  if (!hasCube(obs)) return null;
  const parts = [];
  if (isMatch(obs)) {
    const [x, y] = obs.match_score || [0, 0];
    parts.push(h("span.bg-score", { "data-score": `${x}-${y}` }, t("bg.match.score", { a: names[0] ?? "", x, y, b: names[1] ?? "", n: obs.match_length })));
    if (!over) parts.push(h("span.bg-game-no", {}, t("bg.match.game", { n: (obs.games || []).length + 1 })));
    if (obs.crawford && !over) parts.push(h("span.bg-crawford", {}, t("bg.match.crawford")));
    else if (obs.post_crawford && !over) parts.push(h("span", {}, t("bg.match.post_crawford")));
  } else {
    parts.push(h("span", {}, t("bg.money.cube", { n: obs.cube })));
  }
  // the game of the match just finished, marked while the next one begins
  const done = (obs.games || []).length;
  if (!over && done) {
    const g = obs.games[done - 1];
    const kind = (obs.last_event || {}).kind;
    const fresh = kind === "game_over" || kind === "opening";
    parts.push(h(`span.bg-last${fresh ? ".fresh" : ""}`, { "data-game": done }, t("bg.match.last_game", { g: done, who: names[g.winner] ?? "", pts: pts(g.points), result: resultName(g.result) })));
  }
  return h("div.bg-match", {}, ...parts);
}

function resultName(result) {
  const key = `bg.match.result.${result}`;
  return has(key) ? t(key) : String(result || "");
}

/** The cube's buttons at a cube decision (legal: the cube words open now), each saying what
 * it does; a pass asks once more, since it ends the game. `again` re-renders the controls. */
export function cubeControls(obs, legal, names, act, again) {
  const words = legal.filter((a) => CUBE_WORDS.includes(a));
  if (!words.length) return [];
  shown.obs = obs; // a button kept from an earlier render acts on the state shown now
  const nodes = [];
  const offer = obs.cube_offer;
  if (offer) {
    const doubler = names[offer.seat] ?? "";
    nodes.push(h("span.label.bg-offer", { role: "status" }, t("bg.cube.offered", { who: doubler, n: offer.value })));
    if (asking.key === keyOf(obs)) {
      nodes.push(h("span.label", {}, t("bg.cube.drop_confirm", { who: doubler, pts: pts(obs.cube) })));
      nodes.push(h("button.btn.danger", { type: "button", "data-action": "drop", onclick: () => act("drop") }, t("bg.cube.drop_yes")));
      nodes.push(h("button.btn", { type: "button", id: "drop-no", onclick: () => { asking.key = ""; again(); } }, t("bg.cube.drop_no")));
      return nodes;
    }
    if (words.includes("take")) nodes.push(h("button.btn.primary", { type: "button", "data-action": "take", onclick: () => act("take") }, t("bg.cube.take", { n: offer.value })));
    if (words.includes("beaver")) nodes.push(h("button.btn.gold", { type: "button", "data-action": "beaver", onclick: () => act("beaver") }, t("bg.cube.beaver", { n: 2 * offer.value })));
    if (words.includes("drop")) nodes.push(h("button.btn", { type: "button", id: "drop-ask", onclick: () => { asking.key = keyOf(shown.obs); again(); } }, t("bg.cube.drop", { who: doubler, pts: pts(obs.cube) })));
    return nodes;
  }
  if (words.includes("roll")) nodes.push(h("button.btn.primary", { type: "button", "data-action": "roll", onclick: () => act("roll") }, t("bg.action.roll")));
  if (words.includes("double")) {
    const redouble = obs.cube_owner !== null && obs.cube_owner !== undefined;
    nodes.push(h("button.btn.gold", { type: "button", "data-action": "double", onclick: () => act("double") }, t(redouble ? "bg.cube.redouble" : "bg.cube.double", { n: 2 * obs.cube })));
  }
  return nodes;
}

// the pass asked about (the table's state it was asked at): a new state forgets it
const asking = { key: "" };
const shown = { obs: null };
const keyOf = (obs) => JSON.stringify([obs.match_score, obs.games?.length, obs.cube, obs.cube_offer, obs.pip]);

/** The other side's offer, in words, while the person waits for its answer or watches. */
export function offerWords(obs, names) {
  const offer = hasCube(obs) && obs.cube_offer;
  return offer ? t("bg.cube.waiting", { who: names[offer.seat] ?? "", n: offer.value }) : null;
}

/** A cube event or a game of a match ending, in words; null for other events. */
export function describeCube(event, names) {
  const kind = event.type || event.kind;
  const who = typeof event.seat === "number" ? names[event.seat] ?? "" : "";
  if (kind === "game_over") {
    const [x, y] = event.score || [];
    return t("bg.event.game_over", { who, pts: pts(event.points), result: resultName(event.result), a: names[0] ?? "", x, y, b: names[1] ?? "" });
  }
  if (kind !== "cube") return null;
  const other = typeof event.seat === "number" ? names[1 - event.seat] ?? "" : "";
  switch (event.action) {
    case "double": return t("bg.event.cube.double", { who, n: 2 * event.cube });
    case "take": return t("bg.event.cube.take", { who, n: event.cube });
    case "beaver": return t("bg.event.cube.beaver", { who, n: event.cube });
    case "drop": return t("bg.event.cube.drop", { who, winner: other, pts: pts(event.cube) });
    case "roll": return t("bg.event.cube.roll", { who });
    default: return null;
  }
}

/** The end of a match on the board: the final score and every game's result. */
export function matchEnd(obs, names) {
  if (!isMatch(obs)) return null;
  const out = obs.outcome || {};
  const p = out.params || {};
  const score = p.score || obs.match_score || [0, 0];
  const games = p.games || obs.games || [];
  const winner = (out.winners || [])[0];
  const rows = games.map((g, i) => h("li", { "data-game": i + 1 }, t("bg.match.game_row", { n: i + 1, who: names[g.winner] ?? "", pts: pts(g.points), result: resultName(g.result) })));
  return h("div.bg-match-end", {},
    h("strong", {}, t("bg.match.won", { who: names[winner] ?? "", x: score[winner] ?? "", y: score[1 - winner] ?? "", n: obs.match_length })),
    h("ol.bg-games", {}, ...rows));
}
