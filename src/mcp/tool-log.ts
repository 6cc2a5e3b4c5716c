/**
 * Log messages to the client (`notifications/message`) for what an agent should know that a result
 * does not say: questions a cartridge left out, content an import kept as text, a player shown in
 * English. They travel with the call that caused them (related to its request, so on that request's
 * stream), only at or above the level the session chose with `logging/setLevel`, and bounded: a call
 * sends a few short messages at most. What goes out is what the use cases wrote for the author (course
 * content, IDs); nothing from the request's credentials is ever part of it.
 */
import type { LoggingLevel } from "@modelcontextprotocol/server";
import type { Notice } from "../notice.ts";

/** MCP's levels, least severe first (RFC 5424's order). */
const severity: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

export function isBelow(level: LoggingLevel, minimum: LoggingLevel): boolean {
  return severity.indexOf(level) < severity.indexOf(minimum);
}

/** Sends a call's notices, those the session's level lets through, in order; never fails the call. */
export type ToolLog = (notices: readonly Notice[]) => Promise<void>;

export const toolLogBounds = { messagesPerCall: 20, charactersPerMessage: 1000 } as const;

/**
 * The log of one call: `logger` names the source (the tool), `minimum` reads the session's level at
 * send time (unset: everything goes), `send` puts the notification on the request's stream. Past
 * `messagesPerCall` messages in a call, the last one sent says how many more were left out.
 */
export function createToolLog(options: {
  logger: string;
  minimum: () => LoggingLevel | undefined | Promise<LoggingLevel | undefined>;
  send: (params: { level: LoggingLevel; logger: string; data: string }) => Promise<void>;
}): ToolLog {
  let sent = 0;
  // A client that went away misses its messages; the call itself goes on.
  const send = (level: LoggingLevel, data: string) => options.send({ level, logger: options.logger, data }).catch(() => undefined);
  return async (notices) => {
    if (notices.length === 0) return;
    const minimum = await options.minimum();
    const shown = notices.filter((notice) => !minimum || !isBelow(notice.level, minimum));
    const room = toolLogBounds.messagesPerCall - sent;
    if (room <= 0) return;
    const fits = shown.length <= room ? shown : shown.slice(0, room - 1);
    for (const notice of fits) await send(notice.level, bounded(notice.text));
    sent += fits.length;
    const leftOut = shown.slice(fits.length);
    if (leftOut.length > 0) {
      const level = leftOut.reduce<Notice["level"]>((worst, notice) => (isBelow(worst, notice.level) ? notice.level : worst), "info");
      await send(level, `${leftOut.length} more message(s) like these were left out.`);
      sent = toolLogBounds.messagesPerCall;
    }
  };
}

function bounded(message: string): string {
  const limit = toolLogBounds.charactersPerMessage;
  return message.length > limit ? `${message.slice(0, limit - 1)}…` : message;
}
