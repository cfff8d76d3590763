// The player this browser is (docs/trust.md section 16, T-PLAYER): one
// Ed25519 key pair, made on first use and kept with the seats, in IndexedDB
// as a CryptoKeyPair whose private key is not extractable: no script, this
// page's included, can read it out; it can only sign seats with it. A
// browser without WebCrypto's Ed25519 (or outside a secure context) plays
// anonymously, unrated, as before.
import { newPlayerKey } from "@cardroom/client";

const DATABASE = "cardroom";
const STORE = "player";

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function open(): Promise<IDBDatabase> {
  const opening = indexedDB.open(DATABASE, 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
  return request(opening);
}

let kept: Promise<CryptoKeyPair | undefined> | undefined;

/** This browser's player key, made and stored on first use; undefined: anonymous. */
export function playerKey(): Promise<CryptoKeyPair | undefined> {
  kept ??= (async () => {
    try {
      const db = await open();
      const found = (await request(db.transaction(STORE).objectStore(STORE).get("key"))) as CryptoKeyPair | undefined;
      if (found) return found;
      const key = await newPlayerKey(false);
      await request(db.transaction(STORE, "readwrite").objectStore(STORE).put(key, "key"));
      return key;
    } catch {
      return undefined;
    }
  })();
  return kept;
}
