/**
 * Child processes of the benches: a free port, waiting for a URL to answer, stopping, and the
 * resident memory of a process (VmRSS from /proc/<pid>/status) and the CPU time it has used
 * (/proc/<pid>/stat): Linux only.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux everywhere). */
const USER_HZ = 100;

/**
 * The CPU time a process has used so far (user and system, ms; 10 ms steps), or null once it is
 * gone. Unlike requests per second, CPU per answer hardly moves when other work shares the
 * machine: it says what an answer costs the server, not how much of the cores it got.
 */
export function cpuMillis(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return null;
  }
}

/** Resident memory of a process in bytes (VmRSS), or null once it is gone. */
export function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Polls `url` until it answers 200, the child exits, or the time is up. */
export async function waitForOk(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}) before ${url} answered`);
    if ((await fetch(url).catch(() => null))?.ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends SIGTERM and waits for the exit (SIGKILL after `graceMs`). */
export function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
