// Node.js: the gRPC port (HTTP/2) or the browser port (Connect, gRPC-Web).
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";
import { CardroomClient } from "./client.js";
import { registry } from "./registry.js";

export type NodeProtocol = "grpc" | "connect" | "connect-json" | "grpc-web";

/**
 * A transport to a cardroom server from Node.js. `baseUrl` is
 * http://HOST:PORT of the gRPC port for "grpc", of the browser port
 * (`cardroom serve --web-address`) for the others. A gRPC transport keeps
 * its HTTP/2 connection in `sessionManager`.
 */
export function nodeTransport(
  baseUrl: string,
  protocol: NodeProtocol = "grpc",
  sessionManager?: Http2SessionManager,
): Transport {
  // JSON needs every game's messages to read and write Any fields.
  const jsonOptions = { registry };
  switch (protocol) {
    case "grpc":
      return createGrpcTransport({ baseUrl, jsonOptions, sessionManager });
    case "grpc-web":
      return createGrpcWebTransport({ baseUrl, httpVersion: "1.1", jsonOptions });
    case "connect":
    case "connect-json":
      return createConnectTransport({
        baseUrl,
        httpVersion: "1.1",
        useBinaryFormat: protocol === "connect",
        jsonOptions,
      });
  }
}

/**
 * A client of the server at `baseUrl` over `protocol` (see nodeTransport).
 * `relays`: base URLs of `cardroom relay` processes (their gRPC port for
 * "grpc", their browser port otherwise) that `watch` streams from.
 * Call `close()` when done: an open HTTP/2 connection keeps Node running.
 */
export function connectNode(
  baseUrl: string,
  protocol: NodeProtocol = "grpc",
  options: { relays?: string[] } = {},
): CardroomClient {
  const urls = [baseUrl, ...(options.relays ?? [])];
  const sessions = urls.map((url) => (protocol === "grpc" ? new Http2SessionManager(url) : undefined));
  const [server, ...relays] = urls.map((url, i) => nodeTransport(url, protocol, sessions[i]));
  return new CardroomClient(server!, () => sessions.forEach((s) => s?.abort()), relays);
}
