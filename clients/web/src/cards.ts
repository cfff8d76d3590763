// Cards drawn with SVG: a face (corner mark, picture, caption, colour) or a
// back for a card the viewer may not see.
import { s } from "./dom.js";

export interface Face {
  /** Short mark in the corners, e.g. "3" or "L". */
  corner: string;
  /** A caption under the picture, e.g. "Stars" or "Lady". */
  caption: string;
  color: string;
  picture: SVGElement;
  /** A band across the bottom, e.g. a Smiles & Daggers orientation. */
  band?: { text: string; color: string };
}

const WIDTH = 60;
const HEIGHT = 84;

function frame(className: string, title: string, ...children: SVGElement[]): SVGElement {
  return s(
    "svg",
    { class: className, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: "img" },
    s("title", {}, title),
    ...children,
  );
}

export function cardFace(face: Face): SVGElement {
  const children = [
    s("rect", { x: 1, y: 1, width: WIDTH - 2, height: HEIGHT - 2, rx: 6, fill: "#fffdf7", stroke: face.color, "stroke-width": 2 }),
    s("text", { x: 6, y: 14, "font-size": 11, "font-weight": "bold", fill: face.color }, face.corner),
    // The top-left mark turned about the card's centre: the same inset from
    // the bottom-right corner, whole whatever its width.
    s("text", { x: 6, y: 14, "font-size": 11, "font-weight": "bold", fill: face.color, transform: `rotate(180 ${WIDTH / 2} ${HEIGHT / 2})` }, face.corner),
    face.picture,
    s("text", { x: WIDTH / 2, y: 66, "font-size": 8, fill: "#333", "text-anchor": "middle" }, face.caption),
  ];
  if (face.band) {
    children.push(
      s("rect", { x: 4, y: 69, width: WIDTH - 8, height: 10, rx: 3, fill: face.band.color }),
      s("text", { x: WIDTH / 2, y: 77, "font-size": 7, fill: "#fff", "text-anchor": "middle" }, face.band.text),
    );
  }
  return frame("card face", `${face.caption} ${face.corner}${face.band ? `, ${face.band.text}` : ""}`, ...children);
}

export function cardBack(): SVGElement {
  return frame(
    "card back",
    "a hidden card",
    s("rect", { x: 1, y: 1, width: WIDTH - 2, height: HEIGHT - 2, rx: 6, fill: "#27407a", stroke: "#101c38", "stroke-width": 2 }),
    s("rect", { x: 7, y: 7, width: WIDTH - 14, height: HEIGHT - 14, rx: 4, fill: "none", stroke: "#9fb4e8", "stroke-width": 1.5, "stroke-dasharray": "3 2" }),
    s("circle", { cx: WIDTH / 2, cy: HEIGHT / 2, r: 9, fill: "none", stroke: "#9fb4e8", "stroke-width": 1.5 }),
  );
}

/** An empty place where a card may go. */
export function cardSlot(title: string): SVGElement {
  return frame(
    "card slot",
    title,
    s("rect", { x: 1, y: 1, width: WIDTH - 2, height: HEIGHT - 2, rx: 6, fill: "none", stroke: "#999", "stroke-dasharray": "4 3" }),
  );
}

// ------------------------------------------------------------ pictures

const CX = WIDTH / 2;
const CY = 38;

export function star(color: string): SVGElement {
  const points: string[] = [];
  for (let i = 0; i < 10; i += 1) {
    const radius = i % 2 === 0 ? 15 : 6.5;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(CX + radius * Math.cos(angle)).toFixed(1)},${(CY + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return s("polygon", { points: points.join(" "), fill: color });
}

export function swirl(color: string): SVGElement {
  const d = `M${CX} ${CY} a3 3 0 1 1 3 3 a6 6 0 1 1 -6 -6 a9 9 0 1 1 9 9 a12 12 0 1 1 -12 -12`;
  return s("path", { d, fill: "none", stroke: color, "stroke-width": 2.5, "stroke-linecap": "round" });
}

export function skull(color: string): SVGElement {
  return s(
    "g",
    {},
    s("circle", { cx: CX, cy: CY - 3, r: 12, fill: color }),
    s("rect", { x: CX - 7, y: CY + 5, width: 14, height: 8, rx: 2, fill: color }),
    s("circle", { cx: CX - 5, cy: CY - 3, r: 3.5, fill: "#fffdf7" }),
    s("circle", { cx: CX + 5, cy: CY - 3, r: 3.5, fill: "#fffdf7" }),
    s("path", { d: `M${CX - 4} ${CY + 9} v3 M${CX} ${CY + 9} v3 M${CX + 4} ${CY + 9} v3`, stroke: "#fffdf7", "stroke-width": 1.5 }),
  );
}

export function mirror(): SVGElement {
  return s(
    "g",
    {},
    s("ellipse", { cx: CX, cy: CY, rx: 12, ry: 16, fill: "#dfe6ee", stroke: "#7b8794", "stroke-width": 2.5 }),
    s("path", { d: `M${CX - 5} ${CY - 8} l6 -4 M${CX - 6} ${CY - 2} l10 -7`, stroke: "#fff", "stroke-width": 2, "stroke-linecap": "round" }),
  );
}

export function crown(color: string): SVGElement {
  const d = `M${CX - 14} ${CY + 8} L${CX - 14} ${CY - 8} L${CX - 7} ${CY} L${CX} ${CY - 12} L${CX + 7} ${CY} L${CX + 14} ${CY - 8} L${CX + 14} ${CY + 8} Z`;
  return s("path", { d, fill: color });
}

export function gem(color: string): SVGElement {
  const d = `M${CX} ${CY - 14} L${CX + 11} ${CY - 3} L${CX} ${CY + 13} L${CX - 11} ${CY - 3} Z`;
  return s("g", {}, s("path", { d, fill: color }), s("path", { d: `M${CX - 11} ${CY - 3} H${CX + 11}`, stroke: "#fffdf7", "stroke-width": 1.5 }));
}

export function shield(color: string): SVGElement {
  const d = `M${CX - 12} ${CY - 13} H${CX + 12} V${CY} Q${CX + 12} ${CY + 10} ${CX} ${CY + 15} Q${CX - 12} ${CY + 10} ${CX - 12} ${CY} Z`;
  return s("g", {}, s("path", { d, fill: color }), s("path", { d: `M${CX} ${CY - 13} V${CY + 15}`, stroke: "#fffdf7", "stroke-width": 1.5 }));
}
