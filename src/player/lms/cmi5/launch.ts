/**
 * The cmi5 launch: the parameters on the launch URL, the one-time fetch URL traded for the auth token
 * (kept for a reload of the same launch), and `LMS.LaunchData` (context template, launch mode, mastery
 * score, return URL), kept in the session by `keepLaunchData`.
 */
import { authLost, config, documents, fetchUrl, keepLaunchData, stateUrl, tools, type Cmi5Launch, type Json } from "./session.ts";

/** The launch URL's parameters, or null when one is missing or the actor is not JSON. */
export function readLaunchParams(): Cmi5Launch | null {
  const params = new URLSearchParams(window.location.search);
  const endpointParam = params.get("endpoint");
  const fetchParam = params.get("fetch");
  const actorParam = params.get("actor");
  const registration = params.get("registration");
  const activityId = params.get("activityId");
  let actor: Json | null = null;
  try {
    actor = actorParam ? (JSON.parse(actorParam) as Json) : null;
  } catch {
    actor = null;
  }
  if (!endpointParam || !fetchParam || !actor || !registration || !activityId) return null;
  const endpoint = endpointParam.endsWith("/") ? endpointParam : `${endpointParam}/`;
  return { endpoint, fetchUrl: fetchParam, actor, registration, activityId };
}

/**
 * The Tin Can launch convention's parameters: endpoint, auth (the whole Authorization header), actor
 * (JSON; 0.95-style arrays taken to their first value) and, when given, registration and activity_id.
 */
export function readTinCanParams(courseIri: string): (Cmi5Launch & { auth: string }) | null {
  const params = new URLSearchParams(window.location.search);
  const endpointParam = params.get("endpoint");
  const auth = params.get("auth");
  let actor: Json | null = null;
  try {
    const parsed = JSON.parse(params.get("actor") ?? "null") as Json | null;
    actor = parsed && typeof parsed === "object" ? Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value])) : null;
  } catch {
    actor = null;
  }
  if (!endpointParam || !auth || !actor) return null;
  const endpoint = endpointParam.endsWith("/") ? endpointParam : `${endpointParam}/`;
  return { endpoint, fetchUrl: "", actor, registration: params.get("registration") ?? "", activityId: params.get("activity_id") ?? courseIri, auth };
}

/** The fetch URL answers once, so the token is kept for a reload of the same launch. */
function tokenCache(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export async function fetchToken(): Promise<string | null> {
  const cacheKey = `cmi5-token:${fetchUrl}`;
  const cached = tokenCache()?.getItem(cacheKey);
  if (cached) return cached;
  const response = await fetch(fetchUrl, { method: "POST" });
  const body = (await response.json()) as { "auth-token"?: string };
  const token = body["auth-token"] ?? null;
  if (token) tokenCache()?.setItem(cacheKey, token);
  return token;
}

/** Reads `LMS.LaunchData` into the session; false (the learner told why) when it cannot be read. */
export async function readLaunchData(): Promise<boolean> {
  const launch = await documents.read(stateUrl("LMS.LaunchData"));
  if (launch.status === 401 || launch.status === 403) {
    authLost();
    return false;
  }
  const launchData = typeof launch.body === "object" && launch.body !== null ? (launch.body as Json) : null;
  if (!launchData) {
    tools.notify(config.text.lmsUnavailable);
    return false;
  }
  keepLaunchData(launchData);
  return true;
}
