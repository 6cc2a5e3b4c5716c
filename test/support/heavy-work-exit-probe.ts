/**
 * Run as its own process by `test/heavy-work-pool.test.ts`: starts the service, has a worker thread
 * parse an import and build an export, stops the service and prints "stopped". The process must then
 * exit by itself: a worker thread left running would keep it alive.
 */
import { devAccessToken } from "./dev-login.ts";
import { connectAgent } from "./mcp-client.ts";
import { startTestService } from "./service.ts";

const service = await startTestService({ WORKER_POOL_SIZE: "2" });
const agent = await connectAgent(service, await devAccessToken(service, "alice"));
const imported = await agent.call("import_course", { format: "markdown", content: "# Exit probe\n\n## Module\n\n### Lesson\n\nSome words.\n" });
await agent.call("export_course", { courseId: (imported.course as { id: string }).id, format: "html" });
await agent.close();
await service.dispose();
console.log("stopped");
