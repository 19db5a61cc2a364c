/* "Also open by ...": the lesson change page tells the server, every few seconds (its
 * data-heartbeat-seconds), that this editor still has it open, and shows the other editors
 * the server answers with. A failed beat changes nothing on the page: the next one retries. */
"use strict";
(function () {
  function csrfToken() {
    const input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function seenAt(iso) {
    const when = new Date(iso);
    const pad = function (n) {
      return String(n).padStart(2, "0");
    };
    return pad(when.getUTCHours()) + ":" + pad(when.getUTCMinutes());
  }

  function show(line, editors) {
    if (!editors.length) {
      line.hidden = true;
      line.textContent = "";
      return;
    }
    const names = editors.map(function (editor) {
      return editor.name + " (seen " + seenAt(editor.last_seen) + " UTC)";
    });
    line.textContent =
      "Also open by " +
      names.join(", ") +
      ". Whoever saves second is shown the first one's change, and loses nothing.";
    line.hidden = false;
  }

  function beat(line) {
    return fetch(line.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: "{}",
    })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (answer) {
        if (answer) show(line, answer.editors);
      })
      .catch(function () {});
  }

  document.addEventListener("DOMContentLoaded", function () {
    const line = document.getElementById("lp-presence");
    if (!line) return;
    const seconds = Number(line.dataset.heartbeatSeconds) || 30;
    window.setInterval(function () {
      beat(line);
    }, seconds * 1000);
  });
})();
