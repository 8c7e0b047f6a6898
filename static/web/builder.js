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
  // On afterSwap, not afterSettle: the new builder is in the page from this moment, and restoring focus
  // in the same task means a player (or a test) who acts on the redrawn page never has focus moved
  // under their hands ~20 ms later when htmx settles.
  document.addEventListener("htmx:afterSwap", function (event) {
    // htmx also reports each out-of-band part (points, problems) as swapped; focus waits for the main part.
    if (event.detail && event.detail.target && event.target.id !== event.detail.target.id) return;
    var builder = document.getElementById("builder"), marker = document.getElementById("builder-focus");
    var holder = marker && marker.getAttribute("data-focus") ? marker : builder;
    var asked = holder && holder.getAttribute("data-focus");
    if (asked && document.getElementById(asked)) {
      remembered = null;
      holder.removeAttribute("data-focus");
      document.getElementById(asked).focus({preventScroll: false});
      return;
    }
    if (!remembered) return;
    var target = find(remembered);
    remembered = null;
    if (target && target !== document.activeElement) target.focus({preventScroll: true});
  });
})();

// Start page: the points limit only matters for systems with points; hide it for the others. It starts at the
// system's usual game size (from its data) until the player types their own.
(function () {
  "use strict";
  var typed = false;
  function sync() {
    var select = document.getElementById("id_handbook");
    var field = document.getElementById("points-field");
    if (!select || !field) return;
    var option = select.options[select.selectedIndex];
    var noPoints = option && option.getAttribute("data-uses-points") === "false";
    field.hidden = noPoints;
    var input = document.getElementById("id_points_limit");
    if (input) {
      input.disabled = noPoints;
      var fallback = option && option.getAttribute("data-default-points");
      if (!typed && fallback) input.value = fallback;
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("id_handbook");
    if (!select) return;
    var input = document.getElementById("id_points_limit");
    if (input) {
      typed = input.value !== "";
      input.addEventListener("input", function () { typed = input.value !== ""; });
    }
    select.addEventListener("change", sync);
    sync();
  });
})();

// Match-ups, Force Parity Procedure: the up/down buttons reorder a ranking in place (no round trip);
// without JavaScript they submit the form and the server moves the row. Focus stays on the moved row.
(function () {
  "use strict";
  function renumber(list) {
    var rows = list.querySelectorAll(".rank-row");
    var side = list.closest("[data-rank-list]").getAttribute("data-rank-list");
    for (var i = 0; i < rows.length; i++) {
      var input = rows[i].querySelector(".rank-input");
      if (input) input.value = i + 1;
      var up = rows[i].querySelector('.rank-move[data-dir="up"]');
      var down = rows[i].querySelector('.rank-move[data-dir="down"]');
      if (up) { up.disabled = i === 0; up.value = side + ":" + i + ":up"; }
      if (down) { down.disabled = i === rows.length - 1; down.value = side + ":" + i + ":down"; }
    }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".rank-move");
    if (!button || !button.closest("[data-rank-list]")) return;
    event.preventDefault();
    var row = button.closest(".rank-row");
    var list = row.parentElement;
    if (button.getAttribute("data-dir") === "up" && row.previousElementSibling) {
      list.insertBefore(row, row.previousElementSibling);
    } else if (button.getAttribute("data-dir") === "down" && row.nextElementSibling) {
      list.insertBefore(row.nextElementSibling, row);
    }
    renumber(list);
    var target = button.disabled ? row.querySelector(".rank-move:not([disabled])") : button;
    if (target) target.focus();
    var rows = Array.prototype.indexOf.call(list.children, row) + 1;
    var status = list.parentElement.querySelector("[data-rank-status]");
    var name = row.querySelector(".rank-name");
    if (status && name) status.textContent = name.firstChild.textContent.trim() + ": rank " + rows;
  });
})();

// Builder on imported books: a unit's "show options the data hides" switch. The choice is remembered for the
// page (by the unit's id), so it survives the unit being redrawn after an action.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var shown = {};
  function apply(root) {
    var toggles = (root || document).querySelectorAll(".show-hidden-toggle");
    for (var i = 0; i < toggles.length; i++) {
      var toggle = toggles[i], unit = document.getElementById(toggle.getAttribute("data-unit"));
      toggle.checked = !!shown[toggle.getAttribute("data-unit")];
      if (unit) unit.classList.toggle("shows-hidden", toggle.checked);
    }
  }
  document.addEventListener("change", function (event) {
    var toggle = event.target;
    if (!toggle.classList || !toggle.classList.contains("show-hidden-toggle")) return;
    shown[toggle.getAttribute("data-unit")] = toggle.checked;
    apply();
  });
  document.addEventListener("htmx:afterSwap", function () { apply(); });
  document.addEventListener("htmx:oobAfterSwap", function () { apply(); });
  document.addEventListener("DOMContentLoaded", function () { apply(); });
})();

// Command cards: find a card by name, show the ones not available now, and keep the panel as the player left
// it (open, search text, "show all") when the builder is redrawn after adding a card.
// The offers (hundreds in a real book) are not part of the page or of an action's answer: the open panel
// fetches them, once for each time the Command Cards section is drawn anew.
(function () {
  "use strict";
  var state = {open: null, text: "", all: false};
  function load(panel) {
    var holder = panel.querySelector("#card-offer-groups[data-src]");
    if (!holder || !panel.open || holder.getAttribute("data-loading")) return;
    holder.setAttribute("data-loading", "true");
    holder.setAttribute("aria-busy", "true");
    fetch(holder.getAttribute("data-src"), {headers: {"HX-Request": "true"}, credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        if (!holder.isConnected) return;  // the section was drawn anew meanwhile: its own panel loads
        holder.innerHTML = html;
        holder.removeAttribute("data-src");
        holder.removeAttribute("aria-busy");
        if (window.htmx) window.htmx.process(holder);
        refresh();
      })
      .catch(function () {
        holder.removeAttribute("data-loading");
        holder.removeAttribute("aria-busy");
        holder.textContent = "The cards could not be loaded: close and open the panel to try again.";
      });
  }
  function refresh() {
    var panel = document.getElementById("card-offers");
    if (!panel) return;
    if (state.open !== null) panel.open = state.open;
    load(panel);
    var input = panel.querySelector(".card-search-input"), all = panel.querySelector(".show-all-cards");
    if (input && input.value !== state.text) input.value = state.text;
    if (all) all.checked = state.all;
    panel.classList.toggle("shows-all", state.all);
    var words = state.text.trim().toLowerCase(), shown = 0;
    var offers = panel.querySelectorAll(".card-offer");
    for (var i = 0; i < offers.length; i++) {
      var match = !words || offers[i].getAttribute("data-name").indexOf(words) !== -1;
      offers[i].classList.toggle("is-filtered-out", !match);
      if (match && (state.all || !offers[i].classList.contains("is-unavailable"))) shown++;
    }
    var groups = panel.querySelectorAll(".card-group");
    for (var j = 0; j < groups.length; j++) {
      var visible = groups[j].querySelectorAll(".card-offer:not(.is-filtered-out)" + (state.all ? "" : ":not(.is-unavailable)"));
      groups[j].classList.toggle("is-empty", visible.length === 0);
    }
    var status = panel.querySelector(".card-search-status");
    if (status) status.textContent = words ? shown + " card" + (shown === 1 ? "" : "s") + " match" + (shown === 1 ? "es" : "") + " “" + state.text.trim() + "”" : "";
  }
  document.addEventListener("input", function (event) {
    if (!event.target.classList || !event.target.classList.contains("card-search-input")) return;
    state.text = event.target.value;
    refresh();
  });
  document.addEventListener("change", function (event) {
    if (!event.target.classList || !event.target.classList.contains("show-all-cards")) return;
    state.all = event.target.checked;
    refresh();
  });
  document.addEventListener("toggle", function (event) {
    if (event.target.id !== "card-offers") return;
    state.open = event.target.open;
    load(event.target);
  }, true);
  document.addEventListener("htmx:afterSwap", refresh);
  document.addEventListener("htmx:oobAfterSwap", refresh);
  document.addEventListener("DOMContentLoaded", refresh);
})();

// An action redraws only the parts of the builder it changed, so the list's version is kept in one place
// (#list-version, updated with every answer) and sent with every builder request instead of each form's copy.
(function () {
  "use strict";
  document.addEventListener("htmx:configRequest", function (event) {
    var holder = document.getElementById("list-version");
    if (holder && event.detail.elt.closest && event.detail.elt.closest("#builder")) {
      event.detail.parameters["version"] = holder.getAttribute("data-version");
      var cards = document.getElementById("cards");
      if (cards && cards.getAttribute("data-digest")) event.detail.headers["X-Cards-Digest"] = cards.getAttribute("data-digest");
      var chart = document.getElementById("composition-chart");
      if (chart && chart.getAttribute("data-digest")) event.detail.headers["X-Chart-Digest"] = chart.getAttribute("data-digest");
      // What the page shows, formation by formation and box by box: the answer then carries only the boxes
      // that changed.
      var shown = document.querySelectorAll("#builder .formation[data-digest], #builder .box[data-digest]"), seen = [];
      for (var i = 0; i < shown.length; i++) seen.push(shown[i].id + "=" + shown[i].getAttribute("data-digest"));
      if (seen.length) event.detail.headers["X-Builder-Boxes"] = seen.join(" ");
    }
  });
})();
