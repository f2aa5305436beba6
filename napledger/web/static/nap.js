// Live board: the server pushes the whole board after every change (server-sent events);
// the browser reconnects by itself and says which deal it saw last (Last-Event-ID).
"use strict";
(function () {
  var body = document.body;
  // A refused write answers at the address it was posted to: the address bar shows the
  // keeper's page instead, so a reload asks for the page, never sends the deal again.
  if (body.dataset.home && location.pathname.slice(-5) !== "/keep" && window.history) {
    history.replaceState(null, "", body.dataset.home);
  }

  var url = body.dataset.events;
  var board = document.getElementById("board");
  if (!url || !board || !window.EventSource) return;
  var join = url.indexOf("?") < 0 ? "?" : "&"; // the organiser's list carries its key
  var seen = body.dataset.since || ""; // the newest deal this page has: counted from
  var arrived = [];
  var source = null;
  function connect() {
    source = new EventSource(url + join + "since=" + encodeURIComponent(seen));
    source.onmessage = function (event) {
      var data = JSON.parse(event.data);
      seen = event.lastEventId || seen;
      board.innerHTML = data.html; // rendered and escaped by the server
      arrived = arrived.concat(data.deals);
      body.dataset.arrived = arrived.join(" ");
      body.dataset.live = "yes";
      refreshControls();
    };
    source.onerror = function () {
      notLive();
      // The browser retries by itself, unless the network was gone as it tried: then it
      // gives up for good, and the page asks again itself (at once when back online).
      if (source.readyState === EventSource.CLOSED) setTimeout(again, 3000);
    };
    source.onopen = function () {
      // The server answers again: keep.js sends a deal tapped meanwhile.
      document.dispatchEvent(new Event("napledger:open"));
    };
    // The server will never send this board again (its database file was moved, replaced
    // or deleted): say why, as a write would, and stop reconnecting.
    source.addEventListener("ended", function (event) {
      source.close();
      body.dataset.live = "ended";
      var note = document.createElement("p");
      note.className = "error ended";
      note.setAttribute("role", "alert");
      // "Error:" in the page's language, rendered by the server beside the address
      note.textContent = (body.dataset.errorWord || "Error:") + " " + JSON.parse(event.data).message;
      board.parentNode.insertBefore(note, board);
    });
  }
  function again() {
    if (source.readyState === EventSource.CLOSED && body.dataset.live !== "ended") connect();
  }
  function notLive() {
    if (body.dataset.live !== "ended") body.dataset.live = "no";
  }
  connect();
  // The phone itself left the Wi-Fi: said at once, not when the stream times out; its
  // stream is dropped (it cannot be trusted) and asked for again once back online.
  window.addEventListener("offline", function () {
    source.close();
    notLive();
  });
  window.addEventListener("online", again);

  // The scorekeeper's controls follow the board too: after each change the server draws
  // them again (deal number, dealer, "Amend deal N", the numbers each form posts) and
  // they are swapped in when they differ. Whatever is half entered is kept while it is
  // still the same deal; once that deal was recorded elsewhere the form starts afresh, so
  // it cannot be sent again as the next one. A tap on the old controls is refused by the
  // server (each form says what it was drawn against), never applied.
  var asked = 0;
  function refreshControls() {
    var controls = document.getElementById("controls");
    if (!controls || !window.fetch) return;
    var ask = ++asked;
    fetch(controls.dataset.controls, { cache: "no-store", credentials: "same-origin" })
      .then(function (answer) {
        return answer.ok ? answer.text() : null;
      })
      .then(function (html) {
        if (html === null || ask !== asked) return; // an older answer than one asked since
        swapControls(html);
      })
      .catch(function () {}); // offline for a moment: the next update tries again
  }

  function swapControls(html) {
    var current = document.getElementById("controls");
    var drawn = document.createElement("template");
    drawn.innerHTML = html; // rendered and escaped by the server
    var fresh = drawn.content.querySelector("#controls");
    if (!current || !fresh || fresh.dataset.state === current.dataset.state) return;
    var before = current.querySelector("#deal");
    var after = fresh.querySelector("#deal");
    if (before && after && before.dataset.next === after.dataset.next) keepEntered(before, after);
    var focused = document.activeElement && document.activeElement.name;
    current.replaceWith(fresh);
    // "Deal 27 recorded." or a refusal spoke of the board before this change.
    var keep = fresh.parentNode;
    keep.querySelectorAll(":scope > .said, :scope > .error").forEach(function (line) {
      line.remove();
    });
    if (focused) {
      var again = fresh.querySelector('[name="' + focused + '"]');
      if (again && again.type !== "hidden") again.focus();
    }
    body.dataset.keeper = fresh.dataset.state; // what the tests wait for
  }

  function entryKey(input) {
    var buyer = input.closest("label.buy");
    var who = buyer && buyer.querySelector('[name="buyer"]');
    return input.name + "|" + (who ? who.value : "");
  }

  function keepEntered(before, after) {
    var typed = {};
    before.querySelectorAll("input").forEach(function (input) {
      if (input.type === "radio" || input.type === "checkbox") {
        if (input.checked) typed[input.name + "=" + input.value] = true;
      } else if (input.type !== "hidden" && input.value) {
        typed[entryKey(input)] = input.value;
      }
    });
    after.querySelectorAll("input").forEach(function (input) {
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = typed[input.name + "=" + input.value] === true;
      } else if (input.type !== "hidden" && typed[entryKey(input)] !== undefined) {
        input.value = typed[entryKey(input)];
      }
    });
  }
})();
