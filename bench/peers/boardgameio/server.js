// The boardgame.io peer's server (issue 45): boardgame.io's Server (Koa, socket.io) with bgio-postgres's store.
//   BGIO_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/<db> PORT=8000 node server.js
const { Server, Origins } = require("boardgame.io/server");
const { PostgresStore } = require("bgio-postgres");
const { Cards } = require("./game");

const db = new PostgresStore(process.env.BGIO_DATABASE_URL, { logging: false });
const server = Server({ games: [Cards], db, origins: [Origins.LOCALHOST] });
server.run(Number(process.env.PORT || 8000), () => console.log("ready"));
