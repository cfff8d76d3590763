// A whole game through the client: bots take every seat and play random
// legal moves while a spectator's story is printed, to the end.
//   node bots.mjs [KIND] [SEED]   (the server at $CARDROOM_URL, else http://127.0.0.1:50051)
import { playBots, seededRandom } from "@cardroom/client";
import { connectNode } from "@cardroom/client/node";

const [kind = "smoke-and-mirrors", seed = "1"] = process.argv.slice(2);
const client = connectNode(process.env.CARDROOM_URL ?? "http://127.0.0.1:50051");
try {
  const names = ["Ada", "Bo", "Cy"];
  const gameId = await client.createGame(kind, { seatCount: names.length });
  const tokens = [];
  for (const name of names) tokens.push((await client.join(gameId, name)).token);
  await client.start(gameId, tokens[0]);
  const told = (async () => {
    for await (const event of client.story(gameId)) console.log(`#${event.sequence} ${event}`);
  })();
  const commands = await playBots(client, gameId, tokens, seededRandom(Number(seed)));
  await told;
  console.log(`game ${gameId}: ${commands} commands`);
} finally {
  client.close();
}
