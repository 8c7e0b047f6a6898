// Issue 17 extras: drop a file on the import page to import it at once; copy the list as text.
(function () {
  "use strict";

  // -- import: choosing or dropping a file is enough ---------------------------------------------------
  function importForm() { return document.querySelector("form[data-drop-import]"); }

  document.addEventListener("change", function (event) {
    var form = importForm();
    if (form && event.target.id === "id_file" && event.target.files.length) form.requestSubmit();
  });
  ["dragenter", "dragover"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var form = importForm();
      if (!form || !event.dataTransfer) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
      form.classList.add("is-dragging");
    });
  });
  document.addEventListener("dragleave", function (event) {
    var form = importForm();
    if (form && (event.target === document.documentElement || event.target === document.body)) form.classList.remove("is-dragging");
  });
  document.addEventListener("drop", function (event) {
    var form = importForm();
    if (!form || !event.dataTransfer || !event.dataTransfer.files.length) return;
    event.preventDefault();
    form.classList.remove("is-dragging");
    var input = document.getElementById("id_file");
    var transfer = new DataTransfer();
    transfer.items.add(event.dataTransfer.files[0]);
    input.files = transfer.files;
    form.requestSubmit();
  });

  // -- the list as text: load the chosen format into the box, copy it --------------------------------------
  function status(box, message) {
    var out = box.querySelector("[data-text-status]");
    if (out) out.textContent = message;
  }

  function load(box) {
    var style = box.querySelector("select[name=style]").value;
    var area = box.querySelector("textarea");
    return fetch(box.getAttribute("data-text-url") + "?style=" + encodeURIComponent(style), {credentials: "same-origin"})
      .then(function (response) {
        if (!response.ok) throw new Error("the server answered " + response.status);
        return response.text();
      })
      .then(function (text) { area.value = text; area.hidden = false; return text; });
  }

  // The text is fetched when the player asks for it (choosing a format, or Copy): no request runs behind the
  // player's back while they build. The composition chart comes with every answer of the builder.
  document.addEventListener("change", function (event) {
    var box = event.target.closest && event.target.closest("[data-text-export]");
    if (box && event.target.name === "style") load(box).catch(function (e) { status(box, "Could not load the text: " + e.message); });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy-text]");
    if (!button) return;
    var box = button.closest("[data-text-export]");
    event.preventDefault();
    load(box).then(function (text) {
      if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text);
      var area = box.querySelector("textarea");
      area.select();
      if (!document.execCommand("copy")) throw new Error("this browser does not allow copying");
    }).then(function () {
      status(box, "Copied to the clipboard.");
    }).catch(function (e) {
      status(box, "Select the text below and copy it (" + e.message + ").");
    });
  });
})();
