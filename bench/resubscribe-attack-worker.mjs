// The re-subscribe attack of bench/fairness.ts, in a worker thread of its own: one socket
// subscribing to a big map's live topic, again and again, for `seconds`. Its own thread, as the
// latency probe has: receiving a 100,000-location map's snapshot (tens of megabytes a round) is
// the attacking client's work, and in the server's thread it was counted as the server stalling
// everyone (1.3 s of a 10 s attack's profile).
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, cookie, subscribe, unsubscribe, seconds } = workerData;
const socket = new WebSocket(url, { headers: { cookie } });
await new Promise((resolve, reject) => {
  socket.once('open', resolve);
  socket.once('error', reject);
});
let snapshots = 0;
let refusals = 0;
let answered = null;
socket.on('message', (raw) => {
  // Not parsed: only whether it was the snapshot or a refusal.
  const head = raw.subarray(0, 200).toString();
  if (head.includes('"snapshot"')) snapshots++;
  else if (head.includes('"error"')) refusals++;
  else return;
  answered?.();
});
const until = performance.now() + seconds * 1000;
while (performance.now() < until) {
  const next = new Promise((resolve) => (answered = resolve));
  socket.send(subscribe);
  // A refused subscribe (rate-limited) is answered too; no answer in 2 s moves on.
  await Promise.race([next, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  socket.send(unsubscribe);
}
socket.close();
parentPort.postMessage({ snapshots, refusals });
