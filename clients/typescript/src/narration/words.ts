// Small words every game's narration uses: seats by name, lists, enum values.

/** "Ada" for a seat with a name, else "seat 2" (seats are 0-based in the API). */
export function nameOf(names: readonly string[], seat: number | undefined): string {
  if (seat === undefined) return "nobody";
  return names[seat] || `seat ${seat + 1}`;
}

/** "Ada", "Ada and Bo", "Ada, Bo and Cy"; "" for none. */
export function listing(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** "Dragon" for Family.DRAGON: a generated enum's value name as a word. */
export function enumWord(values: Record<number, string>, value: number): string {
  const word = (values[value] ?? "unknown").toLowerCase().replace(/_/g, " ");
  return word.charAt(0).toUpperCase() + word.slice(1);
}
