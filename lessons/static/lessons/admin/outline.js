// The quest outline page: lessons and units reordered by drag (HTML5 drag and drop) or by
// keyboard (arrow keys on a focused handle, or the ▲ ▼ buttons), each move announced in the
// status line (aria-live). "Save order" posts the whole order with the version of each lesson
// the page showed; a 409 says what changed and leaves the editor's order on the page.
(function () {
  "use strict";

  const form = document.getElementById("lp-outline");
  if (!form) return;
  const unitsList = document.querySelector(".lp-outline-units");
  const saveButton = document.getElementById("lp-outline-save");
  const status = document.getElementById("lp-outline-status");
  const errorBox = document.getElementById("lp-outline-error");
  let dirty = false;
  let dragged = null;

  const lessons = () => Array.from(unitsList.querySelectorAll(".lp-outline-lesson"));
  const units = () => Array.from(unitsList.querySelectorAll(".lp-outline-unit"));
  const isUnit = (item) => item.classList.contains("lp-outline-unit");
  const isLoose = (unit) => unit.dataset.unitId === "";

  function announce(text) {
    // Emptied first: the same words twice are read out twice.
    status.textContent = "";
    window.setTimeout(() => { status.textContent = text; }, 30);
  }

  function renumber() {
    lessons().forEach((lesson, index) => {
      lesson.querySelector(".lp-outline-number").textContent = String(index + 1);
    });
  }

  function moved(item) {
    dirty = true;
    saveButton.disabled = false;
    errorBox.hidden = true;
    renumber();
    if (isUnit(item)) {
      const movable = units().filter((unit) => !isLoose(unit));
      announce(`Unit “${item.dataset.title}” moved to place ${movable.indexOf(item) + 1} of ${movable.length}. Not saved yet.`);
    } else {
      const all = lessons();
      const unit = item.closest(".lp-outline-unit");
      const where = isLoose(unit) ? "in no unit" : `in unit “${unit.dataset.title}”`;
      announce(`Lesson “${item.dataset.title}” moved to place ${all.indexOf(item) + 1} of ${all.length}, ${where}. Not saved yet.`);
    }
  }

  // One step up or down. A lesson crosses into the neighbouring unit at its edge; a unit
  // swaps with its neighbour, never above the lessons in no unit (they come first).
  function step(item, up) {
    if (isUnit(item)) {
      const sibling = up ? item.previousElementSibling : item.nextElementSibling;
      if (!sibling || isLoose(sibling)) return false;
      if (up) sibling.before(item); else sibling.after(item);
      return true;
    }
    const sibling = up ? item.previousElementSibling : item.nextElementSibling;
    if (sibling) {
      if (up) sibling.before(item); else sibling.after(item);
      return true;
    }
    const unit = item.closest(".lp-outline-unit");
    const next = up ? unit.previousElementSibling : unit.nextElementSibling;
    if (!next) return false;
    const list = next.querySelector(".lp-outline-lessons");
    if (up) list.append(item); else list.prepend(item);
    return true;
  }

  function move(item, up, focusSelector) {
    if (!step(item, up)) {
      announce(up ? "Already first." : "Already last.");
      return;
    }
    moved(item);
    const focus = item.querySelector(focusSelector);
    if (focus) focus.focus();
  }

  unitsList.addEventListener("click", (event) => {
    const button = event.target.closest(".lp-outline-up, .lp-outline-down");
    if (!button) return;
    const item = button.closest(".lp-outline-lesson") || button.closest(".lp-outline-unit");
    const up = button.classList.contains("lp-outline-up");
    move(item, up, up ? ".lp-outline-up" : ".lp-outline-down");
  });

  unitsList.addEventListener("keydown", (event) => {
    const handle = event.target.closest(".lp-outline-handle");
    if (!handle || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    event.preventDefault();
    const item = handle.closest(".lp-outline-lesson") || handle.closest(".lp-outline-unit");
    move(item, event.key === "ArrowUp", ".lp-outline-handle");
  });

  unitsList.addEventListener("dragstart", (event) => {
    dragged = event.target.closest("[draggable=true]");
    if (!dragged) return;
    event.stopPropagation();
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragged.dataset.title);
    dragged.classList.add("lp-outline-dragging");
  });

  unitsList.addEventListener("dragover", (event) => {
    if (!dragged) return;
    const target = dropTarget(event.target);
    if (!target) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
  });

  // Where the dragged item may land over this element: a lesson over a lesson or a unit's
  // list, a unit over another unit (not the lessons in no unit).
  function dropTarget(element) {
    if (isUnit(dragged)) {
      const unit = element.closest(".lp-outline-unit");
      return unit && unit !== dragged && !isLoose(unit) ? unit : null;
    }
    return element.closest(".lp-outline-lesson") || element.closest(".lp-outline-unit");
  }

  unitsList.addEventListener("drop", (event) => {
    if (!dragged) return;
    const target = dropTarget(event.target);
    if (!target || target === dragged) return;
    event.preventDefault();
    const box = target.getBoundingClientRect();
    const after = event.clientY > box.top + box.height / 2;
    if (!isUnit(dragged) && isUnit(target)) {
      target.querySelector(".lp-outline-lessons").append(dragged);
    } else if (after) {
      target.after(dragged);
    } else {
      target.before(dragged);
    }
    moved(dragged);
  });

  unitsList.addEventListener("dragend", () => {
    if (dragged) dragged.classList.remove("lp-outline-dragging");
    dragged = null;
  });

  function order() {
    const opened = (list) => Array.from(list.querySelectorAll(".lp-outline-lesson")).map(
      (lesson) => ({ id: Number(lesson.dataset.lessonId), version: Number(lesson.dataset.version) }),
    );
    const loose = units().find(isLoose);
    return {
      lessons: opened(loose.querySelector(".lp-outline-lessons")),
      units: units().filter((unit) => !isLoose(unit)).map((unit) => ({
        id: Number(unit.dataset.unitId),
        lessons: opened(unit.querySelector(".lp-outline-lessons")),
      })),
    };
  }

  saveButton.addEventListener("click", async () => {
    saveButton.disabled = true;
    announce("Saving…");
    let response;
    try {
      response = await fetch(form.dataset.orderUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          "X-CSRFToken": form.querySelector('input[name="csrfmiddlewaretoken"]').value,
        },
        body: JSON.stringify(order()),
      });
    } catch (error) {
      failed("The order was not saved: the server did not answer. It is still here; try again.");
      return;
    }
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      failed(`Not saved: ${body.detail || "the server refused the order"} `);
      return;
    }
    for (const lesson of lessons()) {
      const version = body.versions && body.versions[lesson.dataset.lessonId];
      if (version) lesson.dataset.version = String(version);
    }
    dirty = false;
    announce("Order saved. Learners see it now.");
  });

  function failed(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
    saveButton.disabled = false;
    announce(message);
  }

  window.addEventListener("beforeunload", (event) => {
    if (!dirty) return;
    event.preventDefault();
    event.returnValue = "";
  });
})();
