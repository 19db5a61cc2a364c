/* The report's change form: when the status is set to "Resolved (accepted)", the notice of what
 * the reporter will be sent is stressed and announced, before the editor saves. */
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  const select = document.getElementById("id_status");
  const notice = document.querySelector(".lp-resolve-notice");
  if (!select || !notice) return;
  const initial = select.value;
  const update = function () {
    const armed = select.value === "resolved" && initial !== "resolved";
    notice.classList.toggle("lp-armed", armed);
    notice.setAttribute("aria-live", "polite");
  };
  select.addEventListener("change", update);
  update();
});
