import { describe, expect, it } from 'vitest';
import { WarningLog, parseWarningHeader } from './warnings';
import { createApiClient } from './api';

const DEPRECATED = 'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob';

describe('parseWarningHeader', () => {
  it('reads kube-apiserver warn-values, several joined by ", ", with escapes and dates', () => {
    expect(parseWarningHeader(`299 - "${DEPRECATED}"`)).toEqual([DEPRECATED]);
    expect(parseWarningHeader('299 - "unknown field \\"spec.foo\\"", 299 - "duplicate field \\"a\\\\b\\""')).toEqual(['unknown field "spec.foo"', 'duplicate field "a\\b"']);
    expect(parseWarningHeader('299 kube-apiserver "a, b" "Mon, 01 Jan 2024 00:00:00 GMT",299 - "c"')).toEqual(['a, b', 'c']);
    expect(parseWarningHeader(null)).toEqual([]);
    expect(parseWarningHeader('')).toEqual([]);
  });

  it('keeps a value it cannot parse whole instead of dropping it', () => {
    expect(parseWarningHeader('something odd')).toEqual(['something odd']);
    expect(parseWarningHeader('299 - "unterminated')).toEqual(['299 - "unterminated']);
  });
});

describe('WarningLog', () => {
  it('lists newest first, folds repeats of the same request into a count, and is bounded', () => {
    const log = new WarningLog(3);
    let heard = 0;
    log.subscribe(() => heard++);
    log.add('GET /a', ['w1']);
    log.add('GET /b', ['w2']);
    const before = log.list();
    log.add('GET /a', ['w1']);
    expect(log.list()).not.toBe(before);
    expect(log.list().map((e) => [e.request, e.text, e.count])).toEqual([['GET /a', 'w1', 2], ['GET /b', 'w2', 1]]);
    log.add('GET /c', ['x', 'y']);
    expect(log.list().map((e) => e.text)).toEqual(['y', 'x', 'w1']);
    log.add('GET /d', []);
    expect(heard).toBe(4);
    log.clear();
    expect(log.list()).toEqual([]);
  });
});

describe('API client warnings', () => {
  it('reports every Warning header to the page and to the call that asked', async () => {
    const global: Array<[string, string[]]> = [];
    const client = createApiClient({
      apiBase: '/sub/',
      onWarnings: (request, w) => global.push([request, w]),
      fetch: (async () => new Response('{"kind":"CronJob"}', { status: 201, headers: { 'Content-Type': 'application/json', Warning: `299 - "${DEPRECATED}"` } })) as typeof fetch,
    });
    const cronjobs = { group: 'batch', version: 'v1beta1', resource: 'cronjobs', namespaced: true };
    const mine: string[][] = [];
    await client.create(cronjobs, 'default', { metadata: { name: 't' } }, { onWarnings: (w) => mine.push(w) });
    await client.get(cronjobs, 'default', 't');
    expect(mine).toEqual([[DEPRECATED]]);
    expect(global).toEqual([
      ['POST /apis/batch/v1beta1/namespaces/default/cronjobs', [DEPRECATED]],
      ['GET /apis/batch/v1beta1/namespaces/default/cronjobs/t', [DEPRECATED]],
    ]);
  });
});

describe('parseWarningHeader with UTF-8 bytes', () => {
  it('reads the raw UTF-8 bytes kube-apiserver writes (fetch hands them over one char per byte)', () => {
    const bytes = Buffer.from('299 - "unknown field \\"日本\\""', 'utf8').toString('latin1');
    expect(parseWarningHeader(bytes)).toEqual(['unknown field "日本"']);
    // Already decoded or not UTF-8: kept as it is.
    expect(parseWarningHeader('299 - "日本"')).toEqual(['日本']);
    expect(parseWarningHeader('299 - "caf\u00e9"')).toEqual(['caf\u00e9']);
  });
});
