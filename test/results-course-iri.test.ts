/**
 * A course IRI of the author's choosing (issue 43): export_course's `courseIri` names the course and its
 * activities in the xAPI (tincan.xml) and cmi5 (cmi5.xml) packages, and import_results' `courseIri` makes
 * the statements under it count as the course's; without it they are skipped as another course's. A
 * courseIri for a package that names none, or one that is not an absolute IRI, is refused naming the field.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { unzipSync } from "fflate";
import { startTestService, type TestService } from "./support/service.ts";
import { devAccessToken } from "./support/dev-login.ts";
import { connectAgent, type Agent } from "./support/mcp-client.ts";
import { readExport } from "./support/transfer.ts";
import { quizCourse, scriptedStatements } from "./support/results-statements.ts";

type Json = Record<string, unknown>;
type Course = Parameters<typeof scriptedStatements>[0];

const iri = "https://learning.example.org/courses/results-course";
let service: TestService;
let alice: Agent;
let course: Course;

beforeAll(async () => {
  service = await startTestService();
  alice = await connectAgent(service, await devAccessToken(service, "alice"));
  course = (await alice.call("create_course", quizCourse)) as Course;
});

afterAll(async () => {
  await alice?.close();
  await service?.dispose();
});

async function packageFile(format: string, path: string): Promise<string> {
  const exported = await alice.call("export_course", { courseId: course.id, format, courseIri: iri });
  const files = unzipSync((await readExport(alice, String(exported.uri))).bytes);
  return new TextDecoder().decode(files[path]);
}

test("the xapi and cmi5 packages name the course and its activities under the given IRI", async () => {
  const quiz = course.modules[0]!.lessons[2]!;
  const tincan = await packageFile("xapi", "tincan.xml");
  expect(tincan).toContain(`<activity id="${iri}" type="http://adlnet.gov/expapi/activities/course">`);
  expect(tincan).toContain(`${iri}/questions/${quiz.blocks[0]!.id}`);
  expect(tincan).toContain(`${iri}/lessons/${quiz.id}`);
  expect(tincan).not.toContain("urn:course-authoring-service:course:");
  const cmi5 = await packageFile("cmi5", "cmi5.xml");
  expect(cmi5).toContain(`id="${iri}"`);
});

test("a courseIri for a package that names none, or not an absolute IRI, is refused naming the field", async () => {
  const scorm = await alice.fail("export_course", { courseId: course.id, format: "scorm12", courseIri: iri });
  expect(scorm.code).toBe("invalid_arguments");
  expect(scorm.message).toContain("courseIri");
  for (const bad of ["not an iri", "https://example.org/course/", "relative/path", `https://example.org/${"x".repeat(600)}`]) {
    const refused = await alice.fail("export_course", { courseId: course.id, format: "xapi", courseIri: bad });
    expect(refused.code).toBe("invalid_arguments");
    expect(refused.message).toContain("courseIri");
  }
  expect((await alice.fail("import_results", { courseId: course.id, content: "[]", courseIri: "no spaces allowed" })).message).toContain("courseIri");
});

test("statements under the given IRI count as the course's only when import_results is told the IRI", async () => {
  const statements = scriptedStatements(course, iri);
  const content = JSON.stringify(statements);
  const without = await alice.call("import_results", { courseId: course.id, content });
  expect(without).toMatchObject({ added: 0, stored: 0 });
  expect(JSON.stringify(without.skipped)).toContain("not about this course's activities");
  const withIri = await alice.call("import_results", { courseId: course.id, content, courseIri: iri });
  expect(withIri).toMatchObject({ added: statements.length, stored: statements.length });
  const results = await alice.call("get_course_results", { courseId: course.id });
  expect(results.course).toMatchObject({ learners: 30 });
  expect((results.questions as Json[]).every((question) => question.inCurrentVersion === true)).toBe(true);
});
