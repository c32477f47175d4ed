// `GET /version`: the build of kube-apiserver this server impersonates (v1.23.17, the last 1.23
// release). kube-apiserver writes it indented with two spaces and no trailing newline.

export const serverVersion = {
  major: '1',
  minor: '23',
  gitVersion: 'v1.23.17',
  gitCommit: '953be8927218ec8067e1af2641e540238ffd7576',
  gitTreeState: 'clean',
  buildDate: '2023-02-22T13:27:46Z',
  goVersion: 'go1.19.6',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

/** Body of `GET /version` (Content-Type application/json). */
export function versionJson(): string {
  return JSON.stringify(serverVersion, null, 2);
}
