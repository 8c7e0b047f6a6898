// Builder history: Ctrl+Z undoes and Ctrl+Shift+Z (or Ctrl+Y) redoes the last change, through the same
// Undo and Redo buttons the page shows (so the server decides, with the list's version, as for a click).
// In a text field the keys keep their usual meaning (undoing typing). The History panel stays open or
// closed as the player left it when an action redraws it.
(function () {
  "use strict";
  var historyOpen = false;

  function typing(el) {
    if (!el) return false;
    var tag = el.tagName;
    return tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable ||
      (tag === "INPUT" && !/^(button|submit|checkbox|radio|reset)$/i.test(el.type || ""));
  }

  document.addEventListener("keydown", function (event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || typing(document.activeElement)) return;
    var key = (event.key || "").toLowerCase();
    var id = null;
    if (key === "z" && !event.shiftKey) id = "undo-button";
    else if ((key === "z" && event.shiftKey) || key === "y") id = "redo-button";
    if (!id) return;
    var button = document.getElementById(id);
    if (!button) return;
    event.preventDefault();
    if (!button.disabled) button.click();
  });

  // An action's answer carries the panel's entries only when the page says the panel is open (X-History-Open);
  // a panel drawn without them fetches them when it is (or is then) opened.
  function load(details) {
    var holder = details.querySelector("#history-entries[data-src]");
    if (!holder || !details.open || holder.getAttribute("data-loading")) return;
    holder.setAttribute("data-loading", "true");
    holder.setAttribute("aria-busy", "true");
    fetch(holder.getAttribute("data-src"), {headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        if (!holder.isConnected) return;  // the panel was drawn anew meanwhile: it loads its own
        holder.innerHTML = html;
        holder.removeAttribute("data-src");
        holder.removeAttribute("aria-busy");
        if (window.htmx) window.htmx.process(holder);
      })
      .catch(function () {
        holder.removeAttribute("data-loading");
        holder.removeAttribute("aria-busy");
        holder.textContent = "The history could not be loaded: close and open the panel to try again.";
      });
  }
  function apply() {
    var details = document.querySelector("#history .history-details");
    if (!details) return;
    if (details.open !== historyOpen) details.open = historyOpen;
    load(details);
  }
  document.addEventListener("toggle", function (event) {
    if (!event.target.classList || !event.target.classList.contains("history-details")) return;
    historyOpen = event.target.open;
    load(event.target);
  }, true);
  document.addEventListener("htmx:configRequest", function (event) {
    if (historyOpen && event.detail.elt.closest && event.detail.elt.closest("#builder")) {
      event.detail.headers["X-History-Open"] = "1";
    }
  });
  document.addEventListener("htmx:afterSwap", apply);
  document.addEventListener("htmx:oobAfterSwap", apply);
  // The undo notice after a removal is a toast at the foot of the window: it goes by itself after a while
  // (the Undo button in the page's toolbar stays), and at once on Escape.
  var timer = null;
  function armToast() {
    var toast = document.getElementById("undo-notice");
    if (!toast) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(function () { if (toast.parentNode) toast.parentNode.removeChild(toast); }, 12000);
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var toast = document.getElementById("undo-notice");
    if (toast && toast.parentNode) toast.parentNode.removeChild(toast);
  });
  document.addEventListener("htmx:afterSwap", armToast);
  document.addEventListener("htmx:oobAfterSwap", armToast);
  // The notice that the list changed in another tab is drawn in a fixed place (builder.css); bring focus to
  // its Reload link so keyboard and screen-reader users meet it too.
  document.addEventListener("htmx:afterSwap", function (event) {
    var stale = document.querySelector("#builder-alert .alert--stale a");
    if (stale && event.detail && event.detail.target && event.detail.target.id === "builder-alert") stale.focus();
  });
  document.addEventListener("DOMContentLoaded", armToast);
})();
