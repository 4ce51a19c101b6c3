// Draws the console dashboard from the JSON the page embeds (no inline script, no CDN).
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("dashboard-data").textContent);
  const palette = ["#2456c9", "#e0813a", "#2f9e6e", "#c44569", "#7d5fff", "#b7791f", "#3aa7c9", "#6b7280"];
  const common = { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { position: "bottom" } } };

  function draw(id, config) {
    const canvas = document.getElementById(id);
    if (canvas) { new Chart(canvas, config); }
  }
  function doughnut(id, values) {
    const labels = Object.keys(values);
    draw(id, { type: "doughnut", options: common,
      data: { labels: labels, datasets: [{ data: labels.map((k) => values[k]), backgroundColor: palette }] } });
  }

  draw("chart-activity", { type: "line", options: Object.assign({}, common, { scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } }),
    data: { labels: data.days, datasets: [
      { label: "writes", data: data.writes, borderColor: palette[0], backgroundColor: palette[0], tension: 0.2 },
      { label: "recalls", data: data.recalls, borderColor: palette[1], backgroundColor: palette[1], tension: 0.2 },
    ] } });
  doughnut("chart-status", data.status);
  doughnut("chart-category", data.category);
  doughnut("chart-kind", data.kind);
  draw("chart-redactions", { type: "bar", options: Object.assign({}, common, { plugins: { legend: { display: false } } }),
    data: { labels: Object.keys(data.redactions), datasets: [{ label: "removed", data: Object.values(data.redactions), backgroundColor: palette[3] }] } });
  draw("chart-agents", { type: "bar", options: Object.assign({}, common, { indexAxis: "y" }),
    data: { labels: data.agents.map((a) => a.agent), datasets: [
      { label: "recalls", data: data.agents.map((a) => a.reads), backgroundColor: palette[1] },
      { label: "writes", data: data.agents.map((a) => a.writes), backgroundColor: palette[0] },
    ] } });
  document.body.dataset.chartsDrawn = "true";
})();
