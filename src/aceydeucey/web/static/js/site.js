// Every page: the theme (the system's, or the one chosen and remembered) and forms that
// submit on change. A classic script in <head>, so the theme is set before the first paint.
(function () {
  var KEY = "theme";
  var root = document.documentElement;
  function stored() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  function system() { return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"; }
  function apply(theme) { root.setAttribute("data-theme", theme); }
  apply(stored() || system());

  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.getElementById("theme-toggle");
    if (toggle) {
      var sync = function () { toggle.setAttribute("aria-pressed", String(root.getAttribute("data-theme") === "dark")); };
      sync();
      toggle.addEventListener("click", function () {
        var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
        apply(next);
        try { localStorage.setItem(KEY, next); } catch (e) { /* private mode: this page only */ }
        sync();
      });
      if (window.matchMedia) {
        matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () {
          if (!stored()) { apply(system()); sync(); }
        });
      }
    }
    document.querySelectorAll("form[data-autosubmit]").forEach(function (form) {
      form.querySelectorAll("[data-nojs]").forEach(function (b) { b.hidden = true; });
      form.addEventListener("change", function () { form.submit(); });
    });
    // "my games": each time in the reader's own clock and words
    document.querySelectorAll("time[data-at]").forEach(function (node) {
      var at = new Date(Number(node.getAttribute("data-at")) * 1000);
      if (!isNaN(at)) node.textContent = at.toLocaleString(root.lang, { dateStyle: "medium", timeStyle: "short" });
    });
  });
})();
