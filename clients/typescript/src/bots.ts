// Bots that play random legal moves through the public API (as
// `cardroom demo` does in Python): for demos and tests.
import type { CardroomClient } from "./client.js";
import { RuleBroken } from "./errors.js";

/** A small seeded generator (mulberry32): the same seed, the same moves. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Each round, every seat with a legal move makes a random one, until the
 * game is over; returns the number of commands. Throws after `maxCommands`.
 */
export async function playBots(
  client: CardroomClient,
  gameId: string,
  tokens: string[],
  random: () => number,
  options: { maxCommands?: number; pauseMs?: number } = {},
): Promise<number> {
  const maxCommands = options.maxCommands ?? 20_000;
  let commands = 0;
  while (commands < maxCommands) {
    let moved = false;
    for (const token of tokens) {
      const actions = await client.legalActions(gameId, token);
      if (actions.length === 0) continue;
      try {
        await client.act(gameId, token, actions[Math.floor(random() * actions.length)]!);
      } catch (error) {
        if (error instanceof RuleBroken) continue; // another bot's move changed the game first
        throw error;
      }
      commands += 1;
      moved = true;
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
    if (!moved && (await client.view(gameId)).table.finished) {
      return commands;
    }
  }
  throw new Error(`the game did not end within ${maxCommands} commands`);
}
