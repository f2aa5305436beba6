// The scorekeeper's taps: choices that unchoose, risky taps asked first, and a deal
// tapped while not live kept on the phone until the server answers again.
"use strict";
(function () {
  var body = document.body;

  // A chosen button tapped again is unchosen (a radio cannot be, by itself): the keeper
  // gets out of a wrong tap without Clear. Only a pointer's tap: the keyboard keeps its own.
  document.addEventListener("pointerdown", function (event) {
    var pick = event.target.closest && event.target.closest("label.pick");
    var input = pick && pick.querySelector('input[type="radio"]');
    if (input) input.dataset.was = input.checked ? "yes" : "";
  }, true);
  document.addEventListener("click", function (event) {
    var input = event.target;
    if (input.type !== "radio" || input.dataset.was === undefined) return;
    if (input.dataset.was === "yes") input.checked = false;
    delete input.dataset.was;
  });

  // Undo, Pass, Leave and Void ask once, on the page, naming what they will do: the
  // server wrote each question (data-ask) from the board this page shows. The answer is
  // the same button again (or Cancel), where the thumb already is.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter;
    var ask = (button && button.dataset.ask) || form.dataset.ask;
    if (!ask) return;
    if (form.dataset.asked === "yes") {
      delete form.dataset.asked;
      return;
    }
    event.preventDefault();
    var who = form.querySelector('select[name="player"]');
    if (who) ask = ask.replace("{player}", who.value);
    var before = document.querySelector(".ask");
    if (before) before.remove();
    var box = document.createElement("div");
    box.className = "ask";
    box.setAttribute("role", "alertdialog");
    var question = document.createElement("p");
    question.textContent = ask;
    var yes = document.createElement("button");
    yes.type = "button";
    yes.className = "warn";
    yes.textContent = button ? button.textContent : ask;
    var no = document.createElement("button");
    no.type = "button";
    var controls = document.getElementById("controls");
    no.textContent = (controls && controls.dataset.cancel) || "Cancel";
    yes.addEventListener("click", function () {
      box.remove();
      form.dataset.asked = "yes";
      form.requestSubmit(button || undefined);
    });
    no.addEventListener("click", function () {
      box.remove();
    });
    box.append(question, yes, no);
    // Below the row of the button tapped, where the eye already is.
    ((button && button.closest(".actions")) || form.closest(".actions") || form).after(box);
    no.focus();
  });

  // A deal tapped while not live is kept on this phone (localStorage, so a reload keeps
  // it too), shown as waiting, and sent when the server answers again: once, with the
  // deal number it was tapped for, so the server refuses it (saying why) if the table
  // moved on meanwhile.
  var store = window.localStorage;
  function waitingKey() {
    // One a session, whichever of its forms is shown (a correction's, or none once closed).
    var session = location.pathname.match(/^\/s\/\d+/);
    return "napledger waiting " + (session ? session[0] : location.pathname);
  }
  function waitingLine() {
    var line = document.querySelector(".keep .waiting");
    if (!line) {
      var controls = document.getElementById("controls");
      if (!controls) return null;
      line = document.createElement("p");
      line.className = "waiting";
      line.setAttribute("role", "status");
      controls.parentNode.insertBefore(line, controls);
    }
    return line;
  }
  function said(line, text, tapped) {
    var taps = document.createElement("span");
    taps.className = "taps";
    taps.textContent = tapped; // what was tapped, on a line of its own
    line.replaceChildren(text, taps);
  }
  function showWaiting(kept) {
    var line = waitingLine();
    if (!line) return;
    said(line, kept.said, kept.tapped);
    line.scrollIntoView({ block: "center" });
  }
  var sending = false;
  function sendWaiting() {
    var kept = store && JSON.parse(store.getItem(waitingKey()) || "null");
    if (!kept || sending || !window.fetch) return;
    showWaiting(kept);
    sending = true;
    fetch(kept.action, {
      method: "POST",
      body: new URLSearchParams(kept.fields),
      credentials: "same-origin",
      cache: "no-store",
    })
      .then(function (answer) {
        if (answer.status >= 500) return; // not answered yet: it stays, and goes next time
        store.removeItem(waitingKey());
        if (answer.ok) {
          location.replace(answer.url); // "Deal 12 recorded.", as after any deal
          return;
        }
        return answer.text().then(function (html) {
          var drawn = document.createElement("template");
          drawn.innerHTML = html; // rendered and escaped by the server
          var why = drawn.content.querySelector(".keep > .error, .error");
          var line = waitingLine();
          if (!line) return;
          document.querySelectorAll(".keep > .said").forEach(function (old) {
            old.remove(); // it spoke of the board before this refusal
          });
          line.className = "error";
          line.setAttribute("role", "alert");
          said(line, why ? why.textContent : String(answer.status), kept.tapped);
          line.scrollIntoView({ block: "center" });
        });
      })
      .catch(function () {}) // still away: the next time the stream opens, it goes
      .then(function () {
        sending = false;
      });
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || form.id !== "deal" || body.dataset.live !== "no") return;
    if (!store || (event.submitter && event.submitter.hasAttribute("formaction"))) return;
    if (!/\/hand$/.test(form.getAttribute("action"))) return;
    event.preventDefault();
    var before = JSON.parse(store.getItem(waitingKey()) || "null");
    if (before) return showWaiting(before); // one deal waits at a time: it goes first
    var tapped = [];
    form.querySelectorAll("input:checked + span").forEach(function (span) {
      tapped.push(span.textContent);
    });
    var kept = {
      action: form.getAttribute("action"),
      fields: Array.from(new FormData(form)),
      said: (form.dataset.waiting || "").replace("{number}", form.dataset.next),
      tapped: tapped.join(" · "),
    };
    store.setItem(waitingKey(), JSON.stringify(kept));
    form.reset();
    showWaiting(kept);
    sendWaiting();
  });
  sendWaiting(); // one kept from before a reload
  document.addEventListener("napledger:open", sendWaiting);
})();
