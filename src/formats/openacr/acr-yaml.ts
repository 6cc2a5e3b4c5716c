/**
 * The report as OpenACR YAML (GSA's `openacr-0.1.0.json`), naming its catalogue. Every scalar is
 * written as a double-quoted JSON string, which YAML 1.2 reads as is, so no author text (a colon, a
 * `#`, markup, a newline) can change the document's structure.
 */
import { catalogueName } from "./catalogue.ts";
import { remarksText, type AccessibilityReport } from "./report.ts";

const quote = (text: string): string => JSON.stringify(text);

export const yamlWords = { fix: "Fix", check: "To check by a person", manual: "Manual answer", stale: "Manual answer, stale since the blocks it covers changed" };

export function draftNote(report: AccessibilityReport): string {
  if (!report.draft) return "";
  const left = report.left.map((entry) => `${entry.id} ${entry.handle}: ${entry.toCheck}`).join("\n");
  return `DRAFT: ${report.left.length} Level A or AA criteria wait for a person (record each answer with set_accessibility_review):\n${left}`;
}

export function acrYaml(report: AccessibilityReport): string {
  const lines: string[] = [];
  const notes = [draftNote(report), report.notes].filter((part) => part !== "").join("\n\n");
  lines.push(`title: ${quote(report.title)}`);
  lines.push("product:", `  name: ${quote(report.product.name)}`, `  version: ${quote(report.product.version)}`, `  description: ${quote(report.product.description)}`);
  lines.push("author:", `  name: ${quote(report.author.name)}`, `  email: ${quote(report.author.email)}`);
  lines.push(`report_date: ${quote(report.reportDate)}`, `last_modified_date: ${quote(report.reportDate)}`, `version: ${Math.max(1, Math.trunc(report.courseVersion))}`);
  lines.push(`notes: ${quote(notes)}`, `evaluation_methods_used: ${quote(report.evaluationMethods)}`, `legal_disclaimer: ${quote(report.legalDisclaimer)}`);
  lines.push(`license: "CC-BY-4.0"`, `catalog: ${quote(catalogueName)}`, "chapters:");
  for (const chapter of report.chapters) {
    lines.push(`  ${chapter.id}:`);
    if (chapter.notes) lines.push(`    notes: ${quote(chapter.notes)}`);
    if (chapter.disabled) {
      lines.push("    disabled: true");
      continue;
    }
    if (chapter.criteria.length === 0) {
      lines.push("    criteria: []");
      continue;
    }
    lines.push("    criteria:");
    for (const criterion of chapter.criteria) {
      lines.push(`      - num: ${quote(criterion.id)}`, "        components:", `          - name: ${quote(componentOf(chapter.id))}`, "            adherence:");
      lines.push(`              level: ${quote(criterion.level)}`, `              notes: ${quote(remarksText(criterion, yamlWords))}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** WCAG tables are rated for the web component (a course is web content); the 508 and EN chapters have none. */
export function componentOf(chapterId: string): string {
  return chapterId.startsWith("success_criteria_") ? "web" : "none";
}
