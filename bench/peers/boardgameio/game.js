// The boardgame.io peer's game (issue 45): 30 cards dealt 15 and 15, secret hands (playerView sends a seat only its
// own hand), one card played per turn, over when both hands are empty (30 moves). bench/es_app.py plays the same.
const { INVALID_MOVE } = require("boardgame.io/core");

const CARDS = 30;

const Cards = {
  name: "cards",
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }) => {
    const deck = random.Shuffle([...Array(CARDS).keys()]);
    return { hands: { 0: deck.slice(0, CARDS / 2), 1: deck.slice(CARDS / 2) }, played: [] };
  },
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    // Run on the server only (client: false): a client holds only its own hand, so it cannot run the move itself.
    play: {
      client: false,
      move: ({ G, playerID }, card) => {
        const hand = G.hands[playerID];
        const at = hand.indexOf(card);
        if (at < 0) return INVALID_MOVE;
        hand.splice(at, 1);
        G.played.push({ seat: playerID, card });
      },
    },
  },
  endIf: ({ G }) => (G.hands[0].length === 0 && G.hands[1].length === 0 ? { draw: true } : undefined),
  playerView: ({ G, playerID }) => ({
    played: G.played,
    hands: { [playerID]: G.hands[playerID] },
    held: { 0: G.hands[0].length, 1: G.hands[1].length },
  }),
};

module.exports = { Cards };
