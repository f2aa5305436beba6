// The new-session form: choosing a game shows that game's own settings at once.
"use strict";
(function () {
  var select = document.querySelector("select[data-submit-on-change]");
  if (select) select.addEventListener("change", function () { select.form.submit(); });
})();
