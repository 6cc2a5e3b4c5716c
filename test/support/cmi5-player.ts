/**
 * A cmi5 package ready to launch, as an LMS holds it: the sample course built as cmi5, unpacked and
 * served, its cmi5.xml read for the AU (id, launch URL, moveOn, masteryScore) the way an LMS imports
 * it, beside a test LMS/LRS and a browser to play it in.
 */
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { buildPackage } from "../../src/export/build-package.ts";
import type { AssetSource, ExportCourse } from "../../src/formats/package/types.ts";
import { renderCourseHtml } from "../../src/render/index.ts";
import { memoryAssets, sampleCourse, unpackToDirectory } from "./export-course.ts";
import { startCmi5Lms, type Cmi5Lms } from "./lms-cmi5.ts";
import { launchChromium, startPackageServer, type PackageServer } from "./lms-harness.ts";

export interface Cmi5Au {
  id: string;
  url: string;
  moveOn: string;
  masteryScore: number;
}

export interface Cmi5Player {
  browser: Browser;
  lms: Cmi5Lms;
  packageServer: PackageServer;
  au: Cmi5Au;
  stop(): Promise<void>;
}

export async function startCmi5Player(folderName: string, course: ExportCourse = sampleCourse(), assets: AssetSource = memoryAssets()): Promise<Cmi5Player> {
  const browser = await launchChromium();
  const lms = startCmi5Lms();
  const built = await buildPackage(course, { format: "cmi5", assets, renderer: renderCourseHtml, lrsOrigins: [lms.origin] });
  const directory = await unpackToDirectory(built.stream, folderName);
  const packageServer = startPackageServer(directory);
  // Import the course structure as an LMS would.
  const structure = await Bun.file(join(directory, "cmi5.xml")).text();
  const auElement = /<au ([^>]*)>[\s\S]*?<url>([^<]+)<\/url>/.exec(structure);
  const attribute = (name: string): string => new RegExp(`${name}="([^"]*)"`).exec(auElement?.[1] ?? "")?.[1] ?? "";
  const au = { id: attribute("id"), url: `${packageServer.origin}/pkg/${auElement?.[2] ?? ""}`, moveOn: attribute("moveOn"), masteryScore: Number(attribute("masteryScore")) };
  return {
    browser,
    lms,
    packageServer,
    au,
    async stop() {
      await browser.close();
      lms.stop();
      packageServer.stop();
    },
  };
}
