// A game told in words as it happens, until it ends: what a spectator
// reads, or with a seat's token what that seat reads (its own cards too).
//   node watch.mjs GAME_ID [SEAT_TOKEN]   (the server at $CARDROOM_URL, else http://127.0.0.1:50051)
import { connectNode } from "@cardroom/client/node";

const [gameId, token] = process.argv.slice(2);
if (!gameId) {
  console.error("usage: node watch.mjs GAME_ID [SEAT_TOKEN]");
  process.exit(2);
}
const client = connectNode(process.env.CARDROOM_URL ?? "http://127.0.0.1:50051");
try {
  // client.watch(gameId) gives the same feed as EventEnvelope messages.
  for await (const event of client.story(gameId, { token })) {
    console.log(`#${event.sequence} ${event}`);
  }
} finally {
  client.close();
}
