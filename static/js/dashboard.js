// Draws the console dashboard from the JSON the page embeds (no inline script, no CDN).
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("dashboard-data").textContent);
  const palette = ["#2456c9", "#e0813a", "#2f9e6e", "#c44569", "#7d5fff", "#b7791f", "#3aa7c9", "#6b7280"];
  const common = { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { position: "bottom" } } };
  const counts = { beginAtZero: true, ticks: { precision: 0 } };  // whole numbers only: these are counts
  const text = data.text;

  function draw(id, config) {
    const canvas = document.getElementById(id);
    if (canvas) { new Chart(canvas, config); }
  }
  // {keys, labels, values}: labels are in the reader's language (the page's label tables).
  function doughnut(id, series) {
    draw(id, { type: "doughnut", options: common,
      data: { labels: series.labels, datasets: [{ data: series.values, backgroundColor: palette }] } });
  }

  draw("chart-activity", { type: "line", options: Object.assign({}, common, { scales: { y: counts } }),
    data: { labels: data.days, datasets: [
      { label: text.writes, data: data.writes, borderColor: palette[0], backgroundColor: palette[0], tension: 0.2 },
      { label: text.recalls, data: data.recalls, borderColor: palette[1], backgroundColor: palette[1], tension: 0.2 },
    ] } });
  doughnut("chart-status", data.status);
  doughnut("chart-category", data.category);
  doughnut("chart-kind", data.kind);
  draw("chart-redactions", { type: "bar", options: Object.assign({}, common, { plugins: { legend: { display: false } }, scales: { y: counts } }),
    data: { labels: data.redactions.labels, datasets: [{ label: text.removed, data: data.redactions.values, backgroundColor: palette[3] }] } });
  draw("chart-agents", { type: "bar", options: Object.assign({}, common, { indexAxis: "y", scales: { x: counts } }),
    data: { labels: data.agents.map((a) => a.agent), datasets: [
      { label: text.recalls, data: data.agents.map((a) => a.reads), backgroundColor: palette[1] },
      { label: text.writes, data: data.agents.map((a) => a.writes), backgroundColor: palette[0] },
    ] } });
  document.body.dataset.chartsDrawn = "true";
})();
