/**
 * The report as one accessible HTML page in the VPAT 2.5 layout: the cover (product, date, contact,
 * notes, evaluation methods), the applicable standards, the terms, then the WCAG 2.2 tables, the
 * Revised Section 508 report and the EN 301 549 report, each a table of criterion, conformance level
 * and remarks. Our own words are in the course's language where we have them (en, fr, de, es); the
 * standards' names, criteria and terms stay as published. Every author text is escaped.
 */
import { catalogue, termLabel } from "./catalogue.ts";
import { remarksText, type AccessibilityReport, type ChapterEntry } from "./report.ts";

const escape = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
/** The standard's own words (criteria handles, terms, headings), as published in English. */
const en = (text: string): string => `<span lang="en">${escape(text)}</span>`;

interface PageWords {
  readonly report: string;
  readonly draft: string;
  readonly draftLead: string;
  readonly final: string;
  readonly productName: string;
  readonly reportDate: string;
  readonly description: string;
  readonly contact: string;
  readonly notes: string;
  readonly methods: string;
  readonly standards: string;
  readonly standard: string;
  readonly included: string;
  readonly yes: string;
  readonly terms: string;
  readonly term: string;
  readonly meaning: string;
  readonly criteria: string;
  readonly level: string;
  readonly remarks: string;
  readonly evidence: string;
  readonly disclaimer: string;
  readonly notApplicableChapter: string;
  readonly fix: string;
  readonly check: string;
  readonly manual: string;
  readonly stale: string;
}

const english: PageWords = {
  report: "Accessibility Conformance Report",
  draft: "Draft",
  draftLead: "This report is a draft: these Level A and AA criteria wait for a person to check them.",
  final: "Every Level A and AA criterion has evidence or a recorded answer.",
  productName: "Name of Product/Version",
  reportDate: "Report Date",
  description: "Product Description",
  contact: "Contact Information",
  notes: "Notes",
  methods: "Evaluation Methods Used",
  standards: "Applicable Standards/Guidelines",
  standard: "Standard/Guideline",
  included: "Included in Report",
  yes: "Yes",
  terms: "Terms",
  term: "Term",
  meaning: "Definition",
  criteria: "Criteria",
  level: "Conformance Level",
  remarks: "Remarks and Explanations",
  evidence: "Evidence",
  disclaimer: "Legal Disclaimer",
  notApplicableChapter: "Not applicable to this course",
  fix: "Fix",
  check: "To check by a person",
  manual: "Manual answer",
  stale: "Manual answer, stale since the blocks it covers changed",
};

const pageWords: Record<string, PageWords> = {
  en: english,
  fr: {
    ...english,
    report: "Rapport de conformité en matière d'accessibilité",
    draft: "Brouillon",
    draftLead: "Ce rapport est un brouillon : une personne doit encore vérifier ces critères de niveau A et AA.",
    final: "Chaque critère de niveau A et AA a une preuve ou une réponse enregistrée.",
    productName: "Nom du produit / version",
    reportDate: "Date du rapport",
    description: "Description du produit",
    contact: "Contact",
    notes: "Remarques",
    methods: "Méthodes d'évaluation",
    standards: "Normes et lignes directrices applicables",
    standard: "Norme / ligne directrice",
    included: "Incluse dans le rapport",
    yes: "Oui",
    terms: "Termes",
    term: "Terme",
    meaning: "Définition",
    criteria: "Critère",
    level: "Niveau de conformité",
    remarks: "Remarques et explications",
    evidence: "Preuves",
    disclaimer: "Avertissement juridique",
    notApplicableChapter: "Ne s'applique pas à ce cours",
    fix: "Correction",
    check: "À vérifier par une personne",
    manual: "Réponse manuelle",
    stale: "Réponse manuelle, périmée depuis la modification des blocs concernés",
  },
  de: {
    ...english,
    report: "Bericht zur Barrierefreiheit (Konformitätsbericht)",
    draft: "Entwurf",
    draftLead: "Dieser Bericht ist ein Entwurf: Diese Kriterien der Stufen A und AA muss noch eine Person prüfen.",
    final: "Jedes Kriterium der Stufen A und AA hat einen Nachweis oder eine erfasste Antwort.",
    productName: "Produktname/Version",
    reportDate: "Berichtsdatum",
    description: "Produktbeschreibung",
    contact: "Kontakt",
    notes: "Hinweise",
    methods: "Verwendete Prüfmethoden",
    standards: "Anwendbare Normen und Richtlinien",
    standard: "Norm/Richtlinie",
    included: "Im Bericht enthalten",
    yes: "Ja",
    terms: "Begriffe",
    term: "Begriff",
    meaning: "Bedeutung",
    criteria: "Kriterium",
    level: "Konformitätsstufe",
    remarks: "Anmerkungen und Erläuterungen",
    evidence: "Nachweise",
    disclaimer: "Rechtlicher Hinweis",
    notApplicableChapter: "Für diesen Kurs nicht zutreffend",
    fix: "Behebung",
    check: "Von einer Person zu prüfen",
    manual: "Manuelle Antwort",
    stale: "Manuelle Antwort, veraltet, da sich die betroffenen Blöcke geändert haben",
  },
  es: {
    ...english,
    report: "Informe de conformidad de accesibilidad",
    draft: "Borrador",
    draftLead: "Este informe es un borrador: una persona debe comprobar aún estos criterios de nivel A y AA.",
    final: "Cada criterio de nivel A y AA tiene evidencia o una respuesta registrada.",
    productName: "Nombre del producto/versión",
    reportDate: "Fecha del informe",
    description: "Descripción del producto",
    contact: "Contacto",
    notes: "Notas",
    methods: "Métodos de evaluación utilizados",
    standards: "Normas y pautas aplicables",
    standard: "Norma/pauta",
    included: "Incluida en el informe",
    yes: "Sí",
    terms: "Términos",
    term: "Término",
    meaning: "Definición",
    criteria: "Criterio",
    level: "Nivel de conformidad",
    remarks: "Observaciones y explicaciones",
    evidence: "Evidencia",
    disclaimer: "Aviso legal",
    notApplicableChapter: "No se aplica a este curso",
    fix: "Corrección",
    check: "A comprobar por una persona",
    manual: "Respuesta manual",
    stale: "Respuesta manual, caducada porque cambiaron los bloques que cubre",
  },
};

export function wordsFor(language: string): PageWords {
  return pageWords[language.split("-")[0]?.toLowerCase() ?? "en"] ?? english;
}

const styles = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1f36; background: #ffffff; line-height: 1.5; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
table { border-collapse: collapse; width: 100%; margin: 0 0 2rem; }
caption { text-align: left; font-weight: 700; padding: 0.5rem 0; }
th, td { border: 1px solid #57606a; padding: 0.5rem; vertical-align: top; text-align: left; }
th { background: #eef1f5; }
.draft { border: 3px solid #9a3412; padding: 0.75rem 1rem; margin: 1rem 0; }
.remarks { white-space: pre-line; }
a { color: #1d4ed8; }
a:focus-visible, [tabindex]:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.table-scroll { overflow-x: auto; }
@media (max-width: 40rem) { th, td { padding: 0.35rem; } }
`;

function criteriaTable(chapter: ChapterEntry, words: PageWords): string {
  const caption = en(chapter.label);
  const label = escape(chapter.label);
  if (chapter.disabled) return `<h3>${caption}</h3>\n<p>${escape(words.notApplicableChapter)}${chapter.notes ? `: ${escape(chapter.notes)}` : ""}</p>`;
  const rows = chapter.criteria.map((criterion) => {
    const remarks = escape(remarksText(criterion, words));
    const evidence = criterion.evidence.map((item) => `<li>${escape(item.name)}: ${escape(item.result)}</li>`).join("");
    return `<tr id="sc-${escape(chapter.id)}-${escape(criterion.id)}"><th scope="row">${escape(criterion.id)} ${en(criterion.handle)}</th><td>${en(termLabel(criterion.level))}</td><td><div class="remarks">${remarks}</div>${evidence ? `<details><summary>${escape(words.evidence)}</summary><ul>${evidence}</ul></details>` : ""}</td></tr>`;
  });
  const notes = chapter.notes ? `<p>${escape(chapter.notes)}</p>` : "";
  return `${notes}<div class="table-scroll" role="region" aria-label="${label}" tabindex="0"><table>
<caption>${caption}</caption>
<thead><tr><th scope="col">${escape(words.criteria)}</th><th scope="col">${escape(words.level)}</th><th scope="col">${escape(words.remarks)}</th></tr></thead>
<tbody>${rows.join("\n")}</tbody>
</table></div>`;
}

function cover(report: AccessibilityReport, words: PageWords): string {
  const draft = report.draft
    ? `<section class="draft" aria-labelledby="draft-title"><h2 id="draft-title">${escape(words.draft)}</h2><p>${escape(words.draftLead)}</p><ul>${report.left.map((entry) => `<li><a href="#sc-${escape(chapterFor(report, entry.id))}-${escape(entry.id)}">${escape(entry.id)} ${en(entry.handle)}</a>: ${escape(entry.toCheck)}</li>`).join("")}</ul></section>`
    : `<p>${escape(words.final)}</p>`;
  const facts: [string, string][] = [
    [words.productName, `${report.product.name} / ${report.product.version}`],
    [words.reportDate, report.reportDate],
    [words.description, report.product.description],
    [words.contact, `${report.author.name} <${report.author.email}>`],
    [words.notes, report.notes],
    [words.methods, report.evaluationMethods],
  ];
  return `${draft}\n<dl>${facts.map(([term, value]) => `<dt>${escape(term)}</dt><dd class="remarks">${escape(value)}</dd>`).join("")}</dl>`;
}

function chapterFor(report: AccessibilityReport, criterionId: string): string {
  return report.chapters.find((chapter) => chapter.criteria.some((criterion) => criterion.id === criterionId))?.id ?? "";
}

export function acrHtml(report: AccessibilityReport): string {
  const words = wordsFor(report.language);
  const title = `${report.draft ? `${words.draft}: ` : ""}${report.product.name} — ${words.report}`;
  const standards = catalogue.standards
    .map((standard) => `<tr><th scope="row"><a href="${escape(standard.url)}">${en(standard.label)}</a></th><td>${escape(words.yes)}</td></tr>`)
    .join("");
  const terms = catalogue.terms.map((term) => `<tr><th scope="row">${en(term.label)}</th><td>${en(term.description)}</td></tr>`).join("");
  const sections = catalogue.standards.map((standard) => {
    const chapters = standard.chapters.map((id) => report.chapters.find((chapter) => chapter.id === id)).filter((chapter): chapter is ChapterEntry => chapter !== undefined);
    return `<section aria-labelledby="std-${escape(standard.id)}"><h2 id="std-${escape(standard.id)}">${en(standard.reportHeading)}</h2>\n${chapters.map((chapter) => criteriaTable(chapter, words)).join("\n")}</section>`;
  });
  return `<!doctype html>
<html lang="${escape(report.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
<h1>${escape(title)}</h1>
<p lang="en">${escape(catalogue.title)}</p>
${cover(report, words)}
<h2>${escape(words.standards)}</h2>
<table><thead><tr><th scope="col">${escape(words.standard)}</th><th scope="col">${escape(words.included)}</th></tr></thead><tbody>${standards}</tbody></table>
<h2>${escape(words.terms)}</h2>
<table><thead><tr><th scope="col">${escape(words.term)}</th><th scope="col">${escape(words.meaning)}</th></tr></thead><tbody>${terms}</tbody></table>
${sections.join("\n")}
<h2>${escape(words.disclaimer)}</h2>
<p>${escape(report.legalDisclaimer)}</p>
</main>
</body>
</html>
`;
}
