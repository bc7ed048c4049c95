// DOM building without HTML: every string becomes a text node or an attribute value, never markup,
// so nothing an API answer carries can run as script.

/** Builds an element; strings become text nodes (never HTML), null and false are skipped. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === 'class') el.className = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element: attributes as given, strings as text nodes. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

let uid = 0;
/** A fresh element id, for tying a label or a heading to what it names. */
export const nextId = () => `f${++uid}`;

export const when = (iso) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : '—');
export const num = (n) => Number(n).toLocaleString('en');
export const percent = (rate) => `${(rate * 100).toFixed(1)} %`;
export const badge = (status) => h('span', { class: `badge ${status}` }, status);

/** Tells screen readers an outcome; the pause makes a repeated message be read again. */
export function announce(msg) {
  const el = document.getElementById('announce');
  el.textContent = '';
  setTimeout(() => (el.textContent = msg), 30);
}
