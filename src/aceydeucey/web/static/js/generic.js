// Any other game: its legal actions as buttons and the observation as text.
import { h, keepChildren } from "./common.js";

export function render(board, controls, view) {
  board.replaceChildren(h("pre.raw-view", {}, JSON.stringify(view.obs, null, 1)));
  keepChildren(controls, (view.mine ? view.legal : []).map((a) => h("button.btn", { type: "button", "data-action": a, onclick: () => view.act(a) }, a)));
}

export function describe(event) { return event ? JSON.stringify(event) : null; }
