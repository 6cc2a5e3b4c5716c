/**
 * The MCP Apps view export_course links to: the package's facts (format, size, expiry, the export's
 * notes, the files inside) and a Download button that asks the host to read the package resource and
 * hands the bytes straight back in `ui/download-file`, so they never pass through the model. The host
 * supplies export_course's result after the `ui/initialize` handshake.
 */
import type { ExportViewConfig } from "../../page-contract/config.ts";
import { createViewBridge, type ReadResult, type RpcMessage, type ToolResult, applyHostContext, type HostContext } from "./bridge.ts";
import { decodedSize, packageOf, readPackage, showFacts, showFiles, dateOf, type PackageFacts } from "./export-package.ts";
import { errorText, isNotFound, isUnsupported } from "./host-errors.ts";
import { byId as $, fail, humanSize, say } from "./view-dom.ts";

interface HostCapabilities {
  readonly downloadFile?: unknown;
}

export function startExportView(config: ExportViewConfig): void {
  const { request, notify, send, reportSize, fromHost, settled } = createViewBridge();
  const formatName = (format: unknown): string | undefined => (typeof format === "string" && Object.hasOwn(config.formatNames, format) ? config.formatNames[format] : undefined);
  let hostCapabilities: HostCapabilities = {};
  let current: PackageFacts | null = null;
  let busy = false;

  const expired = (): string =>
    `This package is no longer available: exports are kept for ${config.keptHours} hours. Ask the assistant to export the course again, then download the new package.`;
  const expiry = (): string => {
    const when = dateOf(current?.expiresAt);
    return when ? ` It is kept until ${when.toLocaleString()}.` : "";
  };

  const loadFiles = async (pkg: PackageFacts): Promise<void> => {
    try {
      const read = await request<ReadResult>("resources/read", { uri: `${pkg.uri}/files` });
      const item = Array.isArray(read?.contents) ? read.contents.find((content) => typeof content?.text === "string") : undefined;
      if (!item) throw new Error("no file list in the answer");
      if (current === pkg) showFiles(JSON.parse(item.text ?? "{}") as { files?: unknown; count?: unknown });
    } catch (error) {
      if (current !== pkg) return;
      if (isNotFound(error)) {
        $("files-note").textContent = "The list of files is not available because the package has expired.";
        fail(expired());
      } else {
        $("files-note").textContent = "This host could not fetch the list of files; the package can still be downloaded.";
      }
    }
  };

  const showResult = (result: ToolResult | undefined): void => {
    current = null;
    for (const id of ["package", "notes", "files-note", "files-box"]) $(id).hidden = true;
    if (result?.isError) {
      const text = (result.content ?? []).find((item) => item?.type === "text")?.text ?? "";
      $("title").textContent = "Export failed";
      fail(`The export did not finish. ${String(text).slice(0, 600)}`);
      return;
    }
    const pkg = packageOf(result);
    if (!pkg) {
      $("title").textContent = "No package";
      fail("This result has no package to download. Ask the assistant to export the course again.");
      return;
    }
    current = pkg;
    $("title").textContent = `${formatName(pkg.format) || "Course"} package`;
    showFacts(pkg, formatName);
    $("download").textContent = `Download ${pkg.fileName}`;
    $("files-note").textContent = "Reading the list of files…";
    $("files-note").hidden = false;
    $("files-box").hidden = true;
    $("package").hidden = false;
    say("The package is ready to download.");
    void loadFiles(pkg);
  };

  /** ui/download-file; a host that did not declare it gets a bounded wait, then the view explains. */
  const askHostToSave = (params: unknown): Promise<{ isError?: boolean } | undefined> => {
    const answer = request<{ isError?: boolean } | undefined>("ui/download-file", params);
    if (hostCapabilities.downloadFile) return answer;
    return Promise.race([
      answer,
      new Promise<never>((_resolve, reject) => setTimeout(() => reject({ code: -32601, message: "no answer to ui/download-file" }), config.undeclaredDownloadWaitMs)),
    ]);
  };

  /** Asks the host to save the contents; says how it went, naming the file (and its size) as given. */
  const saveThroughHost = async (contents: unknown[], what: string): Promise<void> => {
    let saved: { isError?: boolean } | undefined;
    try {
      saved = await askHostToSave({ contents });
    } catch (error) {
      if (isUnsupported(error)) return fail(`This host cannot save files from this view. Ask the assistant for the package link instead, or download it in an app that supports MCP Apps downloads.${expiry()}`);
      return fail(`The host could not save the file (${errorText(error).slice(0, 200)}). Press Download to try again.`);
    }
    if (saved?.isError) return fail("The file was not saved: the download was cancelled or refused. Press Download to try again.");
    say(`Downloaded ${what}. It is wherever your browser or app saves downloads.`);
  };

  const download = async (): Promise<void> => {
    const pkg = current;
    if (busy || !pkg) return;
    busy = true;
    const button = $("download");
    button.setAttribute("aria-disabled", "true");
    say(`Fetching ${pkg.fileName} through the host…`);
    try {
      let blob: string;
      try {
        blob = await readPackage(pkg, request);
      } catch (error) {
        if (isNotFound(error)) return fail(expired());
        // A host that does not read resources for its views may still fetch a linked file itself.
        if (isUnsupported(error)) {
          say(`Asking the host to fetch and save ${pkg.fileName}…`);
          const link = { type: "resource_link", uri: pkg.uri, name: pkg.fileName, mimeType: pkg.mimeType };
          return await saveThroughHost([typeof pkg.size === "number" ? { ...link, size: pkg.size } : link], pkg.fileName);
        }
        return fail(`The host could not fetch the package (${errorText(error).slice(0, 200)}). Press Download to try again; if it keeps failing, ask the assistant to export the course again.`);
      }
      const size = decodedSize(blob);
      if (typeof pkg.size === "number" && size !== pkg.size) {
        return fail(`The package arrived incomplete (${humanSize(size)} of ${humanSize(pkg.size)}). Press Download to try again.`);
      }
      say(`Asking the host to save ${pkg.fileName}…`);
      await saveThroughHost(
        [{ type: "resource", resource: { uri: `file:///${encodeURIComponent(pkg.fileName)}`, mimeType: pkg.mimeType, blob, _meta: { fileName: pkg.fileName, packageUri: pkg.uri } } }],
        `${pkg.fileName} (${humanSize(size)})`,
      );
    } finally {
      busy = false;
      button.removeAttribute("aria-disabled");
    }
  };

  function onMessage(event: MessageEvent): void {
    const message: RpcMessage | null = fromHost(event);
    if (!message || settled(message)) return;
    if (message.method === "ui/notifications/tool-result") showResult(message.params as ToolResult | undefined);
    else if (message.method === "ui/notifications/tool-input") {
      const format = (message.params as { arguments?: { format?: unknown } } | undefined)?.arguments?.format;
      if (!current) say(`Building the ${formatName(format) || "course"} package…`);
    } else if (message.method === "ui/notifications/tool-cancelled") {
      if (!current) fail("The export was cancelled, so there is no package. Ask the assistant to export the course again.");
    } else if (message.method === "ui/notifications/host-context-changed") applyHostContext(message.params as HostContext | undefined);
    else if (message.id !== undefined && (message.method === "ui/resource-teardown" || message.method === "ping")) send({ id: message.id, result: {} });
  }

  window.addEventListener("message", onMessage);
  $("download").addEventListener("click", () => void download());
  request<{ hostCapabilities?: HostCapabilities; hostContext?: HostContext } | undefined>("ui/initialize", {
    protocolVersion: config.protocolVersion,
    appInfo: { name: "course-export", version: "1.0.0" },
    appCapabilities: { availableDisplayModes: ["inline"] },
  }).then(
    (answer) => {
      hostCapabilities = answer?.hostCapabilities ?? {};
      applyHostContext(answer?.hostContext);
      notify("ui/notifications/initialized", {});
      // Sizes only after the handshake: a host takes no notifications before it.
      if (typeof ResizeObserver === "function") new ResizeObserver(reportSize).observe(document.documentElement);
      reportSize();
    },
    () => fail("This host did not start the export view. Ask the assistant for the package link instead."),
  );
}
