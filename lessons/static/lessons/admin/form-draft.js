/* Nothing typed on the lesson change page is lost to a closed tab, a crash or a lost session:
 * - leaving the page with unsaved changes asks first (beforeunload);
 * - the form is kept in this browser as a draft (localStorage, keyed by lesson and the version
 *   the page was opened at) as it is edited, and offered back when the lesson is opened again.
 *   Restoring reloads the page and puts the draft in before the block editor starts, so kinds,
 *   order, tables, previews and checks are drawn from it. The draft carries the version it was
 *   made from: if the lesson changed since, saving it is refused with the other change shown;
 * - a save that went through (the admin's success message) forgets the draft.
 * Listed before block-editor.js: its DOMContentLoaded handler must run first. */
"use strict";
(function () {
  const PREFIX = "lp-lesson-draft:";
  const SUBMITTED = "lp-lesson-draft-submitted";
  const RESTORE = "lp-lesson-draft-restore";

  function storage(kind) {
    try {
      return kind === "local" ? window.localStorage : window.sessionStorage;
    } catch (e) {
      return null; // storage refused (a privacy setting): the page works without drafts
    }
  }

  function read(key) {
    const store = storage("local");
    try {
      return store ? JSON.parse(store.getItem(key) || "null") : null;
    } catch (e) {
      return null;
    }
  }

  function write(key, value) {
    const store = storage("local");
    try {
      if (store) store.setItem(key, JSON.stringify(value));
    } catch (e) {
      // Full: the page still works; only the draft is not kept.
    }
  }

  function remove(key) {
    const store = storage("local");
    if (store) store.removeItem(key);
  }

  // Every field the form posts, as [name, value] (checkboxes true/false, multiple selects lists).
  function fieldsOf(form) {
    const fields = [];
    Array.from(form.elements).forEach(function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.name.includes("__prefix__")) return;
      if (el.type === "file" || el.type === "submit" || el.type === "button") return;
      if (el.type === "checkbox" || el.type === "radio") fields.push([el.name, el.checked]);
      else if (el.multiple) {
        // A filter_horizontal's chosen box posts all its options (selected on submit); its
        // box of choices posts nothing that counts.
        const filtered = el.classList.contains("filtered");
        if (filtered && !el.id.endsWith("_to")) return;
        const options = Array.from(el.options).filter(function (o) { return filtered || o.selected; });
        fields.push([el.name, options.map(function (o) { return o.value; }).sort()]);
      } else fields.push([el.name, el.value]);
    });
    return fields;
  }

  // Rows the draft has and the page has not (blocks or links added): cloned from the inline's
  // empty form as Django's inlines.js does, before it starts (it then adds their delete links).
  function addRows(form, fields) {
    fields.forEach(function (field) {
      const match = /^(.+)-TOTAL_FORMS$/.exec(field[0]);
      const total = form.elements.namedItem(field[0]);
      const template = match && document.getElementById(match[1] + "-empty");
      if (!total || !template) return;
      for (let index = Number(total.value); index < Number(field[1]); index++) {
        const row = template.cloneNode(true);
        row.classList.remove("empty-form");
        row.id = match[1] + "-" + index;
        row.querySelectorAll("[name], [id], [for]").forEach(function (el) {
          ["name", "id", "for"].forEach(function (attr) {
            const value = el.getAttribute(attr);
            if (value) el.setAttribute(attr, value.replace("__prefix__", String(index)));
          });
        });
        template.before(row);
      }
    });
  }

  function apply(form, fields) {
    addRows(form, fields);
    fields.forEach(function (field) {
      const el = form.elements.namedItem(field[0]);
      if (!el || el instanceof RadioNodeList) return;
      if (el.type === "checkbox") el.checked = field[1];
      else if (el.multiple) {
        Array.from(el.options).forEach(function (o) { o.selected = field[1].includes(o.value); });
      } else el.value = field[1];
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const session = storage("session");
    const submitted = session && session.getItem(SUBMITTED);
    if (session) session.removeItem(SUBMITTED);
    if (submitted && document.querySelector(".messagelist .success")) remove(submitted);
    // A refused save shows the editor's input in the form already: no offer then.
    const refused = submitted && document.querySelector(".errornote, #lp-conflict");

    const box = document.getElementById("lp-draft");
    const form = box && box.closest("form");
    const store = storage("local");
    if (!form || !store || !session) return;
    const lessonPrefix = PREFIX + box.dataset.lesson + ":";
    const key = lessonPrefix + box.dataset.version;
    const drafts = Object.keys(store).filter(function (k) { return k.startsWith(lessonPrefix); });
    const draftKey = drafts.sort().pop();
    const draft = draftKey && read(draftKey);
    const restored = Boolean(draft) && session.getItem(RESTORE) === draftKey;
    session.removeItem(RESTORE);
    if (restored) apply(form, draft.fields);
    let baseline = null; // the form as drawn, once the editors have started
    let submitting = false;
    let timer = null;

    function changed() {
      return restored || (baseline !== null && JSON.stringify(fieldsOf(form)) !== baseline);
    }

    function keep() {
      timer = null;
      if (!changed()) return;
      // One draft per lesson: the newest, under the version it was made from.
      drafts.forEach(function (k) { if (k !== key) remove(k); });
      write(key, { saved_at: new Date().toISOString(), fields: fieldsOf(form) });
    }

    function edited() {
      if (!timer) timer = window.setTimeout(keep, 500);
    }

    window.addEventListener("load", function () {
      // After the other scripts' load handlers (the check editor, the tags' filter boxes).
      window.setTimeout(function () {
        baseline = JSON.stringify(fieldsOf(form));
        if (restored) {
          box.querySelector(".lp-draft-restored").hidden = false;
          box.hidden = false;
          // The previews show the saved text: drawn again from the draft's.
          form.querySelectorAll("textarea.lp-markdown-source").forEach(function (textarea) {
            if (textarea.value !== textarea.defaultValue) {
              textarea.dispatchEvent(new Event("input", { bubbles: true }));
            }
          });
        } else if (draft && !refused && JSON.stringify(draft.fields) !== baseline) {
          box.querySelector(".lp-draft-when").textContent = new Date(draft.saved_at).toLocaleString();
          box.querySelector(".lp-draft-offer").hidden = false;
          box.hidden = false;
        }
      }, 0);
    });
    box.querySelector(".lp-draft-restore").addEventListener("click", function () {
      session.setItem(RESTORE, draftKey);
      window.location.reload();
    });
    box.querySelector(".lp-draft-discard").addEventListener("click", function () {
      drafts.forEach(remove);
      box.hidden = true;
    });
    form.addEventListener("input", edited);
    form.addEventListener("change", edited);
    // Reordering (drag, move up / down) and grid edits set hidden inputs without an event.
    form.addEventListener("pointerup", edited);
    form.addEventListener("keyup", edited);
    form.addEventListener("submit", function () {
      submitting = true;
      if (timer) window.clearTimeout(timer);
      keep();
      session.setItem(SUBMITTED, key);
    });
    window.addEventListener("beforeunload", function (event) {
      if (submitting || !changed()) return;
      keep();
      event.preventDefault();
      event.returnValue = "";
    });
  });
})();
