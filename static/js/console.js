// The console's small behaviours, all optional: without JavaScript every confirm step is its own
// page and a secret is a read-only input to select and copy.
(function () {
  "use strict";

  // Confirm steps: htmx loads the confirm form into #dialogs as a <dialog>; show it as a modal
  // (focus moves into it, Esc closes it) and give focus back to what opened it.
  let opener = null;
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.target && event.detail.target.id === "dialogs") { opener = event.detail.elt; }
  });
  document.body.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target.id !== "dialogs") { return; }
    const dialog = event.detail.target.querySelector("dialog");
    if (!dialog) { return; }
    const back = opener;
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (back && document.contains(back)) { (back.tagName === "FORM" ? back.querySelector("button") : back).focus(); }
    });
    dialog.querySelectorAll("[data-dialog-close]").forEach((link) => link.addEventListener("click", (click) => {
      click.preventDefault();
      dialog.close();
    }));
    dialog.querySelectorAll("form[data-download]").forEach((form) => form.addEventListener("submit", () => {
      if (form.checkValidity()) { setTimeout(() => dialog.close(), 0); }  // a download leaves the page as it is
    }));
    dialog.showModal();
    (dialog.querySelector("input:not([type=hidden])") || dialog.querySelector("button")).focus();
  });

  // Copy buttons next to read-only inputs holding a new key, secret or link.
  document.querySelectorAll("[data-copy]").forEach((button) => {
    const input = document.getElementById(button.dataset.copy);
    const status = document.querySelector(`[data-copy-status="${button.dataset.copy}"]`);
    button.hidden = false;
    input.addEventListener("focus", () => input.select());
    input.select();
    button.addEventListener("click", async () => {
      input.select();
      let copied = false;
      try {
        await navigator.clipboard.writeText(input.value);
        copied = true;
      } catch (error) {
        copied = document.execCommand && document.execCommand("copy");
      }
      if (status) { status.textContent = copied ? button.dataset.copied : button.dataset.failed; }
    });
  });
})();
