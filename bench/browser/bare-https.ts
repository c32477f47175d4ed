// The client leg of the bridge's floor, as a child process: a bare keep-alive HTTPS server with
// the bridge's own serving certificate that answers every request with `bytes` bytes at once.
// Whatever kubectl talks to, it pays this round trip; the bridge adds its relay on top.
//   node --import tsx bench/browser/bare-https.ts <data-dir> <bytes>   (prints its port)
import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dataDir, bytes] = process.argv.slice(2);
const body = Buffer.alloc(Number(bytes), 0x61);
const server = createServer({ cert: readFileSync(join(dataDir!, 'apiserver.crt')), key: readFileSync(join(dataDir!, 'apiserver.key')) }, (req, res) => {
  req.resume();
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
});
