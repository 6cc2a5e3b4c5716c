/**
 * The start of every view's script: JSON-RPC 2.0 over postMessage with the host (SEP-1865), in the few
 * lines the views need instead of the ext-apps App class. `request` answers with the host's result, or
 * rejects with an Error that carries the host's error fields (`code`, `data`); `settled` hands a host's
 * answer to the request waiting for it; `fromHost` keeps only JSON-RPC messages from the framing host.
 */
export const viewBridgePrologue = `
  const host = window.parent;
  const pending = new Map();
  let nextId = 1;
  const send = (message) => host.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*");
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });
  const notify = (method, params) => send({ method, params });
  const reportSize = () => {
    const root = document.documentElement;
    notify("ui/notifications/size-changed", { width: Math.ceil(root.scrollWidth), height: Math.ceil(root.scrollHeight) });
  };
  const fromHost = (event) => (event.source === host && event.data && event.data.jsonrpc === "2.0" ? event.data : null);
  const settled = (message) => {
    if (message.method !== undefined || !pending.has(message.id)) return false;
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) call.reject(Object.assign(new Error(message.error.message || "request failed"), message.error));
    else call.resolve(message.result);
    return true;
  };
`;
