(function () {
  "use strict";
  var collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});
  function cellKey(cell, num) {
    var v = cell.getAttribute("data-v");
    if (v === null) { v = cell.textContent.trim(); }
    if (num) { var x = parseFloat(v); return isNaN(x) ? -Infinity : x; }
    return v;
  }
  function sortBy(th) {
    var table = th.closest("table");
    var body = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var num = th.getAttribute("data-type") === "num";
    var current = th.getAttribute("aria-sort");
    var dir = current ? (current === "ascending" ? -1 : 1) : (num ? -1 : 1);
    var rows = Array.prototype.slice.call(body.rows).map(function (row, i) {
      return {row: row, i: i, k: cellKey(row.cells[col], num)};
    });
    rows.sort(function (a, b) {
      var c = num ? (a.k < b.k ? -1 : a.k > b.k ? 1 : 0) : collator.compare(a.k, b.k);
      return c !== 0 ? dir * c : a.i - b.i;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
  }
  document.querySelectorAll("table.sortable thead th").forEach(function (th) {
    th.setAttribute("tabindex", "0");
    th.title = "sort";
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sortBy(th); }
    });
  });
  document.querySelectorAll("input.filter").forEach(function (input) {
    var table = document.getElementById(input.getAttribute("data-for"));
    var count = input.nextElementSibling;
    function apply() {
      var q = input.value.trim().toLowerCase();
      var shown = 0, rows = table.tBodies[0].rows;
      for (var i = 0; i < rows.length; i++) {
        var ok = !q || rows[i].textContent.toLowerCase().indexOf(q) >= 0;
        rows[i].hidden = !ok;
        if (ok) { shown++; }
      }
      if (count) { count.textContent = q ? shown + " of " + rows.length + " rows" : ""; }
    }
    input.addEventListener("input", apply);
    apply();
  });
  var NAMES = {e: "exact", s: "synonym", m: "missed"};
  function showSystem(section) {
    var task = section.closest(".task");
    var st = section.getAttribute("data-st").split("|");
    task.querySelectorAll("details.ref").forEach(function (ref, k) {
      var codes = st[k] || "";
      ref.querySelectorAll("mark[data-i]").forEach(function (m) {
        var c = codes.charAt(parseInt(m.getAttribute("data-i"), 10));
        m.className = NAMES[c] || "topic";
      });
      ref.open = true;
    });
    task.querySelectorAll("section.sys").forEach(function (s) { s.classList.remove("shown"); });
    section.classList.add("shown");
    var label = task.querySelector(".ref-system");
    if (label) { label.textContent = section.getAttribute("data-system"); }
  }
  document.querySelectorAll("button.show").forEach(function (b) {
    b.addEventListener("click", function () { showSystem(b.closest("section.sys")); });
  });
})();
