/**
 * A question's answer as an attempt saves it (a string of digits, or the blanks' texts) and put back on
 * resume, and the choices' shuffled order.
 */
import { ClassName, DataName } from "../../../page-contract/markup-names.ts";
import { all, data, fieldOf, has, hook, listAll, one } from "../dom.ts";
import { digitOf, indexOfDigit, isArray } from "../quiz-attempts.ts";
import { checkedValues, partsOf } from "./questions.ts";

/** The authored index of the choice a row holds (its input's value). */
export const choiceIndex = (row: HTMLElement): number => Number(one<HTMLInputElement>(row, "input")?.value ?? "-1");

export const choiceRows = (question: HTMLElement): HTMLElement[] => listAll<HTMLElement>(question, `.${ClassName.choiceList} > .${ClassName.choice}`);

export const shuffles = (lesson: HTMLElement, question: HTMLElement): boolean => data(lesson)[DataName.shuffleChoices] !== "false" && data(question)[DataName.grading] === "choice" && data(question)[DataName.questionType] !== "true_false";

/** Puts the choices in `order` (authored index per place); an empty order means authored order. */
export function arrangeChoices(question: HTMLElement, order: readonly number[]): void {
  const rows = choiceRows(question);
  const list = rows[0]?.parentElement;
  if (!list) return;
  const byIndex = new Map(rows.map((row) => [choiceIndex(row), row]));
  const wanted = order.length === rows.length ? order : rows.map((_, index) => index);
  for (const index of wanted) {
    const row = byIndex.get(index);
    if (row) list.appendChild(row);
  }
}

/** Per place, whether the choice there keeps its place when shuffled. */
export const fixedOf = (question: HTMLElement): boolean[] => choiceRows(question).map((row) => has(row, `data-${DataName.fixed}`));

export const choiceOrder = (question: HTMLElement): number[] => choiceRows(question).map(choiceIndex);



export function clearAnswer(question: HTMLElement): void {
  for (const part of partsOf(question)) {
    if (part instanceof HTMLInputElement && (part.type === "radio" || part.type === "checkbox")) part.checked = false;
    else if (fieldOf(part)) (part as HTMLInputElement).value = "";
  }
  const list = one(question, hook(DataName.orderingList));
  if (list) for (const item of initialOrders.get(list) ?? []) list.appendChild(item);
  delete data(question)[DataName.touched];
}

/** A question that grades itself and keeps its answer in `data-response` (not the scenario, which replays). */
const keepsOwnAnswer = (question: HTMLElement): boolean => data(question)[DataName.grading] === "self" && data(question)[DataName.questionType] !== "scenario";

export function answerOf(question: HTMLElement): string | string[] {
  const grading = data(question)[DataName.grading];
  if (keepsOwnAnswer(question)) return data(question)[DataName.response] ?? "";
  if (grading === "choice") return checkedValues(question).map((value) => digitOf(Number(value))).join("");
  if (grading === "ordering") return data(question)[DataName.touched] === "true" ? partsOf(question).map((part) => digitOf(Number(data(part)[DataName.item]))).join("") : "";
  if (grading === "matching") return partsOf(question).map((part) => (part instanceof HTMLSelectElement && part.value !== "" ? digitOf(Number(part.value)) : "-")).join("");
  return partsOf(question).map((part) => (part instanceof HTMLInputElement ? part.value : ""));
}

/** Puts a saved answer back; false when it does not fit the question (then the attempt starts again). */
export function applyAnswer(question: HTMLElement, answer: string | readonly string[]): boolean {
  const grading = data(question)[DataName.grading];
  const parts = partsOf(question);
  if (keepsOwnAnswer(question) && typeof answer === "string") {
    // The question-types script puts its controls back from the answer it kept.
    data(question)[DataName.response] = answer;
    question.dispatchEvent(new Event("restore"));
    return true;
  }
  if (grading === "blanks") {
    if (!isArray(answer) || answer.length !== parts.length) return answer === "" || (isArray(answer) && answer.length === 0);
    parts.forEach((part, index) => {
      if (part instanceof HTMLInputElement) part.value = String(answer[index] ?? "");
    });
    return true;
  }
  if (typeof answer !== "string") return false;
  if (grading === "choice") {
    const chosen = Array.from(answer, indexOfDigit);
    const inputs = parts.filter((part): part is HTMLInputElement => part instanceof HTMLInputElement);
    if (chosen.some((index) => index < 0 || index >= inputs.length) || (inputs[0]?.type === "radio" && chosen.length > 1)) return false;
    for (const input of inputs) input.checked = chosen.includes(Number(input.value));
    return true;
  }
  if (grading === "matching") {
    if (answer === "") return true;
    if (answer.length !== parts.length) return false;
    return parts.every((part, index) => {
      const digit = answer.charAt(index);
      if (!(part instanceof HTMLSelectElement)) return false;
      const value = digit === "-" ? "" : String(indexOfDigit(digit));
      if (!Array.from(part.options).some((option) => option.value === value)) return false;
      part.value = value;
      return true;
    });
  }
  if (grading === "ordering") {
    if (answer === "") return true;
    const list = one(question, hook(DataName.orderingList));
    const byItem = new Map(parts.map((part) => [data(part)[DataName.item], part]));
    const wanted = Array.from(answer, (digit) => byItem.get(String(indexOfDigit(digit))));
    if (!list || wanted.length !== parts.length || new Set(wanted).size !== parts.length || wanted.some((item) => !item)) return false;
    for (const item of wanted) if (item) list.appendChild(item);
    data(question)[DataName.touched] = "true";
    return true;
  }
  return false;
}

/** Each ordering list's authored order, read before any attempt moves its items. */
const initialOrders = new Map<Element, Element[]>();

export function rememberInitialOrders(): void {
  for (const list of all(document, hook(DataName.orderingList))) initialOrders.set(list, Array.from(list.children));
}
