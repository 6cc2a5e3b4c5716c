/**
 * The questions that grade themselves (issue 42): numeric, open_response and likert. Each change writes
 * the question's `data-answered`, `data-fraction` and `data-response`, which the quiz reads. A number is
 * read the way the course's language writes it (`2,5` in German) and checked against the sealed range;
 * an open answer longer than its guide is cut, with a visible count and a note saying so; opinions are
 * kept. Open answers and opinions score nothing.
 */
import type { CoursePlayerConfig } from "../../../page-contract/config.ts";
import { DataName } from "../../../page-contract/markup-names.ts";
import { createAnswerChecker } from "../answer-checker.ts";
import { all, data, fill, has, hook, listAll, one } from "../dom.ts";
import { createSha256 } from "../sha256.ts";

const nbsp = "\u00a0";

/** The decimal separator of the page's language, as `Intl` writes 1.5 in it. */
export function decimalSeparator(): string {
  try {
    return new Intl.NumberFormat(document.documentElement.lang || "en").formatToParts(1.5).find((part) => part.type === "decimal")?.value ?? ".";
  } catch {
    return ".";
  }
}
/**
 * A number as a learner types it in the page's language: spaces and apostrophes between digit groups
 * ignored; where the decimal separator is a comma, a comma is the decimal point and dots group digits
 * (a number with no comma reads its dot as a decimal point); elsewhere commas group digits. Null when
 * it is not a number.
 */
export function parseLocalNumber(raw: string, decimal: string): number | null {
  let text = raw.trim().replace(/[\s\u00a0\u202f'’]/g, "").replace(/^[−–]/, "-");
  if (decimal === ",") text = text.includes(",") ? text.replace(/\./g, "").replace(",", ".") : text;
  else text = text.replace(/,/g, "");
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : null;
}


export interface SelfGrading {
  readonly decimal: string;
  /** Settles a self-graded question from its controls; false for any other question. */
  refresh(question: HTMLElement): boolean;
  /** Puts a kept answer back in the controls (a resumed attempt), then settles the question again. */
  restore(question: HTMLElement): void;
}

export function selfGrading(config: CoursePlayerConfig): SelfGrading {
  const text = config.text;
  const checker = createAnswerChecker(createSha256());
  const decimal = decimalSeparator();

  /** The sealed right range [low, high] of a numeric question, opened to grade it. */
  function rangeOf(question: HTMLElement): [number, number] | null {
    const opened = checker.open(config.sealKey ?? "", data(question)[DataName.questionId] ?? "", question.getAttribute("data-sealed") ?? "") as { c?: unknown } | null;
    const bounds = Array.isArray(opened?.c) ? opened.c.map(Number) : [];
    return bounds.length === 2 && bounds.every(Number.isFinite) ? [bounds[0] as number, bounds[1] as number] : null;
  }

  function settle(question: HTMLElement, answered: boolean, fraction: number, response: string): void {
    const own = data(question);
    own[DataName.answered] = String(answered);
    own[DataName.fraction] = String(fraction);
    own[DataName.response] = response;
  }

  function refreshNumber(question: HTMLElement): void {
    const input = one<HTMLInputElement>(question, "input");
    if (!input) return;
    const value = parseLocalNumber(input.value, decimal);
    const range = rangeOf(question);
    const slack = range ? 1e-9 * Math.max(1, Math.abs(range[0]), Math.abs(range[1])) : 0;
    const right = value !== null && range !== null && value >= range[0] - slack && value <= range[1] + slack;
    if (value === null && input.value.trim() !== "") input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
    settle(question, input.value.trim() !== "", right ? 1 : 0, value === null ? "" : String(value));
  }

  function refreshOpen(question: HTMLElement): void {
    const area = one<HTMLTextAreaElement>(question, "textarea");
    if (!area) return;
    const max = Number(data(area)[DataName.maxCharacters] ?? "0") || 4000;
    const note = one<HTMLElement>(question, hook(DataName.cutNote));
    if (area.value.length > max) {
      area.value = area.value.slice(0, max);
      if (note) note.textContent = fill(text.answerCut, { max });
    }
    const count = one<HTMLElement>(question, hook(DataName.characterCount));
    if (count) count.textContent = fill(text.characterCount, { count: area.value.length, max });
    // Spaces kept as no-break spaces: the quiz splits a self-graded response at spaces.
    settle(question, area.value.trim() !== "", 0, area.value.replace(/ /g, nbsp));
  }

  function refreshOpinions(question: HTMLElement): void {
    const chosen = listAll<HTMLElement>(question, "[role=radiogroup]").map((group) => one<HTMLInputElement>(group, "input:checked")?.value ?? "-");
    settle(question, chosen.length > 0 && !chosen.includes("-"), 0, chosen.join(" "));
  }

  function refresh(question: HTMLElement): boolean {
    if (has(question, `data-${DataName.numeric}`)) refreshNumber(question);
    else if (has(question, `data-${DataName.openResponse}`)) refreshOpen(question);
    else if (one(question, hook(DataName.likert))) refreshOpinions(question);
    else return false;
    return true;
  }

  function restore(question: HTMLElement): void {
    const response = data(question)[DataName.response] ?? "";
    if (has(question, `data-${DataName.numeric}`)) {
      const input = one<HTMLInputElement>(question, "input");
      if (input) input.value = response.replace(".", decimal);
    } else if (has(question, `data-${DataName.openResponse}`)) {
      const area = one<HTMLTextAreaElement>(question, "textarea");
      if (area) area.value = response.split(nbsp).join(" ");
    } else {
      const points = response.split(" ");
      listAll<HTMLElement>(question, "[role=radiogroup]").forEach((group, index) => {
        for (const input of all<HTMLInputElement>(group, "input")) input.checked = input.value === points[index];
      });
    }
    refresh(question);
  }

  return { decimal, refresh, restore };
}
