// The table around the line: one State drawn whole (render), the deal and boneyard on
// top, the deal's and match's result, the log of what was said, and the clocks.
import { $, el } from './dom.js';
import { renderMine } from './hand.js';
import { renderLine } from './line.js';
import { renderParts, renderSeats } from './seats.js';
import { page, seatName, w } from './state.js';

const LOG_LINES = 8;

export function render() {
  const state = page.state;
  const table = state.table;
  document.body.dataset.game = table ? table.game : '';
  renderTop(table);
  renderSeats(table);
  renderParts(table);
  renderLine(table);
  renderResult(table);
  renderMine(state);
  tick();
}

function renderTop(table) {
  $('deal').textContent = table ? `${w('deal')} ${table.deal}` : w('waiting');
  $('boneyard').textContent = table && table.game !== 'three_guns'
    ? `${w('boneyard')}: ${table.boneyard}` : '';
}

function renderResult(table) {
  const box = $('result');
  box.replaceChildren();
  const deal = table ? table.deal_result : null;
  const match = table ? table.match_result : null;
  box.hidden = !deal && !match;
  if (box.hidden) return;
  box.append(el('h2', '', match ? w('match_over') : `${w('deal_over')} (${w('deal')} ${deal.deal})`));
  if (deal) {
    if (deal.end === 'block') box.append(el('p', 'blocked', w('blocked')));
    box.append(el('p', 'winner', deal.winner === null ? w('no_winner') : `${w('winner')}: ${seatName(deal.winner)}`));
    const list = el('ul', 'points');
    deal.points.forEach((points, seat) => {
      const total = table.seats[seat].total;
      list.append(el('li', '', `${seatName(seat)}: ${points >= 0 ? '+' : ''}${points} → ${total}`));
    });
    box.append(list);
  }
  if (match) {
    box.append(el('p', 'winners', `${w('winner')}: ${match.winners.map(seatName).join(', ')}`));
    if (match.goats.length) box.append(el('p', 'goats', `${w('goat')}: ${match.goats.map(seatName).join(', ')}`));
  }
}

// The log only grows at its end, so that a screen reader reads out only what is new.
export function tell(sentences) {
  const list = $('said');
  for (const text of sentences) list.append(el('li', '', text));
  while (list.children.length > LOG_LINES) list.firstElementChild.remove();
}

// The turn's countdown on the server's clock, or the next deal's.
export function tick() {
  const table = page.state && page.state.table;
  const turn = $('turn');
  document.querySelectorAll('#seats .clock').forEach((node) => { node.textContent = ''; });
  if (!table) {
    turn.textContent = '';
    return;
  }
  const now = Date.now() / 1000 + page.offset;
  const left = (at) => Math.max(0, Math.ceil(at - now));
  let text = '';
  if (table.turn) {
    const who = table.turn.seat === page.seat ? w('your_turn') : seatName(table.turn.seat);
    text = who;
    if (table.turn.deadline !== null) {
      const seconds = `${left(table.turn.deadline)}s`;
      text = `${who} · ${seconds}`;
      const clock = document.querySelector(`#seats .seat[data-seat="${table.turn.seat}"] .clock`);
      if (clock) clock.textContent = seconds;
    }
  } else if (table.next_deal_at !== null) {
    text = `${w('deal')} ${table.deal + 1} · ${left(table.next_deal_at)}s`;
  }
  if (turn.textContent !== text) turn.textContent = text;
}
