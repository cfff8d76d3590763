// One error class per status the server uses, so callers catch RuleBroken
// rather than compare codes (as the Python client's errors do).
import { Code, ConnectError } from "@connectrpc/connect";

export class CardroomError extends Error {
  readonly code: Code;
  /** The server's message, e.g. "rule T-TURN: it is not your turn". */
  readonly details: string;

  constructor(code: Code, details: string) {
    super(`${Code[code]}: ${details}`);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

export class InvalidArgument extends CardroomError {}
/** The rules refuse the command; the details name the rule. */
export class RuleBroken extends CardroomError {}
export class Unauthenticated extends CardroomError {}
export class PermissionDenied extends CardroomError {}
export class GameNotFound extends CardroomError {}
/** Another command changed the game first (ABORTED): reload and retry. */
export class Conflict extends CardroomError {}
/** The game's stored events were changed outside the server. */
export class DataLoss extends CardroomError {}

const BY_CODE = new Map<Code, typeof CardroomError>([
  [Code.InvalidArgument, InvalidArgument],
  [Code.FailedPrecondition, RuleBroken],
  [Code.Unauthenticated, Unauthenticated],
  [Code.PermissionDenied, PermissionDenied],
  [Code.NotFound, GameNotFound],
  [Code.Aborted, Conflict],
  [Code.DataLoss, DataLoss],
]);

/** A CardroomError for a failed call; anything else unchanged. */
export function errorFrom(error: unknown): unknown {
  if (!(error instanceof ConnectError)) {
    return error;
  }
  const kind = BY_CODE.get(error.code) ?? CardroomError;
  return new kind(error.code, error.rawMessage);
}
