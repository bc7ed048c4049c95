// Charts as inline SVG built from text nodes (the CSP allows no chart library from elsewhere). Each
// has a text title for screen readers; the usage chart also has a table for the exact figures.
import { num, s } from './dom.js';

/** Stacked bars, one a day: succeeded below, failed above. */
export function dailyChart(days) {
  const W = 720;
  const H = 200;
  const pad = { l: 40, b: 24, t: 10, r: 8 };
  const max = Math.max(1, ...days.map((d) => d.pages));
  const bw = (W - pad.l - pad.r) / days.length;
  const y = (v) => ((H - pad.t - pad.b) * v) / max;
  const total = days.reduce((n, d) => n + d.pages, 0);
  const svg = s(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-labelledby': 'usage-chart-title' },
    s(
      'title',
      { id: 'usage-chart-title' },
      `Pages a day over the last ${days.length} days: ${num(total)} in all, at most ${num(max)} in a day.`,
    ),
    s('line', { class: 'axis', x1: pad.l, y1: H - pad.b, x2: W - pad.r, y2: H - pad.b }),
    s('text', { x: pad.l - 6, y: pad.t + 8, 'text-anchor': 'end' }, num(max)),
    s('text', { x: pad.l - 6, y: H - pad.b, 'text-anchor': 'end' }, '0'),
  );
  days.forEach((d, i) => {
    const x = pad.l + i * bw + 1;
    const ok = y(d.succeeded);
    const bad = y(d.pages - d.succeeded);
    const base = H - pad.b;
    svg.append(
      s(
        'rect',
        { class: 'ok', x, width: Math.max(1, bw - 2), y: base - ok, height: ok },
        s('title', {}, `${d.day}: ${d.succeeded} succeeded`),
      ),
      s(
        'rect',
        { class: 'bad', x, width: Math.max(1, bw - 2), y: base - ok - bad, height: bad },
        s('title', {}, `${d.day}: ${d.pages - d.succeeded} failed`),
      ),
    );
    if (i % 5 === 0 || i === days.length - 1) {
      svg.append(s('text', { x: x + bw / 2, y: H - 8, 'text-anchor': 'middle' }, d.day.slice(5)));
    }
  });
  return svg;
}

/** One horizontal bar a delivery status, over the deliveries listed. */
export function outcomeChart(counts) {
  const entries = Object.entries(counts);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const W = 480;
  const row = 26;
  const svg = s(
    'svg',
    {
      viewBox: `0 0 ${W} ${row * entries.length + 4}`,
      class: 'chart outcomes',
      role: 'img',
      'aria-labelledby': 'outcome-chart-title',
    },
    s(
      'title',
      { id: 'outcome-chart-title' },
      `Outcomes of the deliveries listed: ${entries.map(([k, n]) => `${n} ${k}`).join(', ')}.`,
    ),
  );
  entries.forEach(([k, n], i) => {
    const width = ((W - 150) * n) / max;
    svg.append(
      s('text', { x: 0, y: i * row + 17 }, k),
      s('rect', {
        class: k === 'failed' ? 'bad' : 'ok',
        x: 90,
        y: i * row + 5,
        width: Math.max(width, n ? 2 : 0),
        height: 16,
        opacity: k === 'pending' ? 0.5 : 1,
      }),
      s('text', { x: 96 + width, y: i * row + 17 }, num(n)),
    );
  });
  return svg;
}
