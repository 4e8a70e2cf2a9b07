// An open-loop load at a fixed rate, in a worker thread: one request every 1/rate seconds, whatever the answers'
// pace, each timed from the moment it was due (so a stalled server shows in the latency instead of slowing the
// load down). autocannon's rate limit sends each second's quota in a burst at the start of the second, which
// measures a burst at full speed, not a steady rate. With a list of headers, the requests take them in turn (people
// taking turns, each with their session).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/**
 * @param {{ url: string, headers: Record<string, string> | Record<string, string>[], rate: number, seconds: number }} options
 * @returns {Promise<{ sent: number, failed: number, p50: number, p99: number, max: number, rate: number }>}
 */
export function fixedRate(options) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: options });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

if (!isMainThread && parentPort) {
  const { url, headers, rate, seconds } = workerData;
  const headersList = Array.isArray(headers) ? headers : [headers];
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const interval = 1000 / rate;
  const total = Math.round(rate * seconds);
  const latencies = [];
  let failed = 0;
  let finished = 0;
  let next = 0;
  const start = performance.now();

  const done = () => {
    finished += 1;
    if (finished < total) return;
    const elapsed = (performance.now() - start) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    agent.destroy();
    parentPort.postMessage({ sent: total, failed, p50: at(0.5), p99: at(0.99), max: at(1), rate: total / elapsed });
  };

  const fire = (due, headers) => {
    const request = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent },
      (response) => {
        response.resume();
        response.once('end', () => {
          if (response.statusCode < 200 || response.statusCode >= 300) failed += 1;
          latencies.push(performance.now() - due);
          done();
        });
      },
    );
    request.once('error', () => {
      failed += 1;
      done();
    });
    request.end();
  };

  const tick = () => {
    const now = performance.now() - start;
    while (next < total && next * interval <= now) {
      fire(start + next * interval, headersList[next % headersList.length]);
      next += 1;
    }
    if (next < total) setTimeout(tick, Math.max(0, next * interval - now - 0.5));
  };
  tick();
}
