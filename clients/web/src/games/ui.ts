// How the table draws and narrates one game kind. Each kind the table
// knows has its own GameUi; any other kind (one added to the server later)
// gets the generic one, so every kind ListGameKinds returns still works.
import type { Message } from "@bufbuild/protobuf";

export interface Seating {
  names: string[];
  /** The seat this page plays, if any. */
  viewer?: number;
}

export interface GameUi {
  /** The view message's package, e.g. "cardroom.smoke_and_mirrors.v1". */
  readonly package: string;
  drawView(view: Message, seating: Seating): HTMLElement;
  /** A sentence for one of the game's events or visible secrets. */
  narrate(message: Message, names: string[]): string | undefined;
  /** A button label for one of the game's commands. */
  describeAction(command: Message, names: string[]): string | undefined;
}

/** "Ada" for a seat with a name, else "seat 2" (seats are 0-based in the API). */
export function nameOf(names: string[], seat: number | undefined): string {
  if (seat === undefined) return "nobody";
  return names[seat] || `seat ${seat + 1}`;
}

export function list(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** "Dragon" for Family.DRAGON: a generated enum's value name as a word. */
export function enumWord(values: Record<number, string>, value: number): string {
  const word = (values[value] ?? "unknown").toLowerCase().replace(/_/g, " ");
  return word.charAt(0).toUpperCase() + word.slice(1);
}
