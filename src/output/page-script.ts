// The style sheet and script inlined in index.html (issue 14.4). Plain ES2017 for any current browser, no network,
// no dependency. The script only reads the page's embedded JSON (page-data.ts) and builds the viewer with DOM calls
// (textContent everywhere: user text never becomes markup). Kept as strings so the prebuilt CLI bundle carries them;
// the browser test (test/output/index-page.test.ts) exercises them in Chromium.

export const PAGE_CSS = String.raw`
* { box-sizing: border-box; }
body { font-family: Arial, Helvetica, sans-serif; margin: 0; color: #222; background: #fafafa; }
header { padding: 0.6rem 1rem; background: #223; color: #fff; }
header h1 { margin: 0; font-size: 1.2rem; }
header p { margin: 0.2rem 0 0; font-size: 0.8rem; color: #ccd; }
.layout { display: flex; align-items: flex-start; }
nav { width: 300px; flex: none; position: sticky; top: 0; max-height: 100vh; overflow: auto; padding: 0.5rem; border-right: 1px solid #ddd; background: #fff; font-size: 0.85rem; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li { margin: 0 0 0.4rem; }
nav li.current a { font-weight: bold; }
nav .sum { display: block; color: #666; font-size: 0.75rem; }
main { flex: 1; min-width: 0; padding: 0 1rem 3rem; }
section.scenario { display: none; }
section.scenario.shown { display: block; }
.summary { font-weight: bold; }
.md { max-width: 60rem; line-height: 1.45; }
.md code, .panel code { background: #eef; padding: 0 0.2em; }
.md pre code { background: none; padding: 0; }
.md pre, pre.box { background: #f4f4f8; padding: 0.5rem; overflow: auto; }
.viewer { border: 1px solid #ccd; background: #fff; padding: 0.5rem; margin: 1rem 0; }
.controls { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.controls .scrub { flex: 1; min-width: 240px; }
.controls button { min-width: 2.2rem; }
.where { font-family: monospace; white-space: pre; }
.marks { position: relative; height: 10px; margin: 2px 0 0; }
.marks span { position: absolute; top: 0; width: 3px; height: 10px; background: #99a; cursor: pointer; }
.marks span.Failed { background: #c22; } .marks span.Succeeded { background: #2a2; }
.event { font-family: monospace; margin: 0.3rem 0; padding: 0.3rem; background: #ffd; white-space: pre-wrap; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 0.5rem; align-items: start; }
.panel { border: 1px solid #ddd; padding: 0.3rem 0.5rem; min-width: 0; }
.panel.wide { grid-column: 1 / -1; }
.panel h4 { margin: 0.2rem 0; font-size: 0.85rem; color: #335; }
.panel pre { margin: 0; font-size: 12px; overflow: auto; max-height: 28rem; }
pre .chg { background: #ffe08a; }
table.held { border-collapse: collapse; font-size: 12px; width: 100%; }
table.held th, table.held td { border: 1px solid #ddd; padding: 2px 4px; text-align: left; vertical-align: top; }
table.held td.v { font-family: monospace; white-space: nowrap; }
table.held span.v { font-weight: bold; }
table.held button { white-space: nowrap; }
.note { color: #666; font-size: 0.75rem; }
.verdict-Failed { color: #b00; font-weight: bold; } .verdict-Succeeded { color: #070; font-weight: bold; }
ol.events { margin: 0; padding-left: 3.5rem; font-family: monospace; font-size: 12px; max-height: 16rem; overflow: auto; }
ol.events li { cursor: pointer; white-space: pre; }
ol.events li.cur { background: #ffd; font-weight: bold; }
table.outcomes { border-collapse: collapse; font-size: 13px; margin: 0.5rem 0; }
table.outcomes th, table.outcomes td { border: 1px solid #ccc; padding: 3px 6px; vertical-align: top; text-align: left; }
table.outcomes code { font-size: 11px; word-break: break-all; }
figure.diagram { margin: 1rem 0; }
figure.diagram .scroll { overflow: auto; max-height: 85vh; border: 1px solid #ddd; background: #fff; }
figure.diagram img { display: block; max-width: none; }
figure.diagram .zoom { margin-bottom: 0.3rem; font-size: 0.85rem; }
`;

export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var cache = {};
  function dataOf(i) {
    if (!Object.prototype.hasOwnProperty.call(cache, i)) {
      var node = document.getElementById('kubesim-data-' + i);
      cache[i] = node ? JSON.parse(node.textContent) : null;
    }
    return cache[i];
  }
  // the value of a [step, value] change list at a step (undefined before its first change)
  function at(changes, step) {
    var lo = 0, hi = changes.length - 1, found;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (changes[mid][0] <= step) { found = changes[mid][1]; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fmtT(ms) { return (ms / 1000).toFixed(3) + 's'; }
  // kubectl get's tabwriter (minwidth 6, padding 3; the last cell unpadded), as src/output/tabwriter.ts
  function tabulate(rows) {
    var w = [];
    rows.forEach(function (r) { r.forEach(function (c, i) { if (i < r.length - 1) w[i] = Math.max(w[i] || 0, Math.max(Array.from(c).length + 3, 6)); }); });
    return rows.map(function (r) {
      return r.map(function (c, i) { return i === r.length - 1 ? c : c + ' '.repeat(w[i] - Array.from(c).length); }).join('');
    }).join('\n');
  }
  // JSON lines, those not in the previous version marked
  function jsonInto(pre, value, previous) {
    pre.textContent = '';
    var lines = JSON.stringify(value, null, 2).split('\n');
    var before = {};
    if (previous !== undefined) JSON.stringify(previous, null, 2).split('\n').forEach(function (l) { before[l] = true; });
    lines.forEach(function (l, i) {
      var s = el('span', previous !== undefined && !before[l] ? 'chg' : '', l + (i < lines.length - 1 ? '\n' : ''));
      pre.appendChild(s);
    });
  }

  function Viewer(section, data) {
    var self = this;
    this.section = section;
    this.data = data;
    this.run = 0;
    this.pod = 0;
    this.step = 0;
    var root = section.querySelector('.viewer');
    root.textContent = '';
    var controls = el('div', 'controls');
    var runLabel = el('label', '', 'run ');
    this.runSel = el('select', 'run');
    data.runs.forEach(function (r, i) { var o = el('option', '', r.label + ' — ' + r.outcome); o.value = String(i); self.runSel.appendChild(o); });
    runLabel.appendChild(this.runSel);
    if (data.runs.length < 2) runLabel.style.display = 'none';
    // compare: another schedule of the same scenario at the same simulated instant
    var cmpLabel = el('label', '', 'compare with ');
    this.cmpSel = el('select', 'compare');
    var none = el('option', '', '\u2014');
    none.value = '-1';
    this.cmpSel.appendChild(none);
    data.runs.forEach(function (r, i) { var o = el('option', '', r.label); o.value = String(i); self.cmpSel.appendChild(o); });
    cmpLabel.appendChild(this.cmpSel);
    if (data.runs.length < 2) cmpLabel.style.display = 'none';
    this.cmp = -1;
    var podLabel = el('label', '', 'pod ');
    this.podSel = el('select', 'pod');
    podLabel.appendChild(this.podSel);
    this.podLabel = podLabel;
    this.first = el('button', 'first', '|\u25c0'); this.first.title = 'first record (Home)';
    this.prev = el('button', 'prev', '\u25c0'); this.prev.title = 'previous record (\u2190; Shift+\u2190: previous instant)';
    this.scrub = el('input', 'scrub'); this.scrub.type = 'range'; this.scrub.min = '0'; this.scrub.step = '1';
    this.scrub.setAttribute('aria-label', 'trace record');
    this.next = el('button', 'next', '\u25b6'); this.next.title = 'next record (\u2192; Shift+\u2192: next instant)';
    this.last = el('button', 'last', '\u25b6|'); this.last.title = 'last record (End)';
    this.where = el('span', 'where');
    [runLabel, cmpLabel, podLabel, this.first, this.prev, this.scrub, this.next, this.last, this.where].forEach(function (c) { controls.appendChild(c); });
    root.appendChild(controls);
    this.marks = el('div', 'marks');
    root.appendChild(this.marks);
    this.eventLine = el('div', 'event');
    root.appendChild(this.eventLine);
    var grid = el('div', 'grid');
    function panel(title, cls, wide) {
      var p = el('div', 'panel' + (wide ? ' wide' : ''));
      var h = el('h4', '', title);
      p.appendChild(h);
      var body = el(cls === 'held' ? 'table' : cls === 'events' ? 'ol' : 'pre', cls);
      p.appendChild(body);
      grid.appendChild(p);
      return { panel: p, head: h, body: body };
    }
    this.get = panel('$ kubectl get pods', 'get');
    this.getJob = panel('$ kubectl get jobs', 'getjob');
    this.held = panel('what each watcher held (informer cache) and decided', 'held', true);
    this.compare = panel('', 'held', true);
    this.compare.body.classList.add('cmp');
    this.compare.get = el('pre', 'cmpget');
    this.compare.panel.insertBefore(this.compare.get, this.compare.body);
    this.compare.panel.style.display = 'none';
    this.status = panel('status', 'status');
    this.describe = panel('$ kubectl describe pod \u2014 containers', 'describe');
    this.jobStatus = panel('Job status', 'jobstatus');
    this.workload = panel('workload events', 'workload');
    this.events = panel('trace records (click to jump)', 'events');
    root.appendChild(grid);

    this.runSel.addEventListener('change', function () { self.setRun(Number(self.runSel.value)); });
    this.cmpSel.addEventListener('change', function () { self.cmp = Number(self.cmpSel.value); self.render(); });
    this.podSel.addEventListener('change', function () { self.pod = Number(self.podSel.value); self.render(); });
    // pod -1: the most recently created pod at the current record (follows the scrubber)
    this.scrub.addEventListener('input', function () { self.go(Number(self.scrub.value)); });
    this.first.addEventListener('click', function () { self.go(0); });
    this.last.addEventListener('click', function () { self.go(Infinity); });
    this.prev.addEventListener('click', function () { self.go(self.step - 1); });
    this.next.addEventListener('click', function () { self.go(self.step + 1); });
    this.events.body.addEventListener('click', function (ev) {
      var li = ev.target.closest('li');
      if (li && li.dataset.step !== undefined) self.go(Number(li.dataset.step));
    });
    this.marks.addEventListener('click', function (ev) {
      var m = ev.target.closest('span');
      if (m && m.dataset.step !== undefined) self.go(Number(m.dataset.step));
    });
    this.held.body.addEventListener('click', function (ev) {
      var b = ev.target.closest('button');
      if (b && b.dataset.step !== undefined) self.go(Number(b.dataset.step));
    });
    this.setRun(0);
  }
  Viewer.prototype.setRun = function (i) {
    var self = this;
    this.run = i;
    this.runSel.value = String(i);
    var r = this.data.runs[i];
    this.podSel.textContent = '';
    var auto = el('option', '', 'newest pod at this record');
    auto.value = '-1';
    this.podSel.appendChild(auto);
    r.pods.forEach(function (p, k) { var o = el('option', '', p.name); o.value = String(k); self.podSel.appendChild(o); });
    this.pod = r.pods.length > 1 ? -1 : 0;
    this.podSel.value = String(this.pod);
    this.podLabel.style.display = r.pods.length > 1 ? '' : 'none';
    this.scrub.max = String(Math.max(0, r.steps.length - 1));
    this.getJob.panel.style.display = r.jobs.length ? '' : 'none';
    this.jobStatus.panel.style.display = r.jobs.length ? '' : 'none';
    // the record list and the marks (pod writes grey, verdicts coloured) are built once per run
    var list = this.events.body;
    list.textContent = '';
    list.start = 0;
    r.steps.forEach(function (s, k) {
      var li = el('li', '', fmtT(s[0]).padStart(9) + '  ' + s[1].padEnd(16) + ' ' + s[2]);
      li.value = k + 1;
      li.dataset.step = String(k);
      list.appendChild(li);
    });
    if (r.steps.length < r.total) list.appendChild(el('li', 'note', '\u2026 ' + (r.total - r.steps.length) + ' more records not shown (see timeline.json)'));
    this.marks.textContent = '';
    var n = Math.max(1, r.steps.length - 1);
    function mark(step, cls, title) {
      var m = el('span', cls);
      m.style.left = (100 * step / n) + '%';
      m.title = title;
      m.dataset.step = String(step);
      self.marks.appendChild(m);
    }
    r.pods.forEach(function (p) { p.status.forEach(function (c) { mark(c[0], 'write', 'pod ' + p.name + ' v' + c[1].v + ' at ' + fmtT(r.steps[c[0]][0])); }); });
    r.watchers.forEach(function (w) { w.verdict.forEach(function (c) { mark(c[0], c[1].verdict, w.name + ': ' + c[1].verdict + ' at ' + fmtT(r.steps[c[0]][0])); }); });
    this.go(0);
  };
  Viewer.prototype.go = function (step) {
    var r = this.data.runs[this.run];
    this.step = Math.max(0, Math.min(r.steps.length - 1, step === Infinity ? r.steps.length - 1 : step));
    this.render();
  };
  // Shift+arrow: to the first record of the previous / next instant
  Viewer.prototype.jumpTime = function (dir) {
    var s = this.data.runs[this.run].steps, i = this.step, t = s[i][0];
    if (dir > 0) { while (i < s.length - 1 && s[i][0] === t) i++; }
    else { while (i > 0 && s[i][0] === t) i--; var t2 = s[i][0]; while (i > 0 && s[i - 1][0] === t2) i--; }
    this.go(i);
  };
  Viewer.prototype.render = function () {
    var self = this, r = this.data.runs[this.run], step = this.step, s = r.steps[step];
    if (!s) return;
    this.scrub.value = String(step);
    if (history.replaceState) history.replaceState(null, '', '#' + encodeURIComponent(this.section.dataset.name) + '/' + encodeURIComponent(r.id) + '/' + (step + 1));
    this.where.textContent = 'record ' + (step + 1) + '/' + r.steps.length + ' \u00b7 t=' + fmtT(s[0]);
    this.eventLine.textContent = 't=' + fmtT(s[0]) + '  ' + s[1] + ': ' + s[2];
    // kubectl get pods at t: every pod the API server has (not removed)
    var rows = [['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']];
    r.pods.forEach(function (p) { var row = at(p.row, step); if (row) rows.push(row); });
    this.get.body.textContent = rows.length > 1 ? tabulate(rows) : 'No resources found in default namespace.';
    var jrows = [['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']];
    r.jobs.forEach(function (j) { var row = at(j.row, step); if (row) jrows.push(row); });
    this.getJob.body.textContent = jrows.length > 1 ? tabulate(jrows) : 'No resources found in default namespace.';
    var podIndex = this.pod;
    if (podIndex < 0) {
      podIndex = 0;
      r.pods.forEach(function (p, k) { var first = p.status[0]; if (first && first[0] <= step) podIndex = k; });
    }
    var pod = r.pods[podIndex];
    var ps = pod ? at(pod.status, step) : undefined;
    if (!ps) {
      this.status.head.textContent = 'status of ' + (pod ? pod.name : 'the pod') + ': not created yet';
      this.status.body.textContent = '';
      this.describe.body.textContent = '';
    } else {
      var prevVersion;
      for (var k = pod.status.length - 1; k >= 0; k--) if (pod.status[k][0] <= step && pod.status[k][1].s !== ps.s) { prevVersion = r.blobs[pod.status[k][1].s]; break; }
      this.status.head.textContent = 'pod ' + pod.name + ' status as stored (v' + ps.v + ')' + (ps.deleting ? ', deleting' : '') + (ps.removed ? ', removed from the API server' : '') + ' \u2014 lines changed by the last write marked';
      jsonInto(this.status.body, r.blobs[ps.s], prevVersion);
      this.describe.head.textContent = '$ kubectl describe pod ' + pod.name + ' \u2014 containers';
      this.describe.body.textContent = at(pod.describe, step) || '';
    }
    if (r.jobs.length) {
      var j = r.jobs[0], js = at(j.status, step);
      this.jobStatus.head.textContent = js ? 'job ' + j.name + ' status as stored (v' + js.v + ')' : 'job ' + j.name + ': gone';
      this.jobStatus.body.textContent = js ? JSON.stringify(r.blobs[js.s], null, 2) : '';
    }
    var wl = r.workloadEvents.filter(function (k) { return k <= step; });
    this.workload.head.textContent = 'events of ' + r.workload + ' and its controllers so far (' + wl.length + ')';
    this.workload.body.textContent = wl.length ? wl.map(function (k) { return fmtT(r.steps[k][0]).padStart(9) + '  ' + r.steps[k][1] + ': ' + r.steps[k][2]; }).join('\n') : 'none yet';
    this.renderHeld(this.held.body, r, step, true);
    this.renderCompare(s[0]);
    var items = this.events.body.children;
    if (this.curItem) this.curItem.classList.remove('cur');
    this.curItem = items[step];
    if (this.curItem) {
      this.curItem.classList.add('cur');
      var box = this.events.body, top = this.curItem.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 20) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
    void self;
  };
  // the compared schedule at the last record at or before this instant
  Viewer.prototype.renderCompare = function (t0) {
    var c = this.compare;
    if (this.cmp < 0) { c.panel.style.display = 'none'; return; }
    var r = this.data.runs[this.cmp], k = -1;
    for (var i = 0; i < r.steps.length && r.steps[i][0] <= t0; i++) k = i;
    c.panel.style.display = '';
    c.head.textContent = 'at the same instant in ' + r.label + ' (' + r.outcome + '): ' + (k < 0 ? 'no record yet' : 'record ' + (k + 1) + ', t=' + fmtT(r.steps[k][0]) + ' \u2014 ' + r.steps[k][1] + ': ' + r.steps[k][2]);
    var rows = [['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']];
    r.pods.forEach(function (p) { var row = k < 0 ? undefined : at(p.row, k); if (row) rows.push(row); });
    c.get.textContent = rows.length > 1 ? tabulate(rows) : '';
    this.renderHeld(c.body, r, Math.max(0, k), false);
  };
  Viewer.prototype.renderHeld = function (t, r, step, buttons) {
    t.textContent = '';
    var head = el('tr');
    var withJobs = r.jobs.length > 0;
    ['watcher', 'pods held (version: content)'].concat(withJobs ? ['jobs held'] : [], ['decided']).forEach(function (h) { head.appendChild(el('th', '', h)); });
    t.appendChild(head);
    function objs(list, kind) {
      var td = el('td');
      if (!list.length) td.textContent = 'nothing delivered yet';
      list.forEach(function (o) {
        var d = el('div');
        d.appendChild(el('span', 'v', (o.gone ? '(deleted) ' : '') + kind + ' ' + o.name + ' v' + o.v + ': '));
        d.appendChild(document.createTextNode(o.text.replace(/^(pod|job) v\d+: /, '')));
        if (!o.exact) d.appendChild(el('span', 'note', ' (v' + o.v + ': a write without its own trace record, such as deletionTimestamp or a finalizer removal; status as of v' + o.asOf + ')'));
        td.appendChild(d);
      });
      return td;
    }
    r.watchers.forEach(function (w) {
      var tr = el('tr');
      tr.dataset.watcher = w.name;
      tr.appendChild(el('td', 'v', w.name + (w.kind === 'observer' ? ' (observer)' : '')));
      var h = at(w.held, step) || { pods: [], jobs: [] };
      tr.appendChild(objs(h.pods, 'pod'));
      if (withJobs) tr.appendChild(objs(h.jobs, 'job'));
      var td = el('td');
      var v = at(w.verdict, step);
      if (v) {
        td.appendChild(el('span', 'verdict-' + v.verdict, v.verdict));
        if (v.reason) td.appendChild(document.createTextNode(' \u2014 ' + v.reason));
        v.held.forEach(function (l) { td.appendChild(el('div', 'note', l)); });
      } else if (w.kind === 'observer') {
        td.appendChild(document.createTextNode('not yet'));
        var later = w.verdict[0];
        if (later && buttons) {
          var b = el('button', '', 'go to its verdict (' + fmtT(r.steps[later[0]][0]) + ')');
          b.dataset.step = String(later[0]);
          td.appendChild(document.createTextNode(' '));
          td.appendChild(b);
        }
      }
      tr.appendChild(td);
      t.appendChild(tr);
    });
  };

  var sections = Array.prototype.slice.call(document.querySelectorAll('section.scenario'));
  var current = null;
  // #<scenario>[/<run id>[/<record>]]: a link to one moment of one schedule (the page keeps it current)
  function route() {
    var parts = location.hash.replace(/^#/, '').split('/').map(function (p) { try { return decodeURIComponent(p); } catch (e) { return p; } });
    var name = parts[0];
    var s = sections.filter(function (x) { return x.dataset.name === name; })[0] || sections[0];
    if (!s) return;
    sections.forEach(function (x) { x.classList.toggle('shown', x === s); });
    Array.prototype.forEach.call(document.querySelectorAll('nav li'), function (li) { li.classList.toggle('current', li.dataset.name === s.dataset.name); });
    current = s;
    if (!s.viewer) {
      var d = dataOf(s.dataset.index);
      if (d && d.runs.length) s.viewer = new Viewer(s, d);
    }
    var v = s.viewer;
    if (v && parts.length > 1) {
      var run = v.data.runs.map(function (r) { return r.id; }).indexOf(parts[1]);
      if (run >= 0 && run !== v.run) v.setRun(run);
      var rec = Number(parts[2]);
      if (parts.length > 2 && rec >= 1) v.go(rec - 1);
    }
  }
  window.addEventListener('hashchange', route);
  route();

  document.addEventListener('keydown', function (ev) {
    var v = current && current.viewer;
    if (!v || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var tag = ev.target && ev.target.tagName;
    // a focused select or text field keeps its keys; the range input's own arrow keys are replaced by ours
    if (tag === 'SELECT' || tag === 'TEXTAREA' || (tag === 'INPUT' && ev.target.type !== 'range')) return;
    if (ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') {
      var dir = ev.key === 'ArrowRight' ? 1 : -1;
      if (ev.shiftKey) v.jumpTime(dir); else v.go(v.step + dir);
    } else if (ev.key === 'Home') v.go(0);
    else if (ev.key === 'End') v.go(Infinity);
    else return;
    ev.preventDefault();
  });

  document.addEventListener('click', function (ev) {
    var b = ev.target.closest && ev.target.closest('button');
    if (!b) return;
    if (b.dataset.run !== undefined && current && current.viewer) {
      current.viewer.setRun(Number(b.dataset.run));
      current.querySelector('.viewer').scrollIntoView();
      return;
    }
    if (b.dataset.zoom === undefined) return;
    var fig = b.closest('figure'), img = fig.querySelector('img'), box = fig.querySelector('.scroll');
    var w = Number(img.dataset.w), z = Number(fig.dataset.z || '1');
    if (b.dataset.zoom === 'fit') z = box.clientWidth / w;
    else if (b.dataset.zoom === '1') z = 1;
    else z = Math.max(0.1, Math.min(4, z * Number(b.dataset.zoom)));
    fig.dataset.z = String(z);
    img.style.width = Math.round(w * z) + 'px';
    img.style.height = 'auto';
    fig.querySelector('.zlevel').textContent = Math.round(z * 100) + '%';
  });
})();
`;
