// The line: its tiles laid left to right (a double, or a tile laid across, stands up),
// and a button at each end, lit where the tile tapped in the hand may go.
import { $, el } from './dom.js';
import { play } from './hand.js';
import { movesOf, busy, page, w } from './state.js';
import { render } from './table.js';
import { shownTile } from './tiles.js';

function tapEnd(side) {
  if (busy()) return;
  const moves = movesOf(page.selected).filter((m) => m.end === side);
  if (moves.length === 1) play(moves[0]);
  else if (moves.length) {
    page.chosenEnd = side;
    render();
    const first = document.querySelector('#choices button');
    if (first) first.focus();
  }
}

function endButton(side, label, shows) {
  const button = el('button', 'end', shows);
  button.type = 'button';
  button.dataset.side = side === null ? 'start' : side;
  button.setAttribute('aria-label', shows ? `${label}: ${shows}` : label);
  const lit = page.selected !== null && movesOf(page.selected).some((m) => m.end === side);
  button.classList.toggle('lit', lit);
  button.disabled = !lit;
  button.addEventListener('click', () => tapEnd(side));
  return button;
}

export function renderLine(table) {
  const line = $('line');
  line.replaceChildren();
  line.setAttribute('aria-label', w('line'));
  if (!table) return;
  const ends = table.ends;
  if (ends) line.append(endButton('L', w('left_end'), ends[0].shows.join('/')));
  for (const laid of table.line) {
    const vertical = laid.across || laid.left === laid.right;
    line.append(shownTile(laid.tile, laid.left, laid.right, vertical, laid.across ? 'across' : ''));
  }
  if (ends) line.append(endButton('R', w('right_end'), ends[1].shows.join('/')));
  else if (page.selected !== null) line.append(endButton(null, w('start_line'), w('start_line')));
}
