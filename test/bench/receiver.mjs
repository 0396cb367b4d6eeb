// A webhook receiver for the benchmark: answers 204 to every POST and counts them; GET /count reports the count,
// the number of distinct webhook-id headers seen (at-least-once: a redelivery counts once there) and the time of
// the last delivery. It speaks just enough HTTP/1.1 on raw sockets (request line, headers,
// Content-Length body, keep-alive) to cost the machine as little as possible: the benchmark measures the sandbox,
// and on 2 cores every microsecond the receiver spends is taken from it. test/webhooks checks delivery against a
// full node:http receiver.
import { createServer } from 'node:net';

let count = 0;
let last = 0;
const ids = new Set();
const WEBHOOK_ID = /\r\nwebhook-id:\s*([^\r]+)/i;
const NO_CONTENT = Buffer.from('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

const server = createServer((socket) => {
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    let replies = 0;
    let out = null;
    for (;;) {
      const end = buf.indexOf(HEADER_END);
      if (end < 0) break;
      const head = buf.subarray(0, end).toString('latin1');
      const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      const total = end + 4 + (m ? Number(m[1]) : 0);
      if (buf.length < total) break;
      buf = buf.subarray(total);
      if (head.startsWith('GET ')) {
        const body = JSON.stringify({ count, distinct: ids.size, last });
        out = Buffer.concat([
          out ?? Buffer.alloc(0),
          Buffer.from(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
          ),
        ]);
        continue;
      }
      count++;
      last = Date.now();
      const id = WEBHOOK_ID.exec(head);
      if (id) ids.add(id[1]);
      replies++;
    }
    if (replies > 0)
      out = out
        ? Buffer.concat([out, ...Array(replies).fill(NO_CONTENT)])
        : replies === 1
          ? NO_CONTENT
          : Buffer.concat(Array(replies).fill(NO_CONTENT));
    if (out) socket.write(out);
  });
  socket.on('error', () => {});
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
