// Where the generators find the shared facts (`shared/` beside the repository). A git worktree
// placed elsewhere has no `../shared` of its own, so the main checkout's sibling is tried next
// (found through the common git directory); KP_SHARED_DIR overrides both.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function sharedDir(repoRoot) {
  if (process.env.KP_SHARED_DIR) return resolve(process.env.KP_SHARED_DIR);
  const beside = join(repoRoot, '..', 'shared');
  if (existsSync(beside)) return beside;
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    const besideMain = join(dirname(common), '..', 'shared');
    if (existsSync(besideMain)) return besideMain;
  } catch {
    // not a git checkout: the error below names the expected place
  }
  return beside;
}
