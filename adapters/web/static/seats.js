// The seats, one card each (name, marks, team, tiles held, scores), and each game's own
// parts beside them: three_guns' pool, cardinal and aside tile, baghdad's caravans.
import { $, el } from './dom.js';
import { page, seatName, w } from './state.js';
import { shownTile } from './tiles.js';

function mark(symbol, label, cls) {
  const node = el('span', `mark ${cls}`, symbol);
  node.title = label;
  node.setAttribute('aria-label', label);
  node.setAttribute('role', 'img');
  return node;
}

export function renderSeats(table) {
  const box = $('seats');
  box.replaceChildren();
  if (!table) return;
  const parts = table.parts;
  for (const seat of table.seats) {
    const card = el('div', 'seat');
    card.dataset.seat = String(seat.seat);
    if (table.turn && table.turn.seat === seat.seat) card.classList.add('turn');
    if (seat.seat === page.seat) card.classList.add('me');
    const head = el('div', 'who');
    head.append(el('span', 'name', seatName(seat.seat)));
    // Names come isolated from the text around them (U+2066..U+2069).
    const bare = seatName(seat.seat).replace(/[\u2066-\u2069]/g, '');
    if (seat.seat === page.seat && bare !== w('you')) {
      head.append(el('span', 'you', `(${w('you')})`));
    }
    if (seat.computer !== null) head.append(mark('⚙', w('computer'), 'computer'));
    if (seat.away) head.append(mark('↺', w('away'), 'away'));
    if (seat.goat) head.append(mark('♑', w('goat'), 'goat'));
    if (parts.game === 'three_guns' && parts.cardinal === seat.seat) {
      head.append(mark('✝', w('cardinal'), 'cardinal'));
    }
    head.append(el('span', 'clock'));
    card.append(head);
    const team = table.teams.findIndex((pair) => pair.includes(seat.seat));
    if (team >= 0) {
      card.dataset.team = String(team + 1);
      card.append(teamLine(table.teams[team], team, seat.seat));
    }
    const backs = el('div', 'backs');
    backs.setAttribute('aria-label', `${w('held')}: ${seat.tiles}`);
    backs.setAttribute('role', 'img');
    for (let i = 0; i < seat.tiles; i += 1) backs.append(el('span', 'back'));
    backs.append(el('span', 'count', String(seat.tiles)));
    card.append(backs);
    const figures = el('div', 'figures');
    if (seat.deal_points !== null) figures.append(el('span', 'deal-points', `${w('this_deal')}: ${seat.deal_points}`));
    figures.append(el('span', 'total', `${w('total')}: ${seat.total}`));
    if (seat.tokens !== null) figures.append(el('span', 'tokens', `${w('tokens')}: ${'●'.repeat(seat.tokens)} ${seat.tokens}`));
    if (parts.game === 'kozel') {
      const open = parts.opened[seat.seat];
      figures.append(el('span', open ? 'sheet open' : 'sheet', w(open ? 'sheet_open' : 'sheet_closed')));
    }
    if (parts.game === 'baghdad' && parts.penalties[seat.seat]) {
      figures.append(el('span', 'penalties', `${w('penalties')}: ${parts.penalties[seat.seat]}`));
    }
    card.append(figures);
    box.append(card);
  }
}

// Who plays with whom: the team's number (its colour on the card) and the partner.
function teamLine(pair, team, seat) {
  const line = el('div', 'team');
  line.dataset.team = String(team + 1);
  const partner = pair.find((other) => other !== seat);
  line.append(el('span', 'number', `${w('team')} ${team + 1}`));
  line.append(el('span', 'partner', `${w('partner')}: ${seatName(partner)}`));
  return line;
}

export function renderParts(table) {
  const box = $('parts');
  box.replaceChildren();
  const parts = table ? table.parts : null;
  box.hidden = !parts || parts.game === 'tyaga' || parts.game === 'kozel';
  if (!parts) return;
  if (parts.game === 'three_guns') {
    box.append(el('span', 'pool', `${w('pool')}: ${'●'.repeat(parts.pool)} ${parts.pool}`));
    box.append(el('span', 'cardinal', `${w('cardinal')}: ${seatName(parts.cardinal)}`));
    const aside = el('span', 'aside', `${w('aside')}: `);
    aside.append(shownTile(parts.aside, parts.aside.hi, parts.aside.lo, false, 'small'));
    box.append(aside);
  } else if (parts.game === 'baghdad') {
    parts.caravans.forEach((caravan) => box.append(renderCaravan(caravan)));
  }
}

function renderCaravan(caravan) {
  const node = el('div', `caravan ${caravan.status}`);
  node.dataset.status = caravan.status;
  const label = w(`caravan_${caravan.status}`);
  const owner = caravan.owner === null ? '' : ` · ${w('owner')}: ${seatName(caravan.owner)}`;
  node.append(el('div', 'what', `${label} · ${w('camels')}: ${caravan.camels.length}${owner}`));
  if (caravan.status === 'open') return node; // its camels are the line
  const tiles = el('div', 'camels');
  for (const camel of caravan.camels) {
    tiles.append(shownTile(camel.tile, camel.left, camel.right, camel.across || camel.left === camel.right, 'small'));
  }
  if (caravan.thief) {
    tiles.append(el('span', 'role', `${w('thief')}:`));
    tiles.append(shownTile(caravan.thief, caravan.thief.hi, caravan.thief.lo, false, 'small thief'));
  }
  if (caravan.handcuffs) {
    tiles.append(el('span', 'role', `${w('handcuffs')}:`));
    for (const cuff of caravan.handcuffs) tiles.append(shownTile(cuff, cuff.hi, cuff.lo, true, 'small cuff'));
  }
  node.append(tiles);
  return node;
}
