/**
 * Reads Moodle XML (docs.moodle.org "Moodle XML format") into pools: each `category` question starts a
 * pool named by the last part of its path; `multichoice`, `truefalse`, `shortanswer`, `matching`,
 * `ordering` and `cloze` (short-answer blanks) become question blocks; `random` questions of a category
 * become its draw; `<file>` pictures (base64, named by `@@PLUGINFILE@@`) become assets. Our own export's
 * type tag turns a matching back into a sorting. Other types are reported as dropped.
 */
import { fromBase64 } from "../../bytes.ts";
import { moodleTypeTagPrefix, rubricHeading } from "./moodle-write.ts";
import { regionBounds, type RegionShape } from "../../authoring/schemas/picture-questions.ts";
import { imageSize } from "../../codecs/image-size.ts";
import { BankBuilder, itemError, type ImportedBank, type ImportedPool } from "../question-bank/bank-plan.ts";
import { firstImageTag, stripImageTags, stripTags } from "../question-bank/text-scan.ts";
import { childElement, childElements, readXmlTree, textContent, yieldToEventLoop, type XmlTree } from "../question-bank/xml-tree.ts";
import { decodeHtmlEntities } from "../../codecs/html-entities.ts";

const formatName = "Moodle XML";

const textIn = (node: XmlTree | undefined, name: string): string => textContent(childElement(childElement(node, name), "text"));

const unescapeHtml = decodeHtmlEntities;

/** A field's text as Markdown: markdown, plain and Moodle auto-format are kept; HTML loses its tags (noted). */
function fieldText(node: XmlTree | undefined, notes: string[]): string {
  const text = textContent(childElement(node, "text"));
  if (node?.name !== "answer" && /<img\b/i.test(text)) notes.push(`a picture in the ${node?.name ?? "text"} was dropped: only pictures on choices are kept`);
  if ((node?.attributes.format ?? "html") !== "html") return text.trim();
  // Tags go by scanners: /<img[^>]*>/gi and /<[^>]*>/g read to the end again from every unclosed `<`.
  const plain = unescapeHtml(stripTags(stripImageTags(text.replace(/<br\s*\/?>/gi, "\n").replace(/<\/p>\s*<p[^>]*>/gi, "\n\n")))).trim();
  if (/<(?!\/?p[ >]|img|br)[a-z]/i.test(text)) notes.push("HTML formatting was turned into plain text");
  return plain;
}

/** The picture of an answer (`@@PLUGINFILE@@/name` with its `<file>`), or the URL of an external one. */
async function answerPicture(answer: XmlTree, builder: BankBuilder, item: string): Promise<{ assetId?: string; url?: string; alt?: string } | undefined> {
  const html = textContent(childElement(answer, "text"));
  // A scanner: the expression /<img\b[^>]*\bsrc="([^"]*)"[^>]*>/i it replaces is cubic on repeated `<img` and `src=""`.
  const image = firstImageTag(html);
  if (!image) return undefined;
  const alt = /\balt="([^"]*)"/i.exec(image.tag)?.[1];
  const src = unescapeHtml(image.src);
  const altField = alt ? { alt: unescapeHtml(alt) } : {};
  if (/^https?:\/\//.test(src)) return { url: src, ...altField };
  let name: string;
  try {
    name = decodeURIComponent(src.replace(/^@@PLUGINFILE@@\//, ""));
  } catch {
    throw itemError(formatName, item, `an answer shows the picture "${src.slice(0, 200)}", whose name is not valid URL encoding`);
  }
  const file = childElements(answer, "file").find((candidate) => candidate.attributes.name === name);
  if (!file) throw itemError(formatName, item, `an answer shows the picture "${name}", which is not in the file`, { file: name });
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(textContent(file).replace(/\s+/g, ""));
  } catch {
    throw itemError(formatName, item, `the picture "${name}" is not valid base64`);
  }
  return { assetId: await builder.picture(item, name, bytes), ...altField };
}

function common(question: XmlTree, notes: string[]): { prompt: string; points: number; explanation?: string } {
  const points = Number(textContent(childElement(question, "defaultgrade")) || "1");
  const explanation = fieldText(childElement(question, "generalfeedback"), notes);
  return { prompt: fieldText(childElement(question, "questiontext"), notes), points: Number.isFinite(points) && points >= 0 ? Math.min(points, 1000) : 1, ...(explanation ? { explanation } : {}) };
}

const feedbackOf = (answer: XmlTree, notes: string[]): { feedback?: string } => {
  const text = fieldText(childElement(answer, "feedback"), notes);
  return text ? { feedback: text } : {};
};

/** A cloze sub-question found in a text: where it starts and ends, its type and its answers as written. */
interface ClozePart {
  readonly start: number;
  readonly end: number;
  readonly kind: string;
  readonly body: string;
}

const clozeLineBreaks = new Set(["\n", "\r", "\u2028", "\u2029"]);

/** Reads `{weight:KIND:` at `start` (a `{`): the type and where the answers begin, or null. */
function clozeHead(text: string, start: number): { kind: string; bodyStart: number } | null {
  let at = start + 1;
  while (at < text.length && /[0-9]/.test(text[at] as string)) at++;
  if (text[at] !== ":") return null;
  const kindStart = ++at;
  while (at < text.length && /[A-Z_]/.test(text[at] as string)) at++;
  if (at === kindStart || text[at] !== ":") return null;
  return { kind: text.slice(kindStart, at), bodyStart: at + 1 };
}

/**
 * The index of the `}` closing answers that begin at `from` (a backslash escapes the next character,
 * but not a line break), or the index where no closing brace can be found: -1 at the end of the text,
 * or -2 - (the index of a backslash before a line break).
 */
function clozeBodyEnd(text: string, from: number): number {
  for (let at = from; at < text.length; at++) {
    const character = text[at];
    if (character === "}") return at;
    if (character !== "\\") continue;
    if (at + 1 >= text.length || clozeLineBreaks.has(text[at + 1] as string)) return -2 - at;
    at++;
  }
  return -1;
}

/**
 * The cloze sub-questions of `text` in order, as the global expression
 * `/\{(\d*):([A-Z_]+):((?:\\.|[^\\}])*)\}/g` finds them, read by index. Where answers never close,
 * every later `{` inside them would be read to the same point and fail the same way, so the scan goes on
 * after that point instead of from the next `{` (the expression's quadratic cost on `{:A:{:A:…`).
 */
export function clozeParts(text: string): ClozePart[] {
  const parts: ClozePart[] = [];
  let from = 0;
  for (let start = text.indexOf("{", from); start >= 0; start = text.indexOf("{", from)) {
    const head = clozeHead(text, start);
    if (!head) {
      from = start + 1;
      continue;
    }
    const end = clozeBodyEnd(text, head.bodyStart);
    if (end === -1) break;
    if (end < -1) {
      from = -2 - end + 1;
      continue;
    }
    parts.push({ start, end: end + 1, kind: head.kind, body: text.slice(head.bodyStart, end) });
    from = end + 1;
  }
  return parts;
}

/** `{1:SHORTANSWER:=a~%100%b#fb~%0%*#wrong}` blanks of a cloze question; other sub-question types are refused. */
function clozeBlanks(text: string, notes: string[]): { text: string; blanks: Record<string, unknown>[] } | null {
  const blanks: Record<string, unknown>[] = [];
  let unsupported = false;
  const blankOf = (kind: string, body: string): string => {
    if (!/^(SHORTANSWER(_C)?|SA|MW|SAC|MWC)$/.test(kind)) {
      unsupported = true;
      return "";
    }
    const answers: string[] = [];
    let feedback: string | undefined;
    for (const part of body.split(/(?<!\\)~/)) {
      const match = /^(=|%(-?\d+(?:\.\d+)?)%)?((?:\\.|[^\\#])*)(?:#(.*))?$/.exec(part);
      if (!match) continue;
      const value = (match[3] ?? "").replace(/\\(.)/g, "$1");
      const credit = match[1] === "=" ? 100 : Number(match[2] ?? "0");
      if (credit >= 100) answers.push(value);
      else if (value === "*" && match[4]) feedback = match[4].replace(/\\(.)/g, "$1");
      else if (credit > 0) notes.push(`a partly right answer "${value}" of blank ${blanks.length + 1} was dropped`);
    }
    blanks.push({ answers, caseSensitive: /_C$|SAC|MWC/.test(kind), ...(feedback ? { feedback } : {}) });
    return `{{${blanks.length}}}`;
  };
  let sentence = "";
  let from = 0;
  for (const part of clozeParts(text)) {
    sentence += text.slice(from, part.start) + blankOf(part.kind, part.body);
    from = part.end;
  }
  sentence += text.slice(from);
  if (unsupported || blanks.length === 0) return null;
  return { text: sentence, blanks };
}

const choiceKinds = /^(MULTICHOICE|MC)(_?[VH]?S?)?$/;

/** `{1:MULTICHOICE:=right~wrong#feedback}` gaps of a cloze whose every part is a choice, as drop-downs; else null. */
function clozeDropDowns(text: string, notes: string[]): { text: string; gaps: Record<string, unknown>[] } | null {
  const parts = clozeParts(text);
  if (parts.length === 0 || parts.some((part) => !choiceKinds.test(part.kind))) return null;
  if (parts.some((part) => part.kind !== "MULTICHOICE" && part.kind !== "MC")) notes.push("choices shown as buttons became drop-downs");
  const gaps: Record<string, unknown>[] = [];
  let sentence = "";
  let from = 0;
  for (const part of parts) {
    const choices: { text: string; correct?: boolean }[] = [];
    let feedback: string | undefined;
    for (const answer of part.body.split(/(?<!\\)~/)) {
      const match = /^(=|%(-?\d+(?:\.\d+)?)%)?((?:\\.|[^\\#])*)(?:#(.*))?$/.exec(answer);
      if (!match) continue;
      const value = (match[3] ?? "").replace(/\\(.)/g, "$1").trim();
      const right = match[1] === "=" || Number(match[2] ?? "0") >= 100;
      if (!right && match[4]) feedback ??= match[4].replace(/\\(.)/g, "$1");
      choices.push({ text: value, ...(right ? { correct: true } : {}) });
    }
    gaps.push({ choices, ...(feedback ? { feedback } : {}) });
    sentence += `${text.slice(from, part.start)}{{${gaps.length}}}`;
    from = part.end;
  }
  return { text: sentence + text.slice(from), gaps };
}

/** A numerical question: its right answer and tolerance, the wrong answers' catch-all feedback, the unit. */
function numericalQuestion(question: XmlTree, base: ReturnType<typeof common>, notes: string[]): Record<string, unknown> {
  const answers = childElements(question, "answer");
  const right = answers.filter((answer) => Number(answer.attributes.fraction ?? "0") >= 100);
  if (right.length > 1) notes.push(`${right.length - 1} more right answer(s) were dropped: a numeric question has one right value or range`);
  if (answers.some((answer) => { const fraction = Number(answer.attributes.fraction ?? "0"); return fraction > 0 && fraction < 100; })) notes.push("partly right answers were dropped");
  const first = right[0];
  const value = Number(textContent(childElement(first, "text")).trim());
  const tolerance = Math.abs(Number(textContent(childElement(first, "tolerance")).trim() || "0"));
  const wildcard = answers.find((answer) => textContent(childElement(answer, "text")).trim() === "*" && Number(answer.attributes.fraction ?? "0") === 0);
  const correctFeedback = first ? feedbackOf(first, notes).feedback : undefined;
  const incorrectFeedback = wildcard ? feedbackOf(wildcard, notes).feedback : undefined;
  const unit = childElements(childElement(question, "units"), "unit").find((candidate) => Number(textContent(childElement(candidate, "multiplier")).trim() || "1") === 1);
  const unitName = textContent(childElement(unit, "unit_name")).trim();
  return {
    type: "numeric",
    ...base,
    value: Number.isFinite(value) ? value : 0,
    ...(Number.isFinite(tolerance) && tolerance > 0 ? { tolerance } : {}),
    ...(unitName ? { unit: unitName.slice(0, 40) } : {}),
    ...(correctFeedback ? { correctFeedback } : {}),
    ...(incorrectFeedback ? { incorrectFeedback } : {}),
  };
}

/** An essay: the information for graders is the model answer, and a "Rubric:" list in it the criteria. */
function essayQuestion(question: XmlTree, base: ReturnType<typeof common>, notes: string[]): Record<string, unknown> {
  const info = fieldText(childElement(question, "graderinfo"), notes);
  const at = info.indexOf(`\n\n${rubricHeading}\n`);
  const modelAnswer = (at < 0 ? info : info.slice(0, at)).trim();
  const criteria = (at < 0 ? [] : info.slice(at + rubricHeading.length + 3).split("\n"))
    .map((line) => /^-\s+(.*?)\s*\((\d+(?:\.\d+)?)\)\s*$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ text: (match[1] ?? "").slice(0, 500), points: Math.min(1000, Number(match[2])) }));
  if (!modelAnswer) notes.push("the question gives graders no information: write a model answer for learners to compare with");
  return { type: "open_response", ...base, modelAnswer: modelAnswer || "(no model answer given)", ...(criteria.length > 0 ? { rubric: { criteria: criteria.slice(0, 20) } } : {}) };
}

/** A ddmarker drop zone's region: `x,y;r`, `x,y;w,h` or `x,y;x,y;…`. */
function markerRegion(shape: string, coords: string): RegionShape | null {
  const parts = coords.split(";").map((part) => part.split(",").map((value) => Number(value.trim())));
  if (parts.some((part) => part.some((value) => !Number.isFinite(value)))) return null;
  const [[x = 0, y = 0] = [], second = []] = parts;
  if (parts[0]?.length !== 2) return null;
  if (shape === "circle" && parts.length === 2 && second.length === 1) return { shape: "circle", x, y, radius: second[0] ?? 0 };
  if (shape === "rectangle" && parts.length === 2 && second.length === 2) return { shape: "rect", x, y, width: second[0] ?? 0, height: second[1] ?? 0 };
  if (shape === "polygon" && parts.length >= 3 && parts.every((part) => part.length === 2)) return { shape: "polygon", points: parts.map(([px = 0, py = 0]) => [px, py] as [number, number]) };
  return null;
}

/** ddmarker: our own hotspot (by its type tag) comes back as a hotspot; any other as markers onto zones. */
async function markerQuestion(question: XmlTree, base: ReturnType<typeof common>, ourType: string | undefined, builder: BankBuilder, item: string, notes: string[]): Promise<Record<string, unknown> | string> {
  const file = childElements(question, "file")[0];
  if (!file) return "has no background picture";
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(textContent(file).replace(/\s+/g, ""));
  } catch {
    return `its background picture "${file.attributes.name ?? ""}" is not valid base64`;
  }
  const assetId = await builder.picture(item, file.attributes.name ?? "background.png", bytes);
  const asset = builder.assets.find((candidate) => candidate.sourceId === assetId);
  const size = asset ? imageSize(asset.bytes, asset.mediaType) : null;
  const drops = childElements(question, "drop").map((drop) => ({ region: markerRegion(textContent(childElement(drop, "shape")).trim(), textContent(childElement(drop, "coords")).trim()), choice: textContent(childElement(drop, "choice")).trim() }));
  if (drops.some((drop) => drop.region === null)) return "has a drop zone whose shape or coordinates cannot be read";
  const regions = drops.map((drop) => drop.region as RegionShape);
  const right = Math.max(1, ...regions.map((region) => regionBounds(region)[2]));
  const bottom = Math.max(1, ...regions.map((region) => regionBounds(region)[3]));
  // Zones are in the background's pixels; a frame that does not hold them (a file smaller than its zones) grows to.
  const image = { assetId, alt: "Picture", width: Math.max(size?.width ?? 0, Math.ceil(right)), height: Math.max(size?.height ?? 0, Math.ceil(bottom)) };
  notes.push("the picture has no alt text in Moodle: write one");
  if (ourType === "hotspot") return { type: "hotspot", ...base, image, regions: regions.map((region, index) => ({ ...region, name: `Region ${index + 1}`, correct: true })) };
  const drags = childElements(question, "drag").map((drag) => ({ no: textContent(childElement(drag, "no")).trim(), text: textContent(childElement(drag, "text")).trim() }));
  const zones = regions.map((region, index) => ({ ...region, id: `zone${index + 1}`, name: `Zone ${index + 1}` }));
  const used = new Set<string>();
  const labels = drags.map((drag) => {
    const index = drops.findIndex((drop, at) => drop.choice === drag.no && !used.has(zones[at]?.id ?? ""));
    const zone = index < 0 ? undefined : zones[index]?.id;
    if (zone) used.add(zone);
    return { text: drag.text || `Label ${drag.no}`, ...(zone ? { zone } : {}) };
  });
  if (used.size < zones.length) notes.push("a marker dropped on several zones keeps its first: a label belongs on one zone");
  return { type: "drag_onto_image", ...base, image, zones: zones.filter((zone) => used.has(zone.id)), labels };
}

/** Splits "prompt\n\nsentence" where the sentence is the paragraph holding the first blank. */
function promptAndSentence(text: string, marker: string): { prompt: string; text: string } {
  const at = text.indexOf(marker);
  const split = text.lastIndexOf("\n\n", at);
  if (split < 0) return { prompt: "Fill in the blank.", text };
  return { prompt: text.slice(0, split), text: text.slice(split + 2) };
}

async function readQuestion(question: XmlTree, pool: ImportedPool, builder: BankBuilder, item: string): Promise<void> {
  const type = question.attributes.type ?? "";
  const notes: string[] = [];
  const tags = childElements(childElement(question, "tags"), "tag").map((tag) => textContent(childElement(tag, "text")).trim());
  const ourType = tags.find((tag) => tag.startsWith(moodleTypeTagPrefix))?.slice(moodleTypeTagPrefix.length);
  const answers = childElements(question, "answer");
  const base = common(question, notes);
  switch (type) {
    case "multichoice": {
      const single = textContent(childElement(question, "single")).trim() !== "false";
      if (["false", "0"].includes(textContent(childElement(question, "shuffleanswers")).trim())) Object.assign(pool, { shuffleChoices: false });
      const choices: Record<string, unknown>[] = [];
      for (const answer of answers) {
        const image = await answerPicture(answer, builder, item);
        choices.push({ text: fieldText(answer, []) || (image ? "(picture)" : ""), correct: Number(answer.attributes.fraction ?? "0") > 0, ...feedbackOf(answer, notes), ...(image ? { image } : {}) });
      }
      const partial = answers.some((answer) => {
        const fraction = Number(answer.attributes.fraction ?? "0");
        return single && fraction > 0 && fraction < 100;
      });
      if (partial) notes.push("partly right choices became right: a single-answer question scores one right choice");
      const correct = choices.filter((choice) => choice.correct).length;
      const asSingle = single && correct === 1;
      return builder.add(pool, item, { type: asSingle ? "single_choice" : "multiple_choice", ...base, choices }, notes);
    }
    case "truefalse": {
      const right = answers.find((answer) => Number(answer.attributes.fraction ?? "0") >= 100);
      const feedbackFor = (value: string): { feedback?: string } => {
        const answer = answers.find((candidate) => textContent(childElement(candidate, "text")).trim().toLowerCase() === value);
        return answer ? feedbackOf(answer, notes) : {};
      };
      const trueFeedback = feedbackFor("true").feedback;
      const falseFeedback = feedbackFor("false").feedback;
      return builder.add(pool, item, { type: "true_false", ...base, answer: textContent(childElement(right, "text")).trim().toLowerCase() === "true", ...(trueFeedback ? { trueFeedback } : {}), ...(falseFeedback ? { falseFeedback } : {}) }, notes);
    }
    case "shortanswer": {
      const accepted = answers.filter((answer) => Number(answer.attributes.fraction ?? "0") >= 100).map((answer) => textContent(childElement(answer, "text")).trim());
      const wildcard = answers.find((answer) => textContent(childElement(answer, "text")).trim() === "*" && Number(answer.attributes.fraction ?? "0") === 0);
      if (answers.some((answer) => { const fraction = Number(answer.attributes.fraction ?? "0"); return fraction > 0 && fraction < 100; })) notes.push("partly right answers were dropped");
      const feedback = wildcard ? feedbackOf(wildcard, notes).feedback : undefined;
      const hasBlank = base.prompt.includes("_____");
      const split = hasBlank ? promptAndSentence(base.prompt, "_____") : { prompt: base.prompt, text: "{{1}}" };
      return builder.add(pool, item, {
        type: "fill_in_blank",
        ...base,
        prompt: split.prompt,
        text: hasBlank ? split.text.replace("_____", "{{1}}").replace(/_____/g, "") : split.text,
        blanks: [{ answers: accepted, caseSensitive: textContent(childElement(question, "usecase")).trim() === "1", ...(feedback ? { feedback } : {}) }],
      }, notes);
    }
    case "cloze": {
      const dropDowns = clozeDropDowns(base.prompt, notes);
      if (dropDowns) {
        const split = promptAndSentence(dropDowns.text, "{{1}}");
        return builder.add(pool, item, { type: "inline_choice", ...base, prompt: split.prompt, text: split.text, gaps: dropDowns.gaps }, notes);
      }
      const cloze = clozeBlanks(base.prompt, notes);
      if (!cloze) return builder.drop(item, "its embedded answers mix kinds: all short answers (fill in the blank) or all choices (drop-downs) are read, numerical blanks have no equivalent");
      const split = promptAndSentence(cloze.text, "{{1}}");
      return builder.add(pool, item, { type: "fill_in_blank", ...base, prompt: split.prompt, text: split.text, blanks: cloze.blanks }, notes);
    }
    case "matching": {
      const subquestions = childElements(question, "subquestion").map((sub) => ({ left: unescapeHtml(stripTags(textContent(childElement(sub, "text")))).trim(), right: textContent(childElement(childElement(sub, "answer"), "text")).trim() }));
      const distractors = subquestions.filter((sub) => sub.left === "");
      const pairs = subquestions.filter((sub) => sub.left !== "");
      if (ourType === "sorting") {
        const titles = [...new Set([...distractors.map((sub) => sub.right), ...pairs.map((sub) => sub.right)])];
        return builder.add(pool, item, { type: "sorting", ...base, categories: titles.map((title) => ({ title })), items: pairs.map((pair) => ({ text: pair.left, category: pair.right })) }, notes);
      }
      if (distractors.length > 0) notes.push(`${distractors.length} extra wrong answer(s) were dropped: a matching pairs each left item with one right item`);
      return builder.add(pool, item, { type: "matching", ...base, pairs }, notes);
    }
    case "ordering": {
      const items = [...answers].sort((a, b) => Number(a.attributes.fraction ?? "0") - Number(b.attributes.fraction ?? "0")).map((answer) => ({ text: fieldText(answer, notes) }));
      const grading = textContent(childElement(question, "gradingtype")).trim();
      if (grading && grading !== "ALL_OR_NOTHING") notes.push(`Moodle's ${grading} grading became all or nothing`);
      return builder.add(pool, item, { type: "ordering", ...base, items }, notes);
    }
    case "numerical":
      return builder.add(pool, item, numericalQuestion(question, base, notes), notes);
    case "essay":
      return builder.add(pool, item, essayQuestion(question, base, notes), notes);
    case "ddmarker": {
      const read = await markerQuestion(question, base, ourType, builder, item, notes);
      return typeof read === "string" ? builder.drop(item, read) : builder.add(pool, item, read, notes);
    }
    default:
      return builder.drop(item, `Moodle's ${type || "untyped"} question has no equivalent`);
  }
}

export async function readMoodleXml(text: string): Promise<ImportedBank> {
  const root = await readXmlTree(text, "the Moodle XML file");
  if (root.name !== "quiz") throw itemError(formatName, "(the file)", `is XML but not Moodle XML: its root element is <${root.name}>, not <quiz>`);
  const builder = new BankBuilder(formatName);
  let pool: ImportedPool | undefined;
  let draws = 0;
  const closePool = (): void => {
    if (pool && draws > 0) Object.assign(pool, { drawCount: draws });
    draws = 0;
  };
  for (const [index, question] of childElements(root, "question").entries()) {
    if (index % 200 === 199) await yieldToEventLoop();
    const type = question.attributes.type ?? "";
    if (type === "category") {
      closePool();
      const path = textIn(question, "category").replace(/\/\//g, "\u0000").split("/").map((part) => part.replace(/\u0000/g, "/").trim());
      pool = builder.pool(path.at(-1) ?? "");
      continue;
    }
    pool ??= builder.pool("Imported questions");
    if (type === "random") {
      draws += 1;
      continue;
    }
    const name = textIn(question, "name").trim();
    const item = `${index + 1} "${name.slice(0, 80)}"`;
    builder.countItem(item, pool);
    await readQuestion(question, pool, builder, item);
  }
  closePool();
  return builder.result();
}
