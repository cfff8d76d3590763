// Which GameUi draws a view or narrates an event, and the narration of the
// table's own events (cardroom.v1) that every game shares.
import { isMessage, type Message, toJson } from "@bufbuild/protobuf";
import {
  type EventEnvelope,
  GameCreatedSchema,
  GameFinishedSchema,
  GameStartedSchema,
  registry,
  SeatCredentialSchema,
  SeatResigned_Reason,
  SeatResignedSchema,
  SeatTakenSchema,
  SeatTimedOutSchema,
  SetDealSchema,
  schemaOf,
  typeNameOf,
  unpack,
} from "@cardroom/client";
import { h } from "../dom.js";
import { silverDagger } from "./silver-dagger.js";
import { smileLife } from "./smile-life.js";
import { smilesAndDaggers } from "./smiles-and-daggers.js";
import { smokeAndMirrors } from "./smoke-and-mirrors.js";
import { type GameUi, list, nameOf, type Seating } from "./ui.js";

const KNOWN: GameUi[] = [smokeAndMirrors, smilesAndDaggers, silverDagger, smileLife];

function packageOf(typeName: string): string {
  return typeName.slice(0, typeName.lastIndexOf("."));
}

function short(typeName: string): string {
  return typeName.slice(typeName.lastIndexOf(".") + 1);
}

function json(message: Message): string {
  return JSON.stringify(toJson(schemaOf(message.$typeName), message, { registry }));
}

/** Any kind the table has no drawing for: its view as JSON, events by name. */
export const generic: GameUi = {
  package: "",
  drawView: (view) =>
    h("div", { class: "game generic" }, h("p", { class: "facts" }, short(view.$typeName)), h("pre", {}, JSON.stringify(toJson(schemaOf(view.$typeName), view, { registry }), null, 2))),
  narrate: (message) => `${short(message.$typeName)} ${json(message)}`,
  describeAction: (command) => `${short(command.$typeName)} ${json(command)}`,
};

export function uiFor(typeName: string): GameUi {
  return KNOWN.find((ui) => ui.package === packageOf(typeName)) ?? generic;
}

export function drawView(view: Message, seating: Seating): HTMLElement {
  return uiFor(view.$typeName).drawView(view, seating);
}

export function describeAction(command: Message, names: string[]): string {
  return uiFor(command.$typeName).describeAction(command, names) ?? generic.describeAction(command, names)!;
}

function narrateTable(message: Message, names: string[], titles: Map<string, string>): string | undefined {
  if (isMessage(message, GameCreatedSchema)) {
    const title = titles.get(message.kind) ?? message.kind;
    return `A game of ${title} for ${message.seatCount} players is created${message.setDeal ? " (with a set deal)" : ""}.`;
  }
  if (isMessage(message, SeatTakenSchema)) return `${message.playerName || "Someone"} takes seat ${message.seat + 1}.`;
  if (isMessage(message, GameStartedSchema)) return "The game begins.";
  if (isMessage(message, SeatResignedSchema)) {
    const how = message.reason === SeatResigned_Reason.REMOVED ? "is removed by the operator" : "resigns";
    return `${nameOf(names, message.seat)} ${how}: the game makes their choices from now on.`;
  }
  if (isMessage(message, SeatTimedOutSchema)) return `${nameOf(names, message.seat)}'s time runs out: the game makes the choice.`;
  if (isMessage(message, GameFinishedSchema)) {
    return `The game is over: ${list(message.winners.map((s) => nameOf(names, s))) || "nobody"} won.`;
  }
  if (isMessage(message, SeatCredentialSchema) || isMessage(message, SetDealSchema)) return "";
  return undefined;
}

function narrateOne(message: Message, names: string[], titles: Map<string, string>): string {
  return narrateTable(message, names, titles) ?? uiFor(message.$typeName).narrate(message, names) ?? generic.narrate(message, names)!;
}

/**
 * An event in words: its public part, then each hidden part this viewer
 * may see. `names` is updated by SeatTaken events as they pass.
 */
export function narrate(envelope: EventEnvelope, names: string[], titles: Map<string, string>): { text: string; secrets: string[] } {
  if (envelope.event === undefined) return { text: "", secrets: [] };
  const event = unpack(envelope.event);
  if (isMessage(event, SeatTakenSchema)) names[event.seat] = event.playerName;
  const secrets = envelope.secrets
    .filter((secret) => secret.value !== undefined && registry.getMessage(typeNameOf(secret.value)))
    .map((secret) => narrateOne(unpack(secret.value!), names, titles))
    .filter((text) => text !== "");
  return { text: narrateOne(event, names, titles), secrets };
}
