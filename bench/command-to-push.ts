import WebSocket from 'ws';
import { LIVE_PROTOCOL_VERSION } from '../events/live-messages.js';
import { comparePositions, parsePosition } from '../events/position.js';
import { topics } from '../events/topics.js';
import type { Database } from '../ports/database.js';
import { registerUser } from '../test/support/test-server.js';
import { startBenchServer } from './bench-server.js';
import { percentile } from './stats.js';

const COMMANDS = 1_000;

/** saveMap over HTTP from one client; time until another client's socket has the change. */
export async function benchCommandToPush(db: Database, print: (line: string) => void): Promise<void> {
  const server = await startBenchServer(db);
  const base = server.url;
  try {
    const { uid, cookie } = await registerUser(server, 'bench@example.com');
    const callFn = async (name: string, data: unknown) => {
      const response = await fetch(`${base}/api/fn/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ data }) });
      return (await response.json()) as { result: string; position: string };
    };
    const mapId = (await callFn('createMap', { title: 'Latency' })).result;

    const socket = new WebSocket(`${base.replace('http', 'ws')}/api/live?v=${LIVE_PROTOCOL_VERSION}`, { headers: { cookie } });
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    let latest = parsePosition('-1:-1');
    let waiting: { position: ReturnType<typeof parsePosition>; resolve: () => void } | null = null;
    const settle = () => {
      if (waiting && comparePositions(latest, waiting.position) >= 0) {
        const done = waiting;
        waiting = null;
        done.resolve();
      }
    };
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { type: string; position?: string };
      if (message.type !== 'snapshot') return;
      const position = parsePosition(message.position!);
      if (comparePositions(position, latest) > 0) latest = position;
      settle();
    });
    const subscribed = new Promise<void>((resolve) => socket.once('message', () => resolve()));
    socket.send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic: topics.maps(uid) }));
    await subscribed;

    const samples: number[] = [];
    for (let i = 0; i < COMMANDS + 50; i++) {
      const started = performance.now();
      let pushed!: () => void;
      const arrived = new Promise<void>((resolve) => (pushed = resolve));
      const answer = await callFn('saveMap', { id: mapId, title: `Latency ${i}` });
      waiting = { position: parsePosition(answer.position), resolve: pushed };
      // The push may have landed while the HTTP answer was on its way: it is then already due.
      settle();
      await arrived;
      if (i >= 50) samples.push(performance.now() - started);
    }
    socket.close();
    samples.sort((a, b) => a - b);
    print(`command-to-push: median ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms (${COMMANDS} commands)`);
  } finally {
    await server.close();
  }
}
