/**
 * Functions the XSS test runs inside the page (passed to `page.evaluate`, so each is self-contained):
 * one replays a learner's every move on every page of the course, the other scans the whole DOM for
 * anything an injection would leave behind (event-handler attributes, script-capable URLs, elements
 * that load or navigate, extra scripts or styles).
 */
import { DataName } from "../../src/page-contract/markup-names.ts";

/**
 * Shows each page in turn (the runtime's `goToLesson`; the introduction is already shown) and replays a
 * learner on it: hovers, focuses and blurs every element, toggles every disclosure, tab, flashcard and
 * ordering button, answers and checks every question, submits, retries and resubmits the quiz, and
 * follows every in-page link. Returns, per page, the links that would leave it, for the caller to follow.
 */
export function exercisePages({ pageIds, names }: { pageIds: readonly string[]; names: typeof DataName }): Array<{ pageId: string; hrefs: string[] }> {
  // Imports do not reach into the page: the caller passes the markup's data- names in.
  const DataName = names;
  function exerciseLesson(pageId: string): string[] {
    const root = document.getElementById(pageId);
    if (!root) return [];
    const lessonId = root.dataset[DataName.lessonId];
    if (lessonId !== undefined) window.CourseRuntime?.goToLesson(lessonId);
    const within = <Found extends Element>(selector: string): Found[] => Array.from(root.querySelectorAll<Found>(selector));
    const pointerEvents = ["pointerover", "mouseover", "mouseenter", "mousemove", "mouseout"];
    for (const element of [root, ...within<HTMLElement>("*")]) {
      for (const type of pointerEvents) element.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true }));
    }
    for (const element of within<HTMLElement>("a, button, input, select, summary, [tabindex]")) {
      element.focus();
      element.blur();
    }
    const changed = (element: Element): void => {
      element.dispatchEvent(new Event("input", { bubbles: true }));
      element.dispatchEvent(new Event("change", { bubbles: true }));
    };
    for (const summary of within<HTMLElement>("summary")) summary.click();
    for (const button of within<HTMLElement>(`[role=tab], [data-${DataName.flip}], [data-${DataName.move}]`)) button.click();
    for (const input of within<HTMLInputElement>("input[type=radio], input[type=checkbox]")) input.click();
    for (const input of within<HTMLInputElement>("input[type=text]")) {
      const answers: unknown = JSON.parse(input.dataset.answers ?? "[]");
      input.value = Array.isArray(answers) && typeof answers[0] === "string" ? answers[0] : "x";
      changed(input);
    }
    for (const select of within<HTMLSelectElement>("select")) {
      select.selectedIndex = select.options.length - 1;
      changed(select);
    }
    for (const button of within<HTMLElement>(`[data-${DataName.checkAnswer}]`)) button.click();
    // Submitting with questions unanswered opens a modal dialog: "Submit anyway" closes it.
    for (const action of [`[data-${DataName.submitQuiz}]`, `[data-${DataName.dialogSubmit}]`, `[data-${DataName.retryQuiz}]`, `[data-${DataName.submitQuiz}]`, `[data-${DataName.dialogSubmit}]`]) root.querySelector<HTMLElement>(action)?.click();
    const leaving: string[] = [];
    for (const link of within<HTMLAnchorElement>("a[href]")) {
      const href = link.getAttribute("href") ?? "";
      if (href.startsWith("#")) link.click();
      else leaving.push(href);
    }
    return leaving;
  }
  return pageIds.map((pageId) => ({ pageId, hrefs: exerciseLesson(pageId) }));
}

/** Everything in the DOM that only an injection could have put there; empty when the page is clean. */
export function scanForInjectedMarkup(): string[] {
  const problems: string[] = [];
  const urlAttributes = new Set(["href", "src", "action", "formaction", "poster", "data", "xlink:href", "background", "srcset", "srcdoc", "ping", "cite", "manifest", "codebase"]);
  const allowedProtocols = new Set(["http:", "https:", "mailto:", "data:"]);
  for (const element of document.querySelectorAll("*")) {
    const where = `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}>`;
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith("on")) problems.push(`${where} has ${name}`);
      if (name === "style" || name === "autofocus" || name === "formaction") problems.push(`${where} has ${name}`);
      if (!urlAttributes.has(name)) continue;
      const value = attribute.value;
      let protocol = "invalid:";
      try {
        protocol = new URL(value, document.baseURI).protocol;
      } catch {
        // An unparsable URL loads nothing; it is still reported below.
      }
      if (!allowedProtocols.has(protocol)) problems.push(`${where} ${name} has a ${protocol} URL: ${value}`);
      if (protocol === "data:" && !/^data:(?:image\/|video\/|audio\/|text\/vtt[,;])/i.test(value.trim())) {
        problems.push(`${where} ${name} has a script-capable data: URL: ${value}`);
      }
    }
  }
  const forbidden = "iframe, frame, frameset, object, embed, applet, base, form, link, svg, math, noscript, template, textarea, portal, meta[http-equiv]:not([http-equiv='Content-Security-Policy'])";
  for (const element of document.querySelectorAll(forbidden)) problems.push(`forbidden element <${element.tagName.toLowerCase()}>`);
  const scripts = Array.from(document.scripts);
  const data = scripts.filter((script) => script.type === "application/json");
  if (scripts.length - data.length !== 1) problems.push(`${scripts.length - data.length} script elements that run, expected the player's one`);
  if (data.length !== 1 || data[0]!.id !== "course-player-config") problems.push(`${data.length} data script elements, expected the player's configuration alone`);
  // The page's own sheets (course; question and quiz; teaching blocks) carry the player script's nonce; anything else was injected.
  const styles = Array.from(document.querySelectorAll("style"));
  const runner = scripts.find((script) => script.type !== "application/json");
  if (styles.length < 1 || styles.length > 3) problems.push(`${styles.length} style elements, expected 1 to 3`);
  for (const style of styles) if (!runner || !style.nonce || style.nonce !== runner.nonce) problems.push("a style element without the page's nonce");
  if (document.querySelectorAll("meta").length !== 4) problems.push(`${document.querySelectorAll("meta").length} meta elements, expected 4`);
  return problems;
}
