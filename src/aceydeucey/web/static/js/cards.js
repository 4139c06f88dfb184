// Playing cards and dice as SVG.
import { s, t } from "./common.js";

const SUIT = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RED = new Set(["H", "D"]);

export function cardParts(text) {
  const raw = String(text || "").trim().toUpperCase();
  const suit = raw.slice(-1);
  let rank = raw.slice(0, -1);
  if (rank === "T") rank = "10";
  return { rank, suit };
}

export function cardName(text) {
  const { rank, suit } = cardParts(text);
  return t("card.name", { rank: t(`rank.${rank}`) === `rank.${rank}` ? rank : t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/** A card's short name as players write it: "5♠", "10♥", "Q♣" (the rank letter in the
 * reader's language). */
export function cardShort(text) {
  const { rank, suit } = cardParts(text);
  const key = `rank_short.${rank}`;
  return `${t(key) === key ? rank : t(key)}${SUIT[suit] || suit}`;
}

/** A card face (or its back when `text` is empty), 100×140 user units. */
export function cardSvg(text, { cls = "card", label } = {}) {
  if (!text) return cardBack(cls, label);
  const { rank, suit } = cardParts(text);
  const color = RED.has(suit) ? "#c0262d" : "#1b2420";
  const sym = SUIT[suit] || "?";
  return s("svg", { viewBox: "0 0 100 140", class: cls, role: "img", "aria-label": label || cardName(text), "data-card": text },
    s("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#fff", stroke: "#c9cfcb", "stroke-width": 1.5 }),
    s("g", { fill: color, "font-family": "Georgia, 'Times New Roman', serif", "font-weight": 700 },
      s("text", { x: 10, y: 28, "font-size": rank.length > 1 ? 22 : 26, text: rank }),
      s("text", { x: 11, y: 50, "font-size": 20, text: sym }),
      s("text", { x: 50, y: 94, "font-size": 54, "text-anchor": "middle", text: sym }),
      s("g", { transform: "rotate(180 50 70)" },
        s("text", { x: 10, y: 28, "font-size": rank.length > 1 ? 22 : 26, text: rank }),
        s("text", { x: 11, y: 50, "font-size": 20, text: sym }))));
}

export function cardBack(cls = "card", label) {
  return s("svg", { viewBox: "0 0 100 140", class: cls, role: "img", "aria-label": label || t("card.face_down") },
    s("defs", {}, s("pattern", { id: "back-dots", width: 10, height: 10, patternUnits: "userSpaceOnUse" },
      s("rect", { width: 10, height: 10, fill: "#1d3f8f" }),
      s("circle", { cx: 5, cy: 5, r: 2, fill: "#3a63c4" }))),
    s("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#fff", stroke: "#c9cfcb", "stroke-width": 1.5 }),
    s("rect", { x: 8, y: 8, width: 84, height: 124, rx: 6, fill: "url(#back-dots)" }));
}

const PIPS = {
  1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
};

/** One die, 100×100 user units; `value` 1..6 (or empty for an unthrown die). */
export function dieSvg(value, { cls = "die", color = "#fffdf7", pip = "#1b2420", x, y, size } = {}) {
  const attrs = size ? { x, y, width: size, height: size } : {};
  return s("svg", { viewBox: "0 0 100 100", class: cls, role: "img", "aria-label": value ? t("die.value", { n: value }) : t("die.none"), "data-die": value || "", ...attrs },
    s("rect", { x: 4, y: 4, width: 92, height: 92, rx: 18, fill: color, stroke: "#333", "stroke-width": 3 }),
    ...(PIPS[value] || []).map(([cx, cy]) => s("circle", { cx, cy, r: 9, fill: value === 1 ? "#c0262d" : pip })));
}

export function chipSvg() {
  return s("svg", { viewBox: "0 0 40 40", "aria-hidden": "true" },
    s("circle", { cx: 20, cy: 20, r: 18, fill: "#f6c445", stroke: "#8a6400", "stroke-width": 2 }),
    s("circle", { cx: 20, cy: 20, r: 11, fill: "none", stroke: "#fff", "stroke-width": 3, "stroke-dasharray": "5 4" }));
}
