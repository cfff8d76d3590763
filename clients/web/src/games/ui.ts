// How the table draws one game kind. Each kind the table knows has its own
// GameUi; any other kind (one added to the server later) gets the generic
// one, so every kind ListGameKinds returns still works. The words (events,
// commands, cards) come from @cardroom/client's narration.
import type { Message } from "@bufbuild/protobuf";

export { enumWord, listing as list, nameOf } from "@cardroom/client";

export interface Seating {
  names: string[];
  /** The seat this page plays, if any. */
  viewer?: number;
}

export interface GameUi {
  /** The view message's package, e.g. "cardroom.smoke_and_mirrors.v1". */
  readonly package: string;
  drawView(view: Message, seating: Seating): HTMLElement;
}
