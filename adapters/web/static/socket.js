// The connection: the WebSocket protocol of adapters/web/frames.py. It says hello with
// what the page drew, reconnects when the socket drops, sends a play or an act once, and
// takes in each frame the server sends (welcome, state, answer, gone).
import { $ } from './dom.js';
import { notice } from './hand.js';
import { page, superseded, busy, w } from './state.js';
import { render, tell } from './table.js';
import { haptic } from './telegram.js';

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

export function connect() {
  banner(page.version ? w('reconnecting') : w('connecting'));
  const socket = new WebSocket(socketUrl());
  page.socket = socket;
  socket.onopen = () => {
    const hello = { type: 'hello', version: page.version };
    if (page.game) Object.assign(hello, { game: page.game, step: page.step });
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

// Sends a play or an act, once: nothing while the hand is busy.
export function press(frame) {
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
    page.step = frame.step;
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
