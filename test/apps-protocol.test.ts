import { expect, test } from "bun:test";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/ext-apps";
import { appsProtocolVersion } from "../src/mcp/apps/apps-protocol.ts";

test("the views announce the MCP Apps protocol version of the ext-apps package we depend on", () => {
  expect(appsProtocolVersion).toBe(LATEST_PROTOCOL_VERSION);
});
