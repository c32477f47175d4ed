import { describe, expect, it } from 'vitest';
import { tokenFromAnswer, tokenToFill, watchEvents } from './watch-answers';

const stream = [
  '{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"watched","resourceVersion":"7"}}}',
  '{"type":"BOOKMARK","object":{"kind":"ConfigMap","metadata":{"resourceVersion":"9"}}}',
  '',
].join('\n');

describe('watch answers', () => {
  it('reads every event of a stream, and the Status code of an ERROR', () => {
    expect(watchEvents(stream)).toEqual([
      { type: 'ADDED', name: 'watched', resourceVersion: '7', code: undefined },
      { type: 'BOOKMARK', name: undefined, resourceVersion: '9', code: undefined },
    ]);
    expect(watchEvents('{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}}\n')[0]).toMatchObject({ type: 'ERROR', code: 410 });
  });

  it('finds the token to copy: the last bookmark, a list\'s resourceVersion or continue, never a single object\'s', () => {
    expect(tokenFromAnswer(stream, 'resourceVersion')).toBe('9');
    expect(tokenFromAnswer('{"kind":"ConfigMapList","metadata":{"resourceVersion":"12","continue":"abc"},"items":[]}', 'resourceVersion')).toBe('12');
    expect(tokenFromAnswer('{"kind":"ConfigMapList","metadata":{"resourceVersion":"12","continue":"abc"},"items":[]}', 'continue')).toBe('abc');
    expect(tokenFromAnswer('{"kind":"ConfigMap","metadata":{"resourceVersion":"12"}}', 'resourceVersion')).toBe('');
    expect(tokenFromAnswer(stream, 'continue')).toBe('');
  });

  it('names the parameter a path leaves empty at its end', () => {
    expect(tokenToFill('/api/v1/configmaps?watch=1&resourceVersion=')).toBe('resourceVersion');
    expect(tokenToFill('/api/v1/configmaps?limit=2&continue=')).toBe('continue');
    expect(tokenToFill('/api/v1/configmaps?resourceVersion=5')).toBeUndefined();
  });
});
