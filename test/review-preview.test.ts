/**
 * The course preview: `course://{courseId}/preview` is the renderer's self-contained HTML (assets
 * inlined, author Markdown inert), `/preview/published` is the published snapshot, and preview_course
 * links the MCP Apps view while giving every host a text outline and the HTML resource.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { courseOutlineMarkdown } from "../src/authoring/outline-markdown.ts";
import type { CourseDocument } from "../src/authoring/schemas/course.ts";
import { coursePreviewViewUri } from "../src/mcp/apps/course-preview-view.ts";
import { compileTools } from "../src/mcp/registry.ts";
import { authoringTools } from "../src/mcp/tools/index.ts";
import { readCourseResource } from "../src/mcp/tools/resources.ts";
import { defaultMcpResultMaxBytes } from "../src/config.ts";
import { identity, openHarness, type Harness, type Json } from "./authoring-harness.ts";
import { blockOfType, createCourse, type Course } from "./support/review-courses.ts";
import { ClassName } from "../src/page-contract/markup-names.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await openHarness();
});
afterAll(() => harness.close());

/**
 * These courses have quiz lessons, so their whole-course page carries the grading script (about 56 KB of
 * styles and scripts in all): more than the default cap. A content lesson's preview fits it (see
 * mcp-resource-bounds.test.ts); here the cap is set explicitly to read the whole course in one answer.
 */
const previewCap = 128 * 1024;

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString("base64");

async function htmlOf(uri: string, user = "alice"): Promise<{ text: string; mimeType: string | undefined; meta: Json }> {
  const [content] = (await readCourseResource(harness.services, identity(user), uri, previewCap)).contents;
  return { text: (content as { text: string }).text, mimeType: content!.mimeType, meta: (content!._meta ?? {}) as Json };
}

async function courseWithImage(): Promise<{ course: Course; assetId: string }> {
  const course = await createCourse(harness);
  const assetId = ((await harness.call("alice", "upload_asset", { courseId: course.id, filename: "exit.png", dataBase64: png })).asset as Json).id as string;
  await harness.call("alice", "add_blocks", {
    courseId: course.id,
    lessonId: course.modules[0]!.lessons[0]!.id,
    blocks: [
      { type: "image", assetId, alt: "Exit sign over the stair door" },
      { type: "text", markdown: "Stay calm.<script>alert('pwned')</script> <img src=x onerror=alert(1)>" },
    ],
  });
  return { course: (await harness.call("alice", "get_course", { courseId: course.id })) as Course, assetId };
}

describe("course://{courseId}/preview", () => {
  test("is one HTML page with the course's text, its images inlined as data: URLs, and author markup inert", async () => {
    const { course, assetId } = await courseWithImage();
    const preview = await htmlOf(`course://${course.id}/preview`);
    expect(preview.mimeType).toBe("text/html");
    expect(preview.text).toStartWith("<!doctype html>");
    expect(preview.text).toContain("Fire safety basics");
    expect(preview.text).toContain("Walk to the nearest exit.");
    expect(preview.text).toContain(`src="data:image/png;base64,${png}"`);
    expect(preview.text).not.toContain("alert('pwned')</script>");
    expect(preview.text).not.toMatch(/<img[^>]*onerror/i);
    expect(preview.meta).toMatchObject({ courseId: course.id, variant: "draft", version: course.version, omittedAssetIds: [] });
    expect(preview.text).not.toContain(assetId);
  });

  test("/preview/published (or ?variant=published) is the published snapshot, unchanged by later edits", async () => {
    const course = await createCourse(harness);
    await harness.call("alice", "set_status", { courseId: course.id, status: "published" });
    const text = blockOfType(course, "text");
    await harness.call("alice", "update_block", { courseId: course.id, blockId: text.id, block: { type: "text", markdown: "Edited after publishing." } });
    const draft = await htmlOf(`course://${course.id}/preview`);
    const published = await htmlOf(`course://${course.id}/preview/published`);
    const query = await htmlOf(`course://${course.id}/preview?variant=published`);
    expect(draft.text).toContain("Edited after publishing.");
    expect(published.text).not.toContain("Edited after publishing.");
    expect(published.text).toContain("Walk to the nearest exit.");
    expect(query.meta).toMatchObject({ variant: "published" });
  });

  test("the preview names the variant and version it shows, not the course's status", async () => {
    const course = await createCourse(harness);
    const published = (await harness.call("alice", "set_status", { courseId: course.id, status: "published" })) as Json;
    const text = blockOfType(course, "text");
    await harness.call("alice", "update_block", { courseId: course.id, blockId: text.id, block: { type: "text", markdown: "Edited after publishing." } });
    const draftDocument = (await harness.call("alice", "get_course", { courseId: course.id })) as Course & { version: number; status: string };
    expect(draftDocument.status).toBe("published");
    const badge = (page: string): string => new RegExp(`<p class="${ClassName.previewBadge}"[^>]*>([^<]*)</p>`).exec(page)?.[1] ?? "";
    expect(badge((await htmlOf(`course://${course.id}/preview`)).text)).toBe(`Preview: draft, version ${draftDocument.version}`);
    const publishedVersion = (published.publication as Json | undefined)?.version ?? published.version;
    expect(badge((await htmlOf(`course://${course.id}/preview/published`)).text)).toBe(`Preview: published, version ${publishedVersion}`);
    const outline = courseOutlineMarkdown(draftDocument as unknown as CourseDocument, "draft");
    expect(outline).toContain(`_draft, version ${draftDocument.version} · course status: published`);
    expect(outline).not.toMatch(/_published · version/);
  });

  test("a published preview of a never-published course is invalid_state; a stranger's read is not_found", async () => {
    const course = await createCourse(harness);
    await expect(readCourseResource(harness.services, identity("alice"), `course://${course.id}/preview/published`, defaultMcpResultMaxBytes)).rejects.toMatchObject({ code: "invalid_state" });
    await expect(readCourseResource(harness.services, identity("mallory"), `course://${course.id}/preview`, defaultMcpResultMaxBytes)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("preview_course and the MCP Apps view", () => {
  test("the tool lists its UI resource in _meta (current and legacy keys) and answers with the outline and previewUri", async () => {
    const listing = compileTools(authoringTools).get("preview_course")!.listing;
    expect(listing._meta).toEqual({ ui: { resourceUri: coursePreviewViewUri }, "ui/resourceUri": coursePreviewViewUri });
    expect(listing.annotations?.readOnlyHint).toBe(true);
    const course = await createCourse(harness);
    expect((await harness.fail("mallory", "preview_course", { courseId: course.id })).code).toBe("not_found");
    const preview = await harness.call("alice", "preview_course", { courseId: course.id });
    expect(preview).toMatchObject({ courseId: course.id, variant: "draft", previewUri: `course://${course.id}/preview`, status: "draft" });
    expect((preview.modules as Json[]).map((module) => module.title)).toEqual(["When the alarm sounds", "Raising the alarm"]);
  });

  test("the ui:// resource is an HTML document served with the MCP App MIME type and no external origins", async () => {
    const view = await htmlOf(coursePreviewViewUri);
    expect(view.mimeType).toBe("text/html;profile=mcp-app");
    expect(view.text).toStartWith("<!doctype html>");
    expect(view.text).toContain("ui/initialize");
    expect(view.text).toContain("resources/read");
    expect(view.meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
  });
});
