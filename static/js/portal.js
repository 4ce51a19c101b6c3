/* The portal's small enhancements; every action also works without them (plain forms and links).
   - focus: after an htmx action the server names the element to focus (HX-Trigger-After-Settle
     "portal:focus"), so keyboard focus stays on the changed item instead of dropping to the top;
   - inline forms (correct, delete): focus their first field, Esc or Cancel closes them and returns
     focus to the link that opened them;
   - the correction box: hidden personal data (⟦phone number (hidden)⟧ in the plain textarea) shown
     as read-only tokens that can be removed but not edited;
   - undo: a countdown on each "Undo" until its window closes. */
(function () {
  "use strict";
  var MARK = /⟦([^⟦⟧]{1,80})⟧/g;

  function focusOn(element) {
    if (!element) return;
    if (!element.matches("a, button, input, select, textarea, [tabindex]")) element.setAttribute("tabindex", "-1");
    element.focus();
  }

  document.body.addEventListener("portal:focus", function (event) {
    focusOn(document.querySelector(event.detail.target));
  });

  // --- inline forms ------------------------------------------------------------------------------
  function closeInline(cancel) {
    var area = cancel.closest(".inline-area");
    var opener = document.getElementById(cancel.getAttribute("data-cancel"));
    if (area) area.innerHTML = "";
    focusOn(opener);
  }

  document.addEventListener("click", function (event) {
    var cancel = event.target.closest("[data-cancel]");
    if (cancel && cancel.closest(".inline-area")) {
      event.preventDefault();
      closeInline(cancel);
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var form = event.target.closest && event.target.closest(".inline-form");
    var cancel = form && form.querySelector("[data-cancel]");
    if (cancel) {
      event.preventDefault();
      closeInline(cancel);
    }
  });

  document.body.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (target && target.classList && target.classList.contains("inline-area")) {
      focusOn(target.querySelector(".token-editor") || target.querySelector("textarea, input[type=checkbox], button"));
    }
  });

  // --- the correction box ---------------------------------------------------------------------
  function tokenFor(label, removeLabel) {
    var token = document.createElement("span");
    token.className = "pii-token editable";
    token.contentEditable = "false";
    token.setAttribute("data-mark", "⟦" + label + "⟧");
    var text = document.createElement("span");
    text.textContent = label;
    var remove = document.createElement("button");
    remove.type = "button";
    remove.className = "remove-token";
    remove.textContent = "×";
    remove.setAttribute("aria-label", removeLabel + " " + label);
    token.appendChild(text);
    token.appendChild(remove);
    return token;
  }

  function serialize(editor) {
    var out = "";
    editor.childNodes.forEach(function (node) {
      if (node.nodeType === Node.TEXT_NODE) out += node.textContent;
      else if (node.getAttribute && node.getAttribute("data-mark")) out += node.getAttribute("data-mark");
      else if (node.nodeName === "BR") out += " ";
      else out += node.textContent;
    });
    return out.replace(/\s+/g, " ").trim();
  }

  function tokenEditor(textarea) {
    if (textarea.dataset.enhanced || !MARK.test(textarea.value)) return;
    MARK.lastIndex = 0;
    textarea.dataset.enhanced = "1";
    var editor = document.createElement("div");
    editor.className = "token-editor";
    editor.contentEditable = "true";
    editor.setAttribute("role", "textbox");
    editor.setAttribute("aria-multiline", "true");
    var label = document.querySelector('label[for="' + textarea.id + '"]');
    if (label) editor.setAttribute("aria-labelledby", label.id);
    ["aria-describedby", "aria-invalid"].forEach(function (name) {
      if (textarea.hasAttribute(name)) editor.setAttribute(name, textarea.getAttribute(name));
    });
    var removeLabel = textarea.form.getAttribute("data-remove-label") || "Remove";
    var value = textarea.value, last = 0, match;
    while ((match = MARK.exec(value)) !== null) {
      editor.appendChild(document.createTextNode(value.slice(last, match.index)));
      editor.appendChild(tokenFor(match[1], removeLabel));
      last = match.index + match[0].length;
    }
    editor.appendChild(document.createTextNode(value.slice(last)));
    var sync = function () { textarea.value = serialize(editor); };
    editor.addEventListener("input", sync);
    editor.addEventListener("click", function (event) {
      var remove = event.target.closest(".remove-token");
      if (!remove) return;
      event.preventDefault();
      remove.parentNode.remove();
      sync();
      editor.focus();
    });
    editor.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); textarea.form.requestSubmit(); }
    });
    editor.addEventListener("paste", function (event) {
      event.preventDefault();
      document.execCommand("insertText", false, (event.clipboardData || window.clipboardData).getData("text"));
    });
    textarea.hidden = true;
    if (label) label.addEventListener("click", function () { editor.focus(); });
    textarea.insertAdjacentElement("afterend", editor);
  }

  // --- undo countdown ---------------------------------------------------------------------------
  function countdown(notice) {
    if (notice.dataset.counting) return;
    notice.dataset.counting = "1";
    var until = parseInt(notice.getAttribute("data-undo-until"), 10) * 1000;
    var shown = notice.querySelector(".countdown");
    var tick = function () {
      var left = Math.ceil((until - Date.now()) / 1000);
      if (left <= 0) {
        clearInterval(timer);
        notice.textContent = notice.getAttribute("data-expired");
        notice.classList.add("expired");
        return;
      }
      if (shown) shown.textContent = left + " s";
    };
    var timer = setInterval(tick, 250);
    tick();
  }

  function enhance(root) {
    root.querySelectorAll("textarea[data-token-editor]").forEach(tokenEditor);
    root.querySelectorAll("[data-undo-until]").forEach(countdown);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.body.addEventListener("htmx:load", function (event) { enhance(event.detail.elt.parentNode || document); });
})();
