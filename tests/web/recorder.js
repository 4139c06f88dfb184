// Put in every page of tests/web/test_sessions.py before the page's own scripts.
// __layout(selectors) lists what a person would see wrong: a box outside the window, two
// boxes over each other, text cut off. __frames is every result the felt has shown (an
// In-Between hand's third card and result, an Aces roll), with the layout problems of
// that moment (measured on the selectors in __watch); a frame is a moment the felt shows
// (a hand; a roll's words and the game's event behind them), so two rolls alike in words
// are still two.
(() => {
  const box = (el) => el.getBoundingClientRect();
  const shown = (el) => {
    const r = box(el);
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const name = (el) => el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
  window.__layout = (selectors) => {
    // motion is transient (a card dealt in, a die rolled): the layout is where it ends
    for (const a of document.getAnimations()) { try { a.finish(); } catch {} }
    const problems = [];
    const W = document.documentElement.clientWidth, H = innerHeight;
    if (scrollY > 0) problems.push(`scrolled ${scrollY} px`);
    const seen = [];
    for (const sel of selectors) for (const el of document.querySelectorAll(sel)) {
      if (!shown(el)) continue;
      const r = box(el);
      if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
        problems.push(`${sel} "${el.textContent.trim().slice(0, 40)}" outside the window: ` +
          `${Math.round(r.left)},${Math.round(r.top)} – ${Math.round(r.right)},${Math.round(r.bottom)} in ${W}x${H}`);
      }
      seen.push([sel, el, r]);
    }
    for (let i = 0; i < seen.length; i++) for (let j = i + 1; j < seen.length; j++) {
      const [sa, a, ra] = seen[i], [sb, b, rb] = seen[j];
      if (a.contains(b) || b.contains(a)) continue;
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 1 && h > 1) problems.push(`${sa} "${a.textContent.trim().slice(0, 30)}" overlaps ${sb} "${b.textContent.trim().slice(0, 30)}"`);
    }
    for (const [sel, root] of seen) for (const el of [root, ...root.querySelectorAll("*")]) {
      if (!(el instanceof HTMLElement) || !shown(el) || !el.textContent.trim()) continue;
      const cs = getComputedStyle(el);
      const hides = cs.overflowX !== "visible" || cs.textOverflow === "ellipsis";
      if (hides && el.scrollWidth > el.clientWidth + 1) problems.push(`${name(el)} in ${sel} cut off: "${el.textContent.trim()}"`);
    }
    return [...new Set(problems)];
  };
  window.__frames = [];
  window.__watch = null; // {selectors}: what the recorder measures at each frame
  let last = "";
  const look = () => {
    const board = document.getElementById("board");
    if (!board) return;
    const result = board.querySelector(".ib-result");
    const roll = board.classList.contains("aces") ? board.querySelector("p.card-label") : null;
    let frame = null;
    if (result) {
      const third = board.querySelector(".third svg[data-card]");
      frame = { kind: "hand", seat: Number(result.dataset.seat), hand: result.dataset.hand,
        outcome: result.dataset.outcome, delta: Number(result.dataset.delta),
        text: result.textContent, third: third ? third.dataset.card : null,
        thirdLabel: third ? third.parentElement.textContent : "" };
    } else if (roll && roll.textContent.trim()) {
      frame = { kind: "roll", seat: Number(roll.dataset.seat), text: roll.textContent,
        dice: [...board.querySelectorAll(".dice-row svg[data-die]")].map((d) => Number(d.dataset.die)) };
    }
    if (!frame) { last = ""; return; }
    // the moment shown, not only its words: the same roll twice running (the finish's holder
    // rolling 4-1 again, "Still going." both times; the last seat with chips rolling 5-2
    // again, the others passed over) is two frames: the step (its seq), and within a step
    // (a person's roll, then the bots' replies) the event shown
    const c = window.aceydeucey;
    const moment = frame.kind === "roll" ? [c?.seq, c?.interim, c?.obs?.last_event ?? null] : null;
    const key = JSON.stringify([frame, moment]);
    if (key === last) return;
    last = key;
    frame.problems = window.__watch ? window.__layout(window.__watch) : [];
    window.__frames.push(frame);
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true });
})();
