import { describe, expect, it } from 'vitest';
import { versionJson } from './version';

describe('/version', () => {
  it('is the v1.23.17 build info, indented, in kube-apiserver field order', () => {
    const body = versionJson();
    expect(Object.keys(JSON.parse(body))).toEqual(['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']);
    expect(body.startsWith('{\n  "major": "1",\n  "minor": "23",\n  "gitVersion": "v1.23.17",')).toBe(true);
    expect(body.endsWith('}')).toBe(true);
  });
});
