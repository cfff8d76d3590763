// Browsers: the browser port (`cardroom serve --web-address`), over fetch.
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import type { Transport } from "@connectrpc/connect";
import { CardroomClient } from "./client.js";
import { registry } from "./registry.js";

export type WebProtocol = "connect" | "connect-json" | "grpc-web";

/**
 * A transport to a cardroom server's browser port from a web page:
 * `baseUrl` is its http(s)://HOST:PORT (a page it serves may pass
 * `location.origin`). Another origin must be allowed by `--web-origins`.
 */
export function webTransport(baseUrl: string, protocol: WebProtocol = "connect"): Transport {
  const jsonOptions = { registry };
  if (protocol === "grpc-web") {
    return createGrpcWebTransport({ baseUrl, jsonOptions });
  }
  return createConnectTransport({ baseUrl, useBinaryFormat: protocol === "connect", jsonOptions });
}

/**
 * A client of the server's browser port at `baseUrl`; `relays`: browser
 * ports of `cardroom relay` processes (`--web-address`, with this page's
 * origin in their `--web-origins`) that `watch` streams from.
 */
export function connectWeb(
  baseUrl: string,
  protocol: WebProtocol = "connect",
  options: { relays?: string[] } = {},
): CardroomClient {
  const relays = (options.relays ?? []).map((url) => webTransport(url, protocol));
  return new CardroomClient(webTransport(baseUrl, protocol), () => undefined, relays);
}
