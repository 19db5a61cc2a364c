/* The form editor of a check block (a question of the lesson; lessons/checks.py), with the
 * check as learners will see it beside it.
 * - The spec stays in the block's `spec` textarea as JSON: the server reads that one value
 *   and judges it (lessons.blocks.block_errors, the same rules as the curriculum loader).
 *   This script only writes it; without JavaScript the JSON is edited by hand.
 * - What it offers (types, units, how many options and items) comes from the server
 *   (#lp-check-config); problems found on save come back in the textarea's data-errors and
 *   are shown at their control.
 * - Every control has a label of its own ("Option 2 is right", "Move item 3 up"). */
"use strict";
(function () {
  const KNOWN = [
    "key", "type", "explanation", "reveal_after", "answer", "tolerance", "relative_tolerance",
    "unit", "mistakes", "options", "items",
  ];
  // What the editor offers (types, units, how many options...), from lessons.checks: read
  // from the change form's #lp-check-config once the page is there.
  let CONFIG = null;

  /* --- building blocks ------------------------------------------------------------------ */

  function el(tag, props, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "text") node.textContent = value;
      else if (name === "value") node.value = value;
      else if (name === "checked") node.checked = true;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children || []) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function text(value) {
    return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
  }

  function list(value) {
    return Array.isArray(value) ? value : [];
  }

  function has(object, name) {
    return object !== null && typeof object === "object" && Object.prototype.hasOwnProperty.call(object, name);
  }

  // A number as JSON when it reads as one ("12,288" and "1.2e4" too), else the text as typed,
  // for the server to name the problem. Long integers stay text: JSON numbers in the browser
  // are doubles.
  function toNumber(raw) {
    const typed = raw.trim();
    if (!typed) return undefined;
    const compact = typed.replace(/[,_ \u00a0\u202f]/g, "");
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(compact)) return typed;
    if (/^[+-]?\d{16,}$/.test(compact) || !isFinite(Number(compact))) return compact;
    return Number(compact);
  }

  /* --- the spec, as the form holds it and as JSON ------------------------------------------ */

  function fromSpec(spec) {
    // Fields the form does not know are kept, for the server to name them.
    const extra = Object.fromEntries(Object.entries(spec).filter(function (e) { return !KNOWN.includes(e[0]); }));
    const relative = has(spec, "relative_tolerance") && spec.relative_tolerance !== null;
    const absolute = has(spec, "tolerance") && spec.tolerance !== null && spec.tolerance !== 0;
    const options = list(spec.options).map(function (o) {
      return { text: text(o && o.text), correct: Boolean(o && o.correct), explanation: text(o && o.explanation) };
    });
    const items = list(spec.items).map(text);
    return {
      extra: extra,
      key: text(spec.key),
      type: spec.type ? text(spec.type) : "numeric",
      explanation: text(spec.explanation),
      reveal_after: has(spec, "reveal_after") ? text(spec.reveal_after) : "",
      numeric: {
        answer: text(spec.answer),
        accept: relative ? "relative" : absolute ? "absolute" : "exact",
        tolerance: relative ? text(spec.relative_tolerance) : absolute ? text(spec.tolerance) : "",
        unit: text(spec.unit),
        mistakes: list(spec.mistakes).map(function (m) {
          const field = function (name) { return text(m && m[name]); };
          return { range: has(m, "min") || has(m, "max"), value: field("value"), min: field("min"), max: field("max"), feedback: field("feedback") };
        }),
      },
      choice: { options: options.length ? options : [blankOption(), blankOption()] },
      ordering: { items: items.length ? items : ["", "", ""] },
    };
  }

  function blankOption() {
    return { text: "", correct: false, explanation: "" };
  }

  // The spec as JSON writes it: fields left undefined (an empty tolerance, no unit) are left out.
  function toSpec(state) {
    const spec = Object.assign({}, state.extra, { key: state.key.trim(), type: state.type });
    if (state.type === "numeric") {
      const n = state.numeric;
      Object.assign(spec, {
        answer: toNumber(n.answer),
        tolerance: n.accept === "absolute" ? toNumber(n.tolerance) : undefined,
        relative_tolerance: n.accept === "relative" ? toNumber(n.tolerance) : undefined,
        unit: n.unit || undefined,
        mistakes: n.mistakes.length ? n.mistakes.map(function (m) {
          const bounds = m.range ? { min: toNumber(m.min), max: toNumber(m.max) } : { value: toNumber(m.value) };
          return Object.assign(bounds, { feedback: m.feedback });
        }) : undefined,
      });
    } else if (state.type === "choice") {
      spec.options = state.choice.options.map(function (o) {
        return Object.assign({ text: o.text }, o.correct ? { correct: true } : {}, { explanation: o.explanation });
      });
    } else if (state.type === "ordering") {
      spec.items = state.ordering.items.slice();
    }
    spec.explanation = state.explanation;
    const reveal = state.reveal_after.trim();
    if (reveal) spec.reveal_after = /^\d+$/.test(reveal) ? Number(reveal) : reveal;
    return spec;
  }

  /* --- one check block's editor ------------------------------------------------------------ */

  function CheckEditor(block, textarea) {
    const editor = textarea.closest(".lp-check-editor");
    const formNode = editor.querySelector(".lp-check-form");
    const preview = editor.querySelector(".lp-check-preview");
    const base = textarea.id || "lp-check";
    const errors = parse(textarea.dataset.errors || "{}") || {};
    const announcer = el("p", { class: "lp-check-announce", role: "status", "aria-live": "polite" });
    let state = null;

    function write() {
      textarea.value = JSON.stringify(toSpec(state), null, 2);
      drawPreview();
    }

    function id(name) {
      return base + "-" + name;
    }

    // Problems found on save, each shown at its control; what has no control in the form as
    // it stands (a field of another type, a tolerance not asked for) is shown at the top.
    let placed = new Set();

    function problem(name, label) {
      placed.add(name);
      if (!errors[name]) return null;
      return el("p", { class: "lp-check-error", id: id(name + "-error"), text: (label ? label + ": " : "") + errors[name] });
    }

    // A labelled control, with its help and the problems found with it on save.
    function control(name, label, input, help, errorNames) {
      input.id = id(name);
      const names = errorNames || [name];
      const shown = names.map(problem).filter(Boolean);
      if (shown.length) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", shown.map(function (p) { return p.id; }).join(" "));
      }
      return el("div", { class: "lp-check-field lp-check-field-" + name }, [
        el("label", { for: input.id, text: label }),
        input,
        help ? el("p", { class: "help", text: help }) : null,
      ].concat(shown));
    }

    function textInput(value, onInput, attrs) {
      return el("input", Object.assign({ type: "text", value: value, oninput: function (e) { onInput(e.target.value); write(); } }, attrs || {}));
    }

    function select(value, choices, onChange, attrs) {
      const node = el("select", Object.assign({ onchange: function (e) { onChange(e.target.value); } }, attrs || {}),
        choices.map(function (c) { return el("option", { value: c[0], text: c[1] }); }));
      node.value = value;
      return node;
    }

    function button(label, onClick, attrs) {
      return el("button", Object.assign({ type: "button", class: "lp-tool", text: label, onclick: onClick }, attrs || {}));
    }

    // Redraws the form, then puts the focus on the control with this id (after adding,
    // removing or moving a row the old controls are gone).
    function redraw(focusId, announcement) {
      formNode.replaceChildren(form(), announcer);
      const target = focusId && document.getElementById(focusId);
      if (target) target.focus();
      announcer.textContent = announcement || "";
      write();
    }

    function form() {
      placed = new Set();
      const fields = fieldsOfForm();
      const elsewhere = Object.keys(errors).filter(function (name) { return !placed.has(name); });
      fields.prepend.apply(fields, elsewhere.map(function (name) { return problem(name, name === "check" ? "" : name); }));
      return fields;
    }

    function fieldsOfForm() {
      const typeChoices = CONFIG.types.map(function (t) { return [t.value, t.label]; });
      if (!CONFIG.types.some(function (t) { return t.value === state.type; })) {
        typeChoices.push([state.type, state.type + " (unknown)"]);
      }
      const reveal = CONFIG.reveal_after;
      return el("div", { class: "lp-check-fields" }, [
        el("div", { class: "lp-check-row" }, [
          control("key", "Key", textInput(state.key, function (v) { state.key = v; }, {
            placeholder: "e.g. head-dimension", autocomplete: "off", spellcheck: "false",
          }), "Lower-case words joined by hyphens, unique in the lesson."),
          control("type", "Type", select(state.type, typeChoices, function (v) {
            state.type = v;
            redraw(id("type"));
          })),
        ]),
        state.type === "numeric" ? numeric() : state.type === "choice" ? choice() : state.type === "ordering" ? ordering() : null,
        control("explanation", "Explanation", el("textarea", {
          rows: 3, value: state.explanation,
          oninput: function (e) { state.explanation = e.target.value; write(); },
        }), "Shown once the check is answered right, or its answer revealed (plain text)."),
        control("reveal_after", "Wrong tries before “Show answer”", textInput(state.reveal_after, function (v) { state.reveal_after = v; }, {
          inputmode: "numeric", size: 4, placeholder: String(reveal.default),
        }), "1 to " + reveal.max + "; empty for " + reveal.default + ". A revealed answer pays no XP."),
      ]);
    }

    function numeric() {
      const n = state.numeric;
      const units = [["", "(no unit)"]].concat(CONFIG.units.map(function (u) { return [u, u]; }));
      if (n.unit && !CONFIG.units.includes(n.unit)) units.push([n.unit, n.unit + " (unknown)"]);
      const accept = [
        ["exact", "Exactly this number"],
        ["absolute", "Within a tolerance (±)"],
        ["relative", "Within a share of the answer (relative)"],
      ];
      const tolerance = n.accept === "exact" ? null : control(
        "tolerance",
        n.accept === "relative" ? "Relative tolerance" : "Tolerance",
        textInput(n.tolerance, function (v) { n.tolerance = v; }, { inputmode: "decimal", size: 10 }),
        n.accept === "relative" ? "A share of the answer, 0 to 1: 0.02 accepts ±2%." : "The largest accepted difference, 0 or more.",
        ["tolerance", "relative_tolerance"]
      );
      return el("div", { class: "lp-check-type lp-check-numeric" }, [
        el("div", { class: "lp-check-row" }, [
          control("answer", "Answer", textInput(n.answer, function (v) { n.answer = v; }, { inputmode: "decimal", size: 16 })),
          control("unit", "Unit", select(n.unit, units, function (v) { n.unit = v; write(); })),
        ]),
        el("div", { class: "lp-check-row" }, [
          control("accept", "Accepted answers", select(n.accept, accept, function (v) {
            n.accept = v;
            if (v === "exact") n.tolerance = "";
            redraw(id("accept"));
          }), null, []),
          tolerance,
        ]),
        mistakes(),
      ]);
    }

    function mistakes() {
      const rows = state.numeric.mistakes;
      const max = CONFIG.mistakes.max;
      const body = rows.map(function (m, index) {
        const number = index + 1;
        const prefix = "Mistake " + number;
        const bounds = m.range
          ? [
              textInput(m.min, function (v) { m.min = v; }, { id: id("mistake-" + number + "-min"), "aria-label": prefix + " from", placeholder: "from", inputmode: "decimal", size: 8 }),
              textInput(m.max, function (v) { m.max = v; }, { id: id("mistake-" + number + "-max"), "aria-label": prefix + " to", placeholder: "to", inputmode: "decimal", size: 8 }),
            ]
          : [textInput(m.value, function (v) { m.value = v; }, { id: id("mistake-" + number + "-value"), "aria-label": prefix + " value", inputmode: "decimal", size: 12 })];
        return el("tr", {}, [
          el("td", {}, [select(m.range ? "range" : "value", [["value", "a value"], ["range", "a range"]], function (v) {
            m.range = v === "range";
            redraw(id("mistake-" + number + "-match"));
          }, { id: id("mistake-" + number + "-match"), "aria-label": prefix + ": match" })]),
          el("td", { class: "lp-check-bounds" }, bounds),
          el("td", {}, [textInput(m.feedback, function (v) { m.feedback = v; }, { "aria-label": prefix + " feedback", class: "lp-check-wide" })]),
          el("td", {}, [button("Remove", function () {
            rows.splice(index, 1);
            redraw(id("add-mistake"), prefix + " removed.");
          }, { "aria-label": "Remove mistake " + number })]),
        ]);
      });
      return el("fieldset", { class: "lp-check-list lp-check-field-mistakes" }, [
        el("legend", { text: "Expected mistakes" }),
        el("p", { class: "help", text: "Feedback for the wrong answers learners are likely to give: an exact value, or a range (from and/or to, inclusive)." }),
        problem("mistakes"),
        rows.length
          ? el("table", {}, [
              el("thead", {}, [el("tr", {}, ["Match", "Value or range", "Feedback", ""].map(function (h) { return el("th", { text: h }); }))]),
              el("tbody", {}, body),
            ])
          : null,
        button("Add an expected mistake", function () {
          rows.push({ range: false, value: "", min: "", max: "", feedback: "" });
          redraw(id("mistake-" + rows.length + "-value"), "Mistake " + rows.length + " added.");
        }, { id: id("add-mistake"), disabled: rows.length >= max }),
      ]);
    }

    function choice() {
      const options = state.choice.options;
      const limits = CONFIG.options;
      const body = options.map(function (o, index) {
        const number = index + 1;
        return el("tr", {}, [
          el("td", {}, [textInput(o.text, function (v) { o.text = v; }, { id: id("option-" + number + "-text"), "aria-label": "Option " + number + " text" })]),
          el("td", { class: "lp-check-center" }, [el("input", {
            type: "checkbox", checked: o.correct, "aria-label": "Option " + number + " is right",
            onchange: function (e) { o.correct = e.target.checked; write(); },
          })]),
          el("td", {}, [textInput(o.explanation, function (v) { o.explanation = v; }, { "aria-label": "Option " + number + " explanation", class: "lp-check-wide" })]),
          el("td", {}, [button("Remove", function () {
            options.splice(index, 1);
            redraw(id("add-option"), "Option " + number + " removed.");
          }, { "aria-label": "Remove option " + number, disabled: options.length <= limits.min })]),
        ]);
      });
      return el("fieldset", { class: "lp-check-type lp-check-list lp-check-field-options" }, [
        el("legend", { text: "Options" }),
        el("p", { class: "help", text: limits.min + " to " + limits.max + " options. Tick every right one (with more than one, learners must pick them all); say for each why it is right or wrong. Learners get them shuffled." }),
        problem("options"),
        el("table", {}, [
          el("thead", {}, [el("tr", {}, ["Text", "Right", "Explanation", ""].map(function (h) { return el("th", { text: h }); }))]),
          el("tbody", {}, body),
        ]),
        button("Add an option", function () {
          options.push(blankOption());
          redraw(id("option-" + options.length + "-text"), "Option " + options.length + " added.");
        }, { id: id("add-option"), disabled: options.length >= limits.max }),
      ]);
    }

    function ordering() {
      const items = state.ordering.items;
      const limits = CONFIG.items;
      const move = function (index, direction, name) {
        const target = index + direction;
        const moved = items.splice(index, 1)[0];
        items.splice(target, 0, moved);
        const focus = (target === 0 && direction < 0) || (target === items.length - 1 && direction > 0)
          ? "item-" + (target + 1) + "-" + (direction < 0 ? "down" : "up")
          : "item-" + (target + 1) + "-" + name;
        redraw(id(focus), "Item moved to position " + (target + 1) + " of " + items.length + ".");
      };
      const rows = items.map(function (item, index) {
        const number = index + 1;
        return el("li", {}, [
          textInput(item, function (v) { items[index] = v; }, { id: id("item-" + number + "-text"), "aria-label": "Item " + number + " text", class: "lp-check-wide" }),
          button("↑", function () { move(index, -1, "up"); }, { id: id("item-" + number + "-up"), "aria-label": "Move item " + number + " up", title: "Move up", disabled: index === 0 }),
          button("↓", function () { move(index, 1, "down"); }, { id: id("item-" + number + "-down"), "aria-label": "Move item " + number + " down", title: "Move down", disabled: index === items.length - 1 }),
          button("Remove", function () {
            items.splice(index, 1);
            redraw(id("add-item"), "Item " + number + " removed.");
          }, { "aria-label": "Remove item " + number, disabled: items.length <= limits.min }),
        ]);
      });
      return el("fieldset", { class: "lp-check-type lp-check-list lp-check-field-items" }, [
        el("legend", { text: "Items, in the right order" }),
        el("p", { class: "help", text: limits.min + " to " + limits.max + " items, each different. Learners get them shuffled." }),
        problem("items"),
        el("ol", {}, rows),
        button("Add an item", function () {
          items.push("");
          redraw(id("item-" + items.length + "-text"), "Item " + items.length + " added.");
        }, { id: id("add-item"), disabled: items.length >= limits.max }),
      ]);
    }

    /* --- the learner's view -------------------------------------------------------------- */

    const promptNode = el("div", { class: "lp-check-prompt lp-markdown-html lesson-body" });

    function followPrompt() {
      const source = block.querySelector(".field-markdown .lp-markdown-html");
      if (!source) return;
      const copy = function () {
        // The HTML comes from the platform's sanitizer (the Markdown preview's own answer).
        promptNode.innerHTML = source.innerHTML;
      };
      new MutationObserver(copy).observe(source, { childList: true, subtree: true, characterData: true });
      copy();
    }

    function drawPreview() {
      const spec = toSpec(state);
      const answerArea = [];
      if (spec.type === "numeric") {
        answerArea.push(el("p", { class: "lp-check-answer" }, [
          el("input", { type: "text", disabled: true, placeholder: "Your answer", "aria-label": "Preview: your answer" }),
          spec.unit ? el("span", { text: " " + spec.unit }) : null,
        ]));
      } else if (spec.type === "choice") {
        const multiple = spec.options.filter(function (o) { return o.correct; }).length > 1;
        answerArea.push(el("p", { class: "lp-check-hint", text: multiple ? "Pick every right answer." : "Pick one." }));
        answerArea.push(el("ul", { class: "lp-check-options" }, spec.options.map(function (o) {
          return el("li", {}, [el("label", {}, [
            el("input", { type: multiple ? "checkbox" : "radio", disabled: true }),
            " " + (o.text || "(no text yet)"),
          ])]);
        })));
        answerArea.push(el("p", { class: "help", text: "Learners get the options shuffled." }));
      } else if (spec.type === "ordering") {
        const shown = spec.items.slice(1).concat(spec.items.slice(0, 1));
        answerArea.push(el("p", { class: "lp-check-hint", text: "Put these in order." }));
        answerArea.push(el("ol", { class: "lp-check-items" }, shown.map(function (item) {
          return el("li", { text: item || "(no text yet)" });
        })));
        answerArea.push(el("p", { class: "help", text: "Learners get the items shuffled." }));
      }
      const reveal = typeof spec.reveal_after === "number" ? spec.reveal_after : CONFIG.reveal_after.default;
      preview.replaceChildren(
        el("p", { class: "lp-check-preview-title", text: "As learners see it" }),
        promptNode,
        el("div", {}, answerArea),
        el("p", {}, [el("button", { type: "button", class: "button", disabled: true, text: "Check" })]),
        el("p", { class: "help", text: "“Show answer” after " + reveal + " wrong tr" + (reveal === 1 ? "y" : "ies") + ". Once answered: " + (spec.explanation.trim() || "(no explanation yet)") })
      );
    }

    function start(spec, save) {
      state = fromSpec(spec);
      textarea.hidden = true;
      formNode.hidden = false;
      preview.hidden = false;
      editor.classList.add("lp-check-active");
      followPrompt();
      formNode.replaceChildren(form(), announcer);
      drawPreview();
      if (save) write();
    }

    const spec = parse(textarea.value || "{}");
    if (spec === null || typeof spec !== "object" || Array.isArray(spec)) {
      // JSON typed by hand that cannot be read: fixed in the box, or started over in the form.
      const note = el("p", { class: "lp-check-error", text: "This check's JSON cannot be read: fix it in the box, or " }, [
        button("start over in the form editor", function () {
          note.remove();
          start({}, true);
        }),
      ]);
      editor.prepend(note);
      return;
    }
    // A new check gets its type written at once; a saved one is left as it is until edited,
    // so an untouched block does not count as changed.
    start(spec, Object.keys(spec).length === 0);
  }

  function parse(json) {
    try {
      return JSON.parse(json);
    } catch (e) {
      return null;
    }
  }

  /* --- wiring ---------------------------------------------------------------------------------- */

  function kindOf(block) {
    const select = block.querySelector('select[name$="-kind"]');
    return select ? select.value : "";
  }

  // A check's Markdown is its prompt.
  function relabel(block) {
    const label = block.querySelector(".field-markdown label");
    if (!label) return;
    if (!label.dataset.lpText) label.dataset.lpText = label.textContent;
    label.textContent = kindOf(block) === "check" ? "Prompt (Markdown):" : label.dataset.lpText;
  }

  function refresh(block) {
    if (!CONFIG || !block || block.id.endsWith("-empty")) return;
    relabel(block);
    const textarea = block.querySelector("textarea.lp-check-spec");
    if (kindOf(block) !== "check" || !textarea || textarea.dataset.lpCheck || textarea.name.includes("__prefix__")) return;
    textarea.dataset.lpCheck = "1";
    CheckEditor(block, textarea);
  }

  document.addEventListener("change", function (event) {
    const target = event.target;
    if (target.matches && target.matches('#blocks-group select[name$="-kind"]')) {
      refresh(target.closest(".inline-related"));
    }
  });
  window.addEventListener("load", function () {
    const config = document.getElementById("lp-check-config");
    if (!config) return;
    CONFIG = JSON.parse(config.textContent);
    document.querySelectorAll("#blocks-group .inline-related").forEach(refresh);
  });
})();
