// Smiles & Daggers at the table: families, coins, hands, the challenge on
// the table and its bets, cards as pictures (hidden ones as backs).
import type { Message } from "@bufbuild/protobuf";
import {
  type CommitmentView,
  Family,
  GameEndReason,
  Orientation,
  Phase,
  Rank,
  type View,
  ViewSchema,
} from "@cardroom/client/gen/cardroom/smiles_and_daggers/v1/smiles_and_daggers_pb.js";
import { familyWord, rankWord, shapeWords } from "@cardroom/client/narration/smiles-and-daggers.js";
import { cardBack, cardFace, cardSlot, crown, gem, shield } from "../cards.js";
import { h } from "../dom.js";
import { enumWord, type GameUi, list, nameOf, type Seating } from "./ui.js";

const FAMILY_COLORS: Record<number, string> = {
  [Family.DRAGON]: "#b3261e",
  [Family.KRAKEN]: "#0f7c80",
  [Family.PEGACORN]: "#9c3fa8",
  [Family.HYDRA]: "#2e7d32",
  [Family.CHIMERA]: "#d2691e",
  [Family.GRIFFIN]: "#a07c10",
};
const PICTURES: Record<number, (color: string) => SVGElement> = {
  [Rank.LORD]: crown,
  [Rank.LADY]: gem,
  [Rank.KNIGHT]: shield,
};
const ORIENTATION_BANDS: Record<number, { text: string; color: string }> = {
  [Orientation.SMILE]: { text: "smile", color: "#2e7d32" },
  [Orientation.DAGGER]: { text: "dagger", color: "#b3261e" },
};

function drawCard(rank: Rank, family: Family, orientation?: Orientation): SVGElement {
  const color = FAMILY_COLORS[family] ?? "#444";
  return cardFace({
    corner: rankWord(rank).slice(0, 2),
    caption: rankWord(rank),
    color,
    picture: (PICTURES[rank] ?? shield)(color),
    band: orientation === undefined ? undefined : ORIENTATION_BANDS[orientation],
  });
}

function commitment(view: CommitmentView | undefined, family: Family, names: string[]): HTMLElement {
  if (view === undefined) return h("div");
  let card: SVGElement;
  if (view.eliminated) card = cardSlot("eliminated");
  else if (!view.committed) card = cardSlot("not played yet");
  else if (view.rank === Rank.UNSPECIFIED) card = cardBack();
  else card = drawCard(view.rank, family, view.orientation);
  const note = view.eliminated ? "eliminated" : view.committed ? "played" : "choosing…";
  return h("div", { class: "commitment" }, h("div", { class: "label" }, `${nameOf(names, view.seat)}: ${note}`), card);
}

function drawView(message: Message, seating: Seating): HTMLElement {
  const view = message as View;
  const familyOf = (seat: number) => view.seats[seat]?.family ?? Family.UNSPECIFIED;
  const facts = [`Turn ${view.turn}`, enumWord(Phase, view.phase)];
  if (view.currentSeat !== undefined) facts.push(`${nameOf(seating.names, view.currentSeat)} holds the tile`);
  if (view.awaiting.length) facts.push(`waiting for ${list(view.awaiting.map((s) => nameOf(seating.names, s)))}`);
  const seats = view.seats.map((seat) => {
    const color = FAMILY_COLORS[seat.family] ?? "#777";
    const hand = h("div", { class: "cards" });
    if (seat.handVisible) hand.append(...seat.hand.map((rank) => drawCard(rank, seat.family)));
    else for (let i = 0; i < seat.handCount; i += 1) hand.append(cardBack());
    const gone = [...seat.eliminated.map(rankWord), ...seat.lost.map((r) => `${rankWord(r)} (lost)`)];
    return h(
      "section",
      { class: `seat${seat.seat === seating.viewer ? " mine" : ""}`, "data-seat": seat.seat, style: `border-color: ${color}` },
      h(
        "h3",
        {},
        nameOf(seating.names, seat.seat),
        h("span", { class: "badge", style: `background: ${color}; color: #fff` }, seat.family ? familyWord(seat.family) : "no family yet"),
        h("span", { class: "badge coins" }, `${seat.coins} coin${seat.coins === 1 ? "" : "s"}`),
        view.awaiting.includes(seat.seat) ? h("span", { class: "badge turn" }, "to act") : null,
      ),
      h("div", { class: "label" }, `hand (${seat.handCount})`),
      hand,
      gone.length ? h("div", { class: "label" }, `out of the game: ${gone.join(", ")}`) : null,
    );
  });
  const challenge = view.challenge;
  const table = challenge
    ? h(
        "section",
        { class: "challenge" },
        h("h3", {}, "The challenge"),
        h(
          "div",
          { class: "cards" },
          commitment(challenge.current, familyOf(challenge.current?.seat ?? 0), seating.names),
          commitment(challenge.opponent, familyOf(challenge.opponent?.seat ?? 0), seating.names),
        ),
        challenge.bets.length
          ? h(
              "ul",
              { class: "bets" },
              ...challenge.bets.map((bet) =>
                h(
                  "li",
                  {},
                  `${nameOf(seating.names, bet.seat)}: ${bet.passed ? "passes" : `bets ${shapeWords(bet.shape)}`}`,
                  bet.settled ? (bet.correct ? " — right" : " — wrong") : "",
                ),
              ),
            )
          : null,
      )
    : null;
  const over = view.phase === Phase.OVER
    ? h("p", { class: "winner" }, `${list(view.winners.map((s) => nameOf(seating.names, s))) || "Nobody"} won (${enumWord(GameEndReason, view.endReason).toLowerCase()})`)
    : null;
  return h("div", { class: "game smiles-and-daggers" }, h("p", { class: "facts" }, facts.join(" · ")), over, table, h("div", { class: "seats" }, ...seats));
}

export const smilesAndDaggers: GameUi = { package: ViewSchema.typeName.replace(/\.View$/, ""), drawView };
