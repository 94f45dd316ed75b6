#!/usr/bin/env node
// Health and smoke check for the local MongoDB-wire server (FerretDB) started
// by deploy/local/start.sh. Dependency-free on purpose: it speaks just enough
// of the wire protocol (OP_MSG with a minimal BSON codec) to run a few
// commands, so it works before `npm install` and without a MongoDB driver.
//
// Usage: node mongo-check.mjs [--host 127.0.0.1] [--port 27017] [--timeout-ms 5000] [ping|smoke]
//   ping   `ping` and `buildInfo` on the admin database
//   smoke  ping, then insert / find / update / delete / drop in a scratch collection
// Exit status 0 on success, 1 on failure (reason on stderr).

import net from 'node:net';

const OP_MSG = 2013;

// ---------------------------------------------------------------- BSON ----

function encodeCString(s) {
  const b = Buffer.from(s, 'utf8');
  if (b.includes(0)) throw new Error(`key contains NUL: ${s}`);
  return Buffer.concat([b, Buffer.from([0])]);
}

function encodeElement(key, value) {
  const name = encodeCString(key);
  if (value === null || value === undefined) return Buffer.concat([Buffer.from([0x0a]), name]);
  if (typeof value === 'boolean') return Buffer.concat([Buffer.from([0x08]), name, Buffer.from([value ? 1 : 0])]);
  if (typeof value === 'bigint') {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(value);
    return Buffer.concat([Buffer.from([0x12]), name, b]);
  }
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff) {
      const b = Buffer.alloc(4);
      b.writeInt32LE(value);
      return Buffer.concat([Buffer.from([0x10]), name, b]);
    }
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    return Buffer.concat([Buffer.from([0x01]), name, b]);
  }
  if (typeof value === 'string') {
    const s = Buffer.from(value, 'utf8');
    const len = Buffer.alloc(4);
    len.writeInt32LE(s.length + 1);
    return Buffer.concat([Buffer.from([0x02]), name, len, s, Buffer.from([0])]);
  }
  if (Array.isArray(value)) {
    const asDoc = Object.fromEntries(value.map((v, i) => [String(i), v]));
    return Buffer.concat([Buffer.from([0x04]), name, encodeDocument(asDoc)]);
  }
  if (typeof value === 'object') return Buffer.concat([Buffer.from([0x03]), name, encodeDocument(value)]);
  throw new Error(`cannot encode ${typeof value} for key ${key}`);
}

function encodeDocument(doc) {
  const body = Buffer.concat(Object.entries(doc).map(([k, v]) => encodeElement(k, v)));
  const len = Buffer.alloc(4);
  len.writeInt32LE(body.length + 5);
  return Buffer.concat([len, body, Buffer.from([0])]);
}

function decodeDocument(buf, start = 0, asArray = false) {
  const size = buf.readInt32LE(start);
  const end = start + size - 1; // position of the trailing NUL
  const out = asArray ? [] : {};
  let pos = start + 4;
  while (pos < end) {
    const type = buf[pos++];
    const nul = buf.indexOf(0, pos);
    const key = buf.toString('utf8', pos, nul);
    pos = nul + 1;
    let value;
    switch (type) {
      case 0x01: value = buf.readDoubleLE(pos); pos += 8; break;
      case 0x02: case 0x0d: case 0x0e: {
        const n = buf.readInt32LE(pos);
        value = buf.toString('utf8', pos + 4, pos + 4 + n - 1);
        pos += 4 + n;
        break;
      }
      case 0x03: case 0x04: {
        const n = buf.readInt32LE(pos);
        value = decodeDocument(buf, pos, type === 0x04);
        pos += n;
        break;
      }
      case 0x05: {
        const n = buf.readInt32LE(pos);
        value = { $binary: buf.toString('base64', pos + 5, pos + 5 + n), subType: buf[pos + 4] };
        pos += 5 + n;
        break;
      }
      case 0x07: value = { $oid: buf.toString('hex', pos, pos + 12) }; pos += 12; break;
      case 0x08: value = buf[pos] !== 0; pos += 1; break;
      case 0x09: value = new Date(Number(buf.readBigInt64LE(pos))); pos += 8; break;
      case 0x0a: case 0x06: case 0x7f: case 0xff: value = null; break;
      case 0x0b: { // regex: two cstrings
        const a = buf.indexOf(0, pos);
        const b = buf.indexOf(0, a + 1);
        value = { $regex: buf.toString('utf8', pos, a), $options: buf.toString('utf8', a + 1, b) };
        pos = b + 1;
        break;
      }
      case 0x10: value = buf.readInt32LE(pos); pos += 4; break;
      case 0x11: value = { $timestamp: buf.readBigUInt64LE(pos).toString() }; pos += 8; break;
      case 0x12: {
        const v = buf.readBigInt64LE(pos);
        value = v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
        pos += 8;
        break;
      }
      case 0x13: value = { $numberDecimal: buf.toString('hex', pos, pos + 16) }; pos += 16; break;
      default: throw new Error(`unsupported BSON type 0x${type.toString(16)} for key ${key}`);
    }
    if (asArray) out.push(value); else out[key] = value;
  }
  return out;
}

// ------------------------------------------------------------ transport ----

class WireClient {
  constructor(host, port, timeoutMs) {
    this.host = host;
    this.port = port;
    this.timeoutMs = timeoutMs;
    this.requestId = 1;
    this.buffer = Buffer.alloc(0);
    this.waiting = null;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ host: this.host, port: this.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`connect to ${this.host}:${this.port} timed out`));
      }, this.timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        this.socket = socket;
        socket.on('data', (chunk) => this.onData(chunk));
        socket.on('error', (err) => this.fail(err));
        socket.on('close', () => this.fail(new Error('connection closed by server')));
        resolve();
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  fail(err) {
    if (this.waiting) {
      const { reject, timer } = this.waiting;
      this.waiting = null;
      clearTimeout(timer);
      reject(err);
    }
  }

  onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (!this.waiting || this.buffer.length < 4) return;
    const length = this.buffer.readInt32LE(0);
    if (this.buffer.length < length) return;
    const message = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    const { resolve, reject, timer, id } = this.waiting;
    this.waiting = null;
    clearTimeout(timer);
    try {
      const responseTo = message.readInt32LE(8);
      const opCode = message.readInt32LE(12);
      if (responseTo !== id) throw new Error(`reply to request ${responseTo}, expected ${id}`);
      if (opCode !== OP_MSG) throw new Error(`unexpected reply opCode ${opCode}`);
      const kind = message[20]; // header (16) + flagBits (4)
      if (kind !== 0) throw new Error(`unexpected reply section kind ${kind}`);
      resolve(decodeDocument(message, 21));
    } catch (err) {
      reject(err);
    }
  }

  command(db, cmd) {
    const id = this.requestId++;
    const body = encodeDocument({ ...cmd, $db: db });
    const header = Buffer.alloc(21);
    header.writeInt32LE(21 + body.length, 0);
    header.writeInt32LE(id, 4);
    header.writeInt32LE(0, 8);
    header.writeInt32LE(OP_MSG, 12);
    header.writeUInt32LE(0, 16); // flagBits
    header[20] = 0; // section kind 0: body
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new Error(`command ${Object.keys(cmd)[0]} timed out after ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.waiting = { resolve, reject, timer, id };
      this.socket.write(Buffer.concat([header, body]));
    }).then((reply) => {
      if (reply.ok !== 1) {
        const what = Object.keys(cmd)[0];
        throw new Error(`${what} failed: ${reply.errmsg ?? JSON.stringify(reply)} (code ${reply.code})`);
      }
      return reply;
    });
  }

  close() {
    if (this.socket) {
      this.socket.removeAllListeners('close');
      this.socket.end();
      this.socket.destroy();
    }
  }
}

// ---------------------------------------------------------------- checks ----

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function ping(client) {
  await client.command('admin', { ping: 1 });
  const info = await client.command('admin', { buildInfo: 1 });
  const ferret = info.ferretdb?.version ?? info.ferretdbVersion ?? 'n/a';
  console.log(`mongo ok: MongoDB-compatible version ${info.version}, ferretdb ${ferret}`);
}

async function smoke(client) {
  const db = 'cairn_local_smoke';
  const coll = `smoke_${process.pid}_${Date.now()}`;
  try {
    await client.command(db, {
      insert: coll,
      documents: [
        { _id: 'a', n: 1, tags: ['x', 'y'], nested: { ok: true } },
        { _id: 'b', n: 2, tags: [], nested: { ok: false } },
      ],
    });
    const found = await client.command(db, { find: coll, filter: { n: { $gte: 2 } } });
    const docs = found.cursor.firstBatch;
    assert(docs.length === 1 && docs[0]._id === 'b', `find returned ${JSON.stringify(docs)}`);
    const upd = await client.command(db, { update: coll, updates: [{ q: { _id: 'a' }, u: { $inc: { n: 10 } } }] });
    assert(upd.nModified === 1, `update modified ${upd.nModified}`);
    const again = await client.command(db, { find: coll, filter: { _id: 'a' } });
    assert(again.cursor.firstBatch[0]?.n === 11, `updated value is ${JSON.stringify(again.cursor.firstBatch)}`);
    const del = await client.command(db, { delete: coll, deletes: [{ q: { _id: 'b' }, limit: 1 }] });
    assert(del.n === 1, `delete removed ${del.n}`);
    const count = await client.command(db, { count: coll });
    assert(count.n === 1, `count is ${count.n}`);
    console.log('mongo smoke: insert/find/update/delete/count ok');
  } finally {
    await client.command(db, { drop: coll }).catch(() => {});
  }
}

async function main() {
  const args = process.argv.slice(2);
  const opts = { host: '127.0.0.1', port: 27017, timeoutMs: 5000, mode: 'ping' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--host') opts.host = args[++i];
    else if (a === '--port') opts.port = Number(args[++i]);
    else if (a === '--timeout-ms') opts.timeoutMs = Number(args[++i]);
    else if (a === 'ping' || a === 'smoke') opts.mode = a;
    else throw new Error(`unknown argument: ${a}`);
  }
  const client = new WireClient(opts.host, opts.port, opts.timeoutMs);
  try {
    await client.connect();
    await ping(client);
    if (opts.mode === 'smoke') await smoke(client);
  } finally {
    client.close();
  }
}

main().catch((err) => {
  console.error(`mongo check: FAILED: ${err.message}`);
  process.exit(1);
});
