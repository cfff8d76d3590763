// What each game's narration provides: its events and commands in words.
import type { Message } from "@bufbuild/protobuf";

export interface GameWords {
  /** The game's proto package, e.g. "cardroom.smoke_and_mirrors.v1". */
  readonly package: string;
  /** A sentence for one of the game's events or visible secrets. */
  narrate(message: Message, names: string[]): string | undefined;
  /** One of the game's commands as a choice (a button label). */
  describeAction(command: Message, names: string[]): string | undefined;
}
