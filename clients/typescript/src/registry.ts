// Every message of protos/ by its full name, so Any fields (options,
// commands, events, views) pack and unpack without a list kept by hand:
// gen/files.ts is generated too, so a new game's messages arrive by
// regenerating (python3 scripts/gen_protos.py).
import { createRegistry, type DescMessage, type Message, type Registry } from "@bufbuild/protobuf";
import { type Any, anyPack, anyUnpack } from "@bufbuild/protobuf/wkt";
import { files } from "./gen/files.js";

export const registry: Registry = createRegistry(...files);

/** The schema of a message type, e.g. "cardroom.smoke_and_mirrors.v1.Challenge". */
export function schemaOf(typeName: string): DescMessage {
  const schema = registry.getMessage(typeName);
  if (schema === undefined) {
    throw new Error(`unknown message type ${typeName}: regenerate the client from protos/`);
  }
  return schema;
}

/** The full message name an Any holds. */
export function typeNameOf(any: Any): string {
  return any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1);
}

export function pack(message: Message): Any {
  return anyPack(schemaOf(message.$typeName), message);
}

export function unpack(any: Any): Message {
  const message = anyUnpack(any, registry);
  if (message === undefined) {
    throw new Error(`unknown message type ${typeNameOf(any)}: regenerate the client from protos/`);
  }
  return message;
}
