// Playing a seat: the seat's own view (its hand face up, first on a small
// screen), its legal actions as buttons, and its feed narrated, hidden parts
// it may see included. The seat is kept in this browser (localStorage) with
// a resume link; before the start it invites players and adds bots; turn
// clocks count down from the public deadline. The seat commits to entropy
// of its own when it is taken (kept with the token), reveals it once the
// game starts, and at the end says what this browser checked of the deal.
import type { Message } from "@bufbuild/protobuf";
import { create, ResignSchema, type View } from "@cardroom/client";
import { client, gameKinds, linkTo, seatEntropy, seats } from "../api.js";
import { h } from "../dom.js";
import { playerKey } from "../player.js";
import { drawView } from "../games/index.js";
import { checkDeal, EntropyFeed } from "./entropy.js";
import { errorLine, everySecond, explainWinner, guidePanel, heading, headsLink, Narration, redrawer, status, titles, keepInView } from "./common.js";

function askForToken(root: HTMLElement, gameId: string): Promise<string> {
  return new Promise((resolve) => {
    const input = h("input", { type: "password", name: "token", placeholder: "seat token", autocomplete: "off" }) as HTMLInputElement;
    const form = h(
      "form",
      { class: "token-form", onsubmit: (event: Event) => (event.preventDefault(), form.remove(), resolve(input.value.trim())) },
      h("label", {}, "Your seat token ", input),
      h("button", { type: "submit" }, "Sit down"),
    );
    root.append(heading("Play a seat of", gameId), form);
  });
}

/** What each bot the server can seat is, for its button's tooltip. */
const BOT_LEVELS: Record<string, string> = {
  random: "easiest: any legal move alike",
  heuristic: "the game's own strategy, from its seat's view",
  search: "strongest: plays out its moves on deals consistent with what its seat has seen",
};

/** Before the start: invite a player to a free seat, or add a bot the server
 * runs, at any level the game has (GameKind.botStrategies, weakest first). */
function tableTools(
  gameId: string,
  token: string,
  botStrategies: readonly string[],
  problem: HTMLElement,
  redraw: () => void,
): HTMLElement {
  const invitation = h("div", { class: "invitation" });
  const guarded = (run: () => Promise<void>) => async () => {
    problem.replaceChildren();
    try {
      await run();
    } catch (error) {
      problem.replaceChildren(errorLine(error));
    }
    redraw();
  };
  const invite = guarded(async () => {
    const { seat, code } = await client.invite(gameId, token);
    const link = linkTo(`/invite/${gameId}/${code}`);
    const field = h("input", { class: "invite-link", readonly: true, value: link, size: 40, "aria-label": "invitation link" }) as HTMLInputElement;
    const copy = h("button", { type: "button", onclick: () => void navigator.clipboard?.writeText(link).catch(() => undefined) }, "copy");
    invitation.replaceChildren(
      h("p", {}, `Seat ${seat + 1} is held for whoever opens this link (once): `),
      h("div", { class: "link-row" }, field, copy),
    );
    field.select();
  });
  const bot = (strategy: string) =>
    guarded(async () => {
      await client.addBot(gameId, token, strategy);
    });
  return h(
    "section",
    { class: "table-tools" },
    h("h3", {}, "Fill the table"),
    h(
      "div",
      { class: "tool-buttons" },
      h("button", { type: "button", class: "invite", onclick: invite }, "Invite a player"),
      ...botStrategies.map((strategy) =>
        h(
          "button",
          { type: "button", class: "add-bot", "data-strategy": strategy, title: BOT_LEVELS[strategy] ?? "", onclick: bot(strategy) },
          `Add a ${strategy} bot`,
        ),
      ),
    ),
    invitation,
  );
}

export async function playPage(root: HTMLElement, gameId: string, signal: AbortSignal): Promise<void> {
  const token = seats.get(gameId) ?? (await askForToken(root, gameId));
  seats.set(gameId, token);
  root.replaceChildren();
  const kindTitles = await titles();
  const line = h("p", { class: "status" });
  const who = h("p", { class: "who" });
  const resume = h(
    "p",
    { class: "kept" },
    "Your seat is kept in this browser; come back to it with this ",
    h("a", { class: "resume", href: linkTo(`/play/${gameId}`) }, "resume link"),
    " (it holds no token: the token stays in this browser).",
  );
  const board = h("div", { class: "board" });
  const actions = h("div", { class: "actions" });
  const problem = h("div");
  const tools = h("div");
  const narration = new Narration();
  const guide = h("div");
  const feed = new EntropyFeed();
  const entropy = seats.entropy(gameId);
  let revealing = false;
  let dealChecked: HTMLElement | undefined;
  root.append(
    heading("Playing", gameId),
    line,
    who,
    guide,
    resume,
    h("nav", { class: "links" }, headsLink(gameId)),
    tools,
    h("section", { class: "your-move" }, h("h3", {}, "Your move"), actions, problem),
    h("div", { class: "table-and-story" }, board, h("div", { class: "story" }, h("h3", {}, "What happens"), narration.element)),
  );
  let shown: View | undefined;
  everySecond(signal, () => {
    if (shown?.table.clocks.length && !shown.table.finished) line.textContent = status(shown, kindTitles);
  });
  const act = async (command: Message) => {
    actions.querySelectorAll("button").forEach((b) => ((b as HTMLButtonElement).disabled = true));
    problem.replaceChildren();
    try {
      await client.act(gameId, token, command);
    } catch (error) {
      problem.replaceChildren(errorLine(error));
    }
    drawing.request();
  };
  let toolsShown = false;
  const drawing = redrawer(async () => {
    const view = await client.view(gameId, { token, describe: true });
    if (!shown) guide.replaceChildren(await guidePanel(view.table.kind));
    shown = view;
    const names = view.table.playerNames;
    const seat = view.response.seat;
    seats.set(gameId, token, names[seat] ?? "", seat);
    line.textContent = status(view, kindTitles);
    who.textContent = `You are ${names[seat] || "here"} (seat ${seat + 1} of ${view.table.seatCount}).`;
    board.replaceChildren(drawView(view.game, { names, viewer: seat }, view.response.words));
    if (view.table.finished) explainWinner(board, narration);
    const full = names.every((name) => name !== "");
    if (!view.table.started && !full) {
      if (!toolsShown) {
        const offered = (await gameKinds()).get(view.table.kind)?.botStrategies ?? [];
        // A server from before GameKind.bot_strategies seats these two.
        const levels = offered.length ? offered : ["random", "heuristic"];
        tools.replaceChildren(tableTools(gameId, token, levels, problem, () => drawing.request()));
      }
      toolsShown = true;
    } else {
      tools.replaceChildren();
      toolsShown = false;
    }
    let state: string;
    if (view.table.started && feed.seen < view.version) {
      // What is due (a reveal) and the end's check read the feed: wait for it to reach the view.
      state = "loading";
    } else if (view.table.finished) {
      if (dealChecked === undefined) {
        const { words, verified } = await checkDeal(gameId, token, seat, entropy, feed);
        // One line on a phone; what was checked, and what was not, folded below it.
        dealChecked = h(
          "details",
          { class: "entropy", "data-verified": verified ? "yes" : "no", open: !verified },
          h("summary", {}, verified ? "deal verified ✓" : "deal NOT verified ✗"),
          h("p", {}, words),
        );
      }
      actions.replaceChildren(h("p", {}, "The game is over: every card is shown face up (the post-mortem)."), dealChecked);
      state = "over";
    } else if (!view.table.started) {
      const start = h("button", { type: "button", class: "start", onclick: () => client.start(gameId, token).catch((e) => problem.replaceChildren(errorLine(e))) }, "Start the game");
      actions.replaceChildren(full ? start : h("p", {}, "Waiting for every seat to be taken: invite a player or add a bot above."));
      state = full ? "ready-to-start" : "not-started";
    } else if (feed.due(seat, view.table.resignedSeats)) {
      // T-ENTROPY: the table deals nothing until this seat opens the entropy it committed to.
      if (entropy !== undefined && (await feed.matches(seat, entropy))) {
        actions.replaceChildren(h("p", { class: "entropy" }, "Revealing your entropy: the table deals no card until every seat has."));
        if (!revealing) {
          revealing = true;
          await client.revealEntropy(gameId, token, entropy).catch((error: unknown) => {
            if (String(error instanceof Error ? error.message : error).includes("already revealed")) return;
            problem.replaceChildren(errorLine(error));
            revealing = false; // tried again at the next event
          });
        }
        state = "revealing";
      } else {
        actions.replaceChildren(
          h(
            "p",
            { class: "entropy" },
            entropy === undefined
              ? "Your seat committed to entropy this browser no longer holds, so it cannot reveal it."
              : "The entropy this browser kept is not the one your seat committed to, so it cannot reveal it.",
            " The table waits for it under the turn clock; a seat whose reveal times out leaves the game (T-ENTROPY). You may resign instead.",
          ),
          h("button", { type: "button", class: "action resign", onclick: () => act(create(ResignSchema)) }, "Resign"),
        );
        state = "entropy-lost";
      }
    } else {
      // The server's words for each move (the terminal's menu); a costly
      // one is marked ⚠ and asks twice, its warning shown at the first tap.
      const legal = await client.describedActions(gameId, token);
      const button = ({ command, label, warning }: (typeof legal)[number]) => {
        const element = h("button", { type: "button", class: warning ? "action costly" : "action", title: warning }, warning ? `⚠ ${label}` : label);
        element.addEventListener("click", () => {
          if (warning && element.dataset.armed !== "yes") {
            element.dataset.armed = "yes";
            problem.replaceChildren(h("p", { class: "warning", role: "alert" }, `⚠ ${warning} Tap the move again to make it anyway.`));
            return;
          }
          void act(command);
        });
        return element;
      };
      actions.replaceChildren(...(legal.length ? legal.map(button) : [h("p", {}, "Waiting for the others.")]));
      state = legal.length ? "your-turn" : "waiting";
    }
    // Together, once all is drawn: what a test waits for.
    root.dataset.version = String(view.version);
    root.dataset.state = state;
  });
  drawing.request();
  for await (const told of client.story(gameId, { token, signal })) {
    feed.add(told.envelope);
    keepInView(narration.add(told.envelope, told.lines));
    drawing.request();
  }
  await drawing.settled();
  drawing.request();
}

/** #/invite/ID/CODE: take the seat the invitation holds, then play it. */
export async function invitePage(root: HTMLElement, gameId: string, code: string): Promise<void> {
  if (seats.get(gameId)) {
    location.hash = `#/play/${gameId}`;
    return;
  }
  const kindTitles = await titles();
  const view = await client.view(gameId);
  const title = kindTitles.get(view.table.kind) ?? view.table.kind;
  const seated = view.table.playerNames.filter((name) => name !== "");
  const name = h("input", { name: "player", placeholder: "your name", required: true, maxlength: 64 }) as HTMLInputElement;
  const problem = h("div");
  const take = async (event: Event) => {
    event.preventDefault();
    problem.replaceChildren();
    try {
      const entropy = seatEntropy();
      const seat = await client.acceptInvitation(gameId, code, name.value.trim(), { entropy, player: await playerKey() });
      seats.set(gameId, seat.token, name.value.trim(), seat.seat, entropy);
      location.hash = `#/play/${gameId}`;
    } catch (error) {
      problem.replaceChildren(errorLine(error));
    }
  };
  root.append(
    heading("An invitation to", gameId),
    h("p", { class: "status" }, `${title} for ${view.table.seatCount}: ${seated.length ? `${seated.join(", ")} ${seated.length === 1 ? "is" : "are"} seated` : "nobody is seated yet"}.`),
    h("form", { class: "accept", onsubmit: take }, h("label", {}, "Your name ", name), " ", h("button", { type: "submit" }, "Take the seat")),
    problem,
  );
  root.dataset.state = "invited";
}
