// The web table's page: it speaks the WebSocket protocol of adapters/web/frames.py and
// draws each State it is sent. It holds no rules: what may be played is the hand's
// `moves`, why a tile may not is the server's `why`, every word comes in Welcome.
'use strict';
(() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const TELEGRAM_JS = 'https://telegram.org/js/telegram-web-app.js';
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
  const BUTTON_MOVES = ['draw', 'pass', 'done', 'steal', 'recover', 'double'];
  const LOG_LINES = 8;

  const page = {
    words: {},
    seat: null,
    version: 0,
    game: '', // the game the version counts in: a rematch counts again from 1
    state: null,
    selected: null, // the hand's tile tapped, {hi, lo}
    chosenEnd: null, // the end tapped when the tile goes there in more than one way
    // The plays and acts sent and not yet answered, each with the game and version the
    // page showed when it was sent; answers come in the order the frames went.
    pending: [],
    offset: 0, // the server's clock minus ours, in seconds
    socket: null,
    retry: 500,
    stopped: false,
    tg: null,
  };

  const $ = (id) => document.getElementById(id);
  const w = (key) => page.words[key] || key;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    return node;
  }

  const key = (tile) => `${tile.hi}-${tile.lo}`;
  const same = (a, b) => a !== null && b !== null && a.hi === b.hi && a.lo === b.lo;
  const tileName = (a, b) => `${w('pip' + a)}-${w('pip' + b)}`;
  const tileText = (tile) => `[${tile.hi}|${tile.lo}]`;

  // A tile's face: halves a then b, from left to right or from top to bottom.
  function face(a, b, vertical) {
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
  function shownTile(ref, a, b, vertical, cls) {
    const node = el('span', `tile ${vertical ? 'v' : 'h'} ${cls || ''}`);
    node.dataset.tile = key(ref);
    node.setAttribute('role', 'img');
    node.setAttribute('aria-label', tileName(a, b));
    node.append(face(a, b, vertical));
    return node;
  }

  function seatName(seat) {
    const state = page.state;
    const held = state && state.table ? state.table.seats[seat] : null;
    if (state && state.names[seat]) return state.names[seat];
    if (held && held.name) return held.name;
    if (held && held.computer !== null) return `${w('computer')} ${held.computer}`;
    return `#${seat + 1}`;
  }

  // -- the connection ------------------------------------------------------------

  function socketUrl() {
    const url = new URL('ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    url.search = '';
    url.hash = '';
    return url.href;
  }

  function banner(text) {
    const node = $('banner');
    node.textContent = text || '';
    node.hidden = !text;
  }

  function connect() {
    banner(page.version ? w('reconnecting') : w('connecting'));
    const socket = new WebSocket(socketUrl());
    page.socket = socket;
    socket.onopen = () => {
      const hello = { type: 'hello', version: page.version };
      if (page.game) hello.game = page.game;
      if (page.tg) hello.init_data = page.tg.initData;
      else hello.ticket = new URLSearchParams(location.search).get('pass');
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (message) => receive(JSON.parse(message.data));
    socket.onclose = (closed) => {
      if (page.socket !== socket) return;
      page.socket = null;
      page.pending = []; // a closed socket answers nothing more
      if (page.state) render();
      if (page.stopped) return;
      if (closed.code === 4401) {
        page.stopped = true;
        banner(closed.reason || String(closed.code));
        return;
      }
      banner(w('reconnecting'));
      setTimeout(connect, page.retry);
      page.retry = Math.min(page.retry * 2, 15000);
    };
  }

  function send(frame) {
    if (page.socket && page.socket.readyState === WebSocket.OPEN) {
      page.socket.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  // Whether a frame sent at `sent` was overtaken: the page has drawn a newer state since.
  const superseded = (sent) => sent.game !== page.game || sent.version < page.version;

  // Busy from a play or an act sent until its answer, or a newer state, comes: taps
  // meanwhile do nothing, so a double tap never sends a second frame.
  function busy() {
    const last = page.pending[page.pending.length - 1];
    return last !== undefined && !superseded(last);
  }

  // Sends a play or an act, once: nothing while the hand is busy.
  function press(frame) {
    if (busy() || !send(frame)) return false;
    page.pending.push({ game: page.game, version: page.version });
    return true;
  }

  function receive(frame) {
    if (frame.type === 'welcome') {
      page.words = frame.words;
      page.seat = frame.seat;
      page.retry = 500;
      document.documentElement.lang = frame.lang;
      banner('');
      if (page.state) render();
    } else if (frame.type === 'state') {
      const sameGame = frame.game === page.game;
      if (sameGame && frame.version < page.version) return;
      if (!sameGame || frame.version !== page.version) page.selected = null;
      page.game = frame.game;
      page.offset = frame.now - Date.now() / 1000;
      tell(frame.said);
      page.version = frame.version;
      page.state = frame;
      document.body.dataset.version = String(frame.version);
      document.body.dataset.gameId = frame.game;
      render();
    } else if (frame.type === 'answer') {
      const sent = page.pending.shift();
      // A refusal of a move the table has since moved past (the turn's time ran out, a
      // computer played for the seat) says nothing the new table does not show better.
      if (!frame.ok && !(sent && superseded(sent))) {
        notice(frame.text);
        haptic(false);
      }
      if (page.state) render();
    } else if (frame.type === 'gone') {
      page.stopped = true;
      banner(frame.text);
      if (page.socket) page.socket.close();
    }
  }

  // -- Telegram ----------------------------------------------------------------

  function loadTelegram() {
    if (window.Telegram && window.Telegram.WebApp) return Promise.resolve(window.Telegram.WebApp);
    return new Promise((resolve) => {
      const script = document.createElement('script');
      script.src = TELEGRAM_JS;
      script.onload = () => resolve(window.Telegram ? window.Telegram.WebApp : null);
      script.onerror = () => resolve(null);
      document.head.append(script);
    });
  }

  function theme(params) {
    const names = {
      bg_color: '--bg', text_color: '--fg', hint_color: '--muted', button_color: '--accent',
      button_text_color: '--accent-fg', secondary_bg_color: '--panel',
    };
    for (const [name, property] of Object.entries(names)) {
      if (params && params[name]) document.documentElement.style.setProperty(property, params[name]);
    }
  }

  function haptic(ok) {
    const feedback = page.tg && page.tg.HapticFeedback;
    if (!feedback) return;
    if (ok) feedback.impactOccurred('light');
    else feedback.notificationOccurred('error');
  }

  // -- moves ----------------------------------------------------------------------

  function movesOf(tile) {
    const hand = page.state && page.state.hand;
    if (!hand) return [];
    return hand.moves.filter((m) => m.kind === 'play' && same(m.tile, tile));
  }

  function play(move) {
    if (!press({ type: 'play', notation: move.notation, counter: page.state.hand.counter })) return;
    haptic(true);
    page.selected = null;
    notice('');
    render();
  }

  function notice(text) {
    $('notice').textContent = text || '';
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

  // -- drawing --------------------------------------------------------------------

  function render() {
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

  function mark(symbol, label, cls) {
    const node = el('span', `mark ${cls}`, symbol);
    node.title = label;
    node.setAttribute('aria-label', label);
    node.setAttribute('role', 'img');
    return node;
  }

  function renderSeats(table) {
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

  function renderParts(table) {
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

  function renderLine(table) {
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
  function tell(sentences) {
    const list = $('said');
    for (const text of sentences) list.append(el('li', '', text));
    while (list.children.length > LOG_LINES) list.firstElementChild.remove();
  }

  function moveLabel(move) {
    if (move.kind === 'steal') return `${w('steal')} ${tileText(move.tile)}`;
    if (move.kind === 'recover') return `${w('recover')} ${tileText(move.tile)} ${tileText(move.second)}`;
    if (move.kind === 'double') return `${tileText(move.tile)} + ${tileText(move.second)}`;
    return w(move.kind);
  }

  function renderMine(state) {
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
  function walkHand(event) {
    const steps = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    if (!(event.key in steps)) return;
    const tiles = [...$('hand').querySelectorAll('button')];
    const at = tiles.indexOf(document.activeElement);
    if (at < 0) return;
    event.preventDefault();
    tiles[(at + steps[event.key] + tiles.length) % tiles.length].focus();
  }

  // The turn's countdown on the server's clock, or the next deal's.
  function tick() {
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

  async function start() {
    $('hand').addEventListener('keydown', walkHand);
    if (location.hash.includes('tgWebAppData')) {
      page.tg = await loadTelegram();
      if (page.tg) {
        page.tg.ready();
        page.tg.expand();
        theme(page.tg.themeParams);
        page.tg.onEvent('themeChanged', () => theme(page.tg.themeParams));
      }
    }
    setInterval(tick, 250);
    connect();
  }

  start();
})();
