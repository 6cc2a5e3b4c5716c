/** The cmi5 adapter bundle (xAPI statements, the LRS State document, the statement outbox). */
import { configElementIds } from "../../page-contract/config.ts";
import { createAnswerTools } from "../lms/answers.ts";
import { installCmi5Adapter, type Cmi5AdapterConfig } from "../lms/cmi5.ts";
import { createLrsDocuments } from "../lms/lrs-documents.ts";
import { createStatementOutbox } from "../lms/outbox.ts";
import { createProgressTools } from "../lms/progress.ts";
import { readConfig } from "../read-config.ts";

const config = readConfig<Cmi5AdapterConfig>(configElementIds.lms);
if (config) installCmi5Adapter(config, { createProgressTools, createStatementOutbox, createAnswerTools, createLrsDocuments });
