// A webhook receiver for the benchmark: answers 204 to every POST and counts them; GET /count reports the count
// and the time of the last delivery.
import { createServer } from 'node:http';

let count = 0;
let last = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ count, last }));
    return;
  }
  req.resume();
  req.on('end', () => {
    count++;
    last = Date.now();
    res.statusCode = 204;
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
