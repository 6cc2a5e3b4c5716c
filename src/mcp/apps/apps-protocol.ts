/**
 * The MCP Apps protocol version our views announce in `ui/initialize`. It is `LATEST_PROTOCOL_VERSION` of
 * `@modelcontextprotocol/ext-apps`, written here because that package's root entry is the browser-side App
 * class: importing one constant from it loaded the whole client SDK and zod into the server (about 1.2 MB
 * of modules evaluated at start, never used). test/apps-protocol.test.ts keeps the two equal.
 */
export const appsProtocolVersion = "2026-01-26";
