/* The lesson change page's block editor (no dependencies):
 * - each block shows only its kind's fields, swapped when the kind changes;
 * - a table is pasted (TSV from a spreadsheet, or CSV) and shown back as an editable grid;
 * - Markdown fields get a live preview from the platform's own renderer (admin endpoint);
 * - the lesson's preview can sit beside the form;
 * - #block-<id> (where issue reports link) scrolls to and highlights that block.
 * The server stays the judge: it parses the table text and validates everything again. */
"use strict";
(function () {
  const KIND_FIELDS_FALLBACK = {
    prose: ["markdown"],
    callout: ["style", "markdown"],
    table: ["caption", "table"],
    code: ["title", "language", "source"],
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
          result.body.problems.forEach(function (p) {
            const item = document.createElement("div");
            item.textContent = "⚠ " + p;
            problems.appendChild(item);
          });
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

  /* --- anchors ------------------------------------------------------------------------------ */

  function highlightAnchoredBlock() {
    const match = /^#block-(\d+)$/.exec(window.location.hash);
    if (!match) return;
    const anchor = document.getElementById("block-" + match[1]);
    if (!anchor) return;
    const block = anchor.closest(".inline-related");
    block.classList.add("lp-reported");
    block.scrollIntoView({ block: "start" });
  }

  function initBlock(block) {
    initKindSwitch(block);
    initEditors(block);
  }

  function initEditors(block) {
    block.querySelectorAll(".lp-table-editor").forEach(initTable);
    block.querySelectorAll(".lp-markdown-editor").forEach(initMarkdown);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("#blocks-group .inline-related").forEach(function (block) {
      if (!block.id.endsWith("-empty")) initKindSwitch(block);
    });
  });
  // After every "load" listener: django-admin-sortable2 decides at "load" whether an inline is
  // tabular by looking for a <table> in it, so the grids and previews (tables) come after.
  window.addEventListener("load", function () {
    setTimeout(function () {
      document.querySelectorAll("#blocks-group .inline-related").forEach(function (block) {
        if (!block.id.endsWith("-empty")) initEditors(block);
      });
      initPreviewToggle();
      highlightAnchoredBlock();
    }, 0);
  });
  document.addEventListener("formset:added", function (event) {
    if (event.detail && event.detail.formsetName === "blocks") initBlock(event.target);
  });
})();
