/**
 * A picture in a review copy as DrawingML: inline in its paragraph, at most a page wide and
 * `maxHeight` tall, its alt text in `wp:docPr descr` (what Word and LibreOffice read aloud and show as
 * the picture's description). A labelled graphic's markers are numbered circles anchored to the same
 * paragraph at the marker's place on the picture (the picture starts the paragraph, at its top left),
 * drawn over it, so the copy shows the markers where the learner sees them.
 */
import { el, type XmlElement } from "../../codecs/xml-write.ts";
import type { PictureRef } from "./block-lines.ts";
import type { EmbeddedPicture } from "./review-pictures.ts";

/** English Metric Units: 914,400 to the inch; a pixel at 96 dpi is 9,525. */
const emuPerPixel = 9_525;
const maxWidth = 16 * 360_000;
const maxHeight = 11 * 360_000;
/** A labelled graphic is shown at least this wide, so its markers sit apart. */
const minGraphicWidth = 12 * 360_000;
const markerSize = 0.75 * 360_000;

function displaySize(picture: EmbeddedPicture, graphic: boolean): { cx: number; cy: number } {
  let cx = picture.size.width * emuPerPixel;
  let cy = picture.size.height * emuPerPixel;
  if (graphic && cx < minGraphicWidth) {
    cy = Math.round((cy * minGraphicWidth) / cx);
    cx = minGraphicWidth;
  }
  const scale = Math.min(1, maxWidth / cx, maxHeight / cy);
  return { cx: Math.max(1, Math.round(cx * scale)), cy: Math.max(1, Math.round(cy * scale)) };
}

function inlinePicture(picture: EmbeddedPicture, alt: string, id: number, size: { cx: number; cy: number }): XmlElement {
  const name = `Picture ${id}`;
  return el(
    "w:drawing",
    {},
    el(
      "wp:inline",
      { distT: 0, distB: 0, distL: 0, distR: 0 },
      el("wp:extent", size),
      el("wp:effectExtent", { l: 0, t: 0, r: 0, b: 0 }),
      el("wp:docPr", { id, name, descr: alt }),
      el("wp:cNvGraphicFramePr", {}, el("a:graphicFrameLocks", { noChangeAspect: 1 })),
      el(
        "a:graphic",
        {},
        el(
          "a:graphicData",
          { uri: "http://schemas.openxmlformats.org/drawingml/2006/picture" },
          el(
            "pic:pic",
            {},
            el("pic:nvPicPr", {}, el("pic:cNvPr", { id, name, descr: alt }), el("pic:cNvPicPr")),
            el("pic:blipFill", {}, el("a:blip", { "r:embed": picture.relationshipId }), el("a:stretch", {}, el("a:fillRect"))),
            el("pic:spPr", {}, el("a:xfrm", {}, el("a:off", { x: 0, y: 0 }), el("a:ext", size)), el("a:prstGeom", { prst: "rect" }, el("a:avLst"))),
          ),
        ),
      ),
    ),
  );
}

/** A numbered circle anchored at (x, y) EMU from the paragraph's top left, over the text. */
function marker(number: number, x: number, y: number, id: number): XmlElement {
  const size = { cx: markerSize, cy: markerSize };
  return el(
    "w:drawing",
    {},
    el(
      "wp:anchor",
      { distT: 0, distB: 0, distL: 0, distR: 0, simplePos: 0, relativeHeight: 251_660_000 + number, behindDoc: 0, locked: 0, layoutInCell: 1, allowOverlap: 1 },
      el("wp:simplePos", { x: 0, y: 0 }),
      el("wp:positionH", { relativeFrom: "column" }, el("wp:posOffset", {}, String(Math.round(x - markerSize / 2)))),
      el("wp:positionV", { relativeFrom: "paragraph" }, el("wp:posOffset", {}, String(Math.round(y - markerSize / 2)))),
      el("wp:extent", size),
      el("wp:effectExtent", { l: 0, t: 0, r: 0, b: 0 }),
      el("wp:wrapNone"),
      el("wp:docPr", { id, name: `Marker ${number}`, descr: `Marker ${number}` }),
      el("wp:cNvGraphicFramePr"),
      el(
        "a:graphic",
        {},
        el(
          "a:graphicData",
          { uri: "http://schemas.microsoft.com/office/word/2010/wordprocessingShape" },
          el(
            "wps:wsp",
            {},
            el("wps:cNvSpPr"),
            el(
              "wps:spPr",
              {},
              el("a:xfrm", {}, el("a:off", { x: 0, y: 0 }), el("a:ext", size)),
              el("a:prstGeom", { prst: "ellipse" }, el("a:avLst")),
              el("a:solidFill", {}, el("a:srgbClr", { val: "1F4E79" })),
              el("a:ln", { w: 19_050 }, el("a:solidFill", {}, el("a:srgbClr", { val: "FFFFFF" }))),
            ),
            el(
              "wps:txbx",
              {},
              el(
                "w:txbxContent",
                {},
                el(
                  "w:p",
                  {},
                  el("w:pPr", {}, el("w:spacing", { "w:before": 0, "w:after": 0 }), el("w:jc", { "w:val": "center" })),
                  el("w:r", {}, el("w:rPr", {}, el("w:b"), el("w:color", { "w:val": "FFFFFF" }), el("w:sz", { "w:val": 20 })), el("w:t", {}, String(number))),
                ),
              ),
            ),
            el("wps:bodyPr", { lIns: 0, tIns: 0, rIns: 0, bIns: 0, anchor: "ctr" }),
          ),
        ),
      ),
    ),
  );
}

/** The picture's drawing, then one per marker; `nextId` numbers drawings across the document. */
export function pictureXml(picture: EmbeddedPicture, ref: PictureRef, nextId: () => number): XmlElement[] {
  const markers = ref.markers ?? [];
  const size = displaySize(picture, markers.length > 0);
  return [inlinePicture(picture, ref.alt ?? "", nextId(), size), ...markers.map((point, index) => marker(index + 1, (point.x / 100) * size.cx, (point.y / 100) * size.cy, nextId()))];
}
