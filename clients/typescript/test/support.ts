// The server under test (started by tests/web/test_typescript_client.py)
// and small builders shared by the tests.
import { CardroomClient, LogPolicy_Kind, LogPolicySchema, playBots, seededRandom } from "../src/index.js";
import { create } from "@bufbuild/protobuf";
import { after } from "node:test";
import { connectNode, type NodeProtocol } from "../src/node.js";

export const PROTOCOLS: NodeProtocol[] = ["grpc", "connect", "connect-json", "grpc-web"];

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests through pytest (tests/web)`);
  return value;
}

/** http://HOST:PORT of the gRPC port and of the browser port. */
export const servers = { grpc: required("CARDROOM_GRPC_URL"), web: required("CARDROOM_WEB_URL") };
/** The same of a `cardroom relay` in front of that server. */
export const relays = {
  grpc: required("CARDROOM_RELAY_GRPC_URL"),
  web: required("CARDROOM_RELAY_WEB_URL"),
};

const clients: CardroomClient[] = [];
after(() => clients.forEach((client) => client.close())); // lets the test process end

export function clientFor(protocol: NodeProtocol, baseUrl?: string): CardroomClient {
  const client = connectNode(baseUrl ?? (protocol === "grpc" ? servers.grpc : servers.web), protocol);
  clients.push(client);
  return client;
}

export interface Table {
  gameId: string;
  tokens: string[];
}

/** A started game with `players` seats taken; its log is public once over. */
export async function startedGame(client: CardroomClient, kind: string, players: number): Promise<Table> {
  const gameId = await client.createGame(kind, {
    seatCount: players,
    logPolicy: create(LogPolicySchema, { kind: LogPolicy_Kind.PUBLIC_AFTER_END }),
  });
  const names = ["Ada", "Brahmagupta", "Cardano", "Dijkstra", "Euler"];
  const tokens: string[] = [];
  for (let seat = 0; seat < players; seat += 1) {
    tokens.push((await client.join(gameId, names[seat]!)).token);
  }
  await client.start(gameId, tokens[0]!);
  return { gameId, tokens };
}

export async function finishedGame(client: CardroomClient, kind: string, players: number, seed: number): Promise<Table> {
  const table = await startedGame(client, kind, players);
  await playBots(client, table.gameId, table.tokens, seededRandom(seed));
  return table;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
