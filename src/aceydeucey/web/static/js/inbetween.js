// In-Between: the posts and the third card on green felt, the pot, every balance, the stakes.
import { h, t, has, fill, seatName, api, LANG, keepChildren, mixed } from "./common.js";
import { cardSvg, cardBack, chipSvg, cardName, cardShort } from "./cards.js";

const STAKE_VERBS = ["bet", "higher", "lower", "raise"];
let lastHand = null; // {seat, posts, third, outcome, delta, deltas}
const dealt = new Set(); // cards already drawn once: only a new card is dealt in with motion
let fresh = false; // a card came in on this render (the deal's sound)
let livePosts = [];
let liveGap = null;
let interimFrame = false; // this render shows a hand settled earlier in the step that came
let coachCache = { key: "", data: null };

export function balance(obs, i) {
  const chips = obs.chips || obs.balances;
  return Array.isArray(chips) && chips[i] !== undefined ? String(chips[i]) : null;
}

function stakeGroups(legal) {
  const groups = {};
  const words = [];
  for (const a of legal) {
    const m = /^(\w+) (\d+)$/.exec(a);
    if (m && STAKE_VERBS.includes(m[1])) (groups[m[1]] ||= []).push(Number(m[2]));
    else words.push(a);
  }
  return { groups, words };
}

function actionLabel(a) {
  const m = /^(\w+) (\d+)$/.exec(a);
  if (m && has(`ib.verb.${m[1]}`)) return t(`ib.verb.${m[1]}`, { n: m[2] });
  const key = `ib.action.${a.replace(/ /g, "_")}`;
  return has(key) ? t(key) : a;
}

function stakeControl(verb, amounts, view) {
  amounts.sort((x, y) => x - y);
  const min = amounts[0], max = amounts[amounts.length - 1];
  const id = `stake-${verb}`;
  const range = h("input", { type: "range", id, min, max, step: 1, value: min, "aria-label": t(`ib.stake_${verb}`) });
  const number = h("input", { type: "number", min, max, step: 1, value: min, "aria-label": t(`ib.stake_${verb}`), id: `${id}-n` });
  const button = h("button.btn.primary", { type: "button", "data-action": verb }, t(`ib.verb.${verb}`, { n: min }));
  const sync = (v) => {
    const n = Math.max(min, Math.min(max, Math.round(Number(v) || min)));
    range.value = n; number.value = n;
    button.textContent = t(`ib.verb.${verb}`, { n });
    button.dataset.amount = n;
  };
  range.addEventListener("input", () => sync(range.value));
  number.addEventListener("change", () => sync(number.value));
  button.addEventListener("click", () => {
    const n = Number(button.dataset.amount || min);
    if (amounts.includes(n)) view.act(`${verb} ${n}`);
  });
  sync(min);
  // the amounts on the group: a kept group (see keepChildren) acts on the same amounts
  return h("div.stake", { "data-amounts": amounts.join(" ") }, range, number, button,
    h("button.btn.small", { type: "button", onclick: () => { sync(max); }, "data-max": verb }, t("ib.max", { n: max })));
}

function card(text, label) {
  const node = cardSvg(text, { label });
  if (!dealt.has(text)) { dealt.add(text); node.classList.add("dealt"); fresh = true; }
  return node;
}

function postsRow(obs, view) {
  const posts = obs.posts || [];
  if (posts.length) { livePosts = posts.slice(); liveGap = obs.gap ?? null; }
  const row = h("div.cards", { "aria-label": t("ib.posts") });
  // the cards a player must decide on are always on the felt: a hand dealt before the last
  // one settled (both around, or face down) replaces it at once for its player, whose last
  // hand's result stays in the banner above the seats
  const deciding = !interimFrame && posts.length > 0 && (obs.legal_actions || []).length > 0;
  const showLast = !deciding && showingLast(obs);
  const shown = showLast ? lastHand.posts : posts;
  const third = showLast ? lastHand.third : null;
  const wrap = (node, label, extra = "") => h("div", { class: extra }, node, h("div.card-label", {}, label));
  if (!shown.length && view.rules?.hidden && obs.phase === "decide") {
    // face-down hands: everyone else sees only the backs of the player's two cards
    row.append(wrap(cardBack(), t("ib.face_down")), wrap(h("div.card-slot", {}, t("ib.third_pending")), t("ib.third")), wrap(cardBack(), t("ib.face_down")));
    return row;
  }
  const middle = () => {
    if (!third) return pending();
    const face = cardSvg(third, { label: `${t("ib.third")}: ${cardName(third)}` });
    const key = `hand:${lastHand.key}`;
    if (!dealt.has(key)) { dealt.add(key); face.classList.add("turned"); }
    return wrap(face, t("ib.third"), "third");
  };
  if (!shown.length) {
    // no hand yet; or a hand settled before this page saw its posts (opened just then):
    // its third card still shows, between the two posts' places
    const slot = () => wrap(h("div.card-slot", {}, t("ib.post")), t("ib.post"));
    row.append(slot(), third ? middle() : wrap(h("div.card-slot", {}, t("ib.third")), t("ib.third")), slot());
    return row;
  }
  const secret = new Set(obs.hidden_hand || []);
  const label = (c) => (secret.has(c) ? t("ib.post_secret") : t("ib.post"));
  const pending = () => wrap(h("div.card-slot", {}, t("ib.third_pending")), t("ib.third"));
  if (shown.length > 2) {
    // three posts in deal order, the card of the gap being played between its two posts
    // deciding the second gap, the first gap's card stays in its place
    const second = showLast && lastHand.gap !== 2 && obs.gap === 2;
    const gap = second || (showLast ? lastHand.gap : obs.gap) === 2 ? 2 : 1;
    row.classList.add("three");
    row.dataset.gap = gap;
    const spacer = () => h("div.gap-spacer", { "aria-hidden": "true" });
    const first = gap === 1 || second ? middle() : spacer();
    const other = gap === 2 ? (second ? pending() : middle()) : spacer();
    row.append(wrap(card(shown[0]), label(shown[0])), first, wrap(card(shown[1]), label(shown[1])), other, wrap(card(shown[2]), label(shown[2])));
    return row;
  }
  row.append(wrap(card(shown[0]), label(shown[0])));
  row.append(middle());
  row.append(shown[1] ? wrap(card(shown[1]), label(shown[1])) : wrap(cardBack(), t("ib.post")));
  return row;
}

/** The hands a step (one message: an action, the chance after it and the bots' moves)
 * settled before its last entry: each gets a frame of its own, its third card and result,
 * before the step's end (the paced queue shows them first, ``interim``). Only the first of
 * them was on this page's felt before the step, so only its posts are known. */
export function interim(data) {
  const events = Array.isArray(data.events) ? data.events : [];
  const obs = data.observation;
  if (!obs) return null;
  return events.slice(0, -1).filter(settled)
    .map((item, k) => ({ observation: { ...obs, last_event: { ...item.event, first_of_step: k === 0, settled_at: item.seq } } }));
}

function settled(item) {
  return item?.event?.kind === "settle" && Boolean(item.event.third);
}

function remember(obs, previous, events, interimFrame, seq) {
  const e = obs.last_event || {};
  const fromStep = interimFrame && e.kind === "settle";
  let postsKnown = true;
  if (fromStep) postsKnown = e.first_of_step === true;
  // the step's last hand: its posts were on the felt only if no hand settled before it
  else if (Array.isArray(events) && e.kind === "settle") postsKnown = !events.slice(0, -1).some(settled);
  if (previous) livePosts = (previous.posts || []).slice(); // the replay knows the step before
  if (e.kind === "settle" && e.third) {
    const at = (obs.seen || []).length;
    // the same hand drawn again (a re-render) keeps its moment; a hand is known by the step
    // that settled it (the table's seq, the replay's step; an earlier entry of a step: its
    // own seq), as the count of cards seen starts again with each shuffle
    const key = [fromStep ? e.settled_at : seq, obs.round, at, e.seat, e.third].join(":");
    if (lastHand && lastHand.key === key) return;
    lastHand = { key, seat: e.seat, posts: postsKnown ? livePosts.slice() : [], gap: previous ? previous.gap : liveGap, third: e.third, outcome: e.outcome, delta: e.delta, deltas: e.deltas, at,
      after: fromStep ? null : JSON.stringify(obs.posts || []) };
  } else if (previous !== undefined || ((obs.posts || []).length && JSON.stringify(obs.posts) !== lastHand?.after)) {
    lastHand = null; // live: until the next hand's cards; in the replay: only at the third card's step
  }
}

/** Whether the felt still shows the last hand: until a card of the next hand is dealt (the
 * next player's first card, dealt before, may already be up). */
function showingLast(obs) {
  if (!lastHand) return false;
  const posts = obs.posts || [];
  if (lastHand.after === null) return interimFrame || !posts.length; // settled earlier in a step
  return !posts.length || JSON.stringify(posts) === lastHand.after;
}

export function render(board, controls, view) {
  const obs = view.obs;
  interimFrame = Boolean(view.interim);
  remember(obs, view.previous, view.stepEvents, interimFrame, view.seq);
  const names = view.names();
  const chips = obs.chips || [];
  const active = typeof obs.to_act === "number" ? obs.to_act : obs.current_player;
  const top = h("div.ib-top", {},
    h("div.pot", { "aria-label": t("ib.pot_is", { pot: obs.pot ?? 0 }), "data-pot": obs.pot ?? 0 }, chipSvg(), h("span", {}, t("ib.pot"), " ", h("b", {}, String(obs.pot ?? 0)))),
    h("div.ib-round", {}, [obs.round ? t("ib.round", { n: obs.round }) : "", typeof obs.dealer === "number" ? t("ib.dealer", { name: names[obs.dealer] || "" }) : ""].filter(Boolean).join(" · ")));
  const seats = h("div.ib-seats", {}, ...chips.map((c, i) => h("div", { class: `ib-seat ${i === active ? "active" : ""}`, "data-seat": i },
    h("span.n", {}, names[i] || t("table.seat_n", { n: i + 1 }), i === obs.dealer ? ` · ${t("ib.dealer_short")}` : ""),
    h("b", { "data-chips": c }, String(c)), " ", t(c === 1 ? "ib.chip" : "ib.chips"),
    Array.isArray(obs.bets) && obs.bets[i] ? h("span", {}, ` · ${t("ib.bet_shown", { n: obs.bets[i] })}`) : null)));
  const parts = [top, postsRow(obs, view)];
  if (showingLast(obs)) parts.push(resultBanner(lastHand, names));
  if (obs.gap === 2 && (obs.posts || []).length > 2 && (!showingLast(obs) || lastHand.gap !== 2)) {
    parts.push(h("p.ib-note", { "data-gap": 2 }, t("ib.second_gap")));
  } else if (obs.gap === 1 && (obs.posts || []).length > 2 && !showingLast(obs)) {
    parts.push(h("p.ib-note", { "data-gap": 1 }, t("ib.first_gap")));
  }
  const hand = obs.hand || [];
  if (hand.length && !(obs.posts || []).length) {
    parts.push(h("div", { class: "card-label" }, t("ib.your_hand"), ": ", hand.map(cardName).join(", ")));
  }
  parts.push(seats);
  if (view.coach && view.mine) parts.push(coachBox(view));
  board.className = "felt ib";
  board.replaceChildren(...parts);
  if (fresh) view.sound?.("deal");
  fresh = false;
  renderControls(controls, view);
}

/** The hand's result on the felt: who, the third card's verdict, the chips moved. */
function resultBanner(hand, names) {
  const who = typeof hand.seat === "number" ? names[hand.seat] : "";
  const out = has(`inbetween:outcome.${hand.outcome}`) ? t(`inbetween:outcome.${hand.outcome}`) : String(hand.outcome || "");
  const moved = [];
  if (typeof hand.delta === "number") moved.push(chipsMoved(hand.delta));
  else if (Array.isArray(hand.deltas)) {
    hand.deltas.forEach((d, i) => { if (num(d)) moved.push(`${names[i]} ${chipsMoved(num(d))}`); });
  }
  const delta = typeof hand.delta === "number" ? hand.delta : 0;
  const tone = hand.outcome === "post" ? "post" : delta > 0 ? "won" : delta < 0 ? "lost" : "even";
  return h("p", { class: `ib-result ${tone}`, "data-outcome": hand.outcome || "", "data-delta": delta, "data-hand": hand.key, "data-seat": hand.seat ?? "", role: "status" },
    h("b", {}, [who, out].filter(Boolean).join(": ")), moved.length ? h("span.moved", {}, moved.join(" · ")) : null);
}

function chipsMoved(d) {
  const n = Math.abs(d);
  return t(d > 0 ? "ib.result_gain" : d < 0 ? "ib.result_loss" : "ib.result_even", { n, chips: t(n === 1 ? "ib.chip" : "ib.chips") });
}

/** The end screen's words: who took the chips left in the pot, and how many each, as the
 * engine settled them (the observation's exact `pot_shares`): why a result is not whole. */
export function resultWords(out, view) {
  const shares = view?.obs?.pot_shares;
  if (!Array.isArray(shares)) return "";
  const takers = shares.map((v, i) => [frac(v), i]).filter(([v]) => v > 0).map(([, i]) => i);
  if (!takers.length) return "";
  const names = view.names();
  const pot = chipsText(shares.reduce((sum, v) => sum + frac(v), 0), String(view.obs.pot ?? ""));
  if (takers.length === 1) return t("ib.pot_to_one", { pot, name: names[takers[0]] });
  const listed = t("ib.names_and", { names: takers.slice(0, -1).map((i) => names[i]).join(", "), last: names[takers[takers.length - 1]] });
  return t("ib.pot_split", { pot, names: listed, share: chipsText(frac(shares[takers[0]]), shares[takers[0]]) });
}

function chipsText(value, exact) {
  return `${mixed(exact)} ${t(Math.abs(value) <= 1 ? "ib.chip" : "ib.chips")}`;
}

/** How long a state stays on the felt before the next (ms at normal pace). */
export function dwell(obs, before, entry, view) {
  const kind = (obs.last_event || {}).kind;
  if (kind === "settle" || view?.interim) return 2600;
  if (["pair_win", "adjacent_loss", "push", "split", "over"].includes(kind)) return 1600;
  if (entry.kind === "chance") return ["first", "draw"].includes(kind) ? 300 : 550;
  return 800;
}

function renderControls(controls, view) {
  const nodes = [];
  const { groups, words } = stakeGroups(view.legal);
  if (view.mine) {
    for (const w of words) nodes.push(h("button.btn", { class: `btn ${w === "pass" ? "" : "primary"}`, type: "button", "data-action": w, onclick: () => view.act(w) }, actionLabel(w)));
    for (const [verb, amounts] of Object.entries(groups)) nodes.push(stakeControl(verb, amounts, view));
  }
  if (view.me && !view.over) {
    const box = h("input", { type: "checkbox", id: "coach", checked: view.coach, onchange: (e) => { window.aceydeucey.coach = e.target.checked; view.refresh(); } });
    nodes.push(h("span.grow"), h("label.toggle", { for: "coach" }, box, t("ib.coach")));
  }
  keepChildren(controls, nodes);
}

function frac(text) {
  const [n, d] = String(text).split("/").map(Number);
  return d ? n / d : n;
}

function pct(text) {
  const v = frac(text) * 100;
  return `${v.toLocaleString(LANG === "pt" ? "pt-PT" : "en", { maximumFractionDigits: 1 })}%`;
}

function coachBox(view) {
  const box = h("div.coach", { id: "coach-box", "aria-live": "polite" }, t("ib.coach_loading"));
  const key = `${view.tableId}:${view.seq}`;
  const show = (data) => {
    if (!data) return;
    const rows = [];
    if (data.odds) rows.push(h("p", {}, t("ib.coach_odds", { inside: `${data.odds.inside} (${pct(data.odds.inside)})`, post: `${data.odds.post} (${pct(data.odds.post)})`, outside: `${data.odds.outside} (${pct(data.odds.outside)})` })));
    for (const bet of data.bets || []) {
      const a = bet.advice;
      const kelly = a.kelly_fraction === null ? "—" : (a.kelly_fraction_exact ? `${a.kelly_fraction_exact} (${pct(a.kelly_fraction_exact)})` : `≈ ${pct(a.kelly_fraction)}`);
      rows.push(h("p.coach-advice", {}, t("ib.coach_advice", { best: actionLabel(a.best_action), best_value: a.best_value, kelly, kelly_action: actionLabel(a.kelly_action), kelly_value: a.kelly_value, balance: a.balance })));
    }
    const values = Object.entries(data.values || {});
    if (values.length) {
      const best = values.reduce((a, b) => (frac(b[1]) > frac(a[1]) ? b : a));
      rows.push(h("table", {}, h("tr", {}, h("th", {}, t("ib.coach_action")), h("th", {}, t("ib.coach_value"))),
        ...values.map(([a, v]) => h("tr", {}, h("td", {}, actionLabel(a), a === best[0] ? " ★" : ""), h("td", {}, String(v))))));
    }
    if (data.error) rows.push(h("p", {}, data.error));
    box.replaceChildren(h("strong", {}, t("ib.coach")), ...rows);
  };
  if (coachCache.key === key) { show(coachCache.data); return box; }
  api("POST", "/coach/inbetween", { observation: view.obs, rules: view.rules })
    .then((data) => { coachCache = { key, data }; show(data); })
    .catch((err) => show({ error: err.message }));
  return box;
}

// -- the log -------------------------------------------------------------------------------

/** A seat's action in words where no event narrates it: "Ana: Pass". */
export function describeAction(entry, view) {
  const who = typeof entry.seat === "number" ? view.names()[entry.seat] : "";
  return who && entry.action ? t("log.acted", { who, action: actionLabel(String(entry.action)) }) : null;
}

function num(v) { const n = frac(v); return Number.isFinite(n) ? n : 0; }

export function describe(event, view) {
  if (!event || typeof event !== "object") return null;
  const kind = String(event.kind || event.type || "");
  const names = view.names();
  const who = typeof event.seat === "number" ? names[event.seat] || seatName(view.seats, event.seat) : "";
  const values = {};
  for (const [k, v] of Object.entries(event)) values[k.replace(/-/g, "_")] = v;
  Object.assign(values, { who, dealer_name: typeof event.dealer === "number" ? names[event.dealer] : "", gain: Math.abs(num(event.delta)) });
  let key = `event.${kind.replace(/-/g, "_")}`;
  if (kind === "post" && event.seat === null) key = "event.post_common";
  else if (kind === "ace") key = event.low ? "event.ace_low" : "event.ace_high";
  else if (kind === "aces") key = event.low ? "event.aces_low" : "event.aces_high";
  else if (kind === "bet" && ["higher", "lower"].includes(event.call)) key = `event.bet_${event.call}`;
  else if (kind === "pass" && event.forfeit) key = "event.pass_forfeit";
  else if (kind === "push" && event.seat === null) key = "event.push_all";
  else if (kind === "tie") values.who = (event.seats || []).map((i) => names[i]).join(", ");
  let text;
  if (typeof event.card === "string" && ["first", "post", "draw"].includes(kind)) {
    // a card dealt face up, as players say it: "Ana is dealt the 5♠"
    const key = kind === "draw" ? "ib.log.draw" : typeof event.seat === "number" ? "ib.log.dealt" : "ib.log.turned";
    text = t(key, { who, card: cardShort(event.card) });
    if (event.replenished) text += ` ${t("inbetween:event.replenished", { amount: event.replenished })}`;
    return text;
  }
  if (kind === "settle" && event.third && typeof event.delta === "number") {
    const out = `inbetween:outcome.${event.outcome}`;
    return t("ib.log.settle", { who, card: cardShort(event.third), outcome: has(out) ? t(out) : String(event.outcome || ""), moved: chipsMoved(event.delta) });
  }
  if (kind === "settle") {
    text = (event.seat !== null && event.seat !== undefined ? t("inbetween:event.settle", { who }) : t("inbetween:event.settle_all"));
    if (event.third) text += ` ${cardShort(event.third)}: `;
    const out = `inbetween:outcome.${event.outcome}`;
    text += has(out) ? t(out) : String(event.outcome || "");
    if (typeof event.delta === "number") text += ` (${event.delta > 0 ? "+" : ""}${event.delta})`;
    else if (Array.isArray(event.deltas)) {
      const moved = event.deltas.map((d, i) => [d, i]).filter(([d]) => num(d)).map(([d, i]) => `${names[i]} ${num(d) > 0 ? "+" : ""}${d}`);
      if (moved.length) text += ` (${moved.join(", ")})`;
    }
  } else if (has(`inbetween:${key}`)) {
    text = t(`inbetween:${key}`, values);
  } else {
    text = `${kind} ${Object.entries(event).filter(([k]) => k !== "kind").map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ")}`.trim();
  }
  if (typeof event.card === "string" && kind !== "settle" && (event.seat === null || kind === "post" || kind === "first" || kind === "draw")) text += ` ${cardName(event.card)}`;
  if (event.replenished) text += ` ${t("inbetween:event.replenished", { amount: event.replenished })}`;
  return text;
}

export { fill };
