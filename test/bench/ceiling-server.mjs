// The ceiling: a bare h3 route on the same stack (node:http + h3 toNodeHandler), answering a fixed JSON body.
import { createServer } from 'node:http';
import { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';

const body = { operation_id: '00000000-0000-5000-8000-000000000000', status: 'pending', expected_amount: '1500.00' };
const app = new H3();
app.post('/v1/payment', async (event) => {
  await event.req.text();
  return body;
});
const server = createServer(toNodeHandler(app));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ base_url: `http://127.0.0.1:${server.address().port}` }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
