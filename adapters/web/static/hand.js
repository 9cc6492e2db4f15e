// The player's hand: its tiles, each a button; a tap plays a tile that goes one way only
// and else lights the ends it may go to; the move buttons (draw, pass, ...) and the
// table's acts; the choice of way at an end; arrow keys walking the tiles; the notice.
import { $, el } from './dom.js';
import { movesOf, busy, page, same, w } from './state.js';
import { press } from './socket.js';
import { render } from './table.js';
import { haptic } from './telegram.js';
import { face, key, tileName, tileText } from './tiles.js';

const BUTTON_MOVES = ['draw', 'pass', 'done', 'steal', 'recover', 'double'];

export function notice(text) {
  $('notice').textContent = text || '';
}

export function play(move) {
  if (!press({ type: 'play', notation: move.notation, counter: page.state.hand.counter })) return;
  haptic(true);
  page.selected = null;
  notice('');
  render();
}

function tapTile(tile) {
  if (busy()) return;
  notice('');
  const moves = movesOf(tile);
  if (same(page.selected, tile)) {
    page.selected = null;
  } else if (!moves.length) {
    page.selected = null;
    notice(page.state.why[key(tile)] || '');
    haptic(false);
  } else if (moves.length === 1) {
    play(moves[0]);
    return;
  } else {
    page.selected = tile;
  }
  render();
  const lit = document.querySelector('#line .end.lit, #choices button');
  if (lit) lit.focus();
}

function moveLabel(move) {
  if (move.kind === 'steal') return `${w('steal')} ${tileText(move.tile)}`;
  if (move.kind === 'recover') return `${w('recover')} ${tileText(move.tile)} ${tileText(move.second)}`;
  if (move.kind === 'double') return `${tileText(move.tile)} + ${tileText(move.second)}`;
  return w(move.kind);
}

export function renderMine(state) {
  const watching = page.seat === null;
  $('watching').hidden = !watching;
  $('watching').textContent = w('watching');
  const hand = $('hand');
  const moves = $('moves');
  const choices = $('choices');
  hand.replaceChildren();
  moves.replaceChildren();
  choices.replaceChildren();
  hand.hidden = watching || !state.hand;
  hand.setAttribute('aria-label', w('hand'));
  const waiting = busy();
  $('mine').classList.toggle('busy', waiting);
  for (const box of [hand, moves, $('line')]) box.setAttribute('aria-busy', String(waiting));
  if (!watching && state.hand) {
    for (const tile of state.hand.tiles) hand.append(handTile(tile));
    for (const move of state.hand.moves) {
      if (!BUTTON_MOVES.includes(move.kind)) continue;
      const button = el('button', `move ${move.kind}`, moveLabel(move));
      button.type = 'button';
      button.dataset.notation = move.notation;
      button.addEventListener('click', () => play(move));
      moves.append(button);
    }
    renderChoices(choices);
  }
  for (const action of state.actions) {
    const button = el('button', `act ${action.act}`, action.label);
    button.type = 'button';
    button.addEventListener('click', () => {
      if (press({ type: 'act', act: action.act })) render();
    });
    moves.append(button);
  }
}

function renderChoices(box) {
  if (page.selected === null) return;
  const moves = movesOf(page.selected);
  const sides = new Set(moves.map((m) => m.end));
  const side = sides.size === 1 ? moves[0].end : page.chosenEnd;
  const here = moves.filter((m) => m.end === side);
  if (here.length < 2) {
    box.append(el('span', 'hint', w('choose_end')));
    return;
  }
  for (const move of here) {
    const button = el('button', 'choice', `${move.across ? w('across') : w('along')}`);
    button.type = 'button';
    button.dataset.notation = move.notation;
    button.addEventListener('click', () => play(move));
    box.append(button);
  }
}

function handTile(tile) {
  const button = el('button', 'tile v held');
  button.type = 'button';
  button.dataset.tile = key(tile);
  button.setAttribute('aria-label', tileName(tile.hi, tile.lo));
  const playable = movesOf(tile).length > 0;
  button.classList.toggle('playable', playable);
  button.classList.toggle('selected', same(page.selected, tile));
  button.setAttribute('aria-pressed', same(page.selected, tile) ? 'true' : 'false');
  button.append(face(tile.hi, tile.lo, true));
  button.addEventListener('click', () => {
    page.chosenEnd = null;
    tapTile(tile);
  });
  return button;
}

// Arrow keys walk the hand's tiles; Enter and Space press the focused one (a button).
export function walkHand(event) {
  const steps = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
  if (!(event.key in steps)) return;
  const tiles = [...$('hand').querySelectorAll('button')];
  const at = tiles.indexOf(document.activeElement);
  if (at < 0) return;
  event.preventDefault();
  tiles[(at + steps[event.key] + tiles.length) % tiles.length].focus();
}
