// A small typed client for cardroom's GameService, mirroring the Python
// client (clients/cardroom/client/). It takes any Connect transport:
// gRPC, Connect or gRPC-Web from Node (./node.js), Connect or gRPC-Web from
// a browser (./web.js). Errors come back as CardroomError subclasses.
import { create, fromBinary, type Message } from "@bufbuild/protobuf";
import { type Client, Code, createClient, type Transport } from "@connectrpc/connect";
import { CompetitionService, type GetPlayerResponse, type PlayerRating, type WatchTournamentResponse } from "./gen/cardroom/v1/competition_service_pb.js";
import { TournamentFormat_Kind, type TournamentView, TournamentViewSchema } from "./gen/cardroom/v1/tournament_pb.js";
import type { EventEnvelope } from "./gen/cardroom/v1/envelope_pb.js";
import {
  type GameKind,
  type GameStatus,
  type GameSummary,
  GameService,
  GetViewRequestSchema,
  type GetViewResponse,
  JoinGameRequestSchema,
  ListGamesRequestSchema,
  type SubmitCommandResponse,
  type TableView,
} from "./gen/cardroom/v1/game_service_pb.js";
import { type LogPolicy, RevealEntropySchema, type SpectatorPolicy, type TableOptions } from "./gen/cardroom/v1/table_pb.js";
import { type GameRecord, GameRecordSchema } from "./gen/cardroom/v1/trust_pb.js";
import { CardroomError, errorFrom, InvalidArgument, RuleBroken } from "./errors.js";
import { signEntry, signSeat, signWithdrawal } from "./players.js";
import { HeadStore } from "./heads.js";
import { NarratedEvent } from "./narration/index.js";
import { pack, unpack } from "./registry.js";

/** T-ENTROPY: a seat's 32 bytes of entropy, from the platform's secure source. */
export function newEntropy(): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(32));
}

/** SHA-256("cardroom.v1.seat-entropy" || 0x00 || entropy): the commitment JoinGame sends. */
export async function commitmentTo(entropy: Uint8Array): Promise<Uint8Array> {
  if (entropy.length !== 32) throw new Error("a seat's entropy is 32 bytes");
  const prefix = new TextEncoder().encode("cardroom.v1.seat-entropy\0");
  const message = new Uint8Array(prefix.length + entropy.length);
  message.set(prefix);
  message.set(entropy, prefix.length);
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", message));
}

export interface SeatHandle {
  gameId: string;
  seat: number;
  /** Secret: present it to act and view as this seat. */
  token: string;
  /**
   * T-ENTROPY: this client sent no commitment to entropy of its own, so the
   * server drew the seat's (and reveals it itself at the start): the deal's
   * fairness for this seat is the server's word (docs/trust.md, section 15).
   */
  entropyGeneratedByServer?: boolean;
}

export interface View {
  version: bigint;
  table: TableView;
  /** The game's own view message (e.g. cardroom.smoke_and_mirrors.v1.View). */
  game: Message;
  response: GetViewResponse;
}

/** One step of a replay: the view right after `event`. */
export interface ReplayStep {
  view: View;
  event: EventEnvelope;
  /** The event in words as the server tells it to this caller (`replay` with `narrate`); else empty. */
  narration: string[];
}

/** One of a seat's legal actions, with the server's words for it (`describedActions`). */
export interface DescribedAction {
  command: Message;
  /** The action as a choice on a menu, e.g. "Challenge Ada's act of 3". */
  label: string;
  /** A warning before a move the seat can know is costly (ask twice); "" for none. */
  warning: string;
}

export interface CreateGameOptions {
  seatCount: number;
  /** The game's options message; its defaults when unset. */
  options?: Message;
  /** Operator only: chance outcomes to use in order. */
  setDeal?: Message[];
  operatorToken?: string;
  spectatorPolicy?: SpectatorPolicy;
  logPolicy?: LogPolicy;
  /** What the table adds around the game: a turn clock (secondsPerDecision). */
  tableOptions?: TableOptions;
}

export interface WatchOptions {
  /** A seat token (that seat's feed) or the operator's; none: a spectator. */
  token?: string;
  /** The last sequence already seen; 0 (the default) from the beginning. */
  afterSequence?: bigint;
  asSpectator?: boolean;
  signal?: AbortSignal;
  /** Reconnections in a row before giving up (default 5). */
  retries?: number;
  /** The first wait before reconnecting, doubled each time (default 200 ms). */
  retryDelayMs?: number;
  /** Called before each reconnection, with the cursor it resumes from. */
  onResume?: (cursor: bigint, error: CardroomError) => void;
}

// A dropped connection or a busy server, not an answer about the game:
// reconnecting from the cursor is safe (every viewer sees every sequence).
const RESUMABLE = new Set([
  Code.Unavailable,
  Code.Aborted,
  Code.Internal,
  Code.Unknown,
  Code.DeadlineExceeded,
  Code.Canceled,
  Code.ResourceExhausted,
]);

function auth(token?: string): { headers?: Record<string, string> } {
  return token ? { headers: { authorization: `Bearer ${token}` } } : {};
}

function viewOf(response: GetViewResponse): View {
  if (response.table === undefined || response.game === undefined) {
    throw new Error("the server sent a view without its table or game");
  }
  return { version: response.version, table: response.table, game: unpack(response.game), response };
}

/** A random id for a command (retries with the same id apply it once). */
export function commandId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * A server stream resumed after a dropped connection (a `RESUMABLE` status):
 * `open(cursor)` opens it after the cursor, `next(item)` is the cursor an
 * item moves it to (undefined: it stays). The wait before reconnecting
 * starts at `retryDelayMs` and doubles; `retries` failures in a row, with
 * no item between them, end it with the last error.
 */
async function* resumed<T, C>(
  open: (cursor: C) => AsyncIterable<T>,
  next: (item: T) => C | undefined,
  cursor: C,
  options: { signal?: AbortSignal; retries?: number; retryDelayMs?: number; onResume?: (cursor: C, error: CardroomError) => void },
): AsyncGenerator<T> {
  const retries = options.retries ?? 5;
  let failures = 0;
  for (;;) {
    try {
      for await (const item of open(cursor)) {
        cursor = next(item) ?? cursor;
        failures = 0;
        yield item;
      }
      return;
    } catch (raw) {
      const error = errorFrom(raw);
      const resumable = error instanceof CardroomError && RESUMABLE.has(error.code);
      if (!resumable || options.signal?.aborted || failures >= retries) throw error;
      failures += 1;
      options.onResume?.(cursor, error);
      await sleep((options.retryDelayMs ?? 200) * 2 ** (failures - 1), options.signal);
    }
  }
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw errorFrom(error);
  }
}

export class CardroomClient {
  /** The generated client, for anything the wrapper does not cover. */
  readonly service: Client<typeof GameService>;
  /** Leaderboards and players (CompetitionService). */
  readonly competition: Client<typeof CompetitionService>;
  /** The relays (`cardroom relay`) `watch` streams from; none: the server. */
  readonly relays: Client<typeof GameService>[];
  private nextRelay = 0;
  private readonly onClose: () => void;
  /** Every signed head this client was served (export: heads.toJsonLines). */
  readonly heads = new HeadStore();

  /**
   * `close` releases what the transports hold open (see connectNode).
   * `relays`: transports to `cardroom relay` processes; `watch` streams
   * from them (each reconnection from the next), every other call goes to
   * the server.
   */
  constructor(transport: Transport, close: () => void = () => undefined, relays: Transport[] = []) {
    this.service = createClient(GameService, transport);
    this.competition = createClient(CompetitionService, transport);
    this.relays = relays.map((relay) => createClient(GameService, relay));
    this.onClose = close;
  }

  /** The service a new stream of `watch` goes to: the next relay, else the server. */
  private watchService(): Client<typeof GameService> {
    if (this.relays.length === 0) return this.service;
    return this.relays[this.nextRelay++ % this.relays.length]!;
  }

  /** Close the client's connections; calls still running fail. */
  close(): void {
    this.onClose();
  }

  /** Create a game; returns its id. */
  async createGame(kind: string, options: CreateGameOptions): Promise<string> {
    const response = await call(() =>
      this.service.createGame(
        {
          kind,
          seatCount: options.seatCount,
          options: options.options === undefined ? undefined : pack(options.options),
          setDeal: (options.setDeal ?? []).map(pack),
          spectatorPolicy: options.spectatorPolicy,
          logPolicy: options.logPolicy,
          tableOptions: options.tableOptions,
        },
        auth(options.operatorToken),
      ),
    );
    return response.gameId;
  }

  /**
   * Take a seat (the lowest free one unless `seat` is given). With
   * `entropy` (`newEntropy()`) the seat commits to it and must reveal it once
   * the game starts (`revealEntropy`); without, the server draws the seat's
   * entropy and reveals it itself (T-ENTROPY, docs/trust.md section 3).
   */
  async join(
    gameId: string,
    playerName: string,
    seat?: number,
    options: { entropy?: Uint8Array; player?: CryptoKeyPair } = {},
  ): Promise<SeatHandle> {
    if (options.player && seat === undefined) return this.joinFreeSeat(gameId, playerName, options);
    const entropyCommitment = options.entropy ? await commitmentTo(options.entropy) : new Uint8Array();
    const request = create(JoinGameRequestSchema, { gameId, playerName, seat, entropyCommitment });
    if (options.player && seat !== undefined) {
      request.player = await signSeat(options.player, gameId, seat, entropyCommitment, playerName);
    }
    const response = await call(() => this.service.joinGame(request));
    return { gameId, seat: response.seat, token: response.seatToken, entropyGeneratedByServer: response.entropyGeneratedByServer };
  }

  /**
   * A signed claim names its seat: the free seats the public view shows are
   * tried lowest first (an invitation may hold one; another player may win
   * a race for one).
   */
  private async joinFreeSeat(
    gameId: string,
    playerName: string,
    options: { entropy?: Uint8Array; player?: CryptoKeyPair },
  ): Promise<SeatHandle> {
    const view = await this.view(gameId);
    const free = view.table.playerNames.flatMap((name, seat) => (name ? [] : [seat]));
    let refusal: unknown;
    for (const seat of free) {
      try {
        return await this.join(gameId, playerName, seat, options);
      } catch (error) {
        if (!(error instanceof RuleBroken) || !/T-JOIN|T-INVITE/.test(error.message)) throw error;
        refusal = error;
      }
    }
    if (refusal !== undefined) throw refusal;
    return this.join(gameId, playerName, 0, options);
  }

  /** Open the seat's committed entropy: the table awaits it after the start, before any card is dealt. */
  async revealEntropy(gameId: string, token: string, entropy: Uint8Array): Promise<SubmitCommandResponse> {
    return this.act(gameId, token, create(RevealEntropySchema, { entropy }));
  }

  /**
   * Hold a free seat for an invitation (`token`: a seat of the game, or the
   * operator's); the code, shown only now, takes that seat once (T-INVITE).
   */
  async invite(gameId: string, token: string, seat?: number): Promise<{ seat: number; code: string }> {
    const response = await call(() => this.service.createInvitation({ gameId, seat }, auth(token)));
    return { seat: response.seat, code: response.code };
  }

  /** Take the seat an invitation holds, once: its seat token. `entropy`: as for `join`. */
  async acceptInvitation(
    gameId: string,
    code: string,
    playerName: string,
    options: { entropy?: Uint8Array; player?: CryptoKeyPair; seat?: number } = {},
  ): Promise<SeatHandle> {
    const entropyCommitment = options.entropy ? await commitmentTo(options.entropy) : new Uint8Array();
    let seat = options.seat;
    if (options.player && seat === undefined) {
      // Signed for seat 0 first; the refusal names the seat the invitation holds.
      try {
        return await this.acceptInvitation(gameId, code, playerName, { ...options, seat: 0 });
      } catch (error) {
        const held = error instanceof InvalidArgument ? /this invitation holds seat (\d+), not/.exec(error.message) : null;
        if (!held) throw error;
        seat = Number(held[1]);
      }
    }
    const player = options.player && seat !== undefined ? await signSeat(options.player, gameId, seat, entropyCommitment, playerName) : undefined;
    const response = await call(() => this.service.acceptInvitation({ gameId, code, playerName, entropyCommitment, seat, player }));
    return { gameId, seat: response.seat, token: response.seatToken, entropyGeneratedByServer: response.entropyGeneratedByServer };
  }

  /**
   * Seat a bot the server runs ("heuristic" or "random"); it plays on when
   * this client leaves. `token`: a seat of the game, or the operator's.
   */
  async addBot(gameId: string, token: string, strategy = "heuristic", seat?: number): Promise<{ seat: number; playerName: string }> {
    const response = await call(() => this.service.addBot({ gameId, strategy, seat }, auth(token)));
    return { seat: response.seat, playerName: response.playerName };
  }

  async start(gameId: string, token: string): Promise<bigint> {
    return (await call(() => this.service.startGame({ gameId }, auth(token)))).version;
  }

  /**
   * Every command the seat may submit now, fully filled in. The server also
   * lists the table's Resign when the game waits for the seat; it is left
   * out unless `withResign` (a bot choosing a move never resigns by chance).
   */
  /**
   * The seat's legal actions with the server's words for each (the label the
   * terminal shows, and the warning before a costly move), Resign last.
   */
  async describedActions(gameId: string, token: string): Promise<DescribedAction[]> {
    const response = await call(() => this.service.listLegalActions({ gameId, describe: true }, auth(token)));
    return response.actions.map((action, i) => ({
      command: unpack(action),
      label: response.words[i]?.label ?? "",
      warning: response.words[i]?.warning ?? "",
    }));
  }

  async legalActions(gameId: string, token: string, options: { withResign?: boolean } = {}): Promise<Message[]> {
    const response = await call(() => this.service.listLegalActions({ gameId }, auth(token)));
    const actions = response.actions.map(unpack);
    return options.withResign ? actions : actions.filter((action) => action.$typeName !== "cardroom.v1.Resign");
  }

  async act(
    gameId: string,
    token: string,
    command: Message,
    options: { commandId?: string; expectedVersion?: bigint } = {},
  ): Promise<SubmitCommandResponse> {
    const response = await call(() =>
      this.service.submitCommand(
        {
          gameId,
          command: pack(command),
          commandId: options.commandId ?? commandId(),
          expectedVersion: options.expectedVersion,
        },
        auth(token),
      ),
    );
    this.heads.add(response.signedHead);
    return response;
  }

  /** The caller's view, latest or after `version` events. */
  async view(
    gameId: string,
    options: { token?: string; version?: bigint; asSpectator?: boolean; describe?: boolean } = {},
  ): Promise<View> {
    const request = create(GetViewRequestSchema, {
      gameId,
      version: options.version,
      asSpectator: options.asSpectator ?? false,
      // The view in words too (View.response.words), as the terminal's header says it.
      describe: options.describe ?? false,
    });
    const response = await call(() => this.service.getView(request, auth(options.token)));
    this.heads.add(response.signedHead);
    return viewOf(response);
  }

  /**
   * The caller's redacted events after the cursor, then live ones; ends when
   * the game ends. A dropped connection is resumed from the last event
   * received, so the feed has neither gaps nor repeats (on the next relay,
   * if the client has relays).
   */
  async *watch(gameId: string, options: WatchOptions = {}): AsyncGenerator<EventEnvelope> {
    for await (const told of this.feed(gameId, options, false)) yield told.envelope;
  }

  /** The feed's responses, resumed after a dropped connection; `narrate`: from the server, with its words. */
  private async *feed(gameId: string, options: WatchOptions, narrate: boolean): AsyncGenerator<NarratedEvent> {
    // Relays forward copies and do not narrate: a narrated feed comes from the
    // server. Each stream (a reconnection too) goes to the next relay.
    const open = (afterSequence: bigint) =>
      (narrate ? this.service : this.watchService()).watchEvents(
        { gameId, afterSequence, asSpectator: options.asSpectator ?? false, narrate },
        { ...auth(options.token), signal: options.signal },
      );
    for await (const response of resumed(open, (r) => r.event?.sequence, options.afterSequence ?? 0n, options)) {
      if (response.event === undefined) continue;
      this.heads.add(response.signedHead);
      yield new NarratedEvent(response.event, response.narration);
    }
  }


  /**
   * The caller's feed in words, live until the game ends (`watch`: resumed
   * after a dropped connection): each event after `afterSequence` with what
   * a person reads of it (`String(event)`), as the server's narrator tells
   * it to this caller from only what it was sent (WatchEventsRequest.narrate):
   * the same sentences as `cardroom watch --plain` and every other frontend.
   * Always from the server (relays do not narrate).
   */
  async *story(gameId: string, options: WatchOptions = {}): AsyncGenerator<NarratedEvent> {
    yield* this.feed(gameId, options, true);
  }

  /** Step through a game: the caller's view after each event it may see. */
  async *replay(
    gameId: string,
    options: { token?: string; fromVersion?: bigint; asSpectator?: boolean; narrate?: boolean } = {},
  ): AsyncGenerator<ReplayStep> {
    const stream = this.service.replayViews(
      {
        gameId,
        fromVersion: options.fromVersion ?? 0n,
        asSpectator: options.asSpectator ?? false,
        narrate: options.narrate ?? false,
      },
      auth(options.token),
    );
    try {
      for await (const response of stream) {
        if (response.view === undefined || response.event === undefined) continue;
        this.heads.add(response.signedHead);
        yield { view: viewOf(response.view), event: response.event, narration: response.narration };
      }
    } catch (error) {
      throw errorFrom(error);
    }
  }

  /**
   * A finished game as one signed record (docs/trust.md), streamed
   * (`StreamGameRecord`) so a game of any length is exported.
   */
  async exportRecord(gameId: string, token?: string): Promise<GameRecord> {
    return fromBinary(GameRecordSchema, await this.recordBytes(gameId, token));
  }

  /** The serialized signed record (the file `cardroom export` writes), streamed. */
  async recordBytes(gameId: string, token?: string): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let total = 0n;
    let received = 0;
    try {
      for await (const response of this.service.streamGameRecord({ gameId }, auth(token))) {
        chunks.push(response.chunk);
        received += response.chunk.length;
        total = response.totalBytes;
      }
    } catch (error) {
      throw errorFrom(error);
    }
    if (BigInt(received) !== total) {
      throw new Error(`the record stream ended after ${received} of its ${total} bytes`);
    }
    const data = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) {
      data.set(chunk, offset);
      offset += chunk.length;
    }
    return data;
  }

  /**
   * The full, unredacted log of a finished game (to its seats by default),
   * fetched a page at a time (`GetAuditLog` page_size / page_token).
   */
  async audit(gameId: string, token?: string, pageSize = 1000): Promise<EventEnvelope[]> {
    const events: EventEnvelope[] = [];
    let pageToken = "";
    for (;;) {
      const response = await call(() =>
        this.service.getAuditLog({ gameId, pageSize, pageToken }, auth(token)),
      );
      events.push(...response.events);
      pageToken = response.nextPageToken;
      if (!pageToken) return events;
    }
  }

  /** Games matching the filters, newest first, a page at a time (at most `limit`). */
  async listGames(
    filters: { kind?: string; status?: GameStatus; openSeatsOnly?: boolean; pageSize?: number; limit?: number } = {},
  ): Promise<GameSummary[]> {
    const games: GameSummary[] = [];
    let pageToken = "";
    for (;;) {
      const { limit: _, ...fields } = filters;
      const request = create(ListGamesRequestSchema, { ...fields, pageToken });
      const response = await call(() => this.service.listGames(request));
      games.push(...response.games);
      pageToken = response.nextPageToken;
      if (!pageToken || (filters.limit !== undefined && games.length >= filters.limit)) {
        return filters.limit === undefined ? games : games.slice(0, filters.limit);
      }
    }
  }

  /**
   * A game kind's leaderboard, best first, a page at a time (at most
   * `limit`): OpenSkill ratings of signed players and the server's bots
   * (docs/rules/table.md, T-RATING). With `publicKeys`: only those
   * players' (keys without a rating in the kind left out), in one call.
   */
  async ratings(kind: string, options: { pageSize?: number; limit?: number; publicKeys?: Uint8Array[] } = {}): Promise<PlayerRating[]> {
    if (options.publicKeys?.length) {
      const publicKeys = options.publicKeys;
      return (await call(() => this.competition.listRatings({ kind, publicKeys }))).ratings;
    }
    const found: PlayerRating[] = [];
    let pageToken = "";
    for (;;) {
      const response = await call(() => this.competition.listRatings({ kind, pageSize: options.pageSize, pageToken }));
      found.push(...response.ratings);
      pageToken = response.nextPageToken;
      if (!pageToken || (options.limit !== undefined && found.length >= options.limit)) {
        return options.limit === undefined ? found : found.slice(0, options.limit);
      }
    }
  }

  /** A player's ratings per kind and one page of their rated games, newest first. */
  async player(
    player: { playerId: string } | { publicKey: Uint8Array },
    options: { pageSize?: number; pageToken?: string } = {},
  ): Promise<GetPlayerResponse> {
    return call(() => this.competition.getPlayer({ ...player, ...options }));
  }

  /**
   * A tournament the server runs (docs/rules/tournaments.md): standings,
   * rounds and their tables with each table's game id, results; its seed
   * only once it is finished.
   */
  async tournament(tournamentId: string): Promise<{ tournament: TournamentView; version: number }> {
    const response = await call(() => this.competition.getTournament({ tournamentId }));
    return { tournament: response.tournament ?? create(TournamentViewSchema), version: response.version };
  }

  /**
   * A tournament's events after `after` (0: from its first), then live ones,
   * each with the tournament as it stands after it; resumed after a dropped
   * connection; ends once the tournament is finished.
   */
  async *watchTournament(
    tournamentId: string,
    options: {
      after?: number;
      signal?: AbortSignal;
      retries?: number;
      retryDelayMs?: number;
      /** Called before each reconnection, with the sequence it resumes after. */
      onResume?: (after: number, error: CardroomError) => void;
    } = {},
  ): AsyncGenerator<WatchTournamentResponse> {
    const open = (after: number) => this.competition.watchTournament({ tournamentId, after }, { signal: options.signal });
    yield* resumed(open, (response) => response.sequence, options.after ?? 0, options);
  }


  /**
   * A new tournament (docs/rules/tournaments.md): `tableSize` seats at every
   * table, `rounds` Swiss rounds (or a round robin's schedule). Returns its
   * id and the organizer's token, which starts it (shown once).
   */
  async createTournament(
    kind: string,
    options: {
      tableSize: number;
      rounds: number;
      name?: string;
      format?: TournamentFormat_Kind;
      byeHalfPoints?: number;
      /** Every game's table options, e.g. a turn clock (TN-CLOCK). */
      tableOptions?: TableOptions;
    },
  ): Promise<{ tournamentId: string; organizerToken: string }> {
    const response = await call(() =>
      this.competition.createTournament({
        kind,
        tableSize: options.tableSize,
        rounds: options.rounds,
        name: options.name ?? "",
        format: options.format ?? TournamentFormat_Kind.SWISS,
        byeHalfPoints: options.byeHalfPoints ?? 0,
        tableOptions: options.tableOptions,
      }),
    );
    return { tournamentId: response.tournamentId, organizerToken: response.organizerToken };
  }

  /** Close registration and pair round 1 (the organizer's token, or the operator's). */
  async startTournament(tournamentId: string, organizerToken: string): Promise<TournamentView> {
    const response = await call(() => this.competition.startTournament({ tournamentId }, auth(organizerToken)));
    return response.tournament ?? create(TournamentViewSchema);
  }

  /**
   * A player enters a tournament with their key (T-PLAYER): the key signs
   * "cardroom.v1.tournament-entry" || 0x00 || tournament id. Returns the
   * number of players registered so far.
   */
  async registerPlayer(tournamentId: string, key: CryptoKeyPair, displayName: string): Promise<number> {
    const player = await signEntry(key, tournamentId, displayName);
    return (await call(() => this.competition.registerPlayer({ tournamentId, player }))).players;
  }

  /**
   * A player leaves a tournament (TN-LEAVE): the key signs
   * "cardroom.v1.tournament-withdrawal" || 0x00 || tournament id. From the
   * next round on they have no table; a running game of theirs goes on
   * without them. Returns the number of players still in.
   */
  async withdrawPlayer(tournamentId: string, key: CryptoKeyPair): Promise<number> {
    const { publicKey, signature } = await signWithdrawal(key, tournamentId);
    return (await call(() => this.competition.withdrawPlayer({ tournamentId, publicKey, signature }))).playersLeft;
  }

  /** The organizer (or the operator) withdraws a player by their public key: a no-show, say. */
  async withdrawPlayerAsOrganizer(tournamentId: string, publicKey: Uint8Array, organizerToken: string): Promise<number> {
    return (await call(() => this.competition.withdrawPlayer({ tournamentId, publicKey }, auth(organizerToken)))).playersLeft;
  }

  /** The game kinds the server plays, with their message types. */
  async gameKinds(): Promise<GameKind[]> {
    return (await call(() => this.service.listGameKinds({}))).kinds;
  }

  /** The server's Ed25519 public key, which signs exported records. */
  async serverKey(): Promise<{ publicKey: Uint8Array; fingerprint: string }> {
    return call(() => this.service.getServerKey({}));
  }
}
