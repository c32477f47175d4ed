// A request to a bench child process over its IPC channel, answered by a message with the same
// id: the servers the benches fork (remote-server, relay-server) are driven this way.
import type { ChildProcess } from 'node:child_process';

/** Sends `{...req, id}` and resolves when the child answers with that id. */
export function childCaller<Req extends object>(child: ChildProcess): (req: Req) => Promise<void> {
  let next = 0;
  return (req) =>
    new Promise<void>((resolve) => {
      const id = ++next;
      const onMessage = (m: { id?: number }) => {
        if (m.id !== id) return;
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
      child.send({ ...req, id });
    });
}
