// The kinds a server plays and its latest games, newest first.
//   node list-games.mjs                 (the server at $CARDROOM_URL, else http://127.0.0.1:50051)
import { connectNode } from "@cardroom/client/node";

const client = connectNode(process.env.CARDROOM_URL ?? "http://127.0.0.1:50051");
try {
  for (const kind of await client.gameKinds()) {
    console.log(`${kind.kind}: ${kind.title}, ${kind.minSeats} to ${kind.maxSeats} players`);
  }
  for (const game of await client.listGames({ limit: 20 })) {
    const status = game.finished ? "finished" : game.started ? "running" : "open";
    console.log(`${game.gameId}  ${game.kind}  ${game.seatsTaken}/${game.seatCount} seats  ${status}`);
  }
} finally {
  client.close();
}
