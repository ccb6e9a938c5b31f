// The boardgame.io peer's clients (issue 45): N clients in this process, each playing one match at a time with two
// boardgame.io Clients (one a seat) over socket.io, a random card of its own hand on its turn. Each match is made
// through the lobby API (create, two joins). Prints "ready" once every client has its first match; plays for
// SECONDS after a line on stdin; then prints {"moves": M, "matches": K, "cpu_s": C}: the moves the server applied and
// sent back, and this process's CPU seconds over the window.
//   node clients.js http://127.0.0.1:8000 N SECONDS
const readline = require("readline");
const { Client, LobbyClient } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Cards } = require("./game");

const [server, n, seconds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const lobby = new LobbyClient({ server });

async function newMatch() {
  const { matchID } = await lobby.createMatch("cards", { numPlayers: 2 });
  const seats = [];
  for (const playerID of ["0", "1"]) {
    const { playerCredentials } = await lobby.joinMatch("cards", matchID, { playerID, playerName: `p${playerID}` });
    seats.push({ playerID, credentials: playerCredentials });
  }
  return { matchID, seats };
}

class Player {
  constructor() {
    this.moves = 0;
    this.matches = 0;
    this.playing = false;
  }

  async prepare() {
    this.next = await newMatch();
  }

  stop() {
    for (const c of this.current || []) {
      try {
        c.stop();
      } catch {
        // a client started a moment ago has no socket yet: nothing to close
      }
    }
    this.current = [];
  }

  // Play matches until `until` (ms since the epoch), then resolve.
  play(until) {
    return new Promise((resolve, reject) => {
      const start = (match) => {
        this.matches += 1;
        let seen = 0;
        let finished = false;
        const clients = (this.current = match.seats.map(({ playerID, credentials }) =>
          Client({ game: Cards, multiplayer: SocketIO({ server }), matchID: match.matchID, playerID, credentials }),
        ));
        const onState = (client) => (state) => {
          if (!state || finished) return;
          if (client.playerID === "0" && state.G.played.length > seen) {
            this.moves += state.G.played.length - seen;
            seen = state.G.played.length;
          }
          if (state.ctx.gameover || Date.now() >= until) {
            if (client.playerID === "0") {
              finished = true;
              this.stop();
              if (Date.now() < until) newMatch().then(start, reject);
            }
            return;
          }
          if (state.ctx.currentPlayer === client.playerID && state.isActive && state._stateID !== client.sent) {
            client.sent = state._stateID;
            const hand = state.G.hands[client.playerID];
            client.moves.play(hand[Math.floor(Math.random() * hand.length)]);
          }
        };
        clients.forEach((c) => {
          c.subscribe(onState(c));
          c.start();
        });
      };
      start(this.next);
      // A match whose last update has not come by the end stops here, so no client outlives the window.
      setTimeout(() => {
        this.stop();
        resolve();
      }, until - Date.now());
    });
  }
}

async function main() {
  const players = Array.from({ length: n }, () => new Player());
  await Promise.all(players.map((p) => p.prepare()));
  console.log("ready");
  const lines = readline.createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once("line", resolve));
  lines.close();
  const cpu = process.cpuUsage();
  const until = Date.now() + seconds * 1000;
  await Promise.all(players.map((p) => p.play(until)));
  const sum = (key) => players.reduce((a, p) => a + p[key], 0);
  const used = process.cpuUsage(cpu);
  const cpuS = (used.user + used.system) / 1e6;
  console.log(JSON.stringify({ moves: sum("moves"), matches: sum("matches"), cpu_s: cpuS }));
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
