// @ts-check
// The etcd3 client of one Node host, on its own thread (decision 0055). The host's main thread
// runs the API; the gRPC work of every etcd call and of the mirror's watch (HTTP/2 framing,
// protobuf, the client's pool and retry layers) runs here, on the machine's other core.
// Plain JavaScript: a worker starts without the TypeScript loader (tsx hosts and vitest alike).
//
// Messages in (arrays, one per turn of the host's loop): {t:'call', id, op:'range'|'txn'|'compact', req, deadlineMs?},
//              {t:'watch', id, key (a prefix), startRev}, {t:'unwatch', id}.
// Messages out: arrays, one per event-loop turn: {id, res} | {id, err} for calls,
//               {w, data} | {w, err} for watches.
// Keys cross as latin1 strings of their bytes (binary-safe), values as UTF-8 text (the store's
// values are its own JSON text), revisions as decimal strings, as etcd3 gives them.
import { parentPort, workerData } from 'node:worker_threads';
import { Etcd3 } from 'etcd3';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const client = new Etcd3({
  hosts: workerData.servers,
  dialTimeout: 2000,
  // Unary calls only: the watch stream must stay open.
  defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + workerData.callDeadlineMs }),
});

/** Outgoing messages of this turn: one postMessage for all of them. */
let outbox = [];
function send(message) {
  if (outbox.length === 0) setImmediate(flush);
  outbox.push(message);
}
function flush() {
  const batch = outbox;
  outbox = [];
  port.postMessage(batch);
}

const key = (text) => Buffer.from(text, 'latin1');
const kvOut = (kv) => ({ key: kv.key.toString('latin1'), value: kv.value.toString(), create_revision: kv.create_revision, mod_revision: kv.mod_revision });
const header = (h) => ({ revision: h.revision });

function opIn(op) {
  if (op.request_put) return { request_put: { key: key(op.request_put.key), value: Buffer.from(op.request_put.value) } };
  if (op.request_delete_range) return { request_delete_range: { key: key(op.request_delete_range.key) } };
  return { request_range: { key: key(op.request_range.key) } };
}

const calls = {
  async range(req, options) {
    const res = await client.kv.range(
      { key: key(req.key), range_end: req.end === undefined ? undefined : key(req.end), revision: req.revision ?? 0, limit: req.limit ?? 0, count_only: req.countOnly, keys_only: req.keysOnly },
      options,
    );
    return { header: header(res.header), kvs: res.kvs.map(kvOut), more: res.more, count: res.count };
  },
  async txn(req) {
    const own = req.own === true;
    const res = await client.kv.txn({
      compare: (req.compare ?? []).map((c) => ({ ...c, key: key(c.key) })),
      success: (req.success ?? []).map(opIn),
      failure: (req.failure ?? []).map(opIn),
    });
    if (own && res.succeeded) ownRevs.add(res.header.revision);
    const responses = res.responses.map((r) => (r.response_range ? { response_range: { kvs: r.response_range.kvs.map(kvOut) } } : {}));
    return { header: header(res.header), succeeded: res.succeeded, responses };
  },
  async compact(req) {
    await client.kv.compact({ revision: req.revision });
    return {};
  },
};

const watchers = new Map();

/**
 * Revisions of the host's own writes whose answer went out before their watch event came: the
 * host applies those from the answer (EtcdMirror.acknowledge), so the event crosses as
 * `{type: 'Own', rev}`, without its value. Forgotten once the watch has passed them.
 */
const ownRevs = new Set();

function watchEvent(ev) {
  const rev = ev.kv.mod_revision;
  if (ownRevs.delete(rev)) return { type: 'Own', rev };
  return { type: ev.type, kv: kvOut(ev.kv) };
}

function forgetOwnRevs(upTo) {
  if (ownRevs.size === 0) return;
  for (const rev of ownRevs) if (Number(rev) <= upTo) ownRevs.delete(rev);
}

async function watch(id, req) {
  try {
    const watcher = await client.watch().prefix(key(req.key)).startRevision(req.startRev).create();
    if (!watchers.has(id)) {
      // Canceled while it was being created.
      void watcher.cancel().catch(() => undefined);
      return;
    }
    watchers.set(id, watcher);
    watcher.on('data', (res) => {
      const events = res.events.map(watchEvent);
      if (res.events.length > 0) forgetOwnRevs(Number(res.events[res.events.length - 1].kv.mod_revision));
      send({ w: id, data: { header: header(res.header), events } });
    });
    watcher.on('error', (error) => send({ w: id, err: String(error?.message ?? error) }));
  } catch (error) {
    send({ w: id, err: String(error?.message ?? error) });
  }
}

function receive(msg) {
  if (msg.t === 'call') {
    const options = msg.deadlineMs === undefined ? undefined : { deadline: Date.now() + msg.deadlineMs };
    calls[msg.op](msg.req, options).then(
      (res) => send({ id: msg.id, res }),
      (error) => send({ id: msg.id, err: String(error?.message ?? error) }),
    );
  } else if (msg.t === 'watch') {
    watchers.set(msg.id, undefined);
    void watch(msg.id, msg);
  } else if (msg.t === 'unwatch') {
    const watcher = watchers.get(msg.id);
    watchers.delete(msg.id);
    void watcher?.cancel().catch(() => undefined);
  } else if (msg.t === 'close') {
    client.close();
    port.close();
  }
}

port.on('message', (batch) => {
  for (const msg of batch) receive(msg);
});
