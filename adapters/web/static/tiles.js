// Tiles drawn as SVG, and their names: a face in any of the two directions, a tile
// anyone may see as a picture with its spoken name.
import { el } from './dom.js';
import { w } from './state.js';

const SVG = 'http://www.w3.org/2000/svg';
// Pip centres in a 50x50 half, for 0 to 6.
const PIPS = [
  [],
  [[25, 25]],
  [[13, 13], [37, 37]],
  [[13, 13], [25, 25], [37, 37]],
  [[13, 13], [37, 13], [13, 37], [37, 37]],
  [[13, 13], [37, 13], [25, 25], [13, 37], [37, 37]],
  [[13, 11], [13, 25], [13, 39], [37, 11], [37, 25], [37, 39]],
];

export const key = (tile) => `${tile.hi}-${tile.lo}`;
export const tileName = (a, b) => `${w('pip' + a)}-${w('pip' + b)}`;
export const tileText = (tile) => `[${tile.hi}|${tile.lo}]`;

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

// A tile's face: halves a then b, from left to right or from top to bottom.
export function face(a, b, vertical) {
  const svg = svgEl('svg', { viewBox: vertical ? '0 0 50 100' : '0 0 100 50' });
  svg.setAttribute('aria-hidden', 'true');
  svg.append(svgEl('rect', {
    x: 1, y: 1, width: vertical ? 48 : 98, height: vertical ? 98 : 48, rx: 7, class: 'body',
  }));
  svg.append(svgEl('line', vertical
    ? { x1: 6, y1: 50, x2: 44, y2: 50, class: 'bar' }
    : { x1: 50, y1: 6, x2: 50, y2: 44, class: 'bar' }));
  [a, b].forEach((value, half) => {
    const dx = vertical ? 0 : 50 * half;
    const dy = vertical ? 50 * half : 0;
    for (const [x, y] of PIPS[value]) {
      svg.append(svgEl('circle', { cx: dx + x, cy: dy + y, r: 5, class: 'pip' }));
    }
  });
  return svg;
}

// A tile anyone at the table may see, as a picture with its name.
export function shownTile(ref, a, b, vertical, cls) {
  const node = el('span', `tile ${vertical ? 'v' : 'h'} ${cls || ''}`);
  node.dataset.tile = key(ref);
  node.setAttribute('role', 'img');
  node.setAttribute('aria-label', tileName(a, b));
  node.append(face(a, b, vertical));
  return node;
}
