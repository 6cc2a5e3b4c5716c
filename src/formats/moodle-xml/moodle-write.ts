/**
 * A question bank as Moodle XML (docs.moodle.org "Moodle XML format"): a category per lesson
 * (`$course$/top/<course>/<lesson>`), then its questions in Moodle's own types: `multichoice` (single and
 * multiple answers), `truefalse`, `shortanswer` (one blank), `cloze` (several blanks, each worth the same,
 * as in the player), `matching`, `ordering` (core since Moodle 4.4, all or nothing as in the player), and
 * sorting as a `matching` of items to categories (every category also listed as a distractor, so none is
 * lost). Pictures on choices are embedded as base64 `<file>` elements named by `@@PLUGINFILE@@` as
 * Moodle does; a lesson's draw is written as that many `random` questions of its category. Markdown is
 * kept as `format="markdown"`; each question is tagged with its type so an import of our own file gives
 * the same blocks back. What Moodle cannot say is in the notices, also as a comment at the top of the file.
 */
import { toBase64 } from "../../bytes.ts";
import type { QuestionBlock } from "../../authoring/schemas/blocks.ts";
import type { PackagedAsset } from "../package/plan.ts";
import type { AssetBody, AssetSource } from "../package/types.ts";
import { el, xmlAttribute, xmlDocument, xmlText, type XmlChild, type XmlElement } from "../../codecs/xml-write.ts";
import { unhandled } from "../../exhaustive.ts";
import { BankNotices, commonNotices, questionPoints, type BankPool, type QuestionBank } from "../question-bank/bank.ts";
import { numericRange } from "../../authoring/schemas/numeric-block.ts";
import type { RegionShape } from "../../authoring/schemas/picture-questions.ts";

export const moodleTypeTagPrefix = "course-authoring:";

/** Moodle's grade fractions (question/format.php): a multiple-answer share must be one of them. */
const moodleFractions = [100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0];

function fraction(share: number): string {
  return String(Math.round(share * 100000) / 100000);
}

function text(tag: string, value: string, format?: string): XmlElement {
  return el(tag, format ? { format } : {}, el("text", {}, value));
}

/** Category paths separate levels with `/`; a slash inside a name is written `//`. */
function categoryName(name: string): string {
  return name.replace(/\//g, "//");
}

async function bytesOf(body: AssetBody): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

interface Embedded {
  readonly name: string;
  readonly base64: string;
}

type EmbedPicture = (assetId: string) => Promise<Embedded | undefined>;

function fileElement(file: Embedded): XmlElement {
  return el("file", { name: file.name, path: "/", encoding: "base64" }, file.base64);
}

/** A choice as HTML: its text, escaped, and its picture (embedded, or the URL). */
async function choiceAnswer(choice: { text: string; correct: boolean; feedback?: string | undefined; image?: { assetId?: string | undefined; url?: string | undefined; alt?: string | undefined } | undefined }, share: string, embed: EmbedPicture): Promise<XmlElement> {
  const file = choice.image?.assetId ? await embed(choice.image.assetId) : undefined;
  const src = file ? `@@PLUGINFILE@@/${file.name}` : choice.image?.url;
  const picture = src ? ` <img src="${xmlAttribute(src)}" alt="${xmlAttribute(choice.image?.alt ?? "")}">` : "";
  return el(
    "answer",
    { fraction: share, format: "html" },
    el("text", {}, `${xmlText(choice.text)}${picture}`),
    // Moodle writes an answer's files right after its text.
    file ? fileElement(file) : null,
    choice.feedback ? text("feedback", choice.feedback, "markdown") : null,
  );
}

function head(question: QuestionBlock, name: string, questionText: string): XmlChild[] {
  return [
    text("name", name),
    text("questiontext", questionText, "markdown"),
    text("generalfeedback", question.explanation ?? "", "markdown"),
    el("defaultgrade", {}, String(questionPoints(question))),
    el("penalty", {}, "0"),
    el("hidden", {}, "0"),
    el("idnumber", {}, question.id),
  ];
}

const tags = (question: QuestionBlock): XmlElement => el("tags", {}, el("tag", {}, el("text", {}, `${moodleTypeTagPrefix}${question.type}`)));

/** `{{n}}` of a sentence: `_____` for a short answer, Moodle's embedded answer for a cloze. */
function clozeAnswer(blank: { answers: readonly string[]; caseSensitive: boolean; feedback?: string | undefined }): string {
  const escape = (value: string): string => value.replace(/[\\}#~/"]/g, (character) => `\\${character}`).replace(/\n/g, " ");
  const right = blank.answers.map((answer) => `%100%${escape(answer)}`);
  const wrong = blank.feedback ? [`%0%*#${escape(blank.feedback)}`] : [];
  return `{1:${blank.caseSensitive ? "SHORTANSWER_C" : "SHORTANSWER"}:${[...right, ...wrong].join("~")}}`;
}

async function questionElement(question: QuestionBlock, pool: BankPool, number: number, embed: EmbedPicture, notices: BankNotices): Promise<XmlElement | null> {
  const name = `${pool.title} ${number}`;
  switch (question.type) {
    case "single_choice":
    case "multiple_choice": {
      const single = question.type === "single_choice";
      const correct = question.choices.filter((choice) => choice.correct).length;
      const wrong = question.choices.length - correct;
      const correctShare = single ? 100 : 100 / correct;
      if (!single) {
        notices.question(question, pool, "Moodle gives partial credit for some of the right choices (any wrong one scores 0 here); the player gives the points only for exactly the right set.");
        if (!moodleFractions.some((allowed) => Math.abs(allowed - correctShare) < 0.001)) notices.question(question, pool, `Moodle has no grade of ${fraction(correctShare)}% for each of its ${correct} right choices; choose Moodle's nearest grade when importing.`);
      }
      if (question.choices.some((choice) => choice.fixed)) notices.question(question, pool, "fixed choices (kept in place when shuffling) are not carried: Moodle shuffles all or none.");
      const answers = await Promise.all(question.choices.map((choice) => choiceAnswer(choice, choice.correct ? fraction(correctShare) : single || wrong === 0 ? "0" : "-100", embed)));
      return el(
        "question",
        { type: "multichoice" },
        head(question, name, question.prompt),
        el("single", {}, String(single)),
        el("shuffleanswers", {}, String(pool.shuffleChoices)),
        el("answernumbering", {}, "none"),
        answers,
        tags(question),
      );
    }
    case "true_false":
      return el(
        "question",
        { type: "truefalse" },
        head(question, name, question.prompt),
        el("answer", { fraction: question.answer ? "100" : "0", format: "moodle_auto_format" }, el("text", {}, "true"), text("feedback", question.trueFeedback ?? "", "markdown")),
        el("answer", { fraction: question.answer ? "0" : "100", format: "moodle_auto_format" }, el("text", {}, "false"), text("feedback", question.falseFeedback ?? "", "markdown")),
        tags(question),
      );
    case "fill_in_blank": {
      const [only] = question.blanks;
      if (question.blanks.length === 1 && only) {
        const sentence = question.text.replace(/\{\{1\}\}/g, "_____");
        return el(
          "question",
          { type: "shortanswer" },
          head(question, name, `${question.prompt}\n\n${sentence}`),
          el("usecase", {}, only.caseSensitive ? "1" : "0"),
          only.answers.map((answer) => el("answer", { fraction: "100", format: "moodle_auto_format" }, el("text", {}, answer))),
          only.feedback ? el("answer", { fraction: "0", format: "moodle_auto_format" }, el("text", {}, "*"), text("feedback", only.feedback, "markdown")) : null,
          tags(question),
        );
      }
      const sentence = question.text.replace(/\{\{(\d+)\}\}/g, (_match, number: string) => {
        const blank = question.blanks[Number(number) - 1];
        return blank ? clozeAnswer(blank) : "";
      });
      return el("question", { type: "cloze" }, head(question, name, `${question.prompt}\n\n${sentence}`), tags(question));
    }
    case "matching":
      if (question.pairs.some((pair) => pair.feedback)) notices.question(question, pool, "feedback on each pair is not carried: Moodle's matching question has none.");
      return el(
        "question",
        { type: "matching" },
        head(question, name, question.prompt),
        el("shuffleanswers", {}, "true"),
        question.pairs.map((pair) => el("subquestion", { format: "html" }, el("text", {}, xmlText(pair.left)), el("answer", {}, el("text", {}, pair.right)))),
        tags(question),
      );
    case "sorting":
      notices.question(question, pool, "written as a Moodle matching question (each item matched to its category)" + (question.items.some((item) => item.feedback) ? "; feedback on each item is not carried." : "."));
      return el(
        "question",
        { type: "matching" },
        head(question, name, question.prompt),
        el("shuffleanswers", {}, "true"),
        // Every category as a distractor first, so a category no item belongs in is kept, in its order.
        question.categories.map((category) => el("subquestion", { format: "html" }, el("text", {}, ""), el("answer", {}, el("text", {}, category.title)))),
        question.items.map((item) => el("subquestion", { format: "html" }, el("text", {}, xmlText(item.text)), el("answer", {}, el("text", {}, item.category)))),
        tags(question),
      );
    case "ordering":
      if (question.items.some((item) => item.feedback)) notices.question(question, pool, "feedback on each item is not carried: Moodle's ordering question has none.");
      return el(
        "question",
        { type: "ordering" },
        head(question, name, question.prompt),
        el("layouttype", {}, "VERTICAL"),
        el("selecttype", {}, "ALL"),
        el("selectcount", {}, "0"),
        el("gradingtype", {}, "ALL_OR_NOTHING"),
        el("showgrading", {}, "SHOW"),
        el("numberingstyle", {}, "none"),
        question.items.map((item, index) => el("answer", { fraction: String(index + 1), format: "moodle_auto_format" }, el("text", {}, item.text))),
        tags(question),
      );
    case "numeric":
    case "hotspot":
    case "drag_onto_image":
    case "inline_choice":
    case "open_response":
    case "likert":
      return moreQuestionElement(question, pool, name, embed, notices);
    default:
      return unhandled(question, "question type");
  }
}

type MoreQuestion = Extract<QuestionBlock, { type: "numeric" | "hotspot" | "drag_onto_image" | "inline_choice" | "open_response" | "likert" }>;

/** A region as ddmarker writes a drop zone: `x,y;r` (circle), `x,y;w,h` (rectangle), `x,y;x,y;…` (polygon). */
export function markerCoords(region: RegionShape): { shape: string; coords: string } {
  const n = (value: number): string => String(Math.round(value));
  switch (region.shape) {
    case "circle":
      return { shape: "circle", coords: `${n(region.x)},${n(region.y)};${n(region.radius)}` };
    case "rect":
      return { shape: "rectangle", coords: `${n(region.x)},${n(region.y)};${n(region.width)},${n(region.height)}` };
    case "polygon":
      return { shape: "polygon", coords: region.points.map(([x, y]) => `${n(x)},${n(y)}`).join(";") };
  }
}

/** The model answer, then the rubric as a list a grader reads (and our import reads back). */
export function graderInfo(question: Extract<QuestionBlock, { type: "open_response" }>): string {
  const criteria = question.rubric?.criteria ?? [];
  return [question.modelAnswer, ...(criteria.length > 0 ? [`${rubricHeading}\n${criteria.map((criterion) => `- ${criterion.text} (${criterion.points})`).join("\n")}`] : [])].join("\n\n");
}

export const rubricHeading = "Rubric:";

/** `{{n}}` of an inline_choice as Moodle's embedded multiple choice (a drop-down): `{1:MULTICHOICE:=right~wrong#feedback}`. */
function dropDown(gap: Extract<QuestionBlock, { type: "inline_choice" }>["gaps"][number]): string {
  const escape = (value: string): string => value.replace(/[\\}#~/"=]/g, (character) => `\\${character}`).replace(/\n/g, " ");
  const feedback = gap.feedback ? `#${escape(gap.feedback)}` : "";
  return `{1:MULTICHOICE:${gap.choices.map((choice) => (choice.correct ? `=${escape(choice.text)}` : `${escape(choice.text)}${feedback}`)).join("~")}}`;
}

/** The picture a ddmarker question is asked on, embedded as its background file. */
async function background(picture: { assetId?: string | undefined; url?: string | undefined }, embed: EmbedPicture): Promise<XmlElement | null> {
  const file = picture.assetId ? await embed(picture.assetId) : undefined;
  return file ? fileElement(file) : null;
}

async function markerQuestion(
  question: Extract<MoreQuestion, { type: "hotspot" | "drag_onto_image" }>,
  name: string,
  embed: EmbedPicture,
  drags: readonly { no: number; text: string; count: number }[],
  drops: readonly { region: RegionShape; choice: number }[],
): Promise<XmlElement> {
  return el(
    "question",
    { type: "ddmarker" },
    head(question, name, question.prompt),
    el("showmisplaced", {}),
    await background(question.image, embed),
    drags.map((drag) => el("drag", {}, el("no", {}, String(drag.no)), el("text", {}, drag.text), el("noofdrags", {}, String(drag.count)))),
    drops.map((drop, index) => {
      const { shape, coords } = markerCoords(drop.region);
      return el("drop", {}, el("no", {}, String(index + 1)), el("shape", {}, shape), el("coords", {}, coords), el("choice", {}, String(drop.choice)));
    }),
    tags(question),
  );
}

/** The question types of issue 42 in Moodle's types: numerical, ddmarker, cloze drop-downs and essay; likert has none. */
async function moreQuestionElement(question: MoreQuestion, pool: BankPool, name: string, embed: EmbedPicture, notices: BankNotices): Promise<XmlElement | null> {
  switch (question.type) {
    case "numeric": {
      const [low, high] = numericRange(question);
      if (question.toleranceMode === "percent" || question.value === undefined) notices.question(question, pool, `written as ${fraction((low + high) / 2)} ± ${fraction((high - low) / 2)}: Moodle's numerical answer has an absolute tolerance.`);
      return el(
        "question",
        { type: "numerical" },
        head(question, name, question.prompt),
        el("answer", { fraction: "100", format: "moodle_auto_format" }, el("text", {}, fraction((low + high) / 2)), el("tolerance", {}, fraction((high - low) / 2)), text("feedback", question.correctFeedback ?? "", "markdown")),
        question.incorrectFeedback ? el("answer", { fraction: "0", format: "moodle_auto_format" }, el("text", {}, "*"), el("tolerance", {}, "0"), text("feedback", question.incorrectFeedback, "markdown")) : null,
        question.unit ? el("units", {}, el("unit", {}, el("multiplier", {}, "1"), el("unit_name", {}, question.unit))) : null,
        el("unitgradingtype", {}, "0"),
        el("showunits", {}, "3"),
        el("unitsleft", {}, "0"),
        tags(question),
      );
    }
    case "hotspot": {
      const right = question.regions.filter((region) => region.correct);
      notices.question(question, pool, `written as a Moodle drag-markers question: the learner drops ${right.length} marker(s) on the picture; the other regions and the feedback per region are not carried.`);
      return markerQuestion(question, name, embed, [{ no: 1, text: "X", count: right.length }], right.map((region) => ({ region, choice: 1 })));
    }
    case "drag_onto_image": {
      const drags = question.labels.map((label, index) => ({ no: index + 1, text: label.text ?? label.image?.alt ?? `Label ${index + 1}`, count: 1 }));
      const drops = question.zones.flatMap((zone) => {
        const index = question.labels.findIndex((label) => label.zone === zone.id);
        return index < 0 ? [] : [{ region: zone, choice: index + 1 }];
      });
      const lost = [question.labels.some((label) => label.image) ? "picture labels are written as their alt text" : "", question.labels.some((label) => label.feedback) ? "feedback per label is not carried" : "", drops.length < question.zones.length ? "zones no label belongs on are not carried" : ""].filter(Boolean);
      notices.question(question, pool, `written as a Moodle drag-markers question${lost.length > 0 ? `; ${lost.join("; ")}` : ""}.`);
      return markerQuestion(question, name, embed, drags, drops);
    }
    case "inline_choice": {
      const sentence = question.text.replace(/\{\{(\d+)\}\}/g, (_match, number: string) => {
        const gap = question.gaps[Number(number) - 1];
        return gap ? dropDown(gap) : "";
      });
      return el("question", { type: "cloze" }, head(question, name, `${question.prompt}\n\n${sentence}`), tags(question));
    }
    case "open_response":
      notices.question(question, pool, `an essay graded by a teacher with the model answer and rubric as information for graders; the length guide (${question.maxCharacters} characters) is not carried: Moodle limits words.`);
      return el(
        "question",
        { type: "essay" },
        head(question, name, question.prompt),
        el("responseformat", {}, "editor"),
        el("responserequired", {}, "1"),
        el("responsefieldlines", {}, "10"),
        el("attachments", {}, "0"),
        el("attachmentsrequired", {}, "0"),
        text("graderinfo", graderInfo(question), "markdown"),
        text("responsetemplate", "", "markdown"),
        tags(question),
      );
    case "likert":
      notices.question(question, pool, "left out: Moodle's question bank has no opinion scale (use a Feedback or Questionnaire activity).");
      return null;
    default:
      return unhandled(question, "question type");
  }
}

function randomQuestion(pool: BankPool): XmlElement {
  return el(
    "question",
    { type: "random" },
    text("name", `Random (${pool.title})`),
    // Moodle's random question keeps "include subcategories" in its question text.
    text("questiontext", "0", "html"),
    text("generalfeedback", "", "html"),
    el("defaultgrade", {}, "1"),
    el("penalty", {}, "0"),
    el("hidden", {}, "0"),
  );
}

function moodleNotices(bank: QuestionBank, notices: BankNotices): void {
  commonNotices(bank, notices);
  for (const pool of bank.pools) {
    if (pool.passingScore !== null) notices.pool(pool, `the pass mark (${pool.passingScore}%) is a quiz setting in Moodle, not part of a question bank; set "Grade to pass" on the quiz.`);
    if (pool.maxAttempts !== null) notices.pool(pool, `the ${pool.maxAttempts} allowed attempt(s) are a quiz setting in Moodle; set "Attempts allowed" on the quiz.`);
    if (pool.drawCount !== null) notices.pool(pool, `the draw of ${pool.drawCount} question(s) per attempt is written as ${pool.drawCount} random question(s) of the lesson's category; Moodle 4.3 and later add random questions to a quiz from the category instead.`);
  }
}

/** The Moodle XML document and its notices; picture bytes are read while it is built. */
export async function moodleXml(bank: QuestionBank, assets: ReadonlyMap<string, PackagedAsset>, source: AssetSource): Promise<{ text: string; notices: readonly string[] }> {
  const notices = new BankNotices();
  moodleNotices(bank, notices);
  const cache = new Map<string, Embedded>();
  const embed: EmbedPicture = async (assetId) => {
    const asset = assets.get(assetId);
    if (!asset) return undefined;
    const known = cache.get(assetId);
    if (known) return known;
    const file = { name: asset.path.replace(/^assets\//, ""), base64: toBase64(await bytesOf(await source.open(assetId))) };
    cache.set(assetId, file);
    return file;
  };
  const questions: XmlElement[] = [];
  for (const pool of bank.pools) {
    questions.push(
      el(
        "question",
        { type: "category" },
        el("category", {}, el("text", {}, `$course$/top/${categoryName(bank.title)}/${categoryName(pool.title)}`)),
        text("info", `${pool.moduleTitle}: ${pool.title}`, "markdown"),
        el("idnumber", {}, pool.lessonId),
      ),
    );
    for (const [index, question] of pool.questions.entries()) {
      const element = await questionElement(question, pool, index + 1, embed, notices);
      if (element) questions.push(element);
    }
    if (pool.drawCount !== null) for (let count = 0; count < pool.drawCount; count++) questions.push(randomQuestion(pool));
  }
  const document = xmlDocument(el("quiz", {}, questions));
  const comment = `<!-- ${notices.text("Moodle XML").replace(/--/g, "- -")} -->\n`;
  return { text: document.replace(/\n/, `\n${comment}`), notices: notices.all };
}
