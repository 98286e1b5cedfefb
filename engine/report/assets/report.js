// SPDX-License-Identifier: MIT
// The HTML report's page (engine/report): fills the sections from the JSON in #report-data.
// Every string from a record goes in with textContent (text, never markup); a number that is
// null (NaN or infinity in the data) or missing shows as "n/a".
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const cmp = data.comparison || {};
  const runs = cmp.runs || [];
  const groups = cmp.groups || [];
  const published = cmp.published || [];
  const kPalette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2',
    '#17becf', '#7f7f7f', '#bcbd22'];

  // ---- small helpers ------------------------------------------------------------------------
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function isNum(v) { return typeof v === 'number' && isFinite(v); }
  function fixed(v, d) { return isNum(v) ? v.toFixed(d) : 'n/a'; }
  function secs(v) { return isNum(v) ? v.toFixed(3) + ' s' : 'n/a'; }
  function range(lo, hi, d, unit) {
    if (!isNum(lo) && !isNum(hi)) return 'n/a';
    return '[' + fixed(lo, d) + ', ' + fixed(hi, d) + ']' + (unit || '');
  }
  function speedText(s, isBaseline) {
    if (isBaseline) return 'baseline';
    if (!s || !isNum(s.ratio)) return 'n/a';
    const i = isNum(s.low) || isNum(s.high) ? ' ' + range(s.low, s.high, 2) : '';
    return s.ratio.toFixed(2) + 'x' + i;
  }
  function bytes(v) {
    if (!isNum(v)) return 'n/a';
    return v >= 1073741824 ? (v / 1073741824).toFixed(2) + ' GiB' : (v / 1048576).toFixed(0) + ' MiB';
  }
  const groupOfRun = {};
  groups.forEach(function (g, gi) { (g.runs || []).forEach(function (n) { groupOfRun[n] = gi; }); });
  function colour(number) {
    const g = groupOfRun[number];
    return kPalette[(g === undefined ? number : g) % kPalette.length];
  }
  function runName(r) { return r.label || '#' + r.number; }

  // A table: caption, header cells and rows of cells {text, key, value, num}; value (a number
  // of the data, full precision) goes into data-value, "n/a" when it is not a number.
  function table(caption, headers, rows) {
    const wrap = el('div', { class: 'table-wrap' });
    const t = el('table');
    t.appendChild(el('caption', {}, caption));
    const head = el('tr');
    headers.forEach(function (h) { head.appendChild(el('th', { scope: 'col' }, h)); });
    t.appendChild(el('thead')).appendChild(head);
    const body = t.appendChild(el('tbody'));
    rows.forEach(function (row) {
      const tr = el('tr', row.attrs);
      row.cells.forEach(function (c, i) {
        const attrs = {};
        if (c.key) attrs['data-key'] = c.key;
        if (c.key && 'value' in c) attrs['data-value'] = isNum(c.value) ? String(c.value) : 'n/a';
        if (c.num) attrs.class = 'num';
        tr.appendChild(el(i === 0 ? 'th' : 'td', i === 0 ? Object.assign(attrs, { scope: 'row' }) : attrs,
          c.text));
      });
      body.appendChild(tr);
    });
    wrap.appendChild(t);
    return wrap;
  }

  // ---- the answer -----------------------------------------------------------------------------
  const answer = data.answer || {};
  document.getElementById('question').textContent = answer.question || '';
  document.getElementById('answer').textContent = answer.sentence || '';

  // ---- the comparison tables ------------------------------------------------------------------
  function runFlags(r) {
    const flags = [];
    if ((r.contendedStableEpochs || []).length > 0)
      flags.push('busy machine (stable epochs ' + r.contendedStableEpochs.join(', ') + ')');
    if ((r.speedChangedStableEpochs || []).length > 0)
      flags.push('speed changed (stable epochs ' + r.speedChangedStableEpochs.join(', ') + ')');
    if (r.machineSpeed && r.machineSpeed.biased) flags.push('machine speed changed against the baseline: speed-up biased');
    if (!r.comparable) flags.push('not comparable: ' + (r.differences || []).join(', '));
    if (r.status && r.status !== 'finished') flags.push(r.status + (r.reason ? ': ' + r.reason : ''));
    if (r.started && r.started.synthetic) flags.push('synthetic data: times are real, accuracy is meaningless');
    return flags;
  }
  const baseGroup = groups.find(function (g) { return g.isBaseline; });
  if (groups.length > 0) {
    document.getElementById('groups').appendChild(table(
      'Groups of repeated runs: mean of their stable means (seconds per epoch after warm-up) with its 95 % interval',
      ['Group', 'Label', 'Runs', 'n', 'Mean', '95 % interval', 'Spread (min-max, sd)',
        'Speed-up vs group ' + (baseGroup ? baseGroup.number : '?'), 'Comparable'],
      groups.map(function (g) {
        return { attrs: { 'data-group': g.number, class: g.isBaseline ? 'baseline' : '' }, cells: [
          { text: String(g.number), key: 'number', value: g.number },
          { text: g.label, key: 'label' },
          { text: (g.runs || []).map(function (n) { return '#' + n; }).join(', '), key: 'runs' },
          { text: String(g.n), key: 'n', value: g.n, num: true },
          { text: secs(g.mean), key: 'mean', value: g.mean, num: true },
          { text: range(g.ciLow, g.ciHigh, 3, ' s'), key: 'ci', value: g.ciLow, num: true },
          { text: g.n >= 2 ? g.min.toFixed(3) + '-' + g.max.toFixed(3) + ' s, sd ' + fixed(g.stddev, 3) + ' s' : (g.n === 1 ? 'one run' : 'n/a'), key: 'spread', value: g.stddev, num: true },
          { text: speedText(g.speedUp, g.isBaseline), key: 'speedUp', value: g.speedUp ? g.speedUp.ratio : null, num: true },
          { text: g.comparable ? 'yes' : 'not comparable: ' + (g.differences || []).join(', '), key: 'comparable' }] };
      })));
  }
  // Time to accuracy: the groups whose runs had a target, scored as MLPerf scores them.
  const targetGroups = groups.filter(function (g) { return g.timeToTarget; });
  if (targetGroups.length > 0) {
    document.getElementById('groups').appendChild(table(
      'Time to accuracy: wall time from the first step to the end of the evaluation that reached the target (from 5 runs the mean without the fastest and the slowest, else the median)',
      ['Group', 'Label', 'Reached', 'Time to target', 'Spread (min-max)', 'Sooner than group ' + (baseGroup ? baseGroup.number : '?')],
      targetGroups.map(function (g) {
        const t = g.timeToTarget;
        return { attrs: { 'data-target-group': g.number }, cells: [
          { text: String(g.number), key: 'number', value: g.number },
          { text: g.label, key: 'label' },
          { text: t.reached + ' of ' + t.runs, key: 'reached', value: t.reached, num: true },
          { text: isNum(t.seconds) ? t.seconds.toFixed(1) + ' s' : 'not reached reliably', key: 'timeToTarget', value: t.seconds, num: true },
          { text: isNum(t.min) ? t.min.toFixed(1) + '-' + t.max.toFixed(1) + ' s' : 'n/a', key: 'spread', value: t.min, num: true },
          { text: speedText(g.comparable ? g.speedUp : null, g.isBaseline), key: 'speedUp', value: g.speedUp ? g.speedUp.ratio : null, num: true }] };
      })));
  }
  if (runs.length > 0) {
    // Many runs: the groups above say it; the runs one by one are a section to open.
    const runsBox = runs.length > 20 ? document.getElementById('runs').appendChild(el('details')) : document.getElementById('runs');
    if (runs.length > 20) runsBox.appendChild(el('summary', {}, 'Runs one by one (' + runs.length + ')'));
    runsBox.appendChild(table(
      'Runs one by one: stable mean seconds per epoch with its 95 % interval',
      ['Run', 'Label', 'Status', 'Stable mean', '95 % interval', 'Speed-up vs #' + cmp.baseline, 'Flags'],
      runs.map(function (r) {
        const s = r.summary || {};
        const flags = runFlags(r);
        return { attrs: { 'data-run': r.number, class: r.isBaseline ? 'baseline' : '' }, cells: [
          { text: String(r.number), key: 'number', value: r.number },
          { text: r.label, key: 'label' },
          { text: r.status, key: 'status' },
          { text: secs(s.stableMean), key: 'stableMean', value: s.stableMean, num: true },
          { text: range(s.ciLow, s.ciHigh, 3, ' s'), key: 'ci', value: s.ciLow, num: true },
          { text: speedText(r.speedUp, r.isBaseline), key: 'speedUp', value: r.speedUp ? r.speedUp.ratio : null, num: true },
          { text: flags.length ? flags.join('; ') : 'none', key: 'flags' }] };
      })));
    const list = document.getElementById('flags');
    runs.forEach(function (r) {
      runFlags(r).forEach(function (f) { list.appendChild(el('li', { class: 'flag' }, runName(r) + ': ' + f)); });
      if (r.started && r.started.precisionNote) list.appendChild(el('li', {}, runName(r) + ': ' + r.started.precisionNote));
    });
    if (!list.firstChild) list.appendChild(el('li', {}, 'No flag: no busy machine, no speed change, every run comparable.'));
  }
  if (published.length > 0) {
    document.getElementById('published').appendChild(table(
      'Published results (stable mean seconds per epoch as published; no per-epoch data, so no interval)',
      ['Row', 'Source', 'Stable mean', 'Speed-up', 'Match', 'Note'],
      published.map(function (p, i) {
        return { attrs: { 'data-published': i + 1 }, cells: [
          { text: p.label, key: 'label' },
          { text: (p.source && p.source.title) || '', key: 'source' },
          { text: secs(p.stableMeanSeconds), key: 'stableMean', value: p.stableMeanSeconds, num: true },
          { text: p.isBaseline ? 'baseline' : (isNum(p.speedUp) ? p.speedUp.toFixed(2) + 'x' : 'n/a'), key: 'speedUp', value: p.speedUp, num: true },
          { text: p.match, key: 'match' },
          { text: p.note, key: 'note' }] };
      })));
  }

  // ---- the bar chart --------------------------------------------------------------------------
  function hatch(c) {
    const p = document.createElement('canvas');
    p.width = p.height = 8;
    const x = p.getContext('2d');
    x.fillStyle = '#ffffff'; x.fillRect(0, 0, 8, 8);
    x.strokeStyle = c; x.lineWidth = 2;
    x.beginPath(); x.moveTo(0, 8); x.lineTo(8, 0); x.moveTo(-2, 2); x.lineTo(2, -2); x.moveTo(6, 10); x.lineTo(10, 6); x.stroke();
    return x.createPattern(p, 'repeat');
  }
  // One target shared by every run: the bars are the groups' times to it (MLPerf-scored, the
  // whisker from the fastest to the slowest run that reached it), as in the window.
  const curveTargets = (data.curves || []).map(function (c) { return c.target; });
  const sharedTarget = curveTargets.length > 0 && curveTargets.every(function (t) { return isNum(t) && t === curveTargets[0]; })
    && groups.every(function (g) { return g.timeToTarget; }) ? curveTargets[0] : null;
  if (sharedTarget !== null) {
    document.getElementById('h-bars').textContent = 'Seconds to ' + sharedTarget + ' % test accuracy';
    document.getElementById('bars-hint').textContent = 'Bars: time to accuracy (from 5 runs the mean without the fastest and the slowest, else the median), the whisker from the fastest to the slowest run that reached it; no bar: not reached reliably.';
  }
  const bars = sharedTarget !== null ? groups.map(function (g, gi) {
    const t = g.timeToTarget;
    return { label: 'group ' + g.number + ': ' + g.label + ' (n = ' + t.runs + ', ' + t.reached + ' reached)', value: t.seconds,
      low: t.reached >= 2 ? t.min : null, high: t.reached >= 2 ? t.max : null, colour: kPalette[gi % kPalette.length], published: false,
      speed: speedText(g.comparable ? g.speedUp : null, g.isBaseline) };
  }) : groups.map(function (g, gi) {
    return { label: 'group ' + g.number + ': ' + g.label + ' (n = ' + g.n + ')', value: g.mean, low: g.ciLow,
      high: g.ciHigh, colour: kPalette[gi % kPalette.length], published: false, speed: speedText(g.speedUp, g.isBaseline) };
  }).concat(published.map(function (p) {
    return { label: 'published: ' + p.label, value: p.stableMeanSeconds, low: null, high: null, colour: '#6b7785',
      published: true, speed: p.isBaseline ? 'baseline' : (isNum(p.speedUp) ? p.speedUp.toFixed(2) + 'x' : 'n/a') };
  }));
  const errorBars = {
    id: 'errorBars',
    afterDatasetsDraw: function (chart) {
      const meta = chart.getDatasetMeta(0), x = chart.scales.x, ctx = chart.ctx;
      ctx.save(); ctx.strokeStyle = '#1d232a'; ctx.lineWidth = 1.5;
      bars.forEach(function (b, i) {
        if (!isNum(b.low) || !isNum(b.high) || !meta.data[i]) return;
        const y = meta.data[i].y, h = Math.min(8, meta.data[i].height / 3), x0 = x.getPixelForValue(b.low), x1 = x.getPixelForValue(b.high);
        ctx.beginPath(); ctx.moveTo(x0, y); ctx.lineTo(x1, y);
        ctx.moveTo(x0, y - h); ctx.lineTo(x0, y + h); ctx.moveTo(x1, y - h); ctx.lineTo(x1, y + h); ctx.stroke();
      });
      ctx.restore();
    }
  };
  function barsDescription() {
    const shown = bars.slice(0, 40).map(function (b) {
      return b.label + ': ' + secs(b.value) + (isNum(b.low) ? ' ' + range(b.low, b.high, 3, ' s') : '') + ', ' + b.speed;
    });
    const more = bars.length > 40 ? '; and ' + (bars.length - 40) + ' more (the tables above hold every number)' : '';
    return 'Bar chart of ' + (sharedTarget !== null ? 'seconds to ' + sharedTarget + ' % test accuracy: ' : 'stable mean seconds per epoch: ') + (shown.join('; ') || 'no bar') + more;
  }
  // Every bar keeps its label: one longer than a third of the page's width is wrapped at
  // spaces (a word longer than a line is cut in pieces) into lines, which Chart.js draws one
  // under the other; Chart.js's autoSkip, which drops labels that do not fit, is off, and
  // each row is as tall as its lines.
  function wrapLabel(text, chars) {
    const lines = [];
    let line = '';
    String(text).split(' ').forEach(function (word) {
      for (; word.length > chars; word = word.slice(chars)) {
        if (line) { lines.push(line); line = ''; }
        lines.push(word.slice(0, chars));
      }
      if (line && (line + ' ' + word).length > chars) { lines.push(line); line = ''; }
      line = line ? line + ' ' + word : word;
    });
    if (line) lines.push(line);
    return lines;
  }
  const barCanvas = document.getElementById('bars');
  barCanvas.setAttribute('aria-label', barsDescription());
  const labelChars = Math.max(16, Math.floor(document.getElementById('bars-box').clientWidth / 3 / 7));
  const barLabels = bars.map(function (b) { return wrapLabel(b.label, labelChars); });
  document.getElementById('bars-box').style.height = (80 + barLabels.reduce(function (sum, lines) {
    return sum + Math.max(28, 12 + 15 * lines.length);
  }, 0)) + 'px';
  if (bars.length > 0) {
    new Chart(barCanvas, {
      type: 'bar',
      data: { labels: barLabels, datasets: [{
        label: sharedTarget !== null ? 'time to accuracy (s)' : 'stable mean (s)',
        data: bars.map(function (b) { return isNum(b.value) ? b.value : null; }),
        backgroundColor: bars.map(function (b) { return b.published ? hatch(b.colour) : b.colour + 'cc'; }),
        borderColor: bars.map(function (b) { return b.colour; }), borderWidth: 1 }] },
      options: {
        indexAxis: 'y', animation: false, maintainAspectRatio: false,
        scales: { y: { ticks: { autoSkip: false } },
          x: { beginAtZero: true, title: { display: true, text: sharedTarget !== null ? 'seconds to ' + sharedTarget + ' %' : 'seconds per epoch (stable mean)' },
          suggestedMax: Math.max.apply(null, bars.map(function (b) { return isNum(b.high) ? b.high : (isNum(b.value) ? b.value : 0); })) } },
        plugins: { legend: { display: false }, tooltip: { callbacks: {
          title: function (items) { return items.length ? bars[items[0].dataIndex].label : ''; },
          label: function (c) {
          const b = bars[c.dataIndex];
          return secs(b.value) + (isNum(b.low) ? ' ' + range(b.low, b.high, 3, ' s') : '') + ' · ' + b.speed;
        } } } }
      },
      plugins: [errorBars]
    });
  }

  // ---- the loss curves ------------------------------------------------------------------------
  const curves = data.curves || [];
  const byNumber = {};
  runs.forEach(function (r) { byNumber[r.number] = r; });
  const datasets = [];
  curves.forEach(function (c) {
    const r = byNumber[c.number] || { number: c.number, label: '' };
    const col = colour(c.number);
    datasets.push({ label: runName(r) + ' train', run: c.number, data: (c.steps || []).map(function (p) { return { x: p[0], y: p[1] }; }),
      borderColor: col, backgroundColor: col, borderWidth: 1.2, pointRadius: 0, showLine: true, spanGaps: false });
    datasets.push({ label: runName(r) + ' test', run: c.number, data: (c.test || []).map(function (p) { return { x: p[0], y: p[1] }; }),
      borderColor: col, backgroundColor: col, borderDash: [4, 3], borderWidth: 1, pointRadius: 3, showLine: true });
  });
  const lossCanvas = document.getElementById('loss');
  lossCanvas.setAttribute('aria-label', 'Loss curves of ' + curves.length + ' runs: ' + curves.slice(0, 40).map(function (c) {
    const t = (c.test || []).filter(function (p) { return isNum(p[1]); });
    const last = t.length ? t[t.length - 1] : null;
    return runName(byNumber[c.number] || { number: c.number }) + (last ? ': test loss ' + fixed(last[1], 4) + ' after epoch ' + last[0] : ': no test loss');
  }).join('; ') + (curves.length > 40 ? '; and ' + (curves.length - 40) + ' more' : ''));
  const lossChart = new Chart(lossCanvas, {
    type: 'scatter',
    data: { datasets: datasets },
    options: {
      animation: false, maintainAspectRatio: false, parsing: false, normalized: true,
      interaction: { mode: 'nearest', intersect: false },
      scales: { x: { type: 'linear', title: { display: true, text: 'epoch' } },
        y: { title: { display: true, text: 'loss (nats)' } } },
      plugins: { legend: { display: false }, tooltip: { callbacks: { label: function (c) {
        return c.dataset.label + ': ' + fixed(c.parsed.y, 4) + ' at epoch ' + fixed(c.parsed.x, 2);
      } } } }
    }
  });
  function zoomTo(lo, hi) {
    lossChart.options.scales.x.min = isNum(lo) ? lo : undefined;
    lossChart.options.scales.x.max = isNum(hi) ? hi : undefined;
    lossChart.update('none');
    fromInput.value = isNum(lo) ? lo.toFixed(2) : '';
    toInput.value = isNum(hi) ? hi.toFixed(2) : '';
  }
  const controls = document.getElementById('loss-controls');
  const fromInput = el('input', { type: 'number', step: '0.1', min: '0', id: 'zoom-from' });
  const toInput = el('input', { type: 'number', step: '0.1', min: '0', id: 'zoom-to' });
  const fromLabel = el('label', { for: 'zoom-from' }, 'From epoch ');
  const toLabel = el('label', { for: 'zoom-to' }, 'to epoch ');
  const apply = el('button', { type: 'button' }, 'Zoom');
  const reset = el('button', { type: 'button' }, 'Reset zoom');
  [fromLabel, fromInput, toLabel, toInput, apply, reset].forEach(function (e) { controls.appendChild(e); });
  apply.addEventListener('click', function () { zoomTo(parseFloat(fromInput.value), parseFloat(toInput.value)); });
  reset.addEventListener('click', function () { zoomTo(null, null); });
  let dragFrom = null;
  lossCanvas.addEventListener('mousedown', function (e) { dragFrom = lossChart.scales.x.getValueForPixel(e.offsetX); });
  lossCanvas.addEventListener('mouseup', function (e) {
    if (dragFrom === null) return;
    const to = lossChart.scales.x.getValueForPixel(e.offsetX);
    const lo = Math.min(dragFrom, to), hi = Math.max(dragFrom, to);
    dragFrom = null;
    if (hi - lo > 0.01) zoomTo(lo, hi);
  });
  const toggles = document.getElementById('toggles');
  function toggle(number, on) {
    datasets.forEach(function (d, i) { if (d.run === number) lossChart.setDatasetVisibility(i, on); });
    lossChart.update('none');
  }
  curves.forEach(function (c) {
    const id = 'show-run-' + c.number;
    const box = el('input', { type: 'checkbox', id: id, 'data-run': c.number });
    box.checked = true;
    box.addEventListener('change', function () { toggle(c.number, box.checked); });
    const label = el('label', {});
    const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
    swatch.style.background = colour(c.number);
    label.appendChild(box);
    label.appendChild(swatch);
    label.appendChild(document.createTextNode(runName(byNumber[c.number] || { number: c.number })));
    toggles.appendChild(label);
  });

  // ---- test accuracy against time (runs with a target) ------------------------------------------
  const withTarget = curves.filter(function (c) { return isNum(c.target); });
  if (withTarget.length > 0) {
    document.getElementById('accuracy-section').hidden = false;
    const accuracySets = [];
    curves.forEach(function (c) {
      const r = byNumber[c.number] || { number: c.number, label: '' };
      const col = colour(c.number);
      accuracySets.push({ label: runName(r), data: (c.accuracy || []).map(function (p) { return { x: p[0], y: p[1] }; }),
        borderColor: col, backgroundColor: col, borderWidth: 2, pointRadius: 3, showLine: true });
      if (isNum(c.reachedAt)) {
        const at = (c.accuracy || []).find(function (p) { return p[0] === c.reachedAt; });
        if (at) accuracySets.push({ label: runName(r) + ' reached ' + c.target + ' %', data: [{ x: at[0], y: at[1] }],
          borderColor: col, backgroundColor: 'transparent', borderWidth: 2.5, pointRadius: 9, showLine: false });
      }
    });
    const right = Math.max.apply(null, [1].concat(curves.map(function (c) {
      return (c.accuracy || []).reduce(function (m, p) { return Math.max(m, p[0]); }, 0); })));
    withTarget.map(function (c) { return c.target; }).filter(function (t, i, all) { return all.indexOf(t) === i; }).forEach(function (t) {
      accuracySets.push({ label: 'target ' + t + ' %', data: [{ x: 0, y: t }, { x: right, y: t }], borderColor: '#1d232a',
        borderDash: [6, 4], borderWidth: 1.4, pointRadius: 0, showLine: true });
    });
    const accuracyCanvas = document.getElementById('accuracy');
    accuracyCanvas.setAttribute('aria-label', 'Test accuracy against seconds: ' + withTarget.slice(0, 40).map(function (c) {
      return runName(byNumber[c.number] || { number: c.number }) + (isNum(c.reachedAt) ? ' reached ' + c.target + ' % at ' + fixed(c.reachedAt, 1) + ' s' : ' did not reach ' + c.target + ' %');
    }).join('; '));
    new Chart(accuracyCanvas, {
      type: 'scatter',
      data: { datasets: accuracySets },
      options: {
        animation: false, maintainAspectRatio: false, parsing: false,
        scales: { x: { type: 'linear', min: 0, title: { display: true, text: 'seconds from the first step (evaluations included)' } },
          y: { min: 0, max: Math.min(100, 10 * Math.ceil((5 + Math.max.apply(null, withTarget.map(function (c) { return c.target; }).concat(curves.map(function (c) {
            return (c.accuracy || []).reduce(function (m, p) { return Math.max(m, p[1]); }, 0); })))) / 10)), title: { display: true, text: 'test accuracy (%)' } } },
        plugins: { legend: { display: true, position: 'bottom' }, tooltip: { callbacks: { label: function (c) {
          return c.dataset.label + ': ' + fixed(c.parsed.y, 2) + ' % at ' + fixed(c.parsed.x, 1) + ' s';
        } } } }
      }
    });
  }

  // ---- System readings, settings, control, footer ---------------------------------------------
  const system = data.system || [];
  const systemBox = document.getElementById('system');
  const unsampled = [];
  system.forEach(function (s) {
    const r = byNumber[s.number] || { number: s.number };
    if (!s.samples && !(r.energy && r.energy.sampled)) { unsampled.push(runName(r)); return; }
    const readings = (s.readings || []).map(function (q) {
      const f = q.unit === 'bytes' ? bytes : (q.unit === 'fraction' ? function (v) { return isNum(v) ? (100 * v).toFixed(0) + ' %' : 'n/a'; }
        : function (v) { return fixed(v, 2) + (q.unit === 'W' ? ' W' : ''); });
      return { cells: [{ text: q.name }, { text: f(q.mean), num: true }, { text: f(q.max), num: true }] };
    });
    systemBox.appendChild(el('h3', {}, runName(r)));
    systemBox.appendChild(el('p', {}, (r.system || 'no system line') + ' · ' + s.samples + ' readings' +
      (r.energy && r.energy.line ? ' · ' + r.energy.line : '')));
    if (readings.length > 0) systemBox.appendChild(table('Readings during ' + runName(r), ['Quantity', 'Mean', 'Max'], readings));
  });
  if (unsampled.length > 0)
    systemBox.appendChild(el('p', {}, 'Not sampled (no readings in the record): ' + unsampled.join(', ') + '.'));
  if (system.length === 0) systemBox.appendChild(el('p', {}, 'No run, no reading.'));
  function definitions(object) {
    const dl = el('dl');
    Object.keys(object || {}).forEach(function (k) {
      const v = object[k];
      dl.appendChild(el('dt', {}, k));
      dl.appendChild(el('dd', {}, v === null ? 'n/a' : (typeof v === 'object' ? JSON.stringify(v) : String(v))));
    });
    return dl;
  }
  const settingsBox = document.getElementById('settings');
  (data.runs || []).forEach(function (extra) {
    const r = byNumber[extra.number] || { number: extra.number };
    const d = el('details');
    d.appendChild(el('summary', {}, runName(r) + (r.runId ? ' · ' + r.runId : '')));
    d.appendChild(el('p', {}, 'Record file: ' + (r.file || 'n/a')));
    [['Settings', r.config], ['Device as started', r.started], ['Fingerprint', extra.fingerprint], ['Data', extra.data]].forEach(function (part) {
      d.appendChild(el('h3', {}, part[0]));
      d.appendChild(definitions(part[1]));
    });
    settingsBox.appendChild(d);
  });
  const control = cmp.controlSummary || {};
  let line = 'Comparable runs of the same seed compute the same thing: their test losses should agree up to float rounding (' +
    (control.comparablePairs || 0) + (control.comparablePairs === 1 ? ' pair). ' : ' pairs). ');
  if (!control.comparablePairs) line += 'No two runs are comparable.';
  else if (!control.largest) line += 'Test-loss difference not reported: no two comparable runs have an epoch in common with a test loss in both.';
  else {
    line += 'Largest test-loss difference: #' + control.largest.a + ' vs #' + control.largest.b + ': ' +
      (isNum(control.largest.maxTestLossDiff) ? control.largest.maxTestLossDiff.toPrecision(3) : 'n/a') + '. ';
    const w = control.warnings || [];
    line += w.length === 0 ? 'No pair above ' + data.testLossWarning + '.' : 'WARNING: ' + w.length + ' pairs above ' + data.testLossWarning + ' (' +
      w.slice(0, 20).map(function (p) { return '#' + p.a + ' vs #' + p.b; }).join(', ') + (w.length > 20 ? ', ...' : '') + '): those runs did not compute the same thing.';
  }
  document.getElementById('control').textContent = line;
  document.getElementById('made').textContent = 'Made by DeviceBench ' + (data.version || 'n/a') + ' on ' + (data.generated || 'n/a') +
    ' from ' + runs.length + (runs.length === 1 ? ' run record' : ' run records') + '. Charts: Chart.js ' + kChartJsVersion + ' (MIT licence; its notice is in this page\'s source).';
})();
