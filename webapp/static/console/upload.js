/* Verity console: drag-and-drop uploads and live ingestion progress. No dependencies. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // --- Drag and drop onto the upload form's file input --------------------------------
  var zone = document.getElementById("dropzone");
  var input = document.getElementById("id_files");
  var list = document.getElementById("filelist");
  var supported = /\.(pdf|docx|html?|md|markdown|rst|txt|text)$/i;

  function sizeText(bytes) {
    if (bytes < 1024) return bytes + " bytes";
    if (bytes < 1024 * 1024) return (bytes / 1024).toFixed(bytes < 10240 ? 1 : 0) + " KB";
    return (bytes / 1048576).toFixed(1) + " MB";
  }

  function showFiles() {
    if (!list) return;
    list.innerHTML = "";
    Array.prototype.forEach.call(input.files, function (file) {
      var li = document.createElement("li");
      var name = document.createElement("span");
      name.textContent = file.name;
      var note = document.createElement("span");
      note.className = "muted";
      var ok = supported.test(file.name);
      note.textContent = ok ? sizeText(file.size) : "unsupported type";
      if (!ok) li.className = "unsupported";
      li.appendChild(name);
      li.appendChild(note);
      list.appendChild(li);
    });
  }

  if (zone && input) {
    ["dragenter", "dragover"].forEach(function (type) {
      zone.addEventListener(type, function (event) { event.preventDefault(); zone.classList.add("dragover"); });
    });
    ["dragleave", "drop"].forEach(function (type) {
      zone.addEventListener(type, function (event) { event.preventDefault(); zone.classList.remove("dragover"); });
    });
    zone.addEventListener("drop", function (event) {
      var merged = new DataTransfer();
      Array.prototype.forEach.call(input.files, function (f) { merged.items.add(f); });
      Array.prototype.forEach.call(event.dataTransfer.files, function (f) { merged.items.add(f); });
      input.files = merged.files;
      showFiles();
    });
    input.addEventListener("change", showFiles);
  }

  // --- Poll ingestion status while documents are queued or processing -----------------
  // The document list has a progress panel; the upload page a results table of the files just sent.
  var panel = document.getElementById("progress") || document.getElementById("upload-results");
  if (!panel || panel.getAttribute("data-active") === "0") return;
  var url = panel.getAttribute("data-status-url");
  var classes = { ready: "badge-ok", failed: "badge-bad", processing: "badge-info", queued: "badge-warn" };

  function setText(row, selector, text) {
    var cell = row.querySelector(selector);
    if (!cell) return;
    cell.textContent = text;
    cell.hidden = !text && text !== 0;
  }

  function update(data) {
    var bar = document.getElementById("progress-bar");
    if (bar) {
      bar.style.width = data.percent + "%";
      document.getElementById("progress-text").textContent = data.done + " of " + data.total + " done";
    }
    data.documents.forEach(function (doc) {
      var row = document.querySelector('tr[data-doc-id="' + doc.id + '"]');
      if (!row) return;
      var badge = row.querySelector(".doc-status");
      badge.className = "badge doc-status " + (classes[doc.status] || "badge-muted");
      badge.textContent = doc.label;
      // A passage count means something once the file has been read; until then it is a dash.
      setText(row, ".doc-chunks", doc.status === "ready" || doc.status === "failed" ? doc.chunks : "—");
      setText(row, ".doc-error", doc.error);
      setText(row, ".doc-advice", doc.advice || "");
    });
    if (data.active === 0) {
      var live = document.getElementById("upload-live");
      if (live) {
        live.textContent = "All files read.";
      } else {
        panel.querySelector("strong").textContent = "All documents read.";
        setTimeout(function () { panel.hidden = true; }, 4000);
      }
      return false;
    }
    return true;
  }

  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) { if (update(data)) setTimeout(poll, 2000); })
      .catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 1500);
})();
