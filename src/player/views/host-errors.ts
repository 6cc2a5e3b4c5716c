/** Telling a host's errors apart: a method the host does not offer, and a resource the server no longer has. */
import type { HostError } from "./bridge.ts";

export const errorText = (error: unknown): string => String((error as HostError | null)?.message || error || "");
export const isUnsupported = (error: unknown): boolean => Boolean(error && ((error as HostError).code === -32601 || /-32601|method not found|not supported|unsupported/i.test(errorText(error))));
// The server answers -32602 (-32002 before SDK v2) with data.code "not_found"; a host may pass on only the words.
export const isNotFound = (error: unknown): boolean =>
  !isUnsupported(error) && Boolean(error && ((error as HostError).data?.code === "not_found" || (error as HostError).code === -32002 || /not_found|not found|-32002/i.test(errorText(error))));
