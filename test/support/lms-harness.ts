/**
 * A stand-in LMS for player tests: a `Bun.serve` on 127.0.0.1 that serves an unpacked package under
 * `/pkg/`, scorm-again (an established SCORM runtime none of us wrote) under `/vendor/`, and an LMS page
 * whose `launch(saved, href)` creates `window.API` / `window.API_1484_11` from scorm-again, loads the
 * learner's saved data and opens the SCO in a frame; `window.written` keeps the last value the SCO set
 * for each element (write-only ones such as `cmi.exit` cannot be read back from the runtime). Plus a headless Chromium from Debian's package.
 */
import { join, normalize } from "node:path";
import { chromium, type Browser } from "playwright-core";

export interface PackageServer {
  readonly origin: string;
  /** Every path the browser asked this server for. */
  readonly requested: string[];
  stop(): void;
}

const scormAgainDirectory = join(import.meta.dir, "..", "..", "node_modules", "scorm-again", "dist");

const lmsPages: Record<string, string> = {
  "/lms/scorm12.html": `<!doctype html><html><head><meta charset="utf-8"><title>LMS (SCORM 1.2)</title>
<script src="/vendor/scorm12.min.js"></script></head><body>
<iframe id="sco" title="Course" style="width:100%;height:90vh;border:0"></iframe>
<script>
window.launch = function (saved, href) {
  window.API = new Scorm12API({ logLevel: 5, autocommit: false });
  window.written = {};
  window.API.on("LMSSetValue.cmi.*", function (element, value) { window.written[element] = value; });
  if (saved) window.API.loadFromJSON(saved, "");
  document.getElementById("sco").src = href;
};
window.unload = function () { document.getElementById("sco").src = "about:blank"; };
</script></body></html>`,
  "/lms/scorm2004.html": `<!doctype html><html><head><meta charset="utf-8"><title>LMS (SCORM 2004)</title>
<script src="/vendor/scorm2004.min.js"></script></head><body>
<iframe id="sco" title="Course" style="width:100%;height:90vh;border:0"></iframe>
<script>
window.launch = function (saved, href) {
  window.API_1484_11 = new Scorm2004API({ logLevel: 5, autocommit: false });
  window.written = {};
  window.API_1484_11.on("SetValue.cmi.*", function (element, value) { window.written[element] = value; });
  if (saved) window.API_1484_11.loadFromJSON(saved, "");
  document.getElementById("sco").src = href;
};
window.unload = function () { document.getElementById("sco").src = "about:blank"; };
</script></body></html>`,
  // Sequenced SCORM 2004: the activity tree (read by the test from the manifest, as an LMS does) drives
  // scorm-again's sequencing; each delivered activity's SCO is loaded in the frame with a fresh API state.
  "/lms/scorm2004-sequenced.html": `<!doctype html><html><head><meta charset="utf-8"><title>LMS (SCORM 2004, sequenced)</title>
<script src="/vendor/scorm2004.min.js"></script></head><body>
<iframe id="sco" title="Course" style="width:100%;height:90vh;border:0"></iframe>
<script>
window.launchSequenced = function (tree, hrefs) {
  window.delivered = [];
  window.written = {};
  window.API_1484_11 = new Scorm2004API({ logLevel: 5, autocommit: false, sequencing: { activityTree: tree, eventListeners: {
    onActivityDelivery: function (activity) { window.delivered.push(activity.id); window.nextHref = hrefs[activity.id]; }
  } } });
  document.getElementById("sco").src = hrefs[tree.children[0].id];
};
window.unload = function () { document.getElementById("sco").src = "about:blank"; };
window.continueCourse = function () {
  window.nextHref = null;
  window.API_1484_11.processNavigationRequest("continue");
  if (!window.nextHref) return false;
  window.API_1484_11.reset();
  document.getElementById("sco").src = window.nextHref;
  return true;
};
window.rootStatus = function () {
  var root = window.API_1484_11.getSequencingService().getSequencingState().rootActivity;
  return { success: root.successStatus, completion: root.completionStatus, measure: root.objectiveNormalizedMeasure,
    children: root.children.map(function (child) { return { id: child.id, success: child.successStatus, completion: child.completionStatus }; }) };
};
</script></body></html>`,
};

const contentTypes: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  xml: "application/xml",
  xsd: "application/xml",
  png: "image/png",
  json: "application/json",
};

function fileResponse(path: string): Response {
  const extension = path.split(".").pop() ?? "";
  return new Response(Bun.file(path), { headers: { "Content-Type": contentTypes[extension] ?? "application/octet-stream" } });
}

/** Serves the package and the LMS pages; `extra` answers anything else (a cmi5 LRS, for instance). */
export function startPackageServer(packageDirectory: string, extra?: (request: Request, url: URL) => Response | Promise<Response> | null): PackageServer {
  const requested: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      requested.push(url.pathname);
      const page = lmsPages[url.pathname];
      if (page) return new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      if (url.pathname.startsWith("/vendor/")) return fileResponse(join(scormAgainDirectory, url.pathname.slice("/vendor/".length).replace(/[^A-Za-z0-9._-]/g, "")));
      if (url.pathname.startsWith("/pkg/")) {
        const relative = normalize(decodeURIComponent(url.pathname.slice("/pkg/".length)));
        if (relative.startsWith("..")) return new Response("forbidden", { status: 403 });
        const path = join(packageDirectory, relative);
        if (await Bun.file(path).exists()) return fileResponse(path);
        return new Response("not found", { status: 404 });
      }
      const answer = extra ? await extra(request, url) : null;
      return answer ?? new Response("not found", { status: 404 });
    },
  });
  return { origin: `http://127.0.0.1:${server.port}`, requested, stop: () => void server.stop(true) };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

export function hasChromium(): boolean {
  return Bun.file("/usr/bin/chromium").size > 0;
}
