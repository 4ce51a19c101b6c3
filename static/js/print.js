// The export page's Print button (a file, not an inline handler, so the CSP can forbid inline script).
document.querySelectorAll("[data-print]").forEach((button) => button.addEventListener("click", () => window.print()));
