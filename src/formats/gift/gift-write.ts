/**
 * A question bank as GIFT (docs.moodle.org "GIFT format"): a `$CATEGORY:` per lesson, then each question
 * GIFT can carry, in `[markdown]`: single and multiple choice (`=`/`~` with `%weights%`), true/false,
 * a one-blank fill-in as a short answer where the blank stands in the sentence, matching (`->`), and
 * sorting as a matching of items to categories. Ordering, several blanks, pictures, fixed choices and the
 * lessons' settings have no GIFT form: they are named in the notices, which also open the file as `//` comments.
 */
import type { QuestionBlock } from "../../authoring/schemas/blocks.ts";
import { unhandled } from "../../exhaustive.ts";
import { numericRange } from "../../authoring/schemas/numeric-block.ts";
import { BankNotices, commonNotices, questionPoints, type BankPool, type QuestionBank } from "../question-bank/bank.ts";

/** GIFT's special characters are escaped with a backslash; a line break is written `\n` so no blank line ends the question. */
export function giftEscape(text: string): string {
  return text.replace(/[\\~=#{}:]/g, (character) => `\\${character}`).replace(/\r?\n/g, "\\n");
}

function titled(question: QuestionBlock, name: string, body: string): string {
  return `// ${question.id} (${question.type})\n::${giftEscape(name)}::[markdown]${body}`;
}

const general = (question: QuestionBlock): string => (question.explanation ? `####${giftEscape(question.explanation)}` : "");
const feedback = (markdown: string | undefined): string => (markdown ? `#${giftEscape(markdown)}` : "");

function weight(share: number): string {
  return `%${Math.round(share * 100000) / 100000}%`;
}

/** The question types GIFT writes (a one-blank fill-in only). */
const giftTypes = new Set<string>(["single_choice", "multiple_choice", "true_false", "fill_in_blank", "matching", "sorting", "numeric", "open_response"]);

function questionText(question: QuestionBlock, pool: BankPool, number: number, notices: BankNotices): string | null {
  const name = `${pool.title} ${number}`;
  const carried = giftTypes.has(question.type) && !(question.type === "fill_in_blank" && question.blanks.length !== 1);
  const points = questionPoints(question);
  if (carried && points !== 1) notices.question(question, pool, `its ${points} points are not carried: GIFT questions weigh 1 until the quiz says otherwise.`);
  const prompt = giftEscape(question.prompt);
  switch (question.type) {
    case "single_choice":
    case "multiple_choice": {
      if (question.choices.some((choice) => choice.image)) notices.question(question, pool, "the pictures on its choices are not carried: GIFT holds text only.");
      if (question.choices.some((choice) => choice.fixed)) notices.question(question, pool, "fixed choices (kept in place when shuffling) are not carried.");
      const correct = question.choices.filter((choice) => choice.correct).length;
      if (question.type === "multiple_choice") notices.question(question, pool, "GIFT gives partial credit for some of the right choices (any wrong one scores 0 here); the player gives the points only for exactly the right set.");
      const answers = question.choices.map((choice) => {
        const mark = question.type === "single_choice" ? (choice.correct ? "=" : "~") : choice.correct ? `~${weight(100 / correct)}` : "~%-100%";
        return `\t${mark}${giftEscape(choice.text)}${feedback(choice.feedback)}`;
      });
      return titled(question, name, `${prompt} {\n${answers.join("\n")}\n${general(question)}}`);
    }
    case "true_false": {
      // GIFT's first feedback is for the wrong answer, the second for the right one.
      const wrong = question.answer ? question.falseFeedback : question.trueFeedback;
      const right = question.answer ? question.trueFeedback : question.falseFeedback;
      const both = wrong || right ? `#${giftEscape(wrong ?? "")}#${giftEscape(right ?? "")}` : "";
      return titled(question, name, `${prompt} {${question.answer ? "TRUE" : "FALSE"}${both}${general(question)}}`);
    }
    case "fill_in_blank": {
      const [blank] = question.blanks;
      if (question.blanks.length !== 1 || !blank) {
        notices.question(question, pool, "left out: GIFT has no question with several blanks.");
        return null;
      }
      if (blank.caseSensitive) notices.question(question, pool, "GIFT short answers ignore case; this blank's answers are case-sensitive.");
      if (blank.feedback) notices.question(question, pool, "the feedback for a wrong answer is not carried: GIFT short answers have feedback per accepted answer only.");
      const [before = "", after = ""] = question.text.split("{{1}}");
      const answers = blank.answers.map((answer) => `=${giftEscape(answer)}`).join(" ");
      return titled(question, name, `${prompt}\\n\\n${giftEscape(before)}{${answers}${general(question)}}${giftEscape(after)}`);
    }
    case "matching":
      if (question.pairs.some((pair) => pair.feedback)) notices.question(question, pool, "feedback on each pair is not carried: GIFT matching has none.");
      return titled(question, name, `${prompt} {\n${question.pairs.map((pair) => `\t=${giftEscape(pair.left)} -> ${giftEscape(pair.right)}`).join("\n")}\n${general(question)}}`);
    case "sorting": {
      const unused = question.categories.filter((category) => !question.items.some((item) => item.category === category.title));
      notices.question(question, pool, "written as a matching question (each item matched to its category)" + (question.items.some((item) => item.feedback) ? "; feedback on each item is not carried" : "") + (unused.length > 0 ? `; categories no item belongs in (${unused.map((category) => category.title).join(", ")}) are not carried.` : "."));
      return titled(question, name, `${prompt} {\n${question.items.map((item) => `\t=${giftEscape(item.text)} -> ${giftEscape(item.category)}`).join("\n")}\n${general(question)}}`);
    }
    case "ordering":
      notices.question(question, pool, "left out: GIFT has no ordering question.");
      return null;
    case "numeric": {
      // GIFT's numerical answer: `{#value:tolerance}` or `{#min..max}`; the unit and feedback ride along as text.
      const [low, high] = numericRange(question);
      const answer = question.value !== undefined && question.toleranceMode !== "percent" ? `${question.value}:${question.tolerance ?? 0}` : `${low}..${high}`;
      if (question.toleranceMode === "percent") notices.question(question, pool, `written as the range ${low}..${high}: GIFT has no percent tolerance.`);
      if (question.unit) notices.question(question, pool, `the unit "${question.unit}" is not carried: GIFT numbers have none.`);
      const right = question.correctFeedback ? `#${giftEscape(question.correctFeedback)}` : "";
      if (question.incorrectFeedback) notices.question(question, pool, "the feedback for a wrong answer is not carried: GIFT numbers have feedback per accepted answer only.");
      return titled(question, name, `${prompt} {#\n\t=${answer}${right}\n${general(question)}}`);
    }
    case "open_response":
      notices.question(question, pool, "an essay: GIFT carries neither the model answer nor the rubric, nor the length guide.");
      return titled(question, name, `${prompt} {${general(question)}}`);
    case "hotspot":
    case "drag_onto_image":
    case "inline_choice":
    case "likert":
      notices.question(question, pool, `left out: GIFT has no ${question.type.replace(/_/g, " ")} question.`);
      return null;
    default:
      return unhandled(question, "question type");
  }
}

export function giftText(bank: QuestionBank): { text: string; notices: readonly string[] } {
  const notices = new BankNotices();
  commonNotices(bank, notices);
  const sections: string[] = [];
  for (const pool of bank.pools) {
    if (pool.drawCount !== null) notices.pool(pool, `the draw of ${pool.drawCount} question(s) per attempt is not carried: GIFT has no random draw.`);
    if (pool.passingScore !== null) notices.pool(pool, `the pass mark (${pool.passingScore}%) is not carried: GIFT holds questions only.`);
    if (pool.maxAttempts !== null) notices.pool(pool, `the ${pool.maxAttempts} allowed attempt(s) are not carried.`);
    if (!pool.shuffleChoices) notices.pool(pool, "choices are not to be shuffled; GIFT cannot say so (the quiz decides).");
    const questions = pool.questions.flatMap((question, index) => questionText(question, pool, index + 1, notices) ?? []);
    sections.push([`$CATEGORY: $course$/top/${bank.title.replace(/\//g, "//")}/${pool.title.replace(/\//g, "//")}`, ...questions].join("\n\n"));
  }
  const header = notices
    .text("GIFT")
    .trimEnd()
    .split("\n")
    .map((line) => `// ${line}`)
    .join("\n");
  return { text: `${header}\n\n${sections.join("\n\n")}\n`, notices: notices.all };
}
