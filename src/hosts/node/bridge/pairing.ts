// One-time pairing codes and the sessions they open. The bridge prints a code; the tab that
// sends it becomes the paired tab and gets a session secret, which lets the same tab reconnect
// (a dropped socket, a reload) without a new code. A later pairing supersedes every earlier
// session: the bridge serves only the tab paired most recently.
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { normalizePairingCode } from '../../bridge/protocol';

/** Wrong codes tolerated before the code is replaced, so guessing 10^8 codes is not an option. */
export const MAX_WRONG_CODES = 5;

export type PairOutcome = { ok: true; session: string } | { ok: false; message: string; codeChanged: boolean };

export type ResumeOutcome = 'resumed' | 'superseded' | 'unknown';

function newCode(): string {
  return String(randomInt(0, 100_000_000)).padStart(8, '0');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Pairing {
  private code = newCode();
  private wrong = 0;
  private session: string | undefined;
  /** Sessions a newer pairing replaced, so their tabs hear why they were let go. */
  private readonly superseded = new Set<string>();

  /** The code to print, as people read it: `1234-5678`. */
  get displayCode(): string {
    return `${this.code.slice(0, 4)}-${this.code.slice(4)}`;
  }

  pair(typed: string): PairOutcome {
    if (sameText(normalizePairingCode(typed), this.code)) {
      if (this.session) this.superseded.add(this.session);
      this.session = randomBytes(24).toString('base64url');
      this.rotate();
      return { ok: true, session: this.session };
    }
    this.wrong++;
    if (this.wrong < MAX_WRONG_CODES) return { ok: false, message: 'that is not the pairing code the bridge printed', codeChanged: false };
    this.rotate();
    return { ok: false, message: `${MAX_WRONG_CODES} wrong codes: the bridge printed a new pairing code`, codeChanged: true };
  }

  resume(session: string): ResumeOutcome {
    if (this.session !== undefined && sameText(session, this.session)) return 'resumed';
    return this.superseded.has(session) ? 'superseded' : 'unknown';
  }

  private rotate(): void {
    this.code = newCode();
    this.wrong = 0;
  }
}
