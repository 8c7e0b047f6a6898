// Keep keyboard focus where the player was when htmx re-draws the builder.
// Before a request we remember the focused control (by its form, name and value) and the
// ids of the elements around it; after the swap we focus the same control, or, if it is
// gone (a removed unit), the nearest surviving element around it.
(function () {
  "use strict";
  var remembered = null;

  function describe(el) {
    if (!el || el === document.body || !el.closest || !el.closest("#builder")) return null;
    var ids = [];
    for (var node = el; node && node.id !== "builder"; node = node.parentElement) {
      if (node.id) ids.push(node.id);
    }
    var form = el.closest("form");
    return {
      id: el.id || null,
      ids: ids,
      action: form ? form.getAttribute("action") : null,
      name: el.getAttribute("name"),
      value: el.getAttribute("value"),
      tag: el.tagName
    };
  }

  function find(memo) {
    if (memo.id) {
      var byId = document.getElementById(memo.id);
      if (byId) return byId;
    }
    for (var i = 0; i < memo.ids.length; i++) {
      var holder = document.getElementById(memo.ids[i]);
      if (!holder) continue;
      var candidates = holder.querySelectorAll(memo.tag);
      for (var j = 0; j < candidates.length; j++) {
        var c = candidates[j], form = c.closest("form");
        if (c.getAttribute("name") === memo.name && c.getAttribute("value") === memo.value &&
            (form ? form.getAttribute("action") : null) === memo.action) return c;
      }
      return holder;
    }
    return document.getElementById("summary");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    remembered = describe(document.activeElement) || describe(event.detail.elt);
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!remembered) return;
    var target = find(remembered);
    remembered = null;
    if (target && target !== document.activeElement) target.focus({preventScroll: true});
  });
})();
