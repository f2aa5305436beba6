// Live board: the server pushes the whole board after every change (server-sent events);
// the browser reconnects by itself and says which deal it saw last (Last-Event-ID).
"use strict";
(function () {
  var body = document.body;
  var url = body.dataset.events;
  var board = document.getElementById("board");
  if (!url || !board || !window.EventSource) return;
  var source = new EventSource(url + "?since=" + encodeURIComponent(body.dataset.since || ""));
  var arrived = [];
  source.onmessage = function (event) {
    var data = JSON.parse(event.data);
    board.innerHTML = data.html; // rendered and escaped by the server
    arrived = arrived.concat(data.deals);
    body.dataset.arrived = arrived.join(" ");
    body.dataset.live = "yes";
  };
  source.onerror = function () {
    if (body.dataset.live !== "ended") body.dataset.live = "no";
  };
  // The server will never send this board again (its database file was moved, replaced
  // or deleted): say why, as a write would, and stop reconnecting.
  source.addEventListener("ended", function (event) {
    source.close();
    body.dataset.live = "ended";
    var note = document.createElement("p");
    note.className = "error ended";
    note.setAttribute("role", "alert");
    note.textContent = "Error: " + JSON.parse(event.data).message; // text, never markup
    board.parentNode.insertBefore(note, board);
  });
})();
