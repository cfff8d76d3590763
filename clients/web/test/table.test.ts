// The reference web table in a real browser (Debian's Chromium, driven
// headless by playwright-core) against a real `cardroom serve`: the game
// list, a bot game watched live to its end, the replay scrubber, and a seat
// played from the page. Screenshots go to $CARDROOM_ARTIFACTS.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { type CardroomClient, commitmentTo, isMessage, newEntropy, newPlayerKey, playBots, publicKeyBytes, SeatTakenSchema, seededRandom, unpack } from "@cardroom/client";
import { connectNode } from "@cardroom/client/node";
import { ChallengeSchema, PerformActSchema, Pile, type View as SmView } from "@cardroom/client/gen/cardroom/smoke_and_mirrors/v1/smoke_and_mirrors_pb.js";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests through pytest (tests/web)`);
  return value;
}

const WEB = required("CARDROOM_WEB_URL");
const ARTIFACTS = required("CARDROOM_ARTIFACTS");
const CHROMIUM = process.env.CARDROOM_CHROMIUM ?? "/usr/bin/chromium";
// Headless as root in a closed network: no sandbox, GPU or background traffic.
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const KIND = "smoke-and-mirrors";
const TIMEOUT = 60_000;

let browser: Browser;
let bots: CardroomClient;
let finishedGameId = "";

async function shot(page: Page, name: string): Promise<void> {
  const path = join(ARTIFACTS, name);
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot: ${path}`);
}

const problems = new WeakMap<Page, string[]>();

async function pageFor(hash: string, query = ""): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(TIMEOUT);
  const seen: string[] = [];
  problems.set(page, seen);
  page.on("pageerror", (error) => seen.push(error.message));
  page.on("console", (message) => message.type() === "error" && seen.push(message.text()));
  await page.goto(`${WEB}/${query}#${hash}`);
  return page;
}

/** Close a page that logged no error (an uncaught exception, a failed request). */
async function done(page: Page): Promise<void> {
  const seen = problems.get(page);
  await page.close();
  assert.deepEqual(seen, [], "the page logged errors");
}

/** A phone's browser context: 390x844, touch. */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A Swiss tournament of tables of 3 with these players registered, each with a new key. */
async function tournamentOf(names: string[], rounds: number, name: string): Promise<{ tournamentId: string; organizerToken: string; keys: CryptoKeyPair[] }> {
  const keys = await Promise.all(names.map(() => newPlayerKey()));
  const { tournamentId, organizerToken } = await bots.createTournament(KIND, { tableSize: 3, rounds, name });
  for (const [i, player] of names.entries()) await bots.registerPlayer(tournamentId, keys[i]!, player);
  return { tournamentId, organizerToken, keys };
}

async function seatTokens(gameId: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 1) tokens.push((await bots.join(gameId, ["Brahmagupta", "Cardano", "Dijkstra"][i]!)).token);
  return tokens;
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  bots = connectNode(WEB, "connect");
});

after(async () => {
  await browser?.close();
  bots?.close();
});

describe("the reference web table", () => {
  test("lists a bot game, and a spectator watches it live to its end", async () => {
    const gameId = await bots.createGame(KIND, { seatCount: 3 });
    const tokens = [...(await seatTokens(gameId, 2)), (await bots.join(gameId, "Euler")).token];
    await bots.start(gameId, tokens[0]!);
    const page = await pageFor("/");
    await page.waitForSelector(`tr[data-game-id="${gameId}"][data-state="running"]`);
    await shot(page, "list.png");
    await page.click(`tr[data-game-id="${gameId}"] a.watch`);
    await page.waitForSelector('[data-page="watch"] .narration li');
    await playBots(bots, gameId, tokens, seededRandom(7), { pauseMs: 5 });
    await page.waitForSelector('[data-page="watch"][data-state="over"]');
    const log = await bots.audit(gameId, tokens[0]);
    assert.equal(await page.locator(".narration li").count(), log.length);
    assert.match(await page.locator(".narration").innerText(), /Game over: .+ (wins|share the win)\./);
    // One voice: each line the page shows is the server's sentence for this
    // viewer, the one the terminal prints (tests/clients/test_one_voice.py).
    const told: string[] = [];
    for await (const event of bots.story(gameId)) told.push(event.text);
    assert.deepEqual(await page.locator(".narration li .told").allInnerTexts(), told);
    // The winner line says why, in the server's words.
    assert.match(await page.locator(".winner").innerText(), /wins round \d+ .*Game over: .+ wins\./);
    // The header says where the game stands in words, not raw phases.
    assert.match(await page.locator(".board .facts").innerText(), /wins the game/);
    await shot(page, "watch-end.png");
    // The signed heads the page was served download as a heads file: one
    // line per event, each with the chain head that event was served with.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("a.heads")]);
    assert.equal(download.suggestedFilename(), `heads-${gameId}.jsonl`);
    const lines = readFileSync(await download.path(), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(
      lines.map((line) => line.chain_head),
      log.map((event) => Buffer.from(event.eventHash).toString("hex")),
    );
    assert.ok(lines.every((line) => line.game_id === gameId && line.signature.length === 128));
    await done(page);
    finishedGameId = gameId;
  });

  test("replays the finished game to the middle and back, over gRPC-Web", async () => {
    assert.ok(finishedGameId, "needs the game of the first test");
    const total = (await bots.view(finishedGameId)).version;
    const page = await pageFor(`/replay/${finishedGameId}`, "?protocol=grpc-web");
    await page.waitForSelector('[data-page="replay"][data-state="ready"]');
    assert.equal(await page.locator(".narration li").count(), Number(total));
    const middle = Math.floor(Number(total) / 2);
    await page.locator('input[type="range"]').fill(String(middle));
    await page.waitForSelector(`[data-page="replay"][data-step="${middle}"]`);
    assert.equal(await page.locator(".counter").innerText(), `step ${middle} of ${total}`);
    assert.equal(await page.locator(".narration li:not(.future)").count(), middle);
    await shot(page, "replay-middle.png");
    await page.click('button[title="step back"]');
    await page.click('button[title="step back"]');
    await page.waitForSelector(`[data-page="replay"][data-step="${middle - 2}"]`);
    await page.keyboard.press("ArrowRight");
    await page.waitForSelector(`[data-page="replay"][data-step="${middle - 1}"]`);
    await page.click('button[title="first step"]');
    await page.waitForSelector('[data-page="replay"][data-step="1"]');
    assert.equal(await page.locator(".narration li:not(.future)").count(), 1);
    assert.match(await page.locator(".narration li.current").innerText(), /A game of Smoke & Mirrors for 3 players is set up\./);
    await page.click('button[title="last step"]');
    await page.waitForSelector(`[data-page="replay"][data-step="${total}"]`);
    await done(page);
  });

  test("plays a seat with its token: legal actions as buttons, a few moves", async () => {
    const gameId = await bots.createGame(KIND, { seatCount: 3 });
    const page = await pageFor("/");
    const row = `tr[data-game-id="${gameId}"]`;
    await page.fill(`${row} input[name="player"]`, "Grace");
    await page.click(`${row} form.join button`);
    await page.waitForSelector('[data-page="play"][data-state="not-started"]');
    const tokens = await seatTokens(gameId, 2);
    await page.click('[data-page="play"][data-state="ready-to-start"] button');
    const root = page.locator('[data-page="play"]');
    const caughtUp = async (version: bigint) =>
      page.waitForFunction(
        (v) => {
          const el = document.querySelector('[data-page="play"]') as HTMLElement | null;
          return !!el && Number(el.dataset.version) >= v && el.dataset.state !== "loading";
        },
        Number(version),
      );
    await caughtUp((await bots.view(gameId)).version);
    let moves = 0;
    for (let step = 0; step < 200 && moves < 3; step += 1) {
      const state = await root.getAttribute("data-state");
      if (state === "over") break;
      if (state === "your-turn") {
        assert.ok((await page.locator(".seat.mine svg.card.face").count()) > 0, "the seat sees its own cards");
        if (moves === 2) await shot(page, "play.png");
        const before = Number(await root.getAttribute("data-version"));
        // A move marked ⚠ asks for a second tap (its own test below): play a plain one.
        await page.locator("button.action:not(.costly)").first().click();
        await page.waitForFunction((v) => Number((document.querySelector('[data-page="play"]') as HTMLElement).dataset.version) > v, before);
        moves += 1;
        continue;
      }
      let version: bigint | undefined;
      for (const token of tokens) {
        const actions = await bots.legalActions(gameId, token);
        if (actions.length) {
          version = (await bots.act(gameId, token, actions[0]!)).version;
          break;
        }
      }
      await caughtUp(version ?? (await bots.view(gameId)).version);
    }
    assert.equal(moves, 3);
    const own = await page.locator(".narration .secret").count();
    assert.ok(own > 0, "the seat's feed narrates what only it may see");
    await done(page);
  });

  test("a seat whose entropy this browser does not hold: the page says it cannot reveal, and plays on once it is revealed", async () => {
    const gameId = await bots.createGame(KIND, { seatCount: 3 });
    const entropy = newEntropy();
    const own = await bots.join(gameId, "Grace", undefined, { entropy });
    const tokens = await seatTokens(gameId, 2);
    await bots.start(gameId, tokens[0]!);
    const page = await pageFor(`/play/${gameId}`);
    await page.fill('input[name="token"]', own.token);
    await page.click("form.token-form button");
    await page.waitForSelector('[data-page="play"][data-state="entropy-lost"]');
    assert.match(
      await page.locator(".actions .entropy").innerText(),
      /Your seat committed to entropy this browser no longer holds, so it cannot reveal it\. The table waits for it under the turn clock/,
    );
    // Nothing is dealt meanwhile; the seat's entropy revealed elsewhere, play goes on.
    await bots.revealEntropy(gameId, own.token, entropy);
    await page.waitForSelector('[data-page="play"]:is([data-state="your-turn"], [data-state="waiting"])');
    await done(page);
  });

  test("draws every kind the server plays: a seat's own cards face up, a spectator's as backs", async () => {
    for (const kind of await bots.gameKinds()) {
      const seatCount = Math.min(Math.max(3, kind.minSeats), kind.maxSeats);
      const gameId = await bots.createGame(kind.kind, { seatCount });
      const tokens = [...(await seatTokens(gameId, seatCount - 1)), (await bots.join(gameId, "Euler")).token];
      await bots.start(gameId, tokens[0]!);
      const random = seededRandom(1);
      for (let moves = 0, round = 0; moves < 12 && round < 50; round += 1) {
        for (const token of tokens) {
          const actions = await bots.legalActions(gameId, token);
          if (actions.length) {
            await bots.act(gameId, token, actions[Math.floor(random() * actions.length)]!);
            moves += 1;
          }
        }
      }
      // Random moves may have left a seat with no cards: show the first seat holding some.
      const drawn = `.game.${kind.kind}`;
      let shown = false;
      for (const token of tokens) {
        const seat = await pageFor(`/play/${gameId}`);
        await seat.fill('input[name="token"]', token);
        await seat.click("form.token-form button");
        await seat.waitForSelector('[data-page="play"][data-state="your-turn"], [data-page="play"][data-state="waiting"]');
        assert.equal(await seat.locator(drawn).count(), 1, `${kind.kind} is drawn, not shown as JSON`);
        shown = (await seat.locator(".seat.mine svg.card.face").count()) > 0;
        if (shown) await shot(seat, `play-${kind.kind}.png`);
        await done(seat);
        if (shown) break;
      }
      assert.ok(shown, `${kind.kind}: a seat holding cards sees them face up`);
      const spectator = await pageFor(`/watch/${gameId}`);
      await spectator.waitForSelector(`${drawn} .seat`);
      assert.equal(await spectator.locator(".seat svg.card.face").count(), 0, `${kind.kind}: a spectator sees no hand`);
      assert.ok((await spectator.locator(".seat svg.card.back").count()) > 0);
      await done(spectator);
    }
  });

  test("a table people come back to: create, invite a second browser, add a bot, play to the end, close and resume", async () => {
    const watch = (page: Page) => {
      const seen: string[] = [];
      problems.set(page, seen);
      page.on("pageerror", (error) => seen.push(error.message));
      page.setDefaultTimeout(TIMEOUT);
      return page;
    };
    const contexts: BrowserContext[] = [];
    const context = async (width: number, height: number) => {
      const made = await browser.newContext({ viewport: { width, height } });
      contexts.push(made);
      return made;
    };
    try {
      // Grace creates a game from the page, with a turn clock, and sits down.
      const desk = await context(1280, 900);
      const host = watch(await desk.newPage());
      await host.goto(`${WEB}/#/`);
      await host.waitForSelector('[data-page="list"][data-state="ready"]');
      await host.selectOption('select[name="kind"]', KIND);
      await host.fill('input[name="seats"]', "3");
      await host.fill('input[name="creator"]', "Grace");
      await host.selectOption('select[name="clock"]', "86400");
      await host.click("form.new-game button.create");
      await host.waitForSelector('[data-page="play"][data-state="not-started"]');
      const gameId = host.url().split("/").pop()!;
      assert.match(await host.locator(".who").innerText(), /You are Grace \(seat 1 of 3\)/);
      assert.ok(await host.locator("a.resume").count(), "a resume link is shown");
      // An invitation link, opened in a second browser (a phone).
      await host.click(".table-tools button.invite");
      const link = await host.locator("input.invite-link").inputValue();
      assert.match(link, new RegExp(`#/invite/${gameId}/inv_`));
      await shot(host, "table-invite-1280.png");
      const phone = await context(390, 844);
      let guest = watch(await phone.newPage());
      await guest.goto(link);
      await guest.waitForSelector('[data-page="invite"][data-state="invited"]');
      await guest.fill('form.accept input[name="player"]', "Hedy");
      await guest.click("form.accept button");
      await guest.waitForSelector('[data-page="play"][data-state="not-started"]');
      assert.match(await guest.locator(".who").innerText(), /You are Hedy \(seat 2 of 3\)/);
      // The same link again, in a third browser: refused by name (used once).
      const other = await context(1280, 900);
      const late = watch(await other.newPage());
      await late.goto(link);
      await late.waitForSelector('[data-state="invited"]');
      await late.fill('form.accept input[name="player"]', "Ivy");
      await late.click("form.accept button");
      assert.match(await late.locator(".error").innerText(), /T-INVITE/);
      await late.close();
      // The levels of bot the server can seat in this game, weakest first.
      assert.deepEqual(await host.locator(".table-tools button.add-bot").allInnerTexts(), [
        "Add a random bot",
        "Add a heuristic bot",
        "Add a search bot",
      ]);
      // A bot the server runs takes the last seat; it or Grace starts the game.
      await host.click('.table-tools button.add-bot[data-strategy="heuristic"]');
      await host.waitForSelector('[data-page="play"]:is([data-state="ready-to-start"], [data-state="your-turn"], [data-state="waiting"])');
      if ((await host.locator('[data-page="play"]').getAttribute("data-state")) === "ready-to-start") {
        // The bot may start it first (every seat taken): then the button is gone.
        await host.locator("button.start").click({ timeout: 5000 }).catch(() => undefined);
      }
      await host.waitForSelector('[data-page="play"]:is([data-state="your-turn"], [data-state="waiting"], [data-state="over"])');
      assert.match(await host.locator(".board").innerText(), /heuristic bot 1\s+seat 3/);
      // The countdown, from the public deadline: it ticks down.
      const clockLine = async () => (await host.locator(".status").innerText()).match(/has (\d+:\d\d:\d\d) left to move/)?.[1];
      await host.waitForFunction(() => /has \d+:\d\d:\d\d left to move/.test(document.querySelector(".status")?.textContent ?? ""));
      const first = await clockLine();
      assert.ok(first, "a countdown is shown");
      await host.waitForFunction((shown) => !(document.querySelector(".status")?.textContent ?? "").includes(`has ${shown} left`), first);
      // The phone's layout: its own hand first, the board in one column.
      await guest.waitForSelector('[data-page="play"]:is([data-state="your-turn"], [data-state="waiting"])');
      const order = await guest.evaluate(() => {
        const mine = document.querySelector(".seat.mine")!.getBoundingClientRect();
        const others = [...document.querySelectorAll(".seat:not(.mine)")].map((e) => e.getBoundingClientRect().top);
        return { mine: mine.top, others, right: mine.right, width: window.innerWidth };
      });
      assert.ok(order.others.every((top) => top > order.mine), "the own hand comes first on a phone");
      assert.ok(order.right <= order.width, "nothing runs off a 390 px screen");
      await shot(guest, "table-play-390.png");
      // Hedy closes her tab and comes back: the lobby offers to resume.
      await guest.close();
      guest = watch(await phone.newPage());
      await guest.goto(`${WEB}/#/`);
      await guest.waitForSelector('[data-page="list"][data-state="ready"]');
      await shot(guest, "table-list-390.png");
      await guest.click(`.your-seats a.resume[href="#/play/${gameId}"]`);
      await guest.waitForSelector('[data-page="play"]:is([data-state="your-turn"], [data-state="waiting"], [data-state="over"])');
      assert.match(await guest.locator(".who").innerText(), /You are Hedy/);
      // Both play their first legal move each time until the game is over;
      // the bot plays its seat on the server.
      const players = [host, guest];
      for (let step = 0; step < 3000; step += 1) {
        const states = await Promise.all(players.map((p) => p.locator('[data-page="play"]').getAttribute("data-state")));
        if (states.every((state) => state === "over")) break;
        const turn = states.indexOf("your-turn");
        if (turn < 0) {
          await players[0]!.waitForTimeout(50);
          continue;
        }
        const page = players[turn]!;
        const before = Number(await page.locator('[data-page="play"]').getAttribute("data-version"));
        try {
          // The turn may have moved on since the states were read (the bot or
          // the other player acted, the page redrew): then look again.
          // A costly move (⚠) asks twice: take a plain one.
          await page.locator("button.action:not([disabled]):not(.costly)").first().click({ timeout: 5000 });
        } catch {
          continue;
        }
        await page.waitForFunction(
          (v) => {
            // Answered: a new version drawn, the end, or the move refused
            // (the turn moved on before the click: the page says why).
            const el = document.querySelector('[data-page="play"]') as HTMLElement;
            return Number(el.dataset.version) > v || el.dataset.state === "over" || el.querySelector(".error") !== null;
          },
          before,
        );
      }
      await host.waitForSelector('[data-page="play"][data-state="over"]');
      await guest.waitForSelector('[data-page="play"][data-state="over"]');
      // Each browser committed to entropy of its own when it took its seat
      // (kept with its token), revealed it, and says at the end what it checked.
      const kept = async (page: Page) => JSON.parse((await page.evaluate((id) => localStorage.getItem(`cardroom.seat.${id}`), gameId))!) as { token: string; entropy: string };
      const [grace, hedy] = [await kept(host), await kept(guest)];
      const taken = (await bots.audit(gameId, grace.token)).map((e) => unpack(e.event!)).filter((event) => isMessage(event, SeatTakenSchema));
      for (const [seat, seen] of [grace, hedy].entries()) {
        const commitment = taken.find((t) => t.seat === seat)!;
        assert.equal(commitment.entropyByServer, false, `seat ${seat + 1} sent its own commitment`);
        const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
        assert.equal(hex(commitment.entropyCommitment), hex(await commitmentTo(Buffer.from(seen.entropy, "hex"))));
      }
      assert.equal(taken.find((t) => t.seat === 2)!.entropyByServer, true, "the server's bot: the server drew its entropy");
      for (const page of [host, guest]) {
        // One line says it; the details are folded below it.
        assert.equal(await page.locator(".actions .entropy summary").innerText(), "deal verified ✓");
        const said = (await page.locator(".actions .entropy p").textContent()) ?? "";
        assert.match(
          said,
          /^Your entropy is in the deal: commitment ✓, reveal ✓, every seat's reveal matches its commitment ✓ \(seats 1, 2 and 3\), the opened seed matches its commitment in event 1 ✓\. They give the chance key [0-9a-f]{16}… \(HMAC-SHA256 of the seed over every reveal\)\. Re-drawing the deal itself from that key needs the game's rules: run `cardroom audit`/,
        );
        assert.equal(await page.locator(".actions .entropy").getAttribute("data-verified"), "yes");
      }
      // The post-mortem: every seat's cards face up, to each seat.
      assert.equal(await guest.locator(".seat svg.card.back").count(), 0, "no card stays hidden from a seat after the end");
      await shot(host, "table-over-1280.png");
      await shot(guest, "table-over-390.png");
      await done(host);
      await done(guest);
    } finally {
      for (const made of contexts) await made.close();
    }
  });

  test("on a phone the page stays on your move through a whole game: the goal and help are there, nothing runs off", async () => {
    const gameId = await bots.createGame(KIND, { seatCount: 3 });
    const own = await bots.join(gameId, "Grace");
    const tokens = await seatTokens(gameId, 2);
    await bots.start(gameId, own.token);
    const phone = await browser.newContext(PHONE);
    try {
      const page = await phone.newPage();
      page.setDefaultTimeout(TIMEOUT);
      await page.goto(`${WEB}/#/play/${gameId}`);
      await page.fill('input[name="token"]', own.token);
      await page.tap("form.token-form button");
      const root = page.locator('[data-page="play"]');
      await page.waitForSelector('[data-page="play"]:is([data-state="your-turn"], [data-state="waiting"])');
      // The goal on screen; the help (rules and a legend, ⏱ included) one tap away.
      assert.match(await page.locator(".guide .goal").innerText(), /Goal: .*wins/);
      await page.locator(".guide details.help summary").tap();
      assert.match(await page.locator(".guide .legend").innerText(), /⏱/);
      await page.locator(".guide details.help summary").tap();
      const random = seededRandom(3);
      let turns = 0;
      for (let step = 0; step < 3000; step += 1) {
        const state = await root.getAttribute("data-state");
        if (state === "over") break;
        if (state === "your-turn") {
          // Events arrived since the last move: the page has not moved, its moves are on screen.
          const seen = await page.evaluate(() => {
            const button = document.querySelector("button.action");
            if ((document.querySelector('[data-page="play"]') as HTMLElement).dataset.state !== "your-turn" || button === null) return null;
            const first = button.getBoundingClientRect();
            return { scrollY: window.scrollY, top: first.top, bottom: first.bottom, height: window.innerHeight, wide: document.documentElement.scrollWidth };
          });
          if (seen === null) continue; // redrawn meanwhile: look again
          assert.equal(seen.scrollY, 0, "the window never scrolls by itself");
          assert.ok(seen.top >= 0 && seen.bottom <= seen.height, `the move buttons are on screen (${seen.top}..${seen.bottom} of ${seen.height})`);
          // 390, not innerWidth: a mobile viewport widens itself to fit what runs off it.
          assert.ok(seen.wide <= 390, `nothing runs off the screen (${seen.wide} > 390)`);
          const before = Number(await root.getAttribute("data-version"));
          const moves = page.locator("button.action:not(.costly)").filter({ hasNotText: /^Resign/ });
          if ((await moves.count()) === 0) break;
          // A tap disables the moves until its answer is drawn; a redraw may
          // also replace them meanwhile (a seat's challenge window closes):
          // tap only an enabled one, and look again when the page has moved on.
          const tapped = await moves
            .and(page.locator(":enabled"))
            .first()
            .tap({ timeout: 5_000 })
            .then(() => true)
            .catch(() => false);
          if (!tapped) continue;
          await page.waitForFunction(
            (v) => {
              const play = document.querySelector('[data-page="play"]') as HTMLElement;
              const answered = Number(play.dataset.version) > v && document.querySelector("button.action:disabled") === null;
              return answered || document.querySelector(".error");
            },
            before,
          );
          turns += 1;
          continue;
        }
        let moved = false;
        for (const token of tokens) {
          const actions = await bots.legalActions(gameId, token);
          if (actions.length) {
            await bots.act(gameId, token, actions[Math.floor(random() * actions.length)]!).catch(() => undefined);
            moved = true;
          }
        }
        if (!moved) await page.waitForTimeout(50);
      }
      assert.ok(turns >= 2, `the phone played ${turns} moves`);
      await page.close();
    } finally {
      await phone.close();
    }
  });

  test("a link naming another ?server= or ?relay= gets no seat token; the lobby's bot game commits each bot's entropy", async () => {
    const gameId = await bots.createGame(KIND, { seatCount: 3 });
    const own = await bots.join(gameId, "Grace");
    const tokens = await seatTokens(gameId, 2);
    await bots.start(gameId, tokens[0]!);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const origin = new URL(WEB).origin;
    const abroad: { url: string; authorization: string }[] = [];
    // The other host answers as the real server would (its unary calls
    // passed on), so the page goes as far as it would with a real one.
    await context.route(
      (url) => url.origin !== origin,
      async (route) => {
        const request = route.request();
        const cors = {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": "POST, OPTIONS",
          "access-control-allow-headers": request.headers()["access-control-request-headers"] ?? "*",
          "access-control-expose-headers": "*",
        };
        if (request.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
        abroad.push({ url: request.url(), authorization: request.headers()["authorization"] ?? "" });
        if (request.url().endsWith("/WatchEvents")) return route.abort();
        const path = new URL(request.url()).pathname;
        const response = await route.fetch({ url: `${WEB}${path}` });
        return route.fulfill({ response, headers: { ...response.headers(), ...cors } });
      },
    );
    try {
      // This browser keeps a seat of the game, taken from the page's own server.
      const page = await context.newPage();
      page.setDefaultTimeout(TIMEOUT);
      await page.goto(`${WEB}/#/play/${gameId}`);
      await page.fill('input[name="token"]', own.token);
      await page.click("form.token-form button");
      await page.waitForSelector('[data-page="play"]:is([data-state="your-turn"], [data-state="waiting"])');
      // A link to the same game on other hosts: the seat is not offered there.
      const stranger = "http://127.0.0.2:9";
      for (const query of [`?server=${stranger}`, `?relay=${stranger}`, `?server=${stranger}&relay=${stranger}`]) {
        for (const hash of [`/play/${gameId}`, `/watch/${gameId}`, `/replay/${gameId}`, "/"]) {
          await page.goto(`${WEB}/${query}#${hash}`);
          await page.waitForTimeout(300); // what the page sends as it opens
        }
      }
      // The seat still plays from its own server, through a relay link too.
      await page.goto(`${WEB}/?relay=${stranger}#/play/${gameId}`);
      await page.waitForSelector('[data-page="play"]:is([data-state="your-turn"], [data-state="waiting"])');
      assert.ok(abroad.length > 0, "the page did try the other host");
      assert.deepEqual(abroad.filter((request) => request.authorization !== ""), [], "no credential left the page's origin");
      // The lobby's "watch bots play": each bot commits to entropy of its own.
      await page.goto(`${WEB}/#/`);
      await page.waitForSelector('[data-page="list"][data-state="ready"]');
      await page.click("form.new-game button.bots");
      await page.waitForSelector('[data-page="watch"] .narration li');
      const botGame = page.url().split("/").pop()!;
      const steps = [];
      for await (const step of bots.replay(botGame)) steps.push(step);
      const taken = steps.map((step) => unpack(step.event.event!)).filter((event) => isMessage(event, SeatTakenSchema));
      assert.ok(taken.length >= 2);
      assert.ok(taken.every((seat) => !seat.entropyByServer && seat.entropyCommitment.length === 32), "every bot committed to its own entropy");
      await page.close();
    } finally {
      await context.close();
    }
  });

  test("the lobby shows each keyed player's rating beside their name, as the terminal does", async () => {
    const gameId = await bots.createGame(KIND, { seatCount: 3 });
    const names = ["Hopper", "Knuth", "Lovelace"];
    const keys = await Promise.all(names.map(() => newPlayerKey()));
    const tokens: string[] = [];
    for (const [i, name] of names.entries()) tokens.push((await bots.join(gameId, name, undefined, { player: keys[i] })).token);
    await bots.start(gameId, tokens[0]!).catch(() => undefined); // a full table may start itself
    await playBots(bots, gameId, tokens, seededRandom(11), { pauseMs: 0 });
    const publicKeys = await Promise.all(keys.map(publicKeyBytes));
    // The ratings follow the log: wait (bounded) for the finished game's.
    let rated: Awaited<ReturnType<CardroomClient["ratings"]>> = [];
    for (let i = 0; i < 200 && rated.length < 3; i += 1) {
      rated = await bots.ratings(KIND, { publicKeys });
      if (rated.length < 3) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(rated.length, 3, "the three players are rated");
    const page = await pageFor("/");
    const listed = page.locator(`tr[data-game-id="${gameId}"] .names`);
    await listed.waitFor();
    const shown = await listed.innerText();
    for (const rating of rated) {
      assert.ok(shown.includes(`${rating.displayName} (${rating.rating.toFixed(1)})`), `${rating.displayName}'s rating in "${shown}"`);
    }
    await done(page);
  });

  test("a tournament's page: round 1's tables to watch, then standings and the seed, live, on a phone too", async () => {
    const names = ["Hopper", "Knuth", "Lovelace"];
    const { tournamentId, organizerToken, keys } = await tournamentOf(names, 1, "Friday night");
    const phone = await browser.newContext(PHONE);
    try {
      const page = await phone.newPage();
      page.setDefaultTimeout(TIMEOUT);
      await page.goto(`${WEB}/#/tournament/${tournamentId}`);
      const root = page.locator('[data-page="tournament"]');
      await page.waitForSelector('[data-page="tournament"][data-state="live"]');
      assert.match(await root.locator(".status").innerText(), /Smoke & Mirrors · Swiss · tables of 3 · registration open · 3 players/);
      assert.match(await root.locator("h2").innerText(), /Friday night/);
      const started = await bots.startTournament(tournamentId, organizerToken);
      const table = started.rounds[0]!.tables[0]!;
      // The page follows the tournament's feed: round 1's table appears, with a link to watch it.
      const row = root.locator(`li.table[data-game-id="${table.gameId}"]`);
      await row.waitFor();
      assert.match(await row.innerText(), /Table 1: (Hopper|Knuth|Lovelace), (Hopper|Knuth|Lovelace), (Hopper|Knuth|Lovelace) · watch/);
      assert.match(await root.locator(".seed").innerText(), /Seed committed: [0-9a-f]{16}…; revealed at the end\./);
      // The players take their reserved seats with their keys and play it out.
      const publicKeys = await Promise.all(keys.map(publicKeyBytes));
      const tokens: string[] = [];
      for (const [seat, key] of table.seats.entries()) {
        const i = publicKeys.findIndex((k) => Buffer.from(k).equals(Buffer.from(key)));
        tokens.push((await bots.join(table.gameId, names[i]!, seat, { player: keys[i] })).token);
      }
      await playBots(bots, table.gameId, tokens, seededRandom(5), { pauseMs: 0 });
      await page.waitForSelector('[data-page="tournament"][data-state="over"]');
      assert.match(await root.locator(".status").innerText(), /· finished/);
      const standings = await root.locator("table.standings tbody tr").allInnerTexts();
      assert.equal(standings.length, 3);
      assert.match(standings[0]!, /^1\s+(Hopper|Knuth|Lovelace)\s+[\d½]/);
      assert.match(await row.innerText(), /\(won\).* · replay$/);
      const { tournament } = await bots.tournament(tournamentId);
      const seed = Buffer.from(tournament.seed).toString("hex");
      assert.ok(seed.length === 64 && (await root.locator(".seed").innerText()).includes(seed), "the seed is revealed at the end");
      // 390, not innerWidth: a mobile viewport widens itself to fit what runs off it.
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `nothing runs off a phone's screen (the page is ${wide} px wide)`);
      await shot(page, "tournament-390.png");
      await page.close();
    } finally {
      await phone.close();
    }
  });

  test("a player enters a tournament from the page on a phone, takes the seat kept for their key, and withdraws", async () => {
    const names = ["Hopper", "Knuth"];
    const { tournamentId, organizerToken, keys } = await tournamentOf(names, 2, "Phone cup");
    const phone = await browser.newContext(PHONE);
    try {
      const page = await phone.newPage();
      page.setDefaultTimeout(TIMEOUT);
      const seen: string[] = [];
      page.on("pageerror", (error) => seen.push(error.message));
      await page.goto(`${WEB}/#/tournament/${tournamentId}`);
      const root = page.locator('[data-page="tournament"]');
      const you = root.locator(".you");
      // This browser's player key enters it, under the name typed.
      await page.waitForSelector('[data-page="tournament"] .you[data-state="unregistered"]');
      await you.locator('input[name="player"]').fill("Ada");
      await you.locator("form.register button").click();
      await page.waitForSelector('.you[data-state="registered"]');
      assert.equal(await you.locator("p").first().innerText(), "You are registered as Ada.");
      assert.match(await root.locator(".status").innerText(), /registration open · 3 players/);
      // Round 1 pairs all three at one table: the row offers Ada her seat, kept for her key.
      const started = await bots.startTournament(tournamentId, organizerToken);
      const table = started.rounds[0]!.tables[0]!;
      const row = root.locator(`li.table[data-game-id="${table.gameId}"]`);
      await row.waitFor();
      assert.match(await row.innerText(), /^Table 1: .*Ada.* · watch · take your seat$/);
      const others = await Promise.all(keys.map(publicKeyBytes));
      const hers = table.seats.findIndex((key) => !others.some((k) => Buffer.from(k).equals(Buffer.from(key))));
      await shot(page, "tournament-seat-390.png");
      await row.locator("button.take-seat").click();
      await page.waitForSelector('[data-page="play"][data-state]');
      assert.equal((await bots.view(table.gameId)).table.playerNames[hers], "Ada", "the page took the seat kept for her key");
      // Back on the tournament's page the row leads to that seat, and withdrawing asks twice.
      await page.goto(`${WEB}/#/tournament/${tournamentId}`);
      await page.waitForSelector('.you[data-state="registered"]');
      assert.match(await row.innerText(), / · play your seat$/);
      await you.locator("button.withdraw").click();
      assert.match(await you.locator(".warning").innerText(), /is for good.*Tap Withdraw again to leave\./);
      assert.equal(await you.getAttribute("data-state"), "registered", "one tap withdraws nobody");
      await you.locator("button.withdraw").click();
      await page.waitForSelector('.you[data-state="withdrawn"]');
      assert.equal(await you.innerText(), "You (Ada) withdrew.");
      assert.ok((await root.locator("table.standings tbody tr").allInnerTexts()).some((line) => /Ada \(withdrew\)/.test(line)));
      assert.doesNotMatch(await row.innerText(), /your seat/, "a player who withdrew is offered no seat");
      // 390, not innerWidth: a mobile viewport widens itself to fit what runs off it.
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `nothing runs off a phone's screen (the page is ${wide} px wide)`);
      await shot(page, "tournament-entry-390.png");
      assert.deepEqual(seen, [], "the page threw no error");
    } finally {
      await phone.close();
    }
  });

  test("a costly move is marked ⚠ and asks twice, its warning the server's", async () => {
    // A challenge of an act a challenge this round already showed true: the
    // starter opens with a Star 1 (true), the next seat challenges it and
    // leaves the round, and the third (this page) is warned before doing the same.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const gameId = await bots.createGame(KIND, { seatCount: 3 });
      const tokens = await seatTokens(gameId, 3);
      await bots.start(gameId, tokens[0]!);
      const starter = ((await bots.view(gameId)).game as SmView).turnSeat;
      const [opener, challenger, warned] = [0, 1, 2].map((i) => tokens[(starter + i) % 3]!);
      const star = (await bots.legalActions(gameId, opener!)).find(
        (action) => isMessage(action, PerformActSchema) && action.cards.length === 1 && action.cards[0]!.pile === Pile.STARS && action.cards[0]!.value === 1,
      );
      if (star === undefined) continue; // no Star 1 in the opener's hand: deal again
      await bots.act(gameId, opener!, star);
      await bots.act(gameId, challenger!, (await bots.legalActions(gameId, challenger!)).find((action) => isMessage(action, ChallengeSchema))!);
      // The opener, who stays, swaps (or not) until the turn passes on.
      for (let step = 0; step < 5 && (await bots.legalActions(gameId, warned!)).length === 0; step += 1) {
        const [first] = await bots.legalActions(gameId, opener!);
        if (first) await bots.act(gameId, opener!, first);
      }
      const costly = (await bots.describedActions(gameId, warned!)).filter((action) => action.warning !== "");
      assert.equal(costly.length, 1, "the second challenge of that act is the one costly move");
      const page = await pageFor(`/play/${gameId}`);
      await page.fill('input[name="token"]', warned!);
      await page.click("form.token-form button");
      await page.waitForSelector('[data-page="play"][data-state="your-turn"]');
      const button = page.locator("button.action.costly");
      assert.equal(await button.innerText(), `⚠ ${costly[0]!.label}`);
      const version = await page.locator('[data-page="play"]').getAttribute("data-version");
      await button.click();
      assert.equal(await page.locator(".your-move .warning").innerText(), `⚠ ${costly[0]!.warning} Tap the move again to make it anyway.`);
      assert.equal(await page.locator('[data-page="play"]').getAttribute("data-version"), version, "one tap sends nothing");
      await button.click();
      await page.waitForFunction((v) => (document.querySelector('[data-page="play"]') as HTMLElement).dataset.version !== v, version);
      await done(page);
      return;
    }
    assert.fail("no opener held a Star 1 in ten deals");
  });
});
