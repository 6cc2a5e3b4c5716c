/**
 * The results view's words in the languages the course player speaks (English, French, German,
 * Spanish: `render/ui-text-translations.ts`), picked from the host's `locale` (MCP Apps host context),
 * else the browser's languages, else English. Numbers are formatted for the same language.
 */

export const resultsLanguages = ["en", "fr", "de", "es"] as const;
export type ResultsLanguage = (typeof resultsLanguages)[number];

export type FindingKind = "probably_wrong_key" | "unused_distractor" | "too_easy" | "lesson_drop_off" | "video_not_finished";

export interface ResultsText {
  readonly title: string;
  readonly waiting: string;
  readonly reading: string;
  readonly failed: string;
  readonly noFigures: string;
  readonly notStarted: string;
  readonly version: (version: string, statements: string) => string;
  /** "withheld: fewer than N learners" */
  readonly withheld: (count: string) => string;
  readonly allWithheld: (count: string) => string;
  readonly learners: string;
  readonly quizAttempts: string;
  readonly completionRate: string;
  readonly passRate: string;
  readonly noPassRate: string;
  readonly scoreTitle: string;
  readonly scoreDesc: (learners: string, most: string, bands: string) => string;
  readonly scoreNone: string;
  readonly scoreBand: string;
  readonly scoreAxis: string;
  readonly itemsTitle: string;
  readonly itemsDesc: (count: string) => string;
  readonly itemsNone: string;
  readonly basis: string;
  readonly firstAttempts: string;
  readonly allAttempts: string;
  readonly question: string;
  readonly facility: string;
  readonly discrimination: string;
  readonly attempts: string;
  readonly notComputed: string;
  readonly negativeZone: string;
  readonly questionsWithheld: (questions: string, count: string) => string;
  readonly lessonsTitle: string;
  /** `worst` is empty when nobody stopped anywhere. */
  readonly lessonsDesc: (lessons: string, worst: string, rate: string) => string;
  readonly lessonsNone: string;
  readonly lesson: string;
  readonly reached: string;
  readonly stoppedHere: string;
  readonly dropOff: string;
  readonly barLabel: (reached: string, stopped: string, rate: string) => string;
  readonly videosTitle: string;
  readonly video: string;
  readonly played: string;
  readonly finished: string;
  readonly findingsTitle: string;
  readonly findingsNone: string;
  readonly kinds: Readonly<Record<FindingKind, string>>;
  readonly tableNote: string;
}

const english: ResultsText = {
  title: "Course results",
  waiting: "Waiting for the results…",
  reading: "Reading the course's results…",
  failed: "The results could not be read.",
  noFigures: "This answer has no figures to draw. Ask the assistant for the course results again.",
  notStarted: "This host did not start the results view. Ask the assistant for the course results instead.",
  version: (version, statements) => `Course version ${version}, from ${statements} statements.`,
  withheld: (count) => `withheld: fewer than ${count} learners`,
  allWithheld: (count) => `Nothing is shown: withheld: fewer than ${count} learners. Figures appear once at least ${count} learners have results, so no learner can be singled out.`,
  learners: "Learners",
  quizAttempts: "Quiz attempts",
  completionRate: "Completion rate",
  passRate: "Pass rate",
  noPassRate: "no pass or fail recorded",
  scoreTitle: "Score distribution",
  scoreDesc: (learners, most, bands) => `Bar chart of the best scores of ${learners} learners in ten bands of 10 percentage points; the most learners, ${most}, scored ${bands}. The table below lists every band.`,
  scoreNone: "No scores recorded yet.",
  scoreBand: "Score",
  scoreAxis: "Learners",
  itemsTitle: "Facility against discrimination, per question",
  itemsDesc: (count) => `Scatter chart of ${count} questions: facility index (share of marks earned, 0 to 100 %) across, discrimination index (−100 to 100) up. Points below zero are questions the best learners get wrong more often. The table below lists every question.`,
  itemsNone: "No question has figures yet.",
  basis: "Statistics from",
  firstAttempts: "First attempts",
  allAttempts: "All attempts",
  question: "Question",
  facility: "Facility index",
  discrimination: "Discrimination index",
  attempts: "Attempts",
  notComputed: "not computed (all marks equal)",
  negativeZone: "below 0: check the key",
  questionsWithheld: (questions, count) => `${questions} not drawn: withheld: fewer than ${count} learners.`,
  lessonsTitle: "Drop-off per lesson",
  lessonsDesc: (lessons, worst, rate) => `Bar chart of ${lessons} lessons in course order: learners who reached each lesson, and the part of them who stopped there${worst ? `; the most stop at “${worst}” (${rate})` : ""}. The table below lists every lesson.`,
  lessonsNone: "No lesson has figures yet.",
  lesson: "Lesson",
  reached: "Reached",
  stoppedHere: "Stopped here",
  dropOff: "Drop-off",
  barLabel: (reached, stopped, rate) => `${reached} reached, ${stopped} stopped (${rate})`,
  videosTitle: "Videos: played and watched to the end",
  video: "Video",
  played: "Played",
  finished: "Watched to the end",
  findingsTitle: "Findings",
  findingsNone: "No findings: nothing stands out.",
  kinds: {
    probably_wrong_key: "Key probably wrong",
    unused_distractor: "A wrong answer nobody chooses",
    too_easy: "Everyone gets it right",
    lesson_drop_off: "Many learners stop here",
    video_not_finished: "A video nobody finishes",
  },
  tableNote: "The assistant can propose a fix for each finding; nothing changes unless you agree.",
};

const french: ResultsText = {
  title: "Résultats du cours",
  waiting: "En attente des résultats…",
  reading: "Lecture des résultats du cours…",
  failed: "Les résultats n’ont pas pu être lus.",
  noFigures: "Cette réponse ne contient aucun chiffre à afficher. Redemandez les résultats du cours à l’assistant.",
  notStarted: "Cet hôte n’a pas ouvert la vue des résultats. Demandez plutôt les résultats du cours à l’assistant.",
  version: (version, statements) => `Version ${version} du cours, d’après ${statements} déclarations.`,
  withheld: (count) => `masqué : moins de ${count} apprenants`,
  allWithheld: (count) => `Rien n’est affiché : masqué : moins de ${count} apprenants. Les chiffres apparaissent dès que ${count} apprenants au moins ont des résultats, afin qu’aucun ne puisse être identifié.`,
  learners: "Apprenants",
  quizAttempts: "Tentatives de quiz",
  completionRate: "Taux d’achèvement",
  passRate: "Taux de réussite",
  noPassRate: "aucune réussite ni aucun échec enregistré",
  scoreTitle: "Répartition des scores",
  scoreDesc: (learners, most, bands) => `Diagramme en barres des meilleurs scores de ${learners} apprenants, en dix tranches de 10 points de pourcentage ; le plus d’apprenants, ${most}, ont obtenu ${bands}. Le tableau ci-dessous donne chaque tranche.`,
  scoreNone: "Aucun score enregistré pour l’instant.",
  scoreBand: "Score",
  scoreAxis: "Apprenants",
  itemsTitle: "Indice de facilité et indice de discrimination, par question",
  itemsDesc: (count) => `Nuage de points de ${count} questions : indice de facilité (part des points obtenus, de 0 à 100 %) en abscisse, indice de discrimination (de −100 à 100) en ordonnée. Les points sous zéro sont des questions que les meilleurs apprenants ratent plus souvent. Le tableau ci-dessous donne chaque question.`,
  itemsNone: "Aucune question n’a encore de chiffres.",
  basis: "Statistiques sur",
  firstAttempts: "Premières tentatives",
  allAttempts: "Toutes les tentatives",
  question: "Question",
  facility: "Indice de facilité",
  discrimination: "Indice de discrimination",
  attempts: "Tentatives",
  notComputed: "non calculé (toutes les notes égales)",
  negativeZone: "sous 0 : vérifier la clé",
  questionsWithheld: (questions, count) => `${questions} non affichées : masqué : moins de ${count} apprenants.`,
  lessonsTitle: "Abandons par leçon",
  lessonsDesc: (lessons, worst, rate) => `Diagramme en barres de ${lessons} leçons dans l’ordre du cours : les apprenants arrivés à chaque leçon, et la part d’entre eux qui s’y est arrêtée${worst ? ` ; c’est à « ${worst} » qu’on s’arrête le plus (${rate})` : ""}. Le tableau ci-dessous donne chaque leçon.`,
  lessonsNone: "Aucune leçon n’a encore de chiffres.",
  lesson: "Leçon",
  reached: "Arrivés",
  stoppedHere: "Arrêtés ici",
  dropOff: "Abandon",
  barLabel: (reached, stopped, rate) => `${reached} arrivés, ${stopped} arrêtés (${rate})`,
  videosTitle: "Vidéos : lancées et vues jusqu’au bout",
  video: "Vidéo",
  played: "Lancée",
  finished: "Vue jusqu’au bout",
  findingsTitle: "Constats",
  findingsNone: "Aucun constat : rien ne ressort.",
  kinds: {
    probably_wrong_key: "Clé probablement fausse",
    unused_distractor: "Une mauvaise réponse que personne ne choisit",
    too_easy: "Tout le monde réussit",
    lesson_drop_off: "Beaucoup d’apprenants s’arrêtent ici",
    video_not_finished: "Une vidéo que personne ne termine",
  },
  tableNote: "L’assistant peut proposer une correction pour chaque constat ; rien ne change sans votre accord.",
};

const german: ResultsText = {
  title: "Kursergebnisse",
  waiting: "Warten auf die Ergebnisse…",
  reading: "Die Ergebnisse des Kurses werden gelesen…",
  failed: "Die Ergebnisse konnten nicht gelesen werden.",
  noFigures: "Diese Antwort enthält keine Zahlen zum Darstellen. Bitten Sie den Assistenten erneut um die Kursergebnisse.",
  notStarted: "Dieser Host hat die Ergebnisansicht nicht gestartet. Bitten Sie stattdessen den Assistenten um die Kursergebnisse.",
  version: (version, statements) => `Kursversion ${version}, aus ${statements} Statements.`,
  withheld: (count) => `zurückgehalten: weniger als ${count} Lernende`,
  allWithheld: (count) => `Nichts wird angezeigt: zurückgehalten: weniger als ${count} Lernende. Zahlen erscheinen, sobald mindestens ${count} Lernende Ergebnisse haben, damit niemand herausgegriffen werden kann.`,
  learners: "Lernende",
  quizAttempts: "Quizversuche",
  completionRate: "Abschlussquote",
  passRate: "Bestehensquote",
  noPassRate: "kein Bestehen oder Nichtbestehen erfasst",
  scoreTitle: "Verteilung der Punktzahlen",
  scoreDesc: (learners, most, bands) => `Balkendiagramm der besten Punktzahlen von ${learners} Lernenden in zehn Bereichen zu je 10 Prozentpunkten; die meisten Lernenden, ${most}, erreichten ${bands}. Die Tabelle darunter nennt jeden Bereich.`,
  scoreNone: "Noch keine Punktzahlen erfasst.",
  scoreBand: "Punktzahl",
  scoreAxis: "Lernende",
  itemsTitle: "Leichtigkeitsindex gegen Trennschärfe, je Frage",
  itemsDesc: (count) => `Streudiagramm von ${count} Fragen: Leichtigkeitsindex (Anteil der erreichten Punkte, 0 bis 100 %) waagrecht, Trennschärfeindex (−100 bis 100) senkrecht. Punkte unter null sind Fragen, die die besten Lernenden öfter falsch beantworten. Die Tabelle darunter nennt jede Frage.`,
  itemsNone: "Noch keine Frage hat Zahlen.",
  basis: "Statistik aus",
  firstAttempts: "Ersten Versuchen",
  allAttempts: "Allen Versuchen",
  question: "Frage",
  facility: "Leichtigkeitsindex",
  discrimination: "Trennschärfeindex",
  attempts: "Versuche",
  notComputed: "nicht berechnet (alle Bewertungen gleich)",
  negativeZone: "unter 0: Lösung prüfen",
  questionsWithheld: (questions, count) => `${questions} nicht gezeichnet: zurückgehalten: weniger als ${count} Lernende.`,
  lessonsTitle: "Abbrüche je Lektion",
  lessonsDesc: (lessons, worst, rate) => `Balkendiagramm von ${lessons} Lektionen in Kursreihenfolge: Lernende, die jede Lektion erreicht haben, und der Teil davon, der dort aufgehört hat${worst ? `; am häufigsten wird bei „${worst}“ aufgehört (${rate})` : ""}. Die Tabelle darunter nennt jede Lektion.`,
  lessonsNone: "Noch keine Lektion hat Zahlen.",
  lesson: "Lektion",
  reached: "Erreicht",
  stoppedHere: "Hier aufgehört",
  dropOff: "Abbruch",
  barLabel: (reached, stopped, rate) => `${reached} erreicht, ${stopped} aufgehört (${rate})`,
  videosTitle: "Videos: gestartet und bis zum Ende gesehen",
  video: "Video",
  played: "Gestartet",
  finished: "Bis zum Ende gesehen",
  findingsTitle: "Befunde",
  findingsNone: "Keine Befunde: nichts fällt auf.",
  kinds: {
    probably_wrong_key: "Lösung wahrscheinlich falsch",
    unused_distractor: "Eine falsche Antwort, die niemand wählt",
    too_easy: "Alle beantworten sie richtig",
    lesson_drop_off: "Viele Lernende hören hier auf",
    video_not_finished: "Ein Video, das niemand zu Ende sieht",
  },
  tableNote: "Der Assistent kann für jeden Befund eine Korrektur vorschlagen; nichts ändert sich ohne Ihre Zustimmung.",
};

const spanish: ResultsText = {
  title: "Resultados del curso",
  waiting: "Esperando los resultados…",
  reading: "Leyendo los resultados del curso…",
  failed: "No se pudieron leer los resultados.",
  noFigures: "Esta respuesta no trae cifras que mostrar. Vuelva a pedir los resultados del curso al asistente.",
  notStarted: "Este anfitrión no abrió la vista de resultados. Pida al asistente los resultados del curso.",
  version: (version, statements) => `Versión ${version} del curso, a partir de ${statements} declaraciones.`,
  withheld: (count) => `oculto: menos de ${count} estudiantes`,
  allWithheld: (count) => `No se muestra nada: oculto: menos de ${count} estudiantes. Las cifras aparecen cuando al menos ${count} estudiantes tienen resultados, para que nadie pueda ser identificado.`,
  learners: "Estudiantes",
  quizAttempts: "Intentos de cuestionario",
  completionRate: "Tasa de finalización",
  passRate: "Tasa de aprobados",
  noPassRate: "sin aprobados ni suspensos registrados",
  scoreTitle: "Distribución de puntuaciones",
  scoreDesc: (learners, most, bands) => `Gráfico de barras de las mejores puntuaciones de ${learners} estudiantes en diez tramos de 10 puntos porcentuales; la mayoría, ${most}, obtuvo ${bands}. La tabla de abajo da cada tramo.`,
  scoreNone: "Aún no hay puntuaciones registradas.",
  scoreBand: "Puntuación",
  scoreAxis: "Estudiantes",
  itemsTitle: "Índice de facilidad frente a índice de discriminación, por pregunta",
  itemsDesc: (count) => `Gráfico de dispersión de ${count} preguntas: índice de facilidad (parte de los puntos obtenidos, de 0 a 100 %) en horizontal, índice de discriminación (de −100 a 100) en vertical. Los puntos bajo cero son preguntas que los mejores estudiantes fallan más a menudo. La tabla de abajo da cada pregunta.`,
  itemsNone: "Ninguna pregunta tiene cifras todavía.",
  basis: "Estadísticas de",
  firstAttempts: "Primeros intentos",
  allAttempts: "Todos los intentos",
  question: "Pregunta",
  facility: "Índice de facilidad",
  discrimination: "Índice de discriminación",
  attempts: "Intentos",
  notComputed: "no calculado (todas las notas iguales)",
  negativeZone: "bajo 0: revisar la clave",
  questionsWithheld: (questions, count) => `${questions} sin dibujar: oculto: menos de ${count} estudiantes.`,
  lessonsTitle: "Abandono por lección",
  lessonsDesc: (lessons, worst, rate) => `Gráfico de barras de ${lessons} lecciones en el orden del curso: estudiantes que llegaron a cada lección y la parte de ellos que se detuvo allí${worst ? `; donde más se detienen es en «${worst}» (${rate})` : ""}. La tabla de abajo da cada lección.`,
  lessonsNone: "Ninguna lección tiene cifras todavía.",
  lesson: "Lección",
  reached: "Llegaron",
  stoppedHere: "Se detuvieron aquí",
  dropOff: "Abandono",
  barLabel: (reached, stopped, rate) => `${reached} llegaron, ${stopped} se detuvieron (${rate})`,
  videosTitle: "Vídeos: reproducidos y vistos hasta el final",
  video: "Vídeo",
  played: "Reproducido",
  finished: "Visto hasta el final",
  findingsTitle: "Hallazgos",
  findingsNone: "Sin hallazgos: nada destaca.",
  kinds: {
    probably_wrong_key: "Clave probablemente errónea",
    unused_distractor: "Una respuesta errónea que nadie elige",
    too_easy: "Todos la aciertan",
    lesson_drop_off: "Muchos estudiantes se detienen aquí",
    video_not_finished: "Un vídeo que nadie termina",
  },
  tableNote: "El asistente puede proponer una corrección para cada hallazgo; nada cambia sin su acuerdo.",
};

export const resultsText: Readonly<Record<ResultsLanguage, ResultsText>> = { en: english, fr: french, de: german, es: spanish };

/** The first of `preferred` (BCP 47 tags, best first) the view speaks; English otherwise. */
export function pickLanguage(preferred: readonly unknown[]): ResultsLanguage {
  for (const tag of preferred) {
    if (typeof tag !== "string") continue;
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
    const found = resultsLanguages.find((language) => language === primary);
    if (found) return found;
  }
  return "en";
}
