// MCP Host audit view (webview). Receives rows from the extension ({ type: 'rows' | 'append' }),
// filters them by each column, shows one record's arguments and result on selection, and draws
// calls per outcome and percentiles of the server's time per tool (a person's wait to confirm is
// a column of its own, never part of the server's time). No remote resources; strict CSP.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const SVG = 'http://www.w3.org/2000/svg';
  /** @type {Array<any>} */
  let rows = [];
  let selected = null;
  const $ = (id) => document.getElementById(id);
  const FILTERS = ['role', 'server', 'tool', 'outcome', 'confirmedBy'];

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const time = (ts) => {
    const d = new Date(ts);
    if (Number.isNaN(d.getTime())) return ts;
    const p = (n) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  };
  const ms = (n) => (n === null || n === undefined ? '' : n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(1)} ms`);

  function filtered() {
    const since = $('f-since').value ? new Date($('f-since').value).getTime() : undefined;
    const min = $('f-duration').value ? Number($('f-duration').value) : undefined;
    const want = Object.fromEntries(FILTERS.map((f) => [f, $(`f-${f}`).value]));
    return rows.filter(
      (r) =>
        (since === undefined || Date.parse(r.ts) >= since) &&
        (min === undefined || (r.serverMs !== null && r.serverMs >= min)) &&
        FILTERS.every((f) => want[f] === '' || String(r[f]) === want[f]),
    );
  }

  function fillFilters() {
    for (const f of FILTERS) {
      const select = $(`f-${f}`);
      const current = select.value;
      const values = [...new Set(rows.map((r) => String(r[f])).filter((v) => v !== ''))].sort();
      select.replaceChildren(el('option', { value: '' }, 'all'), ...values.map((v) => el('option', { value: v }, v)));
      select.value = values.includes(current) ? current : '';
    }
  }

  function renderTable(list) {
    const body = $('records').tBodies[0];
    const shown = list.slice(-1000).reverse();
    body.replaceChildren(
      ...shown.map((r) => {
        const tr = el('tr', { 'data-id': String(r.id), tabindex: '0' });
        if (selected && selected.id === r.id) tr.classList.add('selected');
        const outcome = el('span', { class: `outcome ${r.kind === 'call' ? r.outcome : 'other'}` }, r.outcome);
        const cells = [time(r.ts), r.role || '—', r.server || '—', r.tool || '—', outcome, ms(r.serverMs), ms(r.confirmWaitMs), ms(r.durationMs), r.confirmedBy || '—'];
        cells.forEach((c, i) => {
          const td = el('td', i >= 5 && i <= 7 ? { class: 'num' } : {});
          if (typeof c === 'string') td.textContent = c;
          else td.append(c);
          tr.append(td);
        });
        tr.addEventListener('click', () => select(r));
        tr.addEventListener('keydown', (e) => e.key === 'Enter' && select(r));
        return tr;
      }),
    );
    $('count').textContent = `${list.length} of ${rows.length} records${list.length > shown.length ? ` (newest ${shown.length} listed)` : ''}`;
  }

  function select(r) {
    selected = r;
    for (const tr of $('records').tBodies[0].rows) tr.classList.toggle('selected', tr.getAttribute('data-id') === String(r.id));
    $('detail-title').textContent = `${r.kind === 'call' ? `${r.server}/${r.tool}` : r.outcome} — ${time(r.ts)}`;
    $('detail-args-label').textContent = r.kind === 'call' ? 'Arguments' : 'Record';
    $('detail-args').textContent = JSON.stringify(r.args, null, 2);
    $('detail-result').textContent = r.result || '—';
    const times = [r.serverMs !== null ? `server ${ms(r.serverMs)}` : '', r.confirmWaitMs !== null ? `waited ${ms(r.confirmWaitMs)} for a person` : ''].filter(Boolean).join(', ');
    $('detail-result-label').textContent =
      r.kind === 'call' ? `Result (${r.outcome}${r.confirmedBy ? `, confirmed by ${r.confirmedBy}` : ''}${times ? `; ${times}` : ''})` : r.kind === 'consent' ? 'Command' : '';
  }

  function renderOutcomes(list) {
    const counts = new Map();
    for (const r of list) if (r.kind === 'call') counts.set(r.outcome, (counts.get(r.outcome) || 0) + 1);
    const entries = [...counts].sort((a, b) => b[1] - a[1]);
    const max = Math.max(1, ...entries.map((e) => e[1]));
    const w = 300;
    const h = 20 * entries.length + 4;
    const chart = svg('svg', { width: w + 140, height: Math.max(h, 24), role: 'img', 'aria-label': 'Calls per outcome' });
    entries.forEach(([outcome, n], i) => {
      const y = 2 + i * 20;
      chart.append(svg('text', { x: 0, y: y + 13 }, outcome));
      chart.append(svg('rect', { class: `bar ${outcome}`, x: 90, y, height: 15, width: Math.max(2, (w * n) / max) }));
      chart.append(svg('text', { x: 96 + (w * n) / max, y: y + 13 }, String(n)));
    });
    $('by-outcome').replaceChildren(entries.length ? chart : el('p', { class: 'muted' }, 'No calls.'));
  }

  function percentile(sorted, p) {
    if (!sorted.length) return 0;
    const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
    return sorted[i];
  }

  function renderPercentiles(list) {
    const byTool = new Map();
    for (const r of list) {
      if (r.kind !== 'call' || r.serverMs === null || !r.tool) continue;
      const key = `${r.server}/${r.tool}`;
      if (!byTool.has(key)) byTool.set(key, []);
      byTool.get(key).push(r.serverMs);
    }
    const stats = [...byTool].map(([tool, d]) => {
      const s = d.slice().sort((a, b) => a - b);
      return { tool, n: s.length, p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99) };
    });
    stats.sort((a, b) => b.p90 - a.p90);
    const max = Math.max(1, ...stats.map((s) => s.p99));
    const table = $('percentiles');
    table.tBodies[0].replaceChildren(
      ...stats.slice(0, 12).map((s) => {
        const tr = el('tr');
        tr.append(el('td', {}, s.tool), el('td', { class: 'num' }, String(s.n)), el('td', { class: 'num' }, ms(s.p50)), el('td', { class: 'num' }, ms(s.p90)), el('td', { class: 'num' }, ms(s.p99)));
        const bar = svg('svg', { width: 120, height: 10, role: 'img', 'aria-label': `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}` });
        bar.append(svg('rect', { class: 'pbar', x: 0, y: 1, height: 8, width: Math.max(1, (120 * s.p99) / max), opacity: 0.35 }));
        bar.append(svg('rect', { class: 'pbar', x: 0, y: 1, height: 8, width: Math.max(1, (120 * s.p50) / max) }));
        const td = el('td');
        td.append(bar);
        tr.append(td);
        return tr;
      }),
    );
    $('percentiles-empty').hidden = stats.length > 0;
  }

  function render() {
    const list = filtered();
    renderTable(list);
    renderOutcomes(list);
    renderPercentiles(list);
  }

  for (const f of [...FILTERS, 'since', 'duration']) $(`f-${f}`).addEventListener('input', render);
  $('f-clear').addEventListener('click', () => {
    for (const f of FILTERS) $(`f-${f}`).value = '';
    $('f-since').value = '';
    $('f-duration').value = '';
    render();
  });

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (m.type === 'rows') {
      rows = m.rows;
      $('source').textContent = m.source;
    } else if (m.type === 'append') {
      rows.push(...m.rows);
    } else {
      return;
    }
    fillFilters();
    render();
  });
  vscode.postMessage({ type: 'ready' });
})();
