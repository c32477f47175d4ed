// @ts-check
// The etcd3 client of one Node host, on its own thread (decision 0055). The host's main thread
// runs the API; the gRPC work of every etcd call and of the mirror's watch (HTTP/2 framing,
// protobuf, the client's pool and retry layers) runs here, on the machine's other core.
// Plain JavaScript: a worker starts without the TypeScript loader (tsx hosts and vitest alike).
//
// Messages are flat arrays, batched into one array per event-loop turn each way (flat arrays
// clone for a fraction of nested objects' cost; the tags are in etcd-kv.ts, which speaks for the
// main thread):
//   in:  [CALL, id, op, req, deadlineMs] · [WRITE, id, key, modRev, value | null]
//        [WATCH, id, prefix, startRev] · [UNWATCH, id] · [CLOSE]
//   out: [RESULT, id, res] · [ERROR, id, message] · [WRITTEN, id, rev]
//        [CONFLICT, id, key | null, value, createRev, modRev]
//        [EVENTS, watchId, headerRev, ...changes] · [WATCH_ERROR, watchId, message]
//   changes: OWN, rev · PUT, key, value, createRev, modRev · DELETE, key, modRev
// Keys cross as latin1 strings of their bytes (binary-safe), values as UTF-8 text (the store's
// values are its own JSON text), revisions as decimal strings, as etcd3 gives them.
import { parentPort, workerData } from 'node:worker_threads';
import { Etcd3 } from 'etcd3';

const [CALL, WRITE, WATCH, UNWATCH, CLOSE] = [0, 1, 2, 3, 4];
const [RESULT, ERROR, WRITTEN, CONFLICT, EVENTS, WATCH_ERROR] = [0, 1, 2, 3, 4, 5];
const [OWN, PUT, DELETE] = [0, 1, 2];

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

const errorText = (error) => String(error?.message ?? error);
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
    const res = await client.kv.txn({
      compare: (req.compare ?? []).map((c) => ({ ...c, key: key(c.key) })),
      success: (req.success ?? []).map(opIn),
      failure: (req.failure ?? []).map(opIn),
    });
    const responses = res.responses.map((r) => (r.response_range ? { response_range: { kvs: r.response_range.kvs.map(kvOut) } } : {}));
    return { header: header(res.header), succeeded: res.succeeded, responses };
  },
  async compact(req) {
    await client.kv.compact({ revision: req.revision });
    return {};
  },
};

/**
 * Revisions of the host's own writes whose answer went out before their watch event came: the
 * host applies those from the answer (EtcdMirror.acknowledge), so the event crosses as OWN, rev,
 * without its value. Forgotten once the watch has passed them.
 */
const ownRevs = new Set();

/** The host's write of one key (GuaranteedUpdate's transaction): compare its revision, put or delete. */
async function write(id, etcdKey, modRev, value) {
  const k = key(etcdKey);
  try {
    const res = await client.kv.txn({
      compare: [modRev > 0 ? { key: k, target: 'Mod', result: 'Equal', mod_revision: modRev } : { key: k, target: 'Version', result: 'Equal', version: 0 }],
      success: [value === null ? { request_delete_range: { key: k } } : { request_put: { key: k, value: Buffer.from(value) } }],
      failure: [{ request_range: { key: k } }],
    });
    if (res.succeeded) {
      ownRevs.add(res.header.revision);
      send([WRITTEN, id, res.header.revision]);
      return;
    }
    const kv = res.responses[0]?.response_range?.kvs[0];
    send(kv ? [CONFLICT, id, kv.key.toString('latin1'), kv.value.toString(), kv.create_revision, kv.mod_revision] : [CONFLICT, id, null]);
  } catch (error) {
    send([ERROR, id, errorText(error)]);
  }
}

const watchers = new Map();

function events(id, res) {
  const out = [EVENTS, id, res.header.revision];
  for (const ev of res.events) {
    const kv = ev.kv;
    if (ownRevs.delete(kv.mod_revision)) out.push(OWN, kv.mod_revision);
    else if (ev.type === 'Put') out.push(PUT, kv.key.toString('latin1'), kv.value.toString(), kv.create_revision, kv.mod_revision);
    else out.push(DELETE, kv.key.toString('latin1'), kv.mod_revision);
  }
  if (ownRevs.size > 0 && res.events.length > 0) {
    const upTo = Number(res.events[res.events.length - 1].kv.mod_revision);
    for (const rev of ownRevs) if (Number(rev) <= upTo) ownRevs.delete(rev);
  }
  return out;
}

async function watch(id, prefix, startRev) {
  try {
    const watcher = await client.watch().prefix(key(prefix)).startRevision(startRev).create();
    if (!watchers.has(id)) {
      // Canceled while it was being created.
      void watcher.cancel().catch(() => undefined);
      return;
    }
    watchers.set(id, watcher);
    watcher.on('data', (res) => send(events(id, res)));
    watcher.on('error', (error) => send([WATCH_ERROR, id, errorText(error)]));
  } catch (error) {
    send([WATCH_ERROR, id, errorText(error)]);
  }
}

function receive(msg) {
  switch (msg[0]) {
    case WRITE:
      void write(msg[1], msg[2], msg[3], msg[4]);
      break;
    case CALL: {
      const [, id, op, req, deadlineMs] = msg;
      const options = deadlineMs === undefined ? undefined : { deadline: Date.now() + deadlineMs };
      calls[op](req, options).then(
        (res) => send([RESULT, id, res]),
        (error) => send([ERROR, id, errorText(error)]),
      );
      break;
    }
    case WATCH:
      watchers.set(msg[1], undefined);
      void watch(msg[1], msg[2], msg[3]);
      break;
    case UNWATCH: {
      const watcher = watchers.get(msg[1]);
      watchers.delete(msg[1]);
      void watcher?.cancel().catch(() => undefined);
      break;
    }
    case CLOSE:
      client.close();
      port.close();
      break;
  }
}

port.on('message', (batch) => {
  for (const msg of batch) receive(msg);
});
