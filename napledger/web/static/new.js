// The new-session form. Choosing a game swaps in that game's settings in place (asked of
// the server: the kinds, ranges and words are the rules'), so the name and players typed
// stay; "Deals first" offers the players typed; "Carry the pot from" offers only closed
// sessions of the chosen game and the currency typed.
"use strict";
(function () {
  var form = document.getElementById("new");
  if (!form) return;
  var game = form.querySelector("select[data-settings]");
  var players = form.querySelector('textarea[name="players"]');
  var dealer = form.querySelector("select[data-from-players]");
  var carry = form.querySelector("select[data-carry]");
  var currency = form.querySelector('input[name="currency"]');

  game.addEventListener("change", function () {
    var asked = new URLSearchParams({ key: form.elements.key.value, game: game.value });
    fetch("/new?" + asked, { cache: "no-store", credentials: "same-origin" })
      .then(function (answer) {
        return answer.ok ? answer.text() : null;
      })
      .then(function (html) {
        var drawn = document.createElement("template");
        drawn.innerHTML = html || ""; // rendered and escaped by the server
        var fresh = drawn.content.getElementById("settings");
        if (!fresh) return form.querySelector("button[formmethod]").click();
        document.getElementById("settings").replaceWith(fresh);
        form.dataset.game = game.value; // what the tests wait for
        offerCarry();
      })
      .catch(function () {
        form.querySelector("button[formmethod]").click(); // the whole form, typed fields too
      });
  });

  function offerDealers() {
    var chosen = dealer.value;
    var names = players.value.split(/[\n,]/).map(function (n) { return n.trim(); });
    while (dealer.options.length > 1) dealer.remove(1);
    names.filter(function (n, i) { return n && names.indexOf(n) === i; }).forEach(function (n) {
      dealer.add(new Option(n, n, false, n === chosen));
    });
  }
  function offerCarry() {
    if (!carry) return;
    var money = currency.value.trim().toUpperCase();
    Array.prototype.forEach.call(carry.options, function (option) {
      if (!option.value) return;
      var other = option.dataset.game !== game.value ||
        (money && option.dataset.currency.toUpperCase() !== money);
      option.hidden = option.disabled = other;
      if (other && option.selected) carry.value = "";
    });
  }
  // A refusal answers at the address the form was posted to: the address bar shows the
  // form with everything typed instead, so a reload never sends it again.
  if (document.querySelector("main > .error") && window.history) {
    history.replaceState(null, "", "/new?" + new URLSearchParams(new FormData(form)));
  }
  players.addEventListener("input", offerDealers);
  currency.addEventListener("input", offerCarry);
  offerDealers();
  offerCarry();
})();
