//! The timeline, drawn in the page: the recording above each replay on one
//! time axis, one canvas per run, sharing zoom and pan. The data is a
//! [`TimelineRecord`] embedded as JSON; the drawing is [`JS`].

use std::fmt::Write as _;

use serde_json::json;

use super::{CSS, esc};
use crate::VERSION;
use crate::timeline::{OVERVIEW_BINS, READY_SLOTS, TimelineRecord};

/// Writes the timeline section of `timeline` (over tasks named `tasks`).
pub(super) fn section(s: &mut String, tasks: &[String], timeline: Option<&TimelineRecord>) {
    let _ = write!(s, "<section id=\"timelines\"><h2>Timelines</h2>");
    let Some(t) = timeline else {
        let _ = writeln!(s, "<p class=\"note\">No timeline: this analysis kept none.</p></section>");
        return;
    };
    let chain = t.chain.as_ref().map_or(String::new(), |c| {
        format!(" The yellow band is instance {} of chain {}, its tasks outlined.", c.instance, esc(&c.name))
    });
    let _ = write!(
        s,
        "<p class=\"note\">It opens on {}. One time axis for every run: the recording first, then each set-up. A bar \
         is the task that ran (an ISR is outlined in red, with a red mark above); the thin bars under the cores are \
         the tasks waiting READY; a red arrow is a signal to a task that then ran on another core; a black diamond, a \
         task that moved to another core.{chain} Every segment is drawn as it ran from {:.3} to {:.3} ms; outside, \
         only each core's load (grey). <span class=\"gantt-hint\">Wheel to zoom, drag to pan, double-click for the \
         whole run; click a task in the legend to follow it.</span></p><div id=\"gantt\"></div>",
        esc(&t.why),
        t.detail_ns[0] as f64 / 1e6,
        t.detail_ns[1] as f64 / 1e6,
    );
    let data = json!({ "tasks": tasks, "timeline": t, "bins": OVERVIEW_BINS, "slots": READY_SLOTS });
    let _ = writeln!(
        s,
        "<script type=\"application/json\" id=\"timeline-data\">{}</script></section>",
        data.to_string().replace("</", "<\\/")
    );
}

/// A page with the timeline alone (`corera simulate --timeline`).
pub fn page(title: &str, meta: &str, tasks: &[String], timeline: &TimelineRecord) -> Vec<u8> {
    let mut s = String::with_capacity(1 << 20);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{CSS}</style>\n\
         </head>\n<body data-js-errors=\"0\" data-rendered=\"\">\n<h1>{}</h1>\n<p class=\"meta\">corera {VERSION} · {}</p>\n",
        esc(title),
        esc(title),
        esc(meta)
    );
    section(&mut s, tasks, Some(timeline));
    let _ = write!(s, "<script>{}{JS}</script>\n</body>\n</html>\n", super::JS_COMMON);
    s.into_bytes()
}

/// Draws `#timeline-data` into `#gantt`; reports `gantt:<rows>`.
pub(super) const JS: &str = r##"
(function () {
  "use strict";
  var el = document.getElementById("timeline-data");
  if (!el) { done("gantt:0"); return; }
  var data = JSON.parse(el.textContent), t = data.timeline, names = data.tasks;
  // A colour per task: hues a golden angle apart, two lightnesses.
  function colour(i) { return "hsl(" + ((i * 137.508) % 360).toFixed(1) + "," + (i % 2 ? "55%" : "70%") + "," + (i % 3 === 1 ? "38%" : "48%") + ")"; }
  var focus = -1;
  var isr = {}; t.isrs.forEach(function (i) { isr[i] = true; });
  var inChain = {}; if (t.chain) t.chain.tasks.forEach(function (i) { inChain[i] = true; });
  var root = document.getElementById("gantt");
  var view = { from: t.window_ns[0], to: Math.max(t.window_ns[0] + 1, t.window_ns[1]) };
  var left = 56, laneH = 22, top = 6, slotH = 4, axisH = 16;
  var bar = document.createElement("div"); bar.className = "gantt-controls";
  function button(text, f) { var b = document.createElement("button"); b.textContent = text; b.onclick = f; bar.appendChild(b); }
  var info = document.createElement("span");
  button("opening window", function () { view.from = t.window_ns[0]; view.to = Math.max(view.from + 1, t.window_ns[1]); drawAll(); });
  button("whole run", function () { view.from = 0; view.to = t.end_ns; drawAll(); });
  button("zoom in", function () { zoom(0.5, 0.5); });
  button("zoom out", function () { zoom(0.5, 2); });
  bar.appendChild(info);
  root.appendChild(bar);
  // The legend: each task drawn in the detail range; a click outlines its
  // segments in every run (again: all tasks).
  var legend = document.createElement("div"); legend.className = "gantt-legend";
  var seen = {};
  t.rows.forEach(function (row) { row.lanes.forEach(function (lane) { for (var i = 2; i < lane.length; i += 3) seen[lane[i]] = true; }); });
  Object.keys(seen).map(Number).sort(function (a, b) { return a - b; }).forEach(function (task) {
    var item = document.createElement("span"); item.className = "gantt-key";
    var sw = document.createElement("i"); sw.style.background = colour(task); if (isr[task]) sw.style.outline = "2px solid #c62828";
    item.appendChild(sw); item.appendChild(document.createTextNode(names[task]));
    item.onclick = function () { focus = focus === task ? -1 : task; drawAll(); };
    legend.appendChild(item);
  });
  root.appendChild(legend);
  var tip = document.createElement("div"); tip.className = "gantt-tip"; document.body.appendChild(tip);
  var rows = t.rows.map(function (row, ri) {
    var wrap = document.createElement("div"); wrap.className = "gantt-wrap";
    var h = document.createElement("h3"); h.textContent = row.label; wrap.appendChild(h);
    var canvas = document.createElement("canvas");
    var cores = row.overview.length;
    var height = top + cores * laneH + data.slots * slotH + 6 + axisH;
    canvas.style.height = height + "px";
    wrap.appendChild(canvas); root.appendChild(wrap);
    return { row: row, index: ri, canvas: canvas, cores: cores, height: height };
  });
  function fmt(ns) { var ms = ns / 1e6; return (Math.abs(ms) >= 100 ? ms.toFixed(1) : ms.toFixed(3)) + " ms"; }
  function width(r) { return r.canvas.clientWidth || 1060; }
  function X(r, tm) { return left + (tm - view.from) / (view.to - view.from) * (width(r) - left - 4); }
  function first(lane, from) { // first triple whose end is after `from`
    var lo = 0, hi = lane.length / 3;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (lane[mid * 3 + 1] <= from) lo = mid + 1; else hi = mid; }
    return lo * 3;
  }
  // The parts of lo..hi outside the detail range.
  function outside(lo, hi, f) {
    var d0 = t.detail_ns[0], d1 = t.detail_ns[1];
    if (hi <= lo) return;
    if (hi <= d0 || lo >= d1) { f(lo, hi); return; }
    if (lo < d0) f(lo, d0);
    if (hi > d1) f(d1, hi);
  }
  function draw(r) {
    var c = r.canvas, dpr = window.devicePixelRatio || 1, w = width(r), row = r.row;
    c.width = Math.round(w * dpr); c.height = Math.round(r.height * dpr);
    var ctx = c.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, r.height);
    ctx.font = "11px sans-serif";
    var d0 = t.detail_ns[0], d1 = t.detail_ns[1], bw = Math.ceil(t.end_ns / data.bins) || 1;
    var band = t.chain ? t.chain.spans[r.index] : null;
    for (var core = 0; core < r.cores; core++) {
      var y = top + core * laneH, lh = laneH - 4;
      ctx.fillStyle = "#222"; ctx.fillText("core " + core, 4, y + 14);
      ctx.fillStyle = "#f4f4f4"; ctx.fillRect(left, y, w - left - 4, lh);
      if (band) {
        var bx0 = Math.max(left, X(r, band[0])), bx1 = Math.min(w - 4, X(r, band[1]));
        if (bx1 > bx0) { ctx.fillStyle = "#fff3b0"; ctx.fillRect(bx0, y, Math.max(1, bx1 - bx0), lh); }
      }
      // Outside the detail range: the core's load per bin, in grey.
      var ov = row.overview[core];
      if (view.from < d0 || view.to > d1) {
        var b0 = Math.max(0, Math.floor(view.from / bw)), b1 = Math.min(ov.length - 1, Math.floor(view.to / bw));
        for (var b = b0; b <= b1; b++) {
          if (!ov[b]) continue;
          ctx.fillStyle = "rgba(110,110,110," + (ov[b] / 100).toFixed(2) + ")";
          outside(Math.max(b * bw, view.from), Math.min((b + 1) * bw, view.to), function (lo, hi) {
            ctx.fillRect(X(r, lo), y, Math.max(1, X(r, hi) - X(r, lo)), lh);
          });
        }
      }
      var lane = row.lanes[core] || [];
      for (var i = first(lane, view.from); i < lane.length && lane[i] < view.to; i += 3) {
        var task = lane[i + 2], x0 = Math.max(left, X(r, lane[i])), x1 = Math.min(w - 4, X(r, lane[i + 1]));
        ctx.globalAlpha = focus < 0 || focus === task ? 1 : 0.25;
        ctx.fillStyle = colour(task);
        ctx.fillRect(x0, y, Math.max(1, x1 - x0), lh);
        ctx.globalAlpha = 1;
        if (focus === task) { ctx.strokeStyle = "#000"; ctx.lineWidth = 2; ctx.strokeRect(x0, y, Math.max(1, x1 - x0), lh); }
        if (isr[task]) {
          ctx.strokeStyle = "#c62828"; ctx.lineWidth = 1.5; ctx.strokeRect(x0, y + 0.75, Math.max(1, x1 - x0), lh - 1.5);
          ctx.fillStyle = "#c62828"; ctx.fillRect(x0, y - 5, 2, 4);
        }
        if (band && inChain[task] && lane[i + 1] > band[0] && lane[i] < band[1]) {
          ctx.strokeStyle = "#000"; ctx.lineWidth = 2; ctx.strokeRect(x0 + 1, y + 1, Math.max(1, x1 - x0 - 2), lh - 2);
        }
        var label = names[task];
        if (x1 - x0 > ctx.measureText(label).width + 6) { ctx.fillStyle = "#fff"; ctx.fillText(label, x0 + 3, y + 13); }
      }
    }
    // READY, packed in slots under the cores.
    var ry = top + r.cores * laneH + 2;
    ctx.fillStyle = "#555"; ctx.fillText("READY", 4, ry + 9);
    for (var k = 0; k < row.ready.length; k += 4) {
      if (row.ready[k + 2] < view.from || row.ready[k + 1] > view.to) continue;
      var rx0 = Math.max(left, X(r, row.ready[k + 1])), rx1 = Math.min(w - 4, X(r, row.ready[k + 2]));
      ctx.globalAlpha = focus < 0 || focus === row.ready[k] ? 1 : 0.25;
      ctx.fillStyle = colour(row.ready[k]);
      ctx.fillRect(rx0, ry + row.ready[k + 3] * slotH, Math.max(1, rx1 - rx0), slotH - 1);
      ctx.globalAlpha = 1;
    }
    // Migrations: a diamond on the lane the task moved to.
    ctx.fillStyle = "#000";
    for (var m = 0; m < row.migrations.length; m += 3) {
      var at = row.migrations[m];
      if (at < view.from || at > view.to) continue;
      var mx = X(r, at), my = top + row.migrations[m + 1] * laneH;
      ctx.beginPath(); ctx.moveTo(mx, my - 4); ctx.lineTo(mx + 4, my); ctx.lineTo(mx, my + 4); ctx.lineTo(mx - 4, my); ctx.fill();
    }
    // Cross-core signals: sender to where the woken task started.
    ctx.strokeStyle = "#d00"; ctx.fillStyle = "#d00"; ctx.lineWidth = 1;
    for (var g = 0; g < row.signals.length; g += 6) {
      var a0 = row.signals[g], a1 = row.signals[g + 2];
      if (a1 < view.from || a0 > view.to) continue;
      var sx = X(r, a0), sy = top + row.signals[g + 1] * laneH + (laneH - 4) / 2;
      var ex = X(r, a1), ey = top + row.signals[g + 3] * laneH + (laneH - 4) / 2;
      ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(ex, ey); ctx.stroke();
      var ang = Math.atan2(ey - sy, ex - sx);
      ctx.beginPath(); ctx.moveTo(ex, ey);
      ctx.lineTo(ex - 6 * Math.cos(ang - 0.4), ey - 6 * Math.sin(ang - 0.4));
      ctx.lineTo(ex - 6 * Math.cos(ang + 0.4), ey - 6 * Math.sin(ang + 0.4)); ctx.fill();
    }
    // The edges of the detail range, and the time axis.
    ctx.strokeStyle = "#888"; ctx.setLineDash([3, 3]);
    [d0, d1].forEach(function (e) {
      if (e > view.from && e < view.to) { var ex = X(r, e); ctx.beginPath(); ctx.moveTo(ex, top); ctx.lineTo(ex, ry); ctx.stroke(); }
    });
    ctx.setLineDash([]);
    var span = view.to - view.from, step = Math.pow(10, Math.floor(Math.log10(span / 6)));
    if (span / step > 12) step *= 5; else if (span / step > 6) step *= 2;
    var ay = r.height - 4;
    ctx.fillStyle = "#555"; ctx.strokeStyle = "#bbb";
    for (var tk = Math.ceil(view.from / step) * step; tk <= view.to; tk += step) {
      var tx = X(r, tk);
      ctx.beginPath(); ctx.moveTo(tx, ay - 12); ctx.lineTo(tx, ay - 9); ctx.stroke();
      var text = fmt(tk), tw = ctx.measureText(text).width;
      if (tx - tw / 2 > left && tx + tw / 2 < w) ctx.fillText(text, tx - tw / 2, ay);
    }
  }
  function drawAll() {
    rows.forEach(draw);
    info.textContent = " " + fmt(view.from) + " .. " + fmt(view.to);
  }
  function zoom(f, k) {
    var at = view.from + f * (view.to - view.from);
    var span = Math.min(t.end_ns * 1.1, Math.max(1000, (view.to - view.from) * k));
    view.from = Math.max(0, at - f * span); view.to = view.from + span; drawAll();
  }
  function under(r, e) {
    var rect = r.canvas.getBoundingClientRect(), px = e.clientX - rect.left, py = e.clientY - rect.top;
    var tm = view.from + (px - left) / (width(r) - left - 4) * (view.to - view.from);
    var core = Math.floor((py - top) / laneH), row = r.row;
    if (core >= 0 && core < r.cores) {
      var lane = row.lanes[core] || [];
      for (var i = first(lane, tm); i < lane.length && lane[i] <= tm; i += 3) {
        if (lane[i + 1] > tm) return names[lane[i + 2]] + (isr[lane[i + 2]] ? " (ISR)" : "") + " on core " + core + ": " + fmt(lane[i]) + " .. " + fmt(lane[i + 1]);
      }
      return null;
    }
    for (var k = 0; k < row.ready.length; k += 4) {
      if (row.ready[k + 1] <= tm && row.ready[k + 2] > tm && Math.floor((py - top - r.cores * laneH - 2) / slotH) === row.ready[k + 3]) {
        return names[row.ready[k]] + " READY: " + fmt(row.ready[k + 1]) + " .. " + fmt(row.ready[k + 2]);
      }
    }
    return null;
  }
  var drag = null;
  rows.forEach(function (r) {
    var c = r.canvas;
    c.addEventListener("wheel", function (e) {
      e.preventDefault();
      var rect = c.getBoundingClientRect();
      var f = Math.min(1, Math.max(0, (e.clientX - rect.left - left) / (rect.width - left - 4)));
      zoom(f, e.deltaY < 0 ? 0.8 : 1.25);
    }, { passive: false });
    c.addEventListener("mousedown", function (e) { drag = { x: e.clientX, from: view.from, to: view.to, w: width(r) - left - 4 }; });
    c.addEventListener("mousemove", function (e) {
      if (drag) {
        var dt = (drag.x - e.clientX) / drag.w * (drag.to - drag.from);
        view.from = Math.max(0, drag.from + dt); view.to = view.from + (drag.to - drag.from); drawAll();
        return;
      }
      var text = under(r, e);
      tip.style.display = text ? "block" : "none";
      if (text) { tip.textContent = text; tip.style.left = (e.pageX + 12) + "px"; tip.style.top = (e.pageY + 12) + "px"; }
    });
    c.addEventListener("mouseleave", function () { tip.style.display = "none"; });
    c.addEventListener("dblclick", function () { view.from = 0; view.to = t.end_ns; drawAll(); });
  });
  window.addEventListener("mouseup", function () { drag = null; });
  window.addEventListener("resize", drawAll);
  window.addEventListener("beforeprint", drawAll);
  drawAll();
  done("gantt:" + rows.length);
})();
"##;
