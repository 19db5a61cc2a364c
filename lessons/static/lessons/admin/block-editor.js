/* The lesson change page's block editor (no dependencies):
 * - each block shows only its kind's fields, swapped when the kind changes;
 * - a table is pasted (TSV from a spreadsheet, or CSV) and shown back as an editable grid;
 * - Markdown fields get a live preview from the platform's own renderer (admin endpoint);
 * - a check's spec gets a form editor and a learner's-eye preview (check-editor.js);
 * - the lesson's preview can sit beside the form;
 * - #block-<id> (where issue reports link) scrolls to and highlights that block;
 * - blocks are reordered by dragging their handle (pointer events: mouse, pen, touch) or with
 *   move up / move down (keyboard), which keep the focus on the moved block; the hidden
 *   position inputs are renumbered 1..n after every move;
 * - each block collapses to a one-line summary (kind, first words); what is collapsed is
 *   remembered for the page (sessionStorage), so it survives a save that comes back.
 * The server stays the judge: it parses the table text and validates everything again. */
"use strict";
(function () {
  const KIND_FIELDS_FALLBACK = {
    prose: ["markdown"],
    callout: ["style", "markdown"],
    table: ["caption", "table"],
    code: ["title", "language", "source"],
    check: ["markdown", "spec"],
  };

  function kindFields() {
    const node = document.getElementById("lp-block-kind-fields");
    if (node) {
      try {
        return JSON.parse(node.textContent);
      } catch (e) {
        /* fall through */
      }
    }
    return KIND_FIELDS_FALLBACK;
  }

  const KINDS = kindFields();
  const ALL_FIELDS = Array.from(new Set([].concat(...Object.values(KINDS))));

  /* --- fields by kind ---------------------------------------------------------------- */

  function showKindFields(block) {
    const select = block.querySelector('select[name$="-kind"]');
    if (!select) return;
    const wanted = KINDS[select.value] || [];
    ALL_FIELDS.forEach(function (name) {
      block.querySelectorAll(".form-row.field-" + name).forEach(function (row) {
        row.classList.toggle("lp-hidden-field", !wanted.includes(name));
      });
    });
    block.dataset.kind = select.value;
  }

  function initKindSwitch(block) {
    const select = block.querySelector('select[name$="-kind"]');
    if (!select || select.dataset.lpKind) return;
    select.dataset.lpKind = "1";
    select.addEventListener("change", function () {
      showKindFields(block);
    });
    showKindFields(block);
  }

  /* --- tables ------------------------------------------------------------------------ */

  // The same rules as lessons.blocks.parse_table_text: tab-separated when the header line
  // has a tab, else CSV (semicolons when the header has more of them); quotes allowed.
  function parseTable(text) {
    const source = text.replace(/\r\n?/g, "\n").replace(/^\n+|\n+$/g, "");
    if (!source.trim()) return { columns: [], rows: [] };
    const header = source.split("\n", 1)[0];
    let delimiter = ",";
    if (header.includes("\t")) delimiter = "\t";
    else if ((header.match(/;/g) || []).length > (header.match(/,/g) || []).length) delimiter = ";";
    const records = [];
    let record = [];
    let cell = "";
    let quoted = false;
    for (let i = 0; i < source.length; i++) {
      const ch = source[i];
      if (quoted) {
        if (ch === '"' && source[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"' && cell === "") quoted = true;
      else if (ch === delimiter) {
        record.push(cell);
        cell = "";
      } else if (ch === "\n") {
        record.push(cell);
        records.push(record);
        record = [];
        cell = "";
      } else cell += ch;
    }
    record.push(cell);
    records.push(record);
    const kept = records
      .map(function (r) {
        return r.map(function (c) {
          return c.trim();
        });
      })
      .filter(function (r) {
        return r.some(function (c) {
          return c !== "";
        });
      });
    return { columns: kept[0] || [], rows: kept.slice(1) };
  }

  function formatTable(columns, rows) {
    const quote = function (c) {
      return /[\t\n"]/.test(c) ? '"' + c.replace(/"/g, '""') + '"' : c;
    };
    return [columns].concat(rows).map(function (r) {
      return r.map(quote).join("\t");
    }).join("\n") + "\n";
  }

  function renderGrid(textarea, grid) {
    const table = parseTable(textarea.value);
    grid.textContent = "";
    const summary = document.createElement("p");
    summary.className = "lp-table-summary";
    const ragged = table.rows
      .map(function (r, i) {
        return r.length !== table.columns.length ? i + 1 : 0;
      })
      .filter(Boolean);
    if (!table.columns.length) {
      summary.textContent = "No table yet: paste one above, or ";
      const start = document.createElement("button");
      start.type = "button";
      start.className = "button";
      start.textContent = "start a 2 × 2 grid";
      start.addEventListener("click", function () {
        textarea.value = formatTable(["Column 1", "Column 2"], [["", ""]]);
        renderGrid(textarea, grid);
      });
      summary.appendChild(start);
      grid.appendChild(summary);
      return;
    }
    summary.textContent =
      table.columns.length + " column" + (table.columns.length === 1 ? "" : "s") + ", " +
      table.rows.length + " row" + (table.rows.length === 1 ? "" : "s") +
      (ragged.length ? " — row " + ragged.join(", ") + " has a different number of cells than the header" : "");
    if (ragged.length) summary.classList.add("lp-table-warning");
    grid.appendChild(summary);

    const element = document.createElement("table");
    const head = element.createTHead().insertRow();
    table.columns.forEach(function (c) {
      const th = document.createElement("th");
      th.textContent = c;
      th.contentEditable = "true";
      head.appendChild(th);
    });
    const body = element.createTBody();
    table.rows.forEach(function (r, index) {
      const tr = body.insertRow();
      if (ragged.includes(index + 1)) tr.className = "lp-ragged";
      r.forEach(function (c) {
        const td = tr.insertCell();
        td.textContent = c;
        td.contentEditable = "true";
      });
    });
    grid.appendChild(element);

    const writeBack = function () {
      const columns = Array.from(element.tHead.rows[0].cells).map(function (c) {
        return c.textContent.trim();
      });
      const rows = Array.from(element.tBodies[0].rows).map(function (tr) {
        return Array.from(tr.cells).map(function (c) {
          return c.textContent.trim();
        });
      });
      textarea.value = formatTable(columns, rows);
    };
    element.addEventListener("input", writeBack);
    element.addEventListener("paste", function (event) {
      const text = (event.clipboardData || window.clipboardData).getData("text");
      if (text.includes("\t") || text.includes("\n")) {
        // A block of cells: it replaces the table (header first), like a paste in the box.
        event.preventDefault();
        textarea.value = text;
        renderGrid(textarea, grid);
      }
    });

    const tools = document.createElement("p");
    tools.className = "lp-table-tools";
    [
      ["+ row", function () {
        const tr = element.tBodies[0].insertRow();
        table.columns.forEach(function () {
          const td = tr.insertCell();
          td.contentEditable = "true";
        });
      }],
      ["+ column", function () {
        Array.from(element.rows).forEach(function (tr, i) {
          const c = i === 0 ? document.createElement("th") : tr.insertCell();
          if (i === 0) {
            c.textContent = "Column " + (tr.cells.length + 1);
            tr.appendChild(c);
          }
          c.contentEditable = "true";
        });
      }],
      ["− last row", function () {
        const b = element.tBodies[0];
        if (b.rows.length) b.deleteRow(-1);
      }],
      ["− last column", function () {
        Array.from(element.rows).forEach(function (tr) {
          if (tr.cells.length > 1) tr.deleteCell(-1);
        });
      }],
    ].forEach(function (pair) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button";
      button.textContent = pair[0];
      button.addEventListener("click", function () {
        pair[1]();
        writeBack();
        renderGrid(textarea, grid);
      });
      tools.appendChild(button);
    });
    grid.appendChild(tools);
  }

  function initTable(editor) {
    const textarea = editor.querySelector("textarea.lp-table-text");
    const grid = editor.querySelector(".lp-table-grid");
    if (!textarea || !grid || textarea.dataset.lpTable || textarea.name.includes("__prefix__")) return;
    textarea.dataset.lpTable = "1";
    textarea.addEventListener("input", function () {
      renderGrid(textarea, grid);
    });
    renderGrid(textarea, grid);
  }

  /* --- Markdown preview ---------------------------------------------------------------- */

  function csrfToken() {
    const input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function initMarkdown(editor) {
    const textarea = editor.querySelector("textarea.lp-markdown-source");
    const preview = editor.querySelector(".lp-markdown-preview");
    if (!textarea || !preview || textarea.dataset.lpMarkdown || textarea.name.includes("__prefix__")) return;
    textarea.dataset.lpMarkdown = "1";
    const html = preview.querySelector(".lp-markdown-html");
    const problems = preview.querySelector(".lp-markdown-problems");
    const initial = preview.querySelector("template.lp-markdown-initial");
    if (initial) html.replaceChildren(initial.content.cloneNode(true));
    let timer = null;
    let inflight = null;
    const refresh = function () {
      if (inflight) inflight.abort();
      inflight = new AbortController();
      preview.classList.add("lp-loading");
      fetch(preview.dataset.previewUrl, {
        method: "POST",
        credentials: "same-origin",
        signal: inflight.signal,
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({ markdown: textarea.value }),
      })
        .then(function (response) {
          return response.json().then(function (body) {
            return { ok: response.ok, body: body };
          });
        })
        .then(function (result) {
          preview.classList.remove("lp-loading");
          problems.textContent = "";
          if (!result.ok) {
            problems.textContent = "Preview unavailable: " + (result.body.detail || "error");
            return;
          }
          // The HTML comes from the platform's sanitizer (the same one learners get).
          html.innerHTML = result.body.html;
          // The very words a save would answer with (it refuses unsafe Markdown).
          if (result.body.refusal) {
            const item = document.createElement("div");
            item.textContent = "⚠ If saved now: " + result.body.refusal;
            problems.appendChild(item);
          }
        })
        .catch(function (error) {
          if (error.name !== "AbortError") {
            preview.classList.remove("lp-loading");
            problems.textContent = "Preview unavailable (network).";
          }
        });
    };
    textarea.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 350);
    });
    // The server rendered the saved text already; only what it strips needs asking.
    if (textarea.value.trim() && !initial) refresh();
  }

  /* --- the lesson's preview beside the form ------------------------------------------------ */

  function initPreviewToggle() {
    const toggle = document.querySelector(".lp-preview-toggle");
    if (!toggle) return;
    toggle.addEventListener("click", function (event) {
      event.preventDefault();
      let aside = document.getElementById("lp-lesson-preview");
      const open = document.body.classList.toggle("lp-split");
      toggle.setAttribute("aria-expanded", String(open));
      toggle.textContent = open ? "Hide the preview" : "Preview beside";
      if (open && !aside) {
        aside = document.createElement("aside");
        aside.id = "lp-lesson-preview";
        const note = document.createElement("p");
        note.textContent = "The saved lesson, as learners get it. Save to refresh.";
        const frame = document.createElement("iframe");
        frame.title = "Lesson preview";
        frame.src = toggle.dataset.previewUrl + "?embed=1";
        aside.appendChild(note);
        aside.appendChild(frame);
        document.body.appendChild(aside);
      }
    });
  }


  /* --- order ---------------------------------------------------------------------------- */

  function group() {
    return document.getElementById("blocks-group");
  }

  function blockList() {
    const g = group();
    if (!g) return [];
    return Array.from(g.querySelectorAll(".inline-related")).filter(function (b) {
      return !b.id.endsWith("-empty");
    });
  }

  function renumber() {
    blockList().forEach(function (block, index) {
      const input = block.querySelector("input.lp-block-position");
      if (input) input.value = String(index + 1);
      const number = block.querySelector(".lp-block-number");
      if (number) number.textContent = String(index + 1);
    });
  }

  // The page is drawn in the formset's order; the positions carry the editor's order. After a
  // refused save the two differ, and renumbering in page order would lose the editor's moves.
  function sortByPosition() {
    const list = blockList();
    if (!list.length) return;
    const position = function (block) {
      const input = block.querySelector("input.lp-block-position");
      const value = input ? parseInt(input.value, 10) : NaN;
      return isNaN(value) ? Infinity : value;
    };
    const sorted = list
      .map(function (block, index) { return { block: block, index: index, position: position(block) }; })
      .sort(function (a, b) { return a.position - b.position || a.index - b.index; });
    const anchor = list[list.length - 1].nextSibling;
    const parent = list[0].parentNode;
    sorted.forEach(function (entry) { parent.insertBefore(entry.block, anchor); });
  }

  function announce(block) {
    const live = document.querySelector("#blocks-group .lp-announce");
    const list = blockList();
    if (live) live.textContent = "Block moved to position " + (list.indexOf(block) + 1) + " of " + list.length + ".";
  }

  function move(block, direction) {
    const list = blockList();
    const index = list.indexOf(block);
    const target = list[index + direction];
    if (!target) return false;
    if (direction < 0) target.before(block);
    else target.after(block);
    renumber();
    announce(block);
    return true;
  }

  function initMoveButtons(block, tools) {
    [["Move up", -1, "lp-move-up", "↑"], ["Move down", 1, "lp-move-down", "↓"]].forEach(function (spec) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "lp-tool " + spec[2];
      button.textContent = spec[3];
      button.setAttribute("aria-label", spec[0]);
      button.title = spec[0];
      button.addEventListener("click", function () {
        if (move(block, spec[1])) {
          // Moving the node can drop the focus: put it back on the same button of the block.
          button.focus();
          block.scrollIntoView({ block: "nearest" });
        }
      });
      tools.appendChild(button);
    });
  }

  function initDrag(block, handle) {
    // The moves and the release are followed on the document, not by pointer capture on the
    // handle: moving the block in the DOM detaches the handle for an instant, which releases a
    // capture, and the release would then land elsewhere unseen.
    const moveTo = function (event) {
      // Near the window's top or bottom edge the page scrolls, so a long lesson can be crossed.
      const edge = 48;
      if (event.clientY < edge) window.scrollBy(0, -24);
      else if (event.clientY > window.innerHeight - edge) window.scrollBy(0, 24);
      // The block goes before the first other block whose middle is below the pointer.
      const others = blockList().filter(function (b) {
        return b !== block;
      });
      const before = others.find(function (other) {
        const box = other.getBoundingClientRect();
        return event.clientY < box.top + box.height / 2;
      });
      if (before) {
        if (block.nextElementSibling !== before) before.before(block);
      } else if (others.length && others[others.length - 1].nextElementSibling !== block) {
        others[others.length - 1].after(block);
      }
    };
    const end = function () {
      document.removeEventListener("pointermove", moveTo);
      document.removeEventListener("pointerup", end);
      document.removeEventListener("pointercancel", end);
      block.classList.remove("lp-dragging");
      document.body.classList.remove("lp-drag-active");
      renumber();
      announce(block);
      handle.focus();
    };
    handle.addEventListener("pointerdown", function (event) {
      if (event.button !== 0) return;
      event.preventDefault();
      block.classList.add("lp-dragging");
      document.body.classList.add("lp-drag-active");
      document.addEventListener("pointermove", moveTo);
      document.addEventListener("pointerup", end);
      document.addEventListener("pointercancel", end);
    });
    // Keyboard users of the handle: arrows move the block.
    handle.addEventListener("keydown", function (event) {
      const direction = event.key === "ArrowUp" ? -1 : event.key === "ArrowDown" ? 1 : 0;
      if (!direction) return;
      event.preventDefault();
      if (move(block, direction)) handle.focus();
    });
  }

  /* --- collapsing and summaries ----------------------------------------------------------- */

  const COLLAPSED_KEY = "lp-collapsed-blocks:" + window.location.pathname;

  function collapsedIds() {
    try {
      return new Set(JSON.parse(sessionStorage.getItem(COLLAPSED_KEY) || "[]"));
    } catch (e) {
      return new Set();
    }
  }

  function blockKey(block) {
    const anchor = block.querySelector(".lp-block-anchor");
    return anchor ? anchor.id : null;
  }

  function rememberCollapsed() {
    const ids = blockList()
      .filter(function (b) {
        return b.classList.contains("lp-collapsed");
      })
      .map(blockKey)
      .filter(Boolean);
    try {
      sessionStorage.setItem(COLLAPSED_KEY, JSON.stringify(ids));
    } catch (e) {
      /* private mode: not remembered */
    }
  }

  function summaryText(block) {
    const select = block.querySelector('select[name$="-kind"]');
    const kind = select && select.value ? select.options[select.selectedIndex].text : "New block";
    const value = function (suffix) {
      const field = block.querySelector('[name$="-' + suffix + '"]');
      return field ? field.value : "";
    };
    const text = [value("title"), value("caption"), value("markdown"), value("table"), value("source")]
      .join(" ")
      .replace(/[#*_`>|\t\r\n]+/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    const words = text.split(" ").slice(0, 10).join(" ");
    return kind + (words ? " — " + words + (text.length > words.length ? "…" : "") : "");
  }

  function setCollapsed(block, collapsed) {
    block.classList.toggle("lp-collapsed", collapsed);
    const toggle = block.querySelector(".lp-collapse");
    if (toggle) {
      toggle.setAttribute("aria-expanded", String(!collapsed));
      toggle.textContent = collapsed ? "Expand" : "Collapse";
    }
  }

  function initBlockTools(block) {
    const header = block.querySelector("h3");
    if (!header || header.querySelector(".lp-block-toolbar")) return;
    const tools = document.createElement("span");
    tools.className = "lp-block-toolbar";
    const handle = document.createElement("button");
    handle.type = "button";
    handle.className = "lp-tool lp-drag-handle";
    handle.textContent = "⠿";
    handle.setAttribute("aria-label", "Drag to reorder (or use the arrow keys)");
    handle.title = "Drag to reorder";
    tools.appendChild(handle);
    const number = document.createElement("span");
    number.className = "lp-block-number";
    tools.appendChild(number);
    initMoveButtons(block, tools);
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "lp-tool lp-collapse";
    toggle.setAttribute("aria-expanded", "true");
    toggle.textContent = "Collapse";
    toggle.addEventListener("click", function () {
      setCollapsed(block, !block.classList.contains("lp-collapsed"));
      rememberCollapsed();
    });
    tools.appendChild(toggle);
    const summary = document.createElement("span");
    summary.className = "lp-block-summary";
    summary.textContent = summaryText(block);
    block.addEventListener("input", function () {
      summary.textContent = summaryText(block);
    });
    block.addEventListener("change", function () {
      summary.textContent = summaryText(block);
    });
    header.prepend(tools);
    header.appendChild(summary);
    initDrag(block, handle);
    // A block with an error stays open, whatever was remembered.
    const key = blockKey(block);
    if (key && collapsedIds().has(key) && !block.querySelector(".errorlist")) setCollapsed(block, true);
  }

  function initGroupTools() {
    const g = group();
    if (!g) return;
    const all = function (collapsed) {
      blockList().forEach(function (b) {
        setCollapsed(b, collapsed);
      });
      rememberCollapsed();
    };
    const collapse = g.querySelector(".lp-collapse-all");
    const expand = g.querySelector(".lp-expand-all");
    if (collapse) collapse.addEventListener("click", function () { all(true); });
    if (expand) expand.addEventListener("click", function () { all(false); });
    const form = g.closest("form");
    if (form) form.addEventListener("submit", renumber);
    // The error summary's links open a collapsed block before jumping to it.
    document.querySelectorAll(".lp-error-link").forEach(function (link) {
      link.addEventListener("click", function () {
        const target = document.querySelector(link.getAttribute("href"));
        const block = target && target.closest(".inline-related");
        if (block) setCollapsed(block, false);
      });
    });
    sortByPosition();
    renumber();
  }

  /* --- anchors ------------------------------------------------------------------------------ */

  function highlightAnchoredBlock() {
    const match = /^#block-(\d+)$/.exec(window.location.hash);
    if (!match) return;
    const anchor = document.getElementById("block-" + match[1]);
    if (!anchor) return;
    const block = anchor.closest(".inline-related");
    block.classList.add("lp-reported");
    setCollapsed(block, false);
    block.scrollIntoView({ block: "start" });
  }

  function initBlock(block) {
    initKindSwitch(block);
    initBlockTools(block);
    initEditors(block);
    renumber();
  }

  function initEditors(block) {
    block.querySelectorAll(".lp-table-editor").forEach(initTable);
    block.querySelectorAll(".lp-markdown-editor").forEach(initMarkdown);
  }

  document.addEventListener("DOMContentLoaded", function () {
    blockList().forEach(function (block) {
      initKindSwitch(block);
      initBlockTools(block);
    });
    initGroupTools();
    const summary = document.getElementById("lp-error-summary");
    if (summary) summary.focus();
  });
  window.addEventListener("load", function () {
    blockList().forEach(initEditors);
    initPreviewToggle();
    highlightAnchoredBlock();
  });
  document.addEventListener("formset:added", function (event) {
    if (event.detail && event.detail.formsetName === "blocks") initBlock(event.target);
  });
})();
