/**
 * JSON-RPC 2.0 over postMessage with the framing host (SEP-1865, MCP Apps), in the few lines the views
 * need instead of the ext-apps App class: `request` answers with the host's result or rejects with an
 * Error carrying the host's error fields (`code`, `data`); `settled` hands a host's answer to the request
 * waiting for it; `fromHost` keeps only JSON-RPC messages from the framing host.
 */
export interface RpcMessage {
  readonly jsonrpc: "2.0";
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code?: number; readonly message?: string; readonly data?: unknown };
}

/** An error as a host or the server reports it. */
export interface HostError {
  readonly code?: number;
  readonly message?: string;
  readonly data?: { readonly code?: unknown };
}

export interface ViewBridge {
  request<T>(method: string, params: unknown): Promise<T>;
  notify(method: string, params: unknown): void;
  send(message: Omit<RpcMessage, "jsonrpc">): void;
  reportSize(): void;
  fromHost(event: MessageEvent): RpcMessage | null;
  settled(message: RpcMessage): boolean;
}

export function createViewBridge(): ViewBridge {
  const host = window.parent;
  const pending = new Map<number | string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const send = (message: Omit<RpcMessage, "jsonrpc">): void => host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const notify = (method: string, params: unknown): void => send({ method, params });
  return {
    send,
    notify,
    request<T>(method: string, params: unknown): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: (value) => resolve(value as T), reject });
        send({ id, method, params });
      });
    },
    reportSize(): void {
      const root = document.documentElement;
      notify("ui/notifications/size-changed", { width: Math.ceil(root.scrollWidth), height: Math.ceil(root.scrollHeight) });
    },
    fromHost(event: MessageEvent): RpcMessage | null {
      const data = event.data as Partial<RpcMessage> | null;
      return event.source === host && data && data.jsonrpc === "2.0" ? (data as RpcMessage) : null;
    },
    settled(message: RpcMessage): boolean {
      if (message.method !== undefined || message.id === undefined) return false;
      const call = pending.get(message.id);
      if (!call) return false;
      pending.delete(message.id);
      if (message.error) call.reject(Object.assign(new Error(message.error.message || "request failed"), message.error));
      else call.resolve(message.result);
      return true;
    },
  };
}

/** The parts of MCP results the views read. */
export interface ContentItem {
  readonly type?: string;
  readonly text?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly resource?: { readonly uri?: string; readonly mimeType?: string; readonly blob?: string; readonly _meta?: { readonly fileName?: string } };
}

export interface ToolResult {
  readonly content?: readonly ContentItem[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

export interface ReadResult {
  readonly contents?: readonly { readonly text?: string; readonly blob?: string }[];
}

/** What a host says of its look: its theme and the CSS variables the view takes on. */
export interface HostContext {
  readonly theme?: unknown;
  readonly styles?: { readonly variables?: unknown };
}

/** Takes on the host's theme and its CSS variables (only custom properties, only strings). */
export function applyHostContext(context: HostContext | undefined): void {
  if (!context) return;
  const root = document.documentElement;
  if (context.theme === "dark" || context.theme === "light") root.dataset.theme = context.theme;
  const variables = context.styles?.variables;
  if (variables && typeof variables === "object") {
    for (const [name, value] of Object.entries(variables)) if (name.startsWith("--") && typeof value === "string") root.style.setProperty(name, value);
  }
}
