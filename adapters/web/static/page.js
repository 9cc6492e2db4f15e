// The web table's page, begun: it joins Telegram when opened there, keeps the clocks
// ticking and connects. The page holds no rules; each module owns one part of it:
// state.js what it knows, socket.js the frames, tiles.js the tiles' faces, table.js the
// table around the line, line.js the line, seats.js the seats and games' parts, hand.js
// the player's hand, telegram.js the Mini App.
import { $ } from './dom.js';
import { walkHand } from './hand.js';
import { connect } from './socket.js';
import { tick } from './table.js';
import { inTelegram, joinTelegram } from './telegram.js';

async function start() {
  $('hand').addEventListener('keydown', walkHand);
  if (inTelegram()) await joinTelegram();
  setInterval(tick, 250);
  connect();
}

start();
