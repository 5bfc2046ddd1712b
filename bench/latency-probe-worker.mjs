// The probe of bench/fairness.ts, in a worker thread of its own: another user's requests sent
// on a fixed schedule (open loop: one every `intervalMs` whether or not the last was answered,
// so a stalled server delays every request due meanwhile, as it would delay real people), each
// timed from its due time to its answer. Its own thread, so the attack's client-side work in
// the bench's main thread (building a file, reading a snapshot) is never counted as the server's.
import { parentPort, workerData } from 'node:worker_threads';

const { urls, cookie, intervalMs } = workerData;
const latencies = [];
let failures = 0;
let running = true;
let outstanding = 0;
let next = 0;
let drained = null;

parentPort.on('message', (message) => {
  if (message === 'stop') {
    running = false;
    if (outstanding === 0) finish();
    else drained = finish;
  }
});

function finish() {
  parentPort.postMessage({ latencies, failures });
}

function send() {
  const url = urls[next++ % urls.length];
  const due = performance.now();
  outstanding++;
  fetch(url, { headers: { cookie, 'accept-encoding': 'br, gzip' } })
    .then(async (response) => {
      await response.arrayBuffer();
      if (!response.ok) failures++;
      latencies.push(performance.now() - due);
    })
    .catch(() => failures++)
    .finally(() => {
      outstanding--;
      if (!running && outstanding === 0 && drained) drained();
    });
}

const started = performance.now();
let sent = 0;
(function tick() {
  if (!running) return;
  // Catch up on every request due by now (a late timer does not thin the schedule).
  while (started + sent * intervalMs <= performance.now()) {
    send();
    sent++;
  }
  setTimeout(tick, Math.max(0, started + sent * intervalMs - performance.now()));
})();
