/**
 * The cmi5 AU adapter (the `cmi5` bundle). It reads the
 * launch parameters, trades the one-time fetch URL for the auth token, reads `LMS.LaunchData` (context
 * template, launch mode, mastery score, return URL) and the learner preferences, resumes from its own
 * State document, and sends the cmi5 defined statements in order through a durable outbox: initialized,
 * completed once, passed (once per registration) or failed (never twice in a session, never after
 * passed), one cmi5-allowed `answered` statement per graded question, terminated last. What the State
 * document says was reported is written only after the LRS accepted the statement, so a statement lost
 * to an outage is sent again in the next session.
 *
 * This module wires the page's events to the modules in `cmi5/`: `launch` (the launch parameters, the
 * auth token, `LMS.LaunchData`), `statements` (the statements and the outbox) and `session`, which holds
 * what they all read.
 */
import type { CourseRuntimeApi } from "../../page-contract/course-runtime.ts";
import type { AnswerTools, QuestionFacts } from "./answers.ts";
import type { LrsDocumentOptions, LrsDocuments } from "./lrs-documents.ts";
import type { StatementOutbox, OutboxOptions } from "./outbox.ts";
import type { ProgressTools } from "./progress.ts";
import type { Cmi5AdapterConfig } from "../../page-contract/config.ts";
import { ClassName, DataName } from "../../page-contract/markup-names.ts";
import { fetchToken, readLaunchData, readLaunchParams, readTinCanParams } from "./cmi5/launch.ts";
import {
  actor,
  authLost,
  config,
  contextTemplate,
  course,
  documents,
  endpoint,
  headers,
  lessonShownAt,
  reported,
  returnUrl,
  saveProgress,
  savedProgress,
  setAuthorization,
  setDocuments,
  startCmi5Session,
  startTinCan,
  stateUrl,
  tools,
  type Json,
} from "./cmi5/session.ts";
import { evaluate, openOutbox, send, sendAnswered, sendExperienced, sendFailure, sendVideo, terminate } from "./cmi5/statements.ts";

export type { Cmi5AdapterConfig };

export interface Cmi5Helpers {
  createProgressTools(lessons: CourseRuntimeApi["lessons"]): ProgressTools;
  createStatementOutbox(options: OutboxOptions): StatementOutbox;
  createAnswerTools(questions: Readonly<Record<string, QuestionFacts>>): AnswerTools;
  createLrsDocuments(options: LrsDocumentOptions): LrsDocuments;
}

const sessionExtension = "https://w3id.org/xapi/cmi5/context/extensions/sessionid";

export function installCmi5Adapter(adapterConfig: Cmi5AdapterConfig, helpers: Cmi5Helpers): void {
  const runtime = window.CourseRuntime;
  if (!runtime) return;
  const progressTools = helpers.createProgressTools(runtime.lessons);
  const answerTools = helpers.createAnswerTools(adapterConfig.questions);
  const tinCan = adapterConfig.launch === "tincan" ? readTinCanParams(adapterConfig.courseIri ?? "") : null;
  const launch = adapterConfig.launch === "tincan" ? tinCan : readLaunchParams();
  if (!launch) {
    progressTools.notify(adapterConfig.text.noLmsFound);
    return;
  }
  startCmi5Session(runtime, adapterConfig, progressTools, answerTools, launch);
  if (tinCan) startTinCan(tinCan.auth, adapterConfig.masteryScore ?? null);
  setDocuments(helpers.createLrsDocuments({ headers, onAuthLost: authLost }));
  void start(helpers.createStatementOutbox, tinCan !== null);
}

function addExitButton(): void {
  const header = document.querySelector(`.${ClassName.headerInner}`);
  if (!header) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = ClassName.button;
  button.textContent = config.text.exitCourse;
  button.addEventListener("click", () => {
    void terminate().then(() => {
      if (returnUrl) window.location.href = returnUrl;
    });
  });
  header.appendChild(button);
}

/** The page's events: each visit and score saves the State document and weighs the statements due. */
function listen(): void {
  course.onLessonVisited((visit) => {
    lessonShownAt.set(visit.lessonId, Date.now());
    sendExperienced(visit);
    saveProgress();
    evaluate();
  });
  course.onQuestionAnswered(sendAnswered);
  listenToVideos();
  course.onAttemptSaved(() => saveProgress());
  course.onQuizScored((score) => {
    lessonShownAt.set(score.lessonId, Date.now());
    saveProgress();
    evaluate();
    // No attempts left: the failure is final for this session, so it is reported at once.
    if (score.attemptsLeft === 0) sendFailure();
  });
}

/** A video block's start (`played`) and end (`completed`), each once per video in a session. */
function listenToVideos(): void {
  const sent = new Set<string>();
  const report = (event: Event, kind: "played" | "completed"): void => {
    const media = event.target;
    if (!(media instanceof HTMLVideoElement)) return;
    const blockId = media.dataset[DataName.videoId];
    if (!blockId || sent.has(`${kind}:${blockId}`)) return;
    sent.add(`${kind}:${blockId}`);
    sendVideo(kind, { blockId, title: media.getAttribute("aria-label") ?? "", time: media.currentTime, length: Number.isFinite(media.duration) ? media.duration : null });
  };
  // Media events do not bubble: listened for on the way down.
  document.addEventListener("play", (event) => report(event, "played"), true);
  document.addEventListener("ended", (event) => report(event, "completed"), true);
}

/** cmi5: the auth token for the fetch URL, LaunchData, the learner preferences; false when the LMS cannot be read. */
async function cmi5Launch(): Promise<boolean> {
  const token = await fetchToken().catch(() => null);
  if (!token) {
    tools.notify(config.text.lmsUnavailable);
    return false;
  }
  setAuthorization(token);
  if (!(await readLaunchData())) return false;
  const agent = encodeURIComponent(JSON.stringify(actor));
  await fetch(`${endpoint}agents/profile?profileId=cmi5LearnerPreferences&agent=${agent}`, { headers: headers() }).catch(() => undefined);
  return true;
}

async function start(createStatementOutbox: Cmi5Helpers["createStatementOutbox"], tinCan: boolean): Promise<void> {
  if (!tinCan && !(await cmi5Launch())) return;
  const sessionId = tinCan ? crypto.randomUUID() : String(((contextTemplate.extensions ?? {}) as Json)[sessionExtension] ?? "");
  const saved = await documents.read(stateUrl(config.progressStateId));
  const previous = savedProgress(saved.body);
  reported.completed = previous.reported.completed;
  reported.passed = previous.reported.passed;
  openOutbox(createStatementOutbox, sessionId);
  send("initialized", null, false);
  listen();
  const state = previous.progress === null ? null : tools.decode(previous.progress);
  // A learner who moved on while the LRS answered keeps their page; what they did before is still merged in.
  const learnerMoved = course.getState().currentLessonId !== null;
  if (state) course.setState(learnerMoved ? { ...state, currentLessonId: null } : state);
  evaluate();
  window.addEventListener("pagehide", () => void terminate());
  if (returnUrl) addExitButton();
}
