// @cardroom/client: a typed client for cardroom's GameService. Transports:
// "@cardroom/client/node" (Node.js) and "@cardroom/client/web" (browsers).
// Every generated message module is at "@cardroom/client/gen/<path>_pb.js";
// each game's words (cardWord, ...) at "@cardroom/client/narration/<kind>.js".
export { CardroomClient, commandId, commitmentTo, newEntropy } from "./client.js";
export { chanceKey, checkEntropy, secretDigest } from "./entropy.js";
export type { EntropyCheck } from "./entropy.js";
export { HeadStore, headLine } from "./heads.js";
export {
  newPlayerKey,
  playerId,
  publicKeyBytes,
  seatClaim,
  signEntry,
  signSeat,
  signWithdrawal,
  tournamentEntry,
  tournamentWithdrawal,
} from "./players.js";
export type { CreateGameOptions, DescribedAction, ReplayStep, SeatHandle, View, WatchOptions } from "./client.js";
export * from "./errors.js";
export { pack, registry, schemaOf, typeNameOf, unpack } from "./registry.js";
export { playBots, seededRandom } from "./bots.js";
export {
  describeAction,
  enumWord,
  generic,
  listing,
  nameOf,
  NarratedEvent,
  narrate,
  Narrator,
  wordsFor,
} from "./narration/index.js";
export type { GameWords } from "./narration/index.js";
// The message functions of the @bufbuild/protobuf this package was built
// with (it travels inside the package: see docs/typescript.md).
export { clone, create, equals, fromBinary, fromJson, isMessage, toBinary, toJson } from "@bufbuild/protobuf";
export type { Message } from "@bufbuild/protobuf";
export * from "./gen/cardroom/v1/competition_service_pb.js";
export * from "./gen/cardroom/v1/envelope_pb.js";
export * from "./gen/cardroom/v1/game_service_pb.js";
export * from "./gen/cardroom/v1/table_pb.js";
export * from "./gen/cardroom/v1/tournament_pb.js";
export * from "./gen/cardroom/v1/trust_pb.js";
