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
    body.dataset.live = "no";
  };
})();
