/**
 * The handout's and job aid's own words, in the languages the player has a pack for (en, fr, de, es);
 * any other course language prints them in English (the export says so, like the player's notice).
 */
export interface PdfLabels {
  readonly contents: string;
  readonly objectives: string;
  readonly module: (number: number) => string;
  readonly question: (number: number) => string;
  readonly answerKey: string;
  readonly page: (page: number, pages: number) => string;
  readonly transcript: string;
  readonly paths: string;
  readonly ending: string;
  readonly trueWord: string;
  readonly falseWord: string;
  readonly download: string;
  readonly keyPoints: string;
  readonly jobAid: string;
  readonly leftOut: (count: number) => string;
  readonly writeAnswer: string;
  readonly orderHint: string;
  readonly matchHint: string;
  readonly sortHint: string;
  readonly card: (number: number) => string;
  readonly noKey: string;
}

const en: PdfLabels = {
  contents: "Contents",
  objectives: "Objectives",
  module: (number) => `Module ${number}`,
  question: (number) => `Question ${number}`,
  answerKey: "Answer key",
  page: (page, pages) => `Page ${page} of ${pages}`,
  transcript: "Transcript",
  paths: "Paths through the scenario",
  ending: "Ending",
  trueWord: "True",
  falseWord: "False",
  download: "Download",
  keyPoints: "Key points",
  jobAid: "Job aid",
  leftOut: (count) => `${count} more key point${count === 1 ? "" : "s"} did not fit; see the full course.`,
  writeAnswer: "Answer:",
  orderHint: "Number these in the right order.",
  matchHint: "Write the letter of the matching item.",
  sortHint: "Write the category of each item.",
  card: (number) => `Card ${number}`,
  noKey: "The answers are not included in this copy.",
};

const fr: PdfLabels = {
  contents: "Sommaire",
  objectives: "Objectifs",
  module: (number) => `Module ${number}`,
  question: (number) => `Question ${number}`,
  answerKey: "Corrigé",
  page: (page, pages) => `Page ${page} sur ${pages}`,
  transcript: "Transcription",
  paths: "Parcours du scénario",
  ending: "Fin",
  trueWord: "Vrai",
  falseWord: "Faux",
  download: "Téléchargement",
  keyPoints: "Points clés",
  jobAid: "Aide-mémoire",
  leftOut: (count) => `${count} autre${count === 1 ? "" : "s"} point${count === 1 ? "" : "s"} clé${count === 1 ? "" : "s"} ne tien${count === 1 ? "t" : "nent"} pas ici ; voir le cours complet.`,
  writeAnswer: "Réponse :",
  orderHint: "Numérotez dans le bon ordre.",
  matchHint: "Écrivez la lettre de l’élément correspondant.",
  sortHint: "Écrivez la catégorie de chaque élément.",
  card: (number) => `Carte ${number}`,
  noKey: "Les réponses ne figurent pas dans cette copie.",
};

const de: PdfLabels = {
  contents: "Inhalt",
  objectives: "Lernziele",
  module: (number) => `Modul ${number}`,
  question: (number) => `Frage ${number}`,
  answerKey: "Lösungen",
  page: (page, pages) => `Seite ${page} von ${pages}`,
  transcript: "Transkript",
  paths: "Wege durch das Szenario",
  ending: "Ende",
  trueWord: "Wahr",
  falseWord: "Falsch",
  download: "Download",
  keyPoints: "Das Wichtigste",
  jobAid: "Arbeitshilfe",
  leftOut: (count) => `${count} weitere${count === 1 ? "r" : ""} Punkt${count === 1 ? "" : "e"} passt nicht hierher; siehe den ganzen Kurs.`,
  writeAnswer: "Antwort:",
  orderHint: "Nummerieren Sie in der richtigen Reihenfolge.",
  matchHint: "Schreiben Sie den Buchstaben des passenden Elements.",
  sortHint: "Schreiben Sie die Kategorie jedes Elements.",
  card: (number) => `Karte ${number}`,
  noKey: "Die Lösungen sind in dieser Kopie nicht enthalten.",
};

const es: PdfLabels = {
  contents: "Contenido",
  objectives: "Objetivos",
  module: (number) => `Módulo ${number}`,
  question: (number) => `Pregunta ${number}`,
  answerKey: "Respuestas",
  page: (page, pages) => `Página ${page} de ${pages}`,
  transcript: "Transcripción",
  paths: "Caminos del escenario",
  ending: "Final",
  trueWord: "Verdadero",
  falseWord: "Falso",
  download: "Descarga",
  keyPoints: "Puntos clave",
  jobAid: "Guía rápida",
  leftOut: (count) => `${count} punto${count === 1 ? "" : "s"} clave más no cabe${count === 1 ? "" : "n"} aquí; vea el curso completo.`,
  writeAnswer: "Respuesta:",
  orderHint: "Numere en el orden correcto.",
  matchHint: "Escriba la letra del elemento correspondiente.",
  sortHint: "Escriba la categoría de cada elemento.",
  card: (number) => `Tarjeta ${number}`,
  noKey: "Las respuestas no se incluyen en esta copia.",
};

const packs: Readonly<Record<string, PdfLabels>> = { en, fr, de, es };

/** The labels for a course language ("fr-CA" → French), and whether the language has its own. */
export function pdfLabels(language: string): { labels: PdfLabels; own: boolean } {
  const base = language.toLowerCase().split("-")[0] ?? "en";
  const labels = packs[base];
  return labels ? { labels, own: true } : { labels: en, own: false };
}
