// Smile Life at the table: each seat's life (studies, job, salaries, flirts,
// marriage, children, acquisitions, distinctions, maluses) and smiles, its
// hand (face up for its own seat, backs for everyone else), the draw and
// discard piles, the river and the casino.
import type { Message } from "@bufbuild/protobuf";
import {
  type Life,
  Phase,
  Stage,
  type View,
  ViewSchema,
} from "@cardroom/client/gen/cardroom/smile_life/v1/smile_life_pb.js";
import { cardWord, familyOf, stepWords } from "@cardroom/client/narration/smile-life.js";
import { cardBack, cardFace, crown, gem, shield, skull, star, swirl } from "../cards.js";
import { h } from "../dom.js";
import { enumWord, type GameUi, list, nameOf, type Seating } from "./ui.js";

interface Family {
  color: string;
  picture: (color: string) => SVGElement;
}

const FAMILIES: Record<string, Family> = {
  study: { color: "#2b7bb9", picture: star },
  job: { color: "#1f5f99", picture: crown },
  salary: { color: "#2e7d32", picture: gem },
  flirt: { color: "#c2185b", picture: gem },
  marriage: { color: "#ad1457", picture: crown },
  adultery: { color: "#6a1b9a", picture: swirl },
  child: { color: "#ef6c00", picture: star },
  pet: { color: "#8d6e63", picture: star },
  trip: { color: "#00838f", picture: swirl },
  house: { color: "#5d4037", picture: shield },
  distinction: { color: "#a07c10", picture: crown },
  malus: { color: "#5b5b5b", picture: skull },
  special: { color: "#7b1fa2", picture: swirl },
};

function smilesOf(card: string): number {
  const family = familyOf(card);
  if (card === "pet_unicorn" || card === "house_villa" || card === "legion_of_honour") return 3;
  if (card === "excellence_prize") return 4;
  if (card.startsWith("house_medium")) return 2;
  return { job: 2, marriage: 3, child: 2, malus: 0, special: 0 }[family] ?? 1;
}

function drawCard(card: string): SVGElement {
  const family = FAMILIES[familyOf(card)] ?? { color: "#444", picture: star };
  const smiles = smilesOf(card);
  return cardFace({ corner: smiles ? `${smiles}☺` : "–", caption: cardWord(card), color: family.color, picture: family.picture(family.color) });
}

function chips(cards: string[], extra: (index: number) => string = () => ""): HTMLElement[] {
  return cards.map((card, index) => h("span", { class: "chip", style: `border: 1px solid ${FAMILIES[familyOf(card)]?.color ?? "#777"}; border-radius: 4px; padding: 0 4px; margin: 0 2px; white-space: nowrap` }, cardWord(card) + extra(index)));
}

function lifeRows(life: Life | undefined): HTMLElement[] {
  if (life === undefined) return [];
  const rows: [string, HTMLElement[]][] = [
    ["studies", chips(life.studies.map((study) => study.card))],
    ["job", life.job ? chips([life.job], () => (life.prizeActive ? " + excellence prize" : "")) : []],
    ["salaries", chips(life.salaries.map((salary) => salary.card), (i) => (life.salaries[i]?.invested ? " (invested)" : ""))],
    ["flirts", chips([...life.flirts, ...life.keptFlirts])],
    ["marriage", life.marriage ? chips([life.marriage]) : []],
    ["adultery", life.adultery ? chips([life.adultery, ...life.adulteryFlirts]) : []],
    ["children", chips(life.children)],
    ["pets", chips(life.pets)],
    ["houses", chips(life.houses)],
    ["trips", chips(life.trips)],
    ["distinctions", chips(life.distinctions)],
    ["maluses", chips(life.maluses)],
    ["used", chips(life.specials)],
  ];
  const out = rows.filter(([, items]) => items.length).map(([label, items]) => h("div", { class: "life" }, h("span", { class: "label" }, `${label}: `), ...items));
  const notes: string[] = [];
  if (life.inheritance) notes.push(`inheritance ${life.inheritance}`);
  if (life.missedTurns) notes.push(`misses ${life.missedTurns} turn${life.missedTurns === 1 ? "" : "s"}`);
  if (notes.length) out.push(h("div", { class: "label" }, notes.join(" · ")));
  return out;
}

function drawView(message: Message, seating: Seating): HTMLElement {
  const view = message as View;
  const who = (seat: number | undefined) => nameOf(seating.names, seat);
  const facts = [view.phase === Phase.TURN ? `Turn ${view.turn}` : enumWord(Phase, view.phase)];
  if (view.currentSeat !== undefined) facts.push(`${who(view.currentSeat)}'s turn`);
  if (view.phase === Phase.TURN && view.stage) facts.push(enumWord(Stage, view.stage).toLowerCase());
  const top = view.steps.at(-1);
  if (top) facts.push(`${who(top.seat)}: ${stepWords(top.step)}`);
  if (view.awaiting.length) facts.push(`waiting for ${list(view.awaiting.map(who))}`);
  const seats = view.seats.map((seat) => {
    const hand = h("div", { class: "cards" });
    if (seat.handVisible) hand.append(...seat.hand.map(drawCard));
    else for (let i = 0; i < seat.handCount; i += 1) hand.append(cardBack());
    return h(
      "section",
      { class: `seat${seat.seat === seating.viewer ? " mine" : ""}`, "data-seat": seat.seat },
      h(
        "h3",
        {},
        who(seat.seat),
        h("span", { class: "badge coins" }, `${seat.smiles} smile${seat.smiles === 1 ? "" : "s"}`),
        view.awaiting.includes(seat.seat) ? h("span", { class: "badge turn" }, "to act") : null,
      ),
      ...lifeRows(seat.life),
      h("div", { class: "label" }, `hand (${seat.handCount})${seat.knownCards.length ? ` — known: ${seat.knownCards.map(cardWord).join(", ")}` : ""}`),
      hand,
    );
  });
  const topDiscard = view.discardPile.at(-1);
  const table = h(
    "section",
    { class: "piles" },
    h("div", { class: "label" }, `draw pile: ${view.drawPileCount} · discard pile: ${view.discardPile.length}${topDiscard?.discardedBy !== undefined ? ` (top discarded by ${who(topDiscard.discardedBy)})` : ""}`),
    h("div", { class: "cards" }, ...(topDiscard ? [drawCard(topDiscard.card)] : []), ...view.river.map(drawCard), ...(view.heldCard ? [drawCard(view.heldCard)] : [])),
    view.river.length ? h("div", { class: "label" }, `river: ${view.river.map(cardWord).join(", ")}`) : null,
    view.heldCard ? h("div", { class: "label" }, `to be played at once: ${cardWord(view.heldCard)}`) : null,
    view.luckCards.length ? h("div", { class: "label" }, `luck shows: ${view.luckCards.map(cardWord).join(", ")}`) : null,
    view.casino?.open
      ? h("div", { class: "label" }, `casino (opened by ${who(view.casino.owner)})${view.casino.hasBet ? `: ${who(view.casino.bettor)} bet ${view.casino.betCard ? cardWord(view.casino.betCard) : "a hidden salary"}` : ""}${view.casino.hasSecondBet ? `, ${who(view.casino.secondBettor)} bet ${view.casino.secondBetCard ? cardWord(view.casino.secondBetCard) : "a hidden salary"}` : ""}`)
      : null,
  );
  const over = view.phase === Phase.OVER ? h("p", { class: "winner" }, `${list(view.winners.map(who)) || "Nobody"} won`) : null;
  return h("div", { class: "game smile-life" }, h("p", { class: "facts" }, facts.join(" · ")), over, table, h("div", { class: "seats" }, ...seats));
}

export const smileLife: GameUi = { package: ViewSchema.typeName.replace(/\.View$/, ""), drawView };
