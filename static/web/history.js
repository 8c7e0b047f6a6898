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

  function apply() {
    var details = document.querySelector("#history .history-details");
    if (details && details.open !== historyOpen) details.open = historyOpen;
  }
  document.addEventListener("toggle", function (event) {
    if (event.target.classList && event.target.classList.contains("history-details")) historyOpen = event.target.open;
  }, true);
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
