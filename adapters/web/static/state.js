// What the page knows: the last State drawn, its words and seat, the frames awaiting an
// answer; and what follows from them alone (a seat's name, a tile's moves, being busy).
// The State is the server's: the page holds no rules, what may be played is the hand's
// `moves`, why a tile may not is the server's `why`, every word comes in Welcome.

export const page = {
  words: {},
  seat: null,
  version: 0,
  game: '', // the game the version counts in: a rematch counts again from 1
  step: 0, // the game's step at that version, which its events count in
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

export const w = (key) => page.words[key] || key;

export const same = (a, b) => a !== null && b !== null && a.hi === b.hi && a.lo === b.lo;

export function seatName(seat) {
  const state = page.state;
  const held = state && state.table ? state.table.seats[seat] : null;
  if (state && state.names[seat]) return state.names[seat];
  if (held && held.name) return held.name;
  if (held && held.computer !== null) return `${w('computer')} ${held.computer}`;
  return `#${seat + 1}`;
}

// The hand's plays of `tile`, one for each end and way it may go.
export function movesOf(tile) {
  const hand = page.state && page.state.hand;
  if (!hand) return [];
  return hand.moves.filter((m) => m.kind === 'play' && same(m.tile, tile));
}

// Whether a frame sent at `sent` was overtaken: the page has drawn a newer state since.
export const superseded = (sent) => sent.game !== page.game || sent.version < page.version;

// Busy from a play or an act sent until its answer, or a newer state, comes: taps
// meanwhile do nothing, so a double tap never sends a second frame.
export function busy() {
  const last = page.pending[page.pending.length - 1];
  return last !== undefined && !superseded(last);
}
