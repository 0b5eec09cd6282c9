/* hitmap's HTML page: draws the JSON blocks "hm-data" (schema hitmap-html/1)
 * and "hm-extra" (the report or suggest JSON as those commands print it).
 * Everything is built with DOM calls and textContent: no string from the
 * data is ever parsed as markup. */
"use strict";
(function () {
  var page = JSON.parse(document.getElementById("hm-data").textContent);
  var xe = document.getElementById("hm-extra");
  var extra = xe ? JSON.parse(xe.textContent) : null;
  var app = document.getElementById("hm-app");
  var L = page.line_size || 64;
  var METRICS = [
    ["hitm", "HITM (lcl + rmt)"], ["stores", "stores"], ["transfers", "estimated transfers"],
    ["samples", "samples"], ["loads", "loads"]
  ];
  var metric = defaultMetric();
  var redraws = [];
  /* report lines per page; members drawn at once before the rest waits
   * for the reader to scroll near it */
  var PAGE_LINES = 50, EAGER = 4000;
  function weight(it) {
    var S = it.members ? it : it.old || it.today || {};
    return (S.members ? S.members.length : 1) * (it.old ? 2 : 1);
  }

  function el(tag, attrs) {
    var e = document.createElement(tag), k;
    for (k in attrs || {}) {
      if (attrs[k] === null || attrs[k] === undefined) continue;
      if (k === "text") e.textContent = attrs[k];
      else if (k === "cls") e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === "string" || typeof c === "number" ?
        document.createTextNode(String(c)) : c);
    }
    return e;
  }
  function td(v, cls) { return el("td", { cls: cls }, v); }
  function th(v, cls) { return el("th", { cls: cls, scope: "col" }, v); }
  function hex(n) { return "0x" + Number(n).toString(16); }
  function safeId(s) { return String(s).replace(/[^A-Za-z0-9_.-]/g, "_"); }

  function defaultMetric() {
    var k = extra && extra.kind ? extra.kind : page.heat_kind;
    return k === "watch" ? "transfers" : k === "hitm" ? "hitm" : "samples";
  }
  function value(c, m) {
    if (!c) return 0;
    if (m === "hitm") return c.hitm !== undefined ? c.hitm : (c.lcl_hitm || 0) + (c.rmt_hitm || 0);
    return c[m] || 0;
  }
  function level(v, max) {
    if (!v || !max) return 0;
    return Math.max(1, Math.min(4, Math.ceil(4 * v / max)));
  }
  var LEVEL_NAMES = ["cold", "warm", "hot", "hotter", "hottest"];
  /* locks and atomics (lint's classes), marked whatever the heat */
  var UNIT_MARK = { lock: "L", atomic: "A" };
  /* A report's heat level: against the hottest field of the whole report,
   * not of its own line, and one sample is never more than warm (a line
   * with one sample of one thread is no hot spot). */
  var reportMax = 0;
  function reportLevel(v) {
    if (!reportMax)
      extra.lines.forEach(function (l) {
        l.fields.forEach(function (f) { reportMax = Math.max(reportMax, value(f.counts, metric)); });
      });
    return v <= 1 ? Math.min(1, level(v, reportMax)) : level(v, reportMax);
  }
  /* A member's level in a drawing: on a report page on the report's scale
   * (a struct with one sample is not hot for want of hotter members). */
  function memberLevel(v, max) {
    return page.kind === "report" ? reportLevel(v) : level(v, max);
  }
  /* The CPUs of a report's line or field; when the samples carry no CPU
   * the list holds thread ids standing in for them, which are no CPUs. */
  function cpuText(list) {
    return extra && extra.cpu_from_tid ? "unknown" : list.join(",");
  }

  /* ---- controls: the metric, the legend ---- */
  function controls() {
    var c = document.getElementById("hm-controls");
    var sel = el("select", { id: "hm-metric" });
    METRICS.forEach(function (m) {
      var o = el("option", { value: m[0] }, m[1]);
      if (m[0] === metric) o.selected = true;
      sel.appendChild(o);
    });
    sel.addEventListener("change", function () {
      metric = sel.value;
      reportMax = 0;
      redraws.forEach(function (f) { f(); });
    });
    c.appendChild(el("span", null, el("label", { "for": "hm-metric" }, "heat by "), sel));
    var lg = el("span", { cls: "hm-legend", "aria-label": "heat levels" });
    for (var i = 0; i <= 4; i++)
      lg.appendChild(el("span", { cls: "hm-h" + i, title: LEVEL_NAMES[i] }, "h" + i));
    lg.appendChild(el("span", { cls: "hm-hole", title: "hole" }, "hole"));
    lg.appendChild(el("span", { cls: "hm-pad", title: "padding" }, "pad"));
    lg.appendChild(el("span", { cls: "hm-b hm-unit hm-lock", title: "a lock, or in one" },
      el("span", { cls: "hm-u" }, UNIT_MARK.lock), "lock"));
    lg.appendChild(el("span", { cls: "hm-b hm-unit hm-atomic", title: "an atomic, or in one" },
      el("span", { cls: "hm-u" }, UNIT_MARK.atomic), "atomic"));
    c.appendChild(lg);
    c.appendChild(el("span", { cls: "muted" },
      "Tab / arrow keys move between members; focus or hover shows counts"));
  }

  /* ---- the tip: counts of the member under focus or the pointer ---- */
  var tip = document.getElementById("hm-tip");
  function showTip(title, rows, more) {
    tip.textContent = "";
    tip.appendChild(el("strong", null, title));
    var t = el("table");
    rows.forEach(function (r) { t.appendChild(el("tr", null, el("th", null, r[0]), td(r[1], "num"))); });
    tip.appendChild(t);
    if (more) tip.appendChild(more);
    tip.hidden = false;
  }
  function countRows(c) {
    var r = [];
    if (!c) return [["samples", 0]];
    ["samples", "hitm", "lcl_hitm", "rmt_hitm", "loads", "stores", "reads", "writes", "transfers"]
      .forEach(function (k) { if (c[k] !== undefined && (c[k] || k === "samples")) r.push([k, c[k]]); });
    return r;
  }
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") tip.hidden = true; });

  /* ---- one struct on its cachelines ---- */
  function memberId(prefix, sname, m) {
    return prefix + safeId(sname) + "-" + safeId(m.path || ("@" + m.offset + "." + m.depth));
  }

  /* S: a struct of the page data.  o: { prefix, contended: {line: label},
   * peers: {path: [id, text]}, status: {path: "moved"|"added"} } */
  function drawStruct(S, o) {
    o = o || {};
    var prefix = o.prefix || "s-";
    var sec = el("section", { cls: "hm-struct", id: prefix + safeId(S.name), "data-struct": S.name,
      "data-size": S.size, "data-cachelines": S.cachelines });
    var lines = S.cachelines || 0;	/* 0: an empty struct, no row */
    var ls = S.line_size || L;
    sec.appendChild(el("h2", null, el("a", { href: "#" + sec.id }, S.kind + " " + S.name),
      el("span", { cls: "muted" }, " — " + S.size + " bytes, " + lines + " cacheline" +
        (lines === 1 ? "" : "s") + " of " + ls + (!S.base_known ?
        "; lines counted from offset 0 (the object may start anywhere)" : o.placement ?
        "; the object starts a line: " + o.placement : ""))));
    var grid = el("div", { cls: "hm-lines", role: "group", "aria-label": S.name + " cachelines" });
    var rows = [];
    for (var i = 0; i < lines; i++) {
      var c = o.contended && o.contended[i];
      var lab = el("div", { cls: "hm-ln" + (c ? " hm-contended" : "") },
        "line " + i + " · " + i * ls + (c ? " ⚠" : ""));
      var row = el("div", { cls: "hm-row" + (c ? " hm-contended" : ""), "data-line": i });
      if (c) grid.appendChild(el("div", { cls: "hm-mark" }, "⚠ " + c));
      grid.appendChild(lab);
      grid.appendChild(row);
      rows.push(row);
    }
    function place(cls, start, len, make) {	/* bytes [start, start+len), split per line */
      var end = start + len, first = true;
      while (start < end) {
        var r = Math.floor(start / ls), rs = r * ls, e = Math.min(end, rs + ls);
        if (r >= rows.length) break;
        var d = make(first, start > rs && !first, e < end);
        d.className = cls + (d.className ? " " + d.className : "");
        d.style.left = (100 * (start - rs) / ls) + "%";
        d.style.width = (100 * (e - start) / ls) + "%";
        if (start === rs && !first) d.classList.add("hm-cut-l");
        if (e < end) d.classList.add("hm-cut-r");
        if (cls === "hm-b") lane(r, start - rs, e - rs, d);
        rows[r].appendChild(d);
        first = false;
        start = e;
      }
    }
    /* members that share bytes (a union's) go in lanes, one above the other */
    var lanes = rows.map(function () { return []; });
    function lane(r, a, b, d) {
      var k = 0;
      while (lanes[r].some(function (x) { return x[2] === k && x[0] < b && a < x[1]; })) k++;
      lanes[r].push([a, b, k, d]);
    }
    function stack() {
      lanes.forEach(function (ls_) {
        var n = 1 + Math.max.apply(null, [0].concat(ls_.map(function (x) { return x[2]; })));
        if (n < 2) return;
        ls_.forEach(function (x) {
          x[3].style.top = (100 * x[2] / n) + "%";
          x[3].style.bottom = (100 - 100 * (x[2] + 1) / n) + "%";
        });
        ls_[0][3].parentNode.style.height = Math.min(2.1 * n, 8) + "rem";
      });
    }
    var max = 0, blocks = [], trs = [];
    /* the lock or atomic a member is or lies in (members in pre-order):
     * the blocks drawn are the leaves, a lock's words among them */
    var units = [];
    S.members.forEach(function (m) {
      while (units.length && units[units.length - 1].depth >= m.depth) units.pop();
      if (m.unit) units.push(m);
      m._unit = units.length ? units[units.length - 1] : null;
    });
    S.members.forEach(function (m) { if (m.leaf) max = Math.max(max, value(m.heat, metric)); });
    S.members.forEach(function (m) {
      var id = memberId(prefix, S.name, m);
      if (!m.leaf || (!m.size && !m.bit_size)) return;
      var st = o.status && m.path ? o.status[m.path] : null, u = m._unit;
      function make(first) {
        var d = el("div", { "data-path": m.path || "", "data-offset": m.offset, "data-size": m.size,
          tabindex: first ? 0 : -1, role: "button", id: first ? id : null,
          "data-unit": u ? u.unit : null, "data-unit-path": u ? u.path || "" : null,
          cls: (m.bit_size ? "hm-bits" : "") + (st === "moved" ? " hm-moved" : "") +
            (u ? " hm-unit hm-" + u.unit : "") },
          u ? el("span", { cls: "hm-u", "aria-hidden": "true" }, UNIT_MARK[u.unit]) : null,
          m.name || "(anon)");
        d._m = m;
        d.appendChild(el("span", { cls: "lv" }));
        blocks.push(d);
        return d;
      }
      if (m.bit_size) {
        var bits = m.offset * 8 + m.bit_offset, b0 = bits / 8, bl = m.bit_size / 8;
        place("hm-b", b0, bl, make);
      } else
        place("hm-b", m.offset, m.size, make);
    });
    S.holes.forEach(function (h) {
      place("hm-hole", h.offset, h.size, function () {
        return el("div", { title: "hole: " + h.size + " bytes at " + h.offset }, "hole " + h.size);
      });
    });
    if (S.padding)
      place("hm-pad", S.size - S.padding, S.padding, function () {
        return el("div", { title: "padding: " + S.padding + " bytes" }, "pad " + S.padding);
      });
    stack();
    if (lines && S.size < lines * ls)	/* the last line's bytes past the struct */
      place("hm-end", S.size, lines * ls - S.size, function () {
        return el("div", { title: "past the end of " + S.name }, "");
      });
    var glist = null;
    if (S.groups.length) {
      glist = el("ul", { cls: "hm-groups" });
      S.groups.forEach(function (g) {
        var a = Math.floor(g.offset / ls), b = Math.floor(Math.max(g.offset, g.offset + g.size - 1) / ls);
        place("hm-grp", g.offset, Math.max(g.size, 1), function () {
          return el("div", { title: "group " + g.name });
        });
        glist.appendChild(el("li", { cls: "hm-grp-l" }, "cacheline group " + g.name + ": offset " +
          g.offset + ", " + g.size + " bytes, line" + (a === b ? " " + a : "s " + a + "–" + b) +
          (g.aligned ? ", line-aligned" : "") + (g.unterminated ? ", no end marker" : "")));
      });
    }
    sec.appendChild(grid);
    if (!lines) sec.appendChild(el("p", { cls: "muted" }, "no bytes: nothing to draw"));
    if (glist) sec.appendChild(glist);

    /* every member, in layout order */
    var tb = el("tbody");
    var tbl = el("table", { cls: "hm-members" }, el("thead", null, el("tr", null, th("offset", "num"),
      th("size", "num"), th("member"), th("type"), th("heat", "num"), th("level"))), tb);
    S.members.forEach(function (m) {
      var st = o.status && m.path ? o.status[m.path] : null, peer = o.peers && m.path ? o.peers[m.path] : null;
      var name = el("td", { cls: "path", style: "padding-left:" + (0.5 + m.depth) + "rem" },
        m.name || "(anonymous)");
      if (m.unit) name.appendChild(el("span", { cls: "hm-unit-l hm-" + m.unit, "data-unit-type": m.unit_type },
        " " + UNIT_MARK[m.unit] + " " +
        m.unit + (m.unit_type ? " (" + m.unit_type + ")" : "")));
      if (m.straddles) name.appendChild(el("span", { cls: "muted" }, " (straddles a line)"));
      if (st === "added") name.appendChild(el("span", { cls: "muted" }, " (added)"));
      if (peer) name.appendChild(el("span", null, " ", el("a", { href: "#" + peer[0] }, peer[1])));
      var tr = el("tr", { cls: "hm-m", tabindex: -1, "data-path": m.path || "", "data-offset": m.offset,
        "data-size": m.size, "data-bit-size": m.bit_size, "data-depth": m.depth },
        td(m.bit_size ? m.offset + ":" + m.bit_offset : m.offset, "num"), td(m.bit_size ? m.bit_size + " bits" : m.size, "num"),
        name, el("td", null, el("code", null, m.type || "")), td("", "num heat"), td("", "lvl"));
      tr._m = m;
      trs.push(tr);
      tb.appendChild(tr);
    });
    var det = el("details", { open: S.members.length <= 300 ? "" : null },
      el("summary", null, "members (" + S.members.length + ")"), tbl);
    sec.appendChild(det);

    function paint() {
      max = 0;
      S.members.forEach(function (m) { if (m.leaf) max = Math.max(max, value(m.heat, metric)); });
      blocks.forEach(function (d) {
        var v = value(d._m.heat, metric), lv = memberLevel(v, max);
        d.classList.remove("hm-h0", "hm-h1", "hm-h2", "hm-h3", "hm-h4");
        d.classList.add("hm-h" + lv);
        d.lastChild.textContent = lv ? "h" + lv : "";
        var u = d._m._unit;
        d.setAttribute("aria-label", (d._m.path || "(anonymous)") + ", offset " + d._m.offset + ", size " +
          d._m.size + ", " + metric + " " + v + ", " + LEVEL_NAMES[lv] +
          (u ? ", " + (u === d._m ? "" : "in ") + u.unit + " " + (u.unit_type || "") : ""));
        d.title = (d._m.path || "") + " @" + d._m.offset + " +" + d._m.size + ": " + metric + " " + v;
      });
      trs.forEach(function (tr) {
        var v = value(tr._m.heat, metric);
        tr.children[4].textContent = tr._m.heat ? v : "";
        tr.children[5].textContent = tr._m.heat ? "h" + memberLevel(v, max) : "";
      });
    }
    paint();
    redraws.push(paint);
    function tipFor(m) {
      var more = m.heat && m.heat.cpus ? el("div", null, "CPUs: " + m.heat.cpus.join(", ")) : null;
      showTip((m.path || "(anonymous)") + " — offset " + m.offset + ", size " + m.size +
        (m.bit_size ? ", " + m.bit_size + " bits" : "") + (m.type ? ", " + m.type : ""),
        m.heat ? countRows(m.heat) : [["samples", "none"]], more);
    }
    function hl(m, on) {
      var p = o.peers && m.path ? o.peers[m.path] : null;
      if (p) { var q = document.getElementById(p[0]); if (q) q.classList.toggle("hm-hl", on); }
    }
    blocks.forEach(function (d) {
      d.addEventListener("focus", function () { tipFor(d._m); hl(d._m, true); });
      d.addEventListener("blur", function () { hl(d._m, false); });
      d.addEventListener("mouseenter", function () { tipFor(d._m); hl(d._m, true); });
      d.addEventListener("mouseleave", function () { hl(d._m, false); });
    });
    trs.forEach(function (tr) {
      tr.addEventListener("focus", function () { tipFor(tr._m); });
      tr.addEventListener("mouseenter", function () { tipFor(tr._m); });
    });
    keyNav(grid);
    return sec;
  }

  /* arrows: left/right to the previous/next member, up/down to the member
   * at the same byte on the line above/below */
  function keyNav(grid) {
    grid.addEventListener("keydown", function (e) {
      var cur = document.activeElement;
      if (!cur || !cur.classList.contains("hm-b")) return;
      var all = Array.prototype.slice.call(grid.querySelectorAll(".hm-b[tabindex='0']"));
      var i = all.indexOf(cur), next = null;
      if (e.key === "ArrowRight") next = all[i + 1];
      else if (e.key === "ArrowLeft") next = all[i - 1];
      else if (e.key === "Home") next = all[0];
      else if (e.key === "End") next = all[all.length - 1];
      else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        /* the grid holds line numbers and labels between its rows */
        var rows = Array.prototype.slice.call(grid.querySelectorAll(".hm-row"));
        var x = cur.getBoundingClientRect().left + 2;
        var sib = rows[rows.indexOf(cur.parentNode) + (e.key === "ArrowDown" ? 1 : -1)];
        if (sib) {
          var best = null, bd = Infinity;
          Array.prototype.forEach.call(sib.querySelectorAll(".hm-b"), function (b) {
            var r = b.getBoundingClientRect(), dd = x < r.left ? r.left - x : x > r.right ? x - r.right : 0;
            if (dd < bd) { bd = dd; best = b; }
          });
          if (best && best.getAttribute("tabindex") !== "0") best = document.getElementById(best.id) ||
            grid.querySelector(".hm-b[tabindex='0'][data-offset='" + best.getAttribute("data-offset") + "']");
          next = best;
        }
      } else return;
      e.preventDefault();
      if (next) next.focus();
    });
  }

  /* Render items lazily: the first few at once, the rest when they come near
   * the viewport (or the page is printed). */
  function lazy(container, items, render) {
    var pending = [], drawn = 0;
    items.forEach(function (it) {
      if (drawn < EAGER || !("IntersectionObserver" in window)) {
        drawn += weight(it);
        container.appendChild(render(it));
        return;
      }
      var ph = el("div", { cls: "hm-placeholder", style: "min-height:6rem" }, "…");
      ph._it = it;
      container.appendChild(ph);
      pending.push(ph);
    });
    if (!pending.length) return;
    function fill(ph) {
      if (!ph.parentNode) return;
      ph.parentNode.replaceChild(render(ph._it), ph);
    }
    var io = new IntersectionObserver(function (es) {
      es.forEach(function (e) { if (e.isIntersecting) { io.unobserve(e.target); fill(e.target); } });
    }, { rootMargin: "1500px" });
    pending.forEach(function (ph) { io.observe(ph); });
    window.addEventListener("beforeprint", function () { pending.forEach(fill); });
  }

  /* ---- layout ---- */
  function layoutPage() {
    app.appendChild(el("p", { cls: "muted" }, "binary " + (page.binary || "-") +
      (page.heat_source ? "; heat from " + page.heat_source + " (" + page.heat_kind + ")" : "")));
    lazy(app, page.structs, function (S) { return drawStruct(S, {}); });
  }

  /* ---- report ---- */
  function isContended(v) { return /false|true/i.test(v || ""); }
  function objects(line) {
    var seen = {}, out = [];
    line.fields.forEach(function (f) {
      var n = f.object || "(unattributed)";
      if (seen[n]) return;
      seen[n] = 1;
      out.push(f.struct ? n + " (struct " + f.struct + ")" : n);
    });
    return out.join(", ");
  }
  function fieldName(f) {
    if (!f.object) return "(unattributed)";
    return f.object + (f.path ? (f.path[0] === "[" ? "" : ".") + f.path : "");
  }
  function reportPage() {
    var R = extra;
    var att = 0, un = [];
    app.appendChild(el("p", null, R.samples + " samples of kind " + R.kind + " in " + (R.input || "-") +
      "; lines ranked by " + R.sort + (R.lost ? "; " + R.lost + " lost" : "") +
      (R.cpu_from_tid ? "; samples carry no CPU: threads stand in for CPUs" : "")));
    /* every bucket, the unattributed ones included, zero or not */
    var bt = el("tbody"), zero = el("td", { colspan: 2 });
    Object.keys(R.buckets).forEach(function (k) {
      var a = R.attributed_buckets.indexOf(k) >= 0;
      if (a) att += R.buckets[k]; else un.push(R.buckets[k]);
      if (!R.buckets[k] && k !== "global" && k !== "object") {	/* the empty ones on one row */
        zero.appendChild(el("span", { "data-bucket": k, "data-count": 0 }, (zero.childNodes.length ? ", " : "") + k));
        return;
      }
      bt.appendChild(el("tr", { cls: (a ? "" : "hm-unattr") + (R.buckets[k] ? "" : " hm-zero"),
        "data-bucket": k, "data-count": R.buckets[k] }, td(a ? "attributed" : "unattributed"),
        td(k), td(R.buckets[k], "num")));
    });
    if (zero.childNodes.length)
      bt.appendChild(el("tr", { cls: "hm-zero" }, td("no sample in"), zero));
    app.appendChild(el("h2", null, "Samples by attribution bucket"));
    app.appendChild(el("table", { cls: "hm-buckets" }, el("thead", null,
      el("tr", null, th(""), th("bucket"), th("samples", "num"))), bt));

    var lines = R.lines;
    app.appendChild(el("h2", null, "Shared cachelines, by " + R.sort));
    if (!lines.length) app.appendChild(el("p", null, "no attributed samples on any cacheline"));
    var rt = el("tbody");
    function rankRow(ln, i) {
      var tr = el("tr", { cls: "hm-lineref", tabindex: 0, "data-line": i + 1, "data-address": ln.address },
        td(i + 1, "num"), td(el("a", { href: "#line-" + (i + 1) }, hex(ln.address)), "mono"),
        td(el("span", { cls: "hm-verdict" + (/false/i.test(ln.verdict) ? " fs" : "") }, ln.verdict)),
        td(ln.evidence), td(value(ln.counts, metric), "num"), td(cpuText(ln.cpus), "mono"),
        td(ln.threads, "num"), td(objects(ln)));
      tr.addEventListener("keydown", function (e) { if (e.key === "Enter") go(i); });
      tr.addEventListener("click", function (e) { if (e.target.tagName !== "A") go(i); });
      return tr;
    }
    var pager = el("nav", { cls: "hm-pager", "aria-label": "pages of lines" });
    var metricTh = th(metric, "num");
    app.appendChild(pager);
    if (lines.length)
      app.appendChild(el("table", { cls: "hm-ranked" }, el("thead", null, el("tr", null, th("#", "num"),
        th("line"), th("verdict"), th("evidence"), metricTh, th("CPUs"), th("threads", "num"),
        th("instances"))), rt));

    /* the lines in detail, a page of PAGE_LINES at a time */
    var pages = Math.ceil(lines.length / PAGE_LINES), cur = 0;
    var holder = el("div", { id: "hm-lines" });
    function show(p) {
      cur = p;
      holder.textContent = "";
      rt.textContent = "";
      lines.slice(p * PAGE_LINES, (p + 1) * PAGE_LINES).forEach(function (ln, k) {
        rt.appendChild(rankRow(ln, p * PAGE_LINES + k));
        holder.appendChild(lineDetail(ln, p * PAGE_LINES + k + 1));
      });
      Array.prototype.forEach.call(pager.children, function (b, i) {
        if (i === p) b.setAttribute("aria-current", "page"); else b.removeAttribute("aria-current");
      });
    }
    function go(i) {
      if (Math.floor(i / PAGE_LINES) !== cur) show(Math.floor(i / PAGE_LINES));
      var d = document.getElementById("line-" + (i + 1));
      if (d) { d.scrollIntoView(); d.focus(); }
    }
    for (var p = 0; p < pages && pages > 1; p++)
      pager.appendChild(el("button", { type: "button", "data-page": p }, "lines " + (p * PAGE_LINES + 1) +
        "–" + Math.min(lines.length, (p + 1) * PAGE_LINES)));
    pager.addEventListener("click", function (e) {
      if (e.target.hasAttribute("data-page")) show(+e.target.getAttribute("data-page"));
    });
    if (lines.length) app.appendChild(el("h2", null, "Lines in detail"));
    app.appendChild(holder);
    show(0);
    redraws.push(function () { metricTh.textContent = metric; show(cur); });
    window.addEventListener("beforeprint", function () {	/* paper gets every line */
      holder.textContent = "";
      rt.textContent = "";
      lines.forEach(function (ln, i) {
        rt.appendChild(rankRow(ln, i));
        holder.appendChild(lineDetail(ln, i + 1));
      });
    });

    /* the structs the samples fell in, their contended lines marked */
    if (page.structs.length) {
      app.appendChild(el("h2", null, "Structs on these lines"));
      var cont = {};
      lines.forEach(function (ln, i) {
        if (!isContended(ln.verdict)) return;
        ln.fields.forEach(function (f) {
          if (!f.struct) return;
          var start = f.offset - f.line_offset, a = Math.floor(start / L), b = Math.floor((start + L - 1) / L);
          var c = cont[f.struct] = cont[f.struct] || {};
          for (var r = Math.max(a, 0); r <= b; r++) c[r] = c[r] || ln.verdict + " (line " + (i + 1) + ")";
        });
      });
      var box = el("div");
      app.appendChild(box);
      lazy(box, page.structs, function (S) { return drawStruct(S, { contended: cont[S.name] }); });
    }
  }

  /* Under a report line's sampled fields, the rest of the struct on that
   * line (members without samples, holes, padding) when the line holds one
   * object of a struct the page has. */
  var byName = null;
  function context(row, ln) {
    if (!byName) {
      byName = {};
      (page.structs || []).forEach(function (S) { byName[S.name] = S; });
    }
    var objs = {}, f0 = null;
    ln.fields.forEach(function (f) { if (f.object) { objs[f.object] = 1; f0 = f0 || f; } });
    if (!f0 || Object.keys(objs).length !== 1 || !f0.struct || !byName[f0.struct]) return;
    var S = byName[f0.struct], start = f0.offset - f0.line_offset;
    function put(cls, a, b, label, title) {
      a = Math.max(a, start); b = Math.min(b, start + L, S.size);
      if (b <= a) return;
      row.appendChild(el("div", { cls: cls, title: title, style: "left:" + (100 * (a - start) / L) +
        "%;width:" + (100 * (b - a) / L) + "%" }, label));
    }
    S.members.forEach(function (m) {
      if (m.leaf && m.size) put("hm-ctx", m.offset, m.offset + m.size, m.name || "", (m.path || "") +
        " @" + m.offset + " +" + m.size + " (no samples on this line)");
    });
    S.holes.forEach(function (h) { put("hm-hole", h.offset, h.offset + h.size, "", "hole: " + h.size + " bytes"); });
    if (S.padding) put("hm-pad", S.size - S.padding, S.size, "", "padding: " + S.padding + " bytes");
  }

  /* One report line: its bytes with the fields on them, then the fields. */
  function lineDetail(ln, n) {
    var sec = el("section", { cls: "hm-line", id: "line-" + n, tabindex: -1, "data-address": ln.address });
    var c = isContended(ln.verdict);
    sec.appendChild(el("h3", null, "Line " + n + ": " + hex(ln.address) + " — ",
      el("span", { cls: "hm-verdict" + (/false/i.test(ln.verdict) ? " fs" : "") }, ln.verdict)));
    sec.appendChild(el("p", null, "evidence: " + ln.evidence));
    var grid = el("div", { cls: "hm-lines" });
    var row = el("div", { cls: "hm-row" + (c ? " hm-contended" : "") });
    if (c) grid.appendChild(el("div", { cls: "hm-mark" }, "⚠ " + ln.verdict));
    grid.appendChild(el("div", { cls: "hm-ln" + (c ? " hm-contended" : "") }, hex(ln.address)));
    grid.appendChild(row);
    context(row, ln);
    var tb = el("tbody");
    ln.fields.forEach(function (f, k) {
      var v = value(f.counts, metric), lv = reportLevel(v), nm = fieldName(f);
      var a = Math.max(0, f.line_offset), b = Math.min(L, f.line_offset + Math.max(f.size, 1));
      var blk = null;
      if (b > a) {
        blk = el("div", { cls: "hm-b hm-h" + lv + (f.line_offset < 0 ? " hm-cut-l" : "") +
          (f.line_offset + f.size > L ? " hm-cut-r" : ""), tabindex: 0, role: "button",
          style: "left:" + (100 * a / L) + "%;width:" + (100 * (b - a) / L) + "%",
          "data-path": nm, "data-offset": f.offset, "data-size": f.size,
          "aria-label": nm + ", offset " + f.offset + ", size " + f.size + ", " + metric + " " + v + ", " +
            LEVEL_NAMES[lv], title: nm + ": " + metric + " " + v }, f.path || nm,
          el("span", { cls: "lv" }, lv ? "h" + lv : ""));
        row.appendChild(blk);
      }
      var locs = el("ul", { cls: "mono" });
      f.locations.forEach(function (l) { locs.appendChild(el("li", null, l.samples + "  " + l.location)); });
      var tr = el("tr", { cls: "hm-m", tabindex: 0, "data-path": nm, "data-offset": f.offset,
          "data-size": f.size, "data-line-offset": f.line_offset },
        td(nm), td(f.struct || ""), td(f.offset, "num"), td((f.line_offset >= 0 ? "+" : "") + f.line_offset, "num"),
        td(f.size, "num"), td(v, "num"), td("h" + lv), td(cpuText(f.cpus), "mono"), td(f.threads, "num"),
        td(f.written ? "yes" : "no"), td(f.locations.length ? locs : "", "locs"));
      tb.appendChild(tr);
      function tipIt() {
        var ul = el("ul", { cls: "mono" });
        f.locations.slice(0, 6).forEach(function (l) { ul.appendChild(el("li", null, l.samples + "  " + l.location)); });
        showTip(nm + " — offset " + f.offset + ", size " + f.size + ", line " + (f.line_offset >= 0 ? "+" : "") +
          f.line_offset + (f.strategy ? ", by " + f.strategy : ""), countRows(f.counts).concat([["CPUs", cpuText(f.cpus)],
          ["threads", f.threads]]), ul);
        if (blk) blk.classList.add("hm-hl");
        tr.classList.add("hm-hl");
      }
      function untip() { if (blk) blk.classList.remove("hm-hl"); tr.classList.remove("hm-hl"); }
      [blk, tr].forEach(function (x) {
        if (!x) return;
        x.addEventListener("focus", tipIt); x.addEventListener("mouseenter", tipIt);
        x.addEventListener("blur", untip); x.addEventListener("mouseleave", untip);
      });
    });
    sec.appendChild(grid);
    keyNav(grid);
    sec.appendChild(el("table", { cls: "hm-fields" }, el("thead", null, el("tr", null, th("field"), th("struct"),
      th("offset", "num"), th("in line", "num"), th("size", "num"), th(metric, "num"), th("level"), th("CPUs"),
      th("threads", "num"), th("written"), th("code locations"))), tb));
    return sec;
  }

  /* ---- diff and suggest: two layouts side by side ---- */
  /* rows of S where a pair of members (paths) share a line */
  function sharedRows(S, pairs) {
    var at = {}, out = {};
    S.members.forEach(function (m) { if (m.path) at[m.path] = m; });
    (pairs || []).forEach(function (p) {
      var a = at[p.a], b = at[p.b];
      if (!a || !b) return;
      for (var r = a.line_first; r <= a.line_last; r++)
        if (r >= b.line_first && r <= b.line_last) out[r] = out[r] || p.a + " and " + p.b + " share this line";
    });
    return out;
  }
  /* The members of both that left their place among their siblings: those
   * outside a longest run kept in the same order (members that only shift
   * because one before them grew, or a member moved past them, are not
   * moved).  Siblings share the path up to its last dot; the longest run is
   * a longest increasing subsequence of old positions, in new order. */
  function movedPaths(A, B) {
    var posA = {}, groups = {}, out = {};
    var parent = function (p) { var i = p.lastIndexOf("."); return i < 0 ? "" : p.slice(0, i); };
    A.members.forEach(function (m, i) { if (m.path) posA[m.path] = i; });
    B.members.forEach(function (m) {
      if (!m.path || !(m.path in posA)) return;
      var g = parent(m.path);
      (groups[g] = groups[g] || []).push(m.path);
    });
    Object.keys(groups).forEach(function (g) {
      var v = groups[g], tails = [], prev = new Array(v.length), keep = {};
      v.forEach(function (p, i) {
        var lo = 0, hi = tails.length;
        while (lo < hi) {
          var mid = (lo + hi) >> 1;
          if (posA[v[tails[mid]]] < posA[p]) lo = mid + 1; else hi = mid;
        }
        prev[i] = lo ? tails[lo - 1] : -1;
        tails[lo] = i;
      });
      for (var k = tails.length ? tails[tails.length - 1] : -1; k >= 0; k = prev[k]) keep[v[k]] = 1;
      v.forEach(function (p) { if (!keep[p]) out[p] = 1; });
    });
    return out;
  }
  function pairOf(A, B, pa, pb, la, lb, ca, cb, place) {
    var ia = {}, ib = {}, sa = {}, sb = {}, peersA = {}, peersB = {}, moved = movedPaths(A, B);
    A.members.forEach(function (m) { if (m.path) ia[m.path] = m; });
    B.members.forEach(function (m) { if (m.path) ib[m.path] = m; });
    Object.keys(ia).forEach(function (p) {
      var m = ib[p];
      if (!m) { sa[p] = "removed"; return; }
      if (moved[p]) {
        sa[p] = sb[p] = "moved";
        peersA[p] = [memberId(pb, B.name, m), "→ " + lb + " offset " + m.offset];
        peersB[p] = [memberId(pa, A.name, ia[p]), "← " + la + " offset " + ia[p].offset];
      }
    });
    Object.keys(ib).forEach(function (p) { if (!ia[p]) sb[p] = "added"; });
    var g = el("div", { cls: "hm-pair" });
    g.appendChild(el("div", { "data-side": "old" }, el("h3", null, la),
      drawStruct(A, { prefix: pa, status: sa, peers: peersA, contended: ca, placement: place })));
    g.appendChild(el("div", { "data-side": "new" }, el("h3", null, lb),
      drawStruct(B, { prefix: pb, status: sb, peers: peersB, contended: cb, placement: place })));
    return g;
  }
  function diffPage() {
    var ul = el("ul"), rank = function (f) {
      /* root causes first, then by severity; the summary is a line of its own */
      return f.kind === "diff-root-cause" ? 0 : { error: 1, warning: 2, note: 3 }[f.severity] || 4;
    };
    var list = page.findings.filter(function (f) { return f.object; });
    list = list.map(function (f, i) { return [rank(f), i, f]; })
      .sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; }).map(function (x) { return x[2]; });
    /* the two inputs once, each side of a pair then says only which it is */
    app.appendChild(el("dl", { cls: "hm-inputs" }, el("dt", null, "old"), el("dd", null, page.old_label),
      el("dt", null, "new"), el("dd", null, page.new_label)));
    page.findings.forEach(function (f) {
      if (!f.object) app.appendChild(el("p", { cls: "hm-summary" }, f.message));
    });
    list.forEach(function (f) {
      ul.appendChild(el("li", { cls: "hm-finding " + f.severity + (f.kind === "diff-root-cause" ? " hm-root" : ""),
        "data-kind": f.kind || "" }, f.severity + ": " + f.object + ": " + f.message));
    });
    app.appendChild(el("h2", null, list.length + " finding" + (list.length === 1 ? "" : "s")));
    app.appendChild(ul);
    lazy(app, page.pairs, function (P) {
      return el("section", { cls: "hm-diff", "data-struct": P.name }, el("h2", null, "struct " + P.name),
        pairOf(P.old, P.new, "o-", "n-", "old", "new"));
    });
  }
  function suggestPage() {
    var S = extra;
    S.structs.forEach(function (s, i) {
      var D = page.suggestions[i];
      var sec = el("section", { cls: "hm-suggestion", "data-struct": s.name });
      sec.appendChild(el("h2", null, "struct " + s.name));
      sec.appendChild(el("p", null, "evidence: " + s.evidence.kind + " (" + s.evidence.source + "); today " +
        s.today.size + " bytes, " + s.today.cachelines + " cachelines; pairs sharing a line: " +
        (s.today.shared.map(function (p) { return p.a + " + " + p.b; }).join(", ") || "none")));
      /* where the object starts decides which members share a line */
      sec.appendChild(el("p", { cls: "hm-placement" }, "placement: " + (D.placement ?
        "each object starts a line: " + D.placement : "the object may start anywhere its " +
        s.today.alignment + "-byte alignment allows; lines counted from offset 0")));
      if (D.heat)
        sec.appendChild(el("p", { cls: "hm-heat-note" }, "heat: each field's loads and stores in the " +
          "evidence (samples, loads, stores); the evidence has no HITM, transfer or CPU counts"));
      if (s.nothing_to_do) sec.appendChild(el("p", null, "no proposal: " + s.nothing_to_do));
      s.notes.forEach(function (n) { sec.appendChild(el("p", { cls: "muted" }, n)); });
      s.proposals.forEach(function (p, k) {
        var box = el("section", { cls: "hm-proposal", "data-rank": p.rank });
        box.appendChild(el("h3", null, "#" + p.rank + " " + p.title));
        box.appendChild(el("table", null, el("tbody", null,
          el("tr", null, th("byte cost"), el("td", { "data-growth": p.growth }, (p.growth >= 0 ? "+" : "") + p.growth + " bytes (" + p.size + " in all, " +
            p.cachelines + " cachelines)")),
          el("tr", null, th("predicted effect"), td("contention left: " + Math.round(100 * p.remaining_ratio) +
            "% of today's; separates " + (p.separates.map(function (q) { return q.a + " / " + q.b; }).join(", ") || "nothing"))),
          el("tr", null, th("holes created"), td(p.holes_created)),
          el("tr", null, th("edits"), td(p.edits.map(function (e) {
            return e.kind === "align" ? "align " + e.member + " (" + e.text + ")" :
              e.kind === "move" ? "move " + e.member + (e.after ? " after " + e.after : " to the top") :
              e.kind === "cacheline_group" ? "cacheline group " + e.name + " (" + e.member + " to " + e.last + ")" :
              e.kind === "cacheline_padding" ? "CACHELINE_PADDING(" + e.name + ") after " + e.member :
              e.kind === "wrap" ? "wrap " + e.member + (e.last !== e.member ? " to " + e.last : "") +
                " in struct { ... } " + e.text :
              "pad " + e.bytes + " bytes after " + e.member + " (" + e.name + ")";
          }).join("; ")))
        )));
        box.appendChild(pairOf(D.today, D.proposals[k], "t" + i + "-", "p" + i + "-" + k + "-", "today",
          "proposal #" + p.rank, sharedRows(D.today, s.today.shared), sharedRows(D.proposals[k], s.today.shared),
          D.placement));
        sec.appendChild(box);
      });
      app.appendChild(sec);
    });
  }

  controls();
  var t0 = performance.now();
  ({ layout: layoutPage, report: reportPage, diff: diffPage, suggest: suggestPage })[page.kind]();
  document.body.setAttribute("data-render-ms", String(Math.round(performance.now() - t0)));
  document.body.setAttribute("data-ready", "1");
  /* from navigation to the first frame drawn with all of it laid out */
  requestAnimationFrame(function () {
    setTimeout(function () {
      document.body.setAttribute("data-painted-ms", String(Math.round(performance.now())));
    }, 0);
  });
})();
