// What a person sees at the backgammon table, measured in the page in one call each (the bot
// may move right after). Loaded into every page of test_backgammon_page.py.
window.__bg = (() => {
  const MIN_WIDTH = 28, MIN_AREA = 44 * 44; // a finger's target: 28 px wide, a 44 x 44 px square's area
  const box = (el) => el.getBoundingClientRect();
  // (a label kept for screen readers only is 1 px: not for the eye)
  const shown = (el) => { const r = box(el); return r.width > 1 && r.height > 1 && el.isConnected; };
  const name = (el) => el.id || el.dataset.action || el.dataset.hit || el.textContent.trim().slice(0, 24) || el.tagName;
  const apart = (p, q) => p.right <= q.left + .5 || q.right <= p.left + .5 || p.bottom <= q.top + .5 || q.bottom <= p.top + .5;
  const all = (sel) => [...document.querySelectorAll(sel)];

  /** Every problem a player would notice, as text; [] when the screen is right. */
  async function look() {
    await Promise.allSettled(document.getAnimations().map((a) => a.finished)); // boxes at rest
    const bad = [];
    const vw = innerWidth, vh = innerHeight;
    if (scrollY !== 0) bad.push(`scrolled to ${scrollY}`);
    if (document.documentElement.scrollWidth > vw) bad.push("the page scrolls sideways");
    const controls = all("#controls button, #controls select, #turn, #timer").filter(shown);
    for (const el of controls) {
      const r = box(el);
      if (r.left < -.5 || r.top < -.5 || r.right > vw + .5 || r.bottom > vh + .5) bad.push(`${name(el)} out of view ${JSON.stringify(r)}`);
    }
    // no text cut: every label's text fits its box
    const labels = [...controls, ...all("#board .bg-info > span, #board .bg-end, #controls .label, #seat-list .who, #seat-list .bal, #result")].filter(shown);
    for (const el of labels) if (el.scrollWidth > el.clientWidth + .5) bad.push(`${name(el)} clipped (${el.scrollWidth} > ${el.clientWidth})`);
    // the board's hit areas: each a finger's size, none over another or over a control
    const hits = all(".bg-board .hit").filter(shown);
    if (hits.length < 25) bad.push(`only ${hits.length} hit areas`);
    for (const el of hits) {
      const r = box(el);
      if (r.width < MIN_WIDTH || r.width * r.height < MIN_AREA) bad.push(`hit area ${name(el)} is ${r.width.toFixed(1)} x ${r.height.toFixed(1)}`);
    }
    const zones = [...controls, ...hits];
    for (let i = 0; i < zones.length; i += 1) for (let k = i + 1; k < zones.length; k += 1) {
      if (!apart(box(zones[i]), box(zones[k]))) bad.push(`${name(zones[i])} overlaps ${name(zones[k])}`);
    }
    // the board's words: inside the board, clear of each other and of the checkers
    const svg = document.querySelector(".bg-board");
    const frame = box(svg);
    const words = [...svg.querySelectorAll("text.bg-label")].filter(shown);
    for (const el of words) {
      const r = box(el);
      if (r.left < frame.left - .5 || r.right > frame.right + .5 || r.top < frame.top - .5 || r.bottom > frame.bottom + .5) bad.push(`board text ${name(el)} cut by the board's edge`);
    }
    const solid = [...words, ...svg.querySelectorAll("circle.checker")].filter(shown);
    for (const word of words) for (const other of solid) {
      if (other !== word && !apart(box(word), box(other))) bad.push(`board text ${name(word)} under ${name(other)}`);
    }
    return bad;
  }

  /** The page's moment: over, the seq, what the person may do ("confirm", an action, null)
   * and whose tray is outlined as the side to act ("own", "opp", null). */
  function now() {
    const over = !document.getElementById("after").hidden;
    const confirm = document.querySelector("#controls #confirm");
    const action = document.querySelector("#controls [data-action]:not([disabled])");
    const turn = document.querySelector(".bg-board [data-turn]")?.dataset.turn ?? null; // whose tray is outlined
    return { over, seq: window.aceydeucey?.seq, act: confirm ? "confirm" : action ? action.dataset.action : null, turn };
  }

  /** The places the board offers now (`from`: movable checkers, else the highlighted
   * destinations), each with the centre of its hit area: a finger there means that place. */
  function offered(from) {
    const places = all(`.bg-board [data-${from ? "from" : "target"}]`).map((e) => e.dataset[from ? "from" : "target"]);
    return places.map((place) => {
      const r = box(document.querySelector(`.bg-board .hit[data-hit="${place}"]`));
      return [place, r.left + r.width / 2, r.top + r.height / 2];
    });
  }

  return { look, now, offered };
})();
