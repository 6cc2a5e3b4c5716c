/**
 * MCP prompts that start common authoring conversations: design a new course in one create_course
 * call, review an existing course, and write a graded quiz for a module. Prompts that name a course
 * embed its current outline, read with the caller's own access.
 */
import type { GetPromptResult, Prompt } from "@modelcontextprotocol/server";
import { getCourse } from "../../authoring/courses.ts";
import { invalidArgument } from "../../authoring/errors.ts";
import { courseOutlineMarkdown } from "../../authoring/outline-markdown.ts";
import { readAs, type AuthoringServices } from "../../authoring/services.ts";
import type { CallerIdentity } from "../registry.ts";
import type { PromptProvider } from "../server.ts";
import { completeCourseId } from "./resources.ts";

export const authoringPromptList: Prompt[] = [
  {
    name: "design_course",
    title: "Design a new course",
    description: "Plan a course on a topic and create it, outline and content, in one create_course call.",
    arguments: [
      { name: "topic", description: "What the course teaches", required: true },
      { name: "audience", description: "Who it is for", required: false },
      { name: "level", description: "beginner, intermediate, advanced or all_levels", required: false },
      { name: "modules", description: "How many modules (default 3)", required: false },
    ],
  },
  {
    name: "review_course",
    title: "Review a course",
    description: "Review a course for clarity, accessibility, objective coverage and quiz quality, then propose fixes.",
    arguments: [{ name: "courseId", description: "The course to review (crs_…)", required: true }],
  },
  {
    name: "write_module_quiz",
    title: "Write a module quiz",
    description: "Add a graded quiz lesson to a module, with questions tied to the course's learning objectives.",
    arguments: [
      { name: "courseId", description: "The course (crs_…)", required: true },
      { name: "moduleId", description: "The module to quiz (mod_…); default: the last module", required: false },
    ],
  },
];

function userMessage(text: string): GetPromptResult["messages"][number] {
  return { role: "user", content: { type: "text", text } };
}

async function outlineFor(services: AuthoringServices, user: CallerIdentity, courseId: string | undefined): Promise<string> {
  if (!courseId) throw invalidArgument("courseId", "is required");
  const course = await readAs(services, user, (session) => getCourse(session, { courseId, includeBlocks: true }));
  return courseOutlineMarkdown(course);
}

export async function getAuthoringPrompt(
  services: AuthoringServices,
  user: CallerIdentity,
  name: string,
  args: Record<string, string>,
): Promise<GetPromptResult> {
  switch (name) {
    case "design_course": {
      if (!args.topic?.trim()) throw invalidArgument("topic", "is required");
      const modules = Number(args.modules) > 0 ? Number(args.modules) : 3;
      return {
        description: `Design a course on ${args.topic}`,
        messages: [
          userMessage(
            `Design an e-learning course on "${args.topic}"${args.audience ? ` for ${args.audience}` : ""}${args.level ? ` at ${args.level} level` : ""}.\n\n` +
              `1. Write 3-6 measurable learning objectives, each with a short key.\n` +
              `2. Plan ${modules} modules; each has 2-4 content lessons and ends with a quiz lesson (kind: quiz) of 3-5 questions tied to objectives by key.\n` +
              `3. Use varied blocks: headings, short text, callouts, flashcards for terms; every image needs alt text, every video or audio captions or a transcript.\n` +
              `4. Create everything in ONE create_course call with the nested outline. If it reports invalid_arguments, fix the named fields and call again.\n` +
              `5. Finish by summarising the course (ID, modules, lessons) for the author.`,
          ),
        ],
      };
    }
    case "review_course": {
      const outline = await outlineFor(services, user, args.courseId);
      return {
        description: `Review course ${args.courseId}`,
        messages: [
          userMessage(
            `Review this course as an instructional designer. Check: every objective is taught and assessed; lessons are short and ordered well; ` +
              `images have meaningful alt text; media has captions or transcripts; each question has one clear correct answer, useful feedback and an explanation.\n` +
              `Start with validate_course (its findings name rules, locations and fixes) and list_comments (reviewers' open comments). ` +
              `List the problems, then propose fixes as one edit_course call (pass expectedVersion from get_course) and ask the author before applying it.\n\n${outline}`,
          ),
        ],
      };
    }
    case "write_module_quiz": {
      const outline = await outlineFor(services, user, args.courseId);
      return {
        description: `Write a quiz for course ${args.courseId}`,
        messages: [
          userMessage(
            `Add a graded quiz to ${args.moduleId ? `module ${args.moduleId}` : "the last module"} of this course with add_lesson (kind: quiz, passingScore 80) ` +
              `and 4-6 question blocks of mixed types (single_choice, multiple_choice, true_false, fill_in_blank, matching, ordering). ` +
              `Each question: objectiveIds of the objectives it assesses, feedback per answer, an explanation. Use only what the module teaches.\n\n${outline}`,
          ),
        ],
      };
    }
    default:
      throw invalidArgument("name", `unknown prompt ${name}; available: ${authoringPromptList.map((prompt) => prompt.name).join(", ")}`);
  }
}

export const authoringPrompts: PromptProvider<AuthoringServices> = {
  prompts: authoringPromptList,
  get: getAuthoringPrompt,
  complete: async (services, user, _prompt, argument, value) => (argument === "courseId" ? completeCourseId(services, user, value) : []),
};
