// The webhook receiver of npm run bench:alerts, in its own process like a real one: keeps when
// each webhook arrived (Date.now(), the same clock as the bench's) and reports on request.
import { createServer } from 'node:http';

const received = [];
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    try {
      const v = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ at, time: Date.parse(v.time), event: v.event, target: v.target });
    } catch {
      /* counted as missing */
    }
    res.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m === 'report') process.send({ received });
  else if (m === 'exit') process.exit(0);
});
