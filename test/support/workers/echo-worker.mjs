// A worker thread for the on-demand worker's test (test/server/on-demand-worker.test.ts):
// answers `echo` with its value, never answers `hang`, exits on `exit`. Like a worker that
// loads its modules first, it takes requests only after 200 ms, then says it is ready.
import { parentPort } from 'node:worker_threads';

let ready = false;
const early = [];
function handle({ id, op, value }) {
  if (op === 'echo') parentPort.postMessage({ id, value });
  if (op === 'exit') process.exit(1);
}
parentPort.on('message', (request) => (ready ? handle(request) : early.push(request)));
setTimeout(() => {
  ready = true;
  parentPort.postMessage({ ready: true });
  for (const request of early.splice(0)) handle(request);
}, 200);
