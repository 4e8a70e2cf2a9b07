// The benchmark's baseline, in a process of its own (bench/api.ts starts it): a bare Fastify app with helmet's
// default headers and no logging, with one route per answer in the JSON file named on the command line, each
// replying with that answer's very bytes (status, content-type, content-encoding, body as the portal sent it).
//
//   node --import tsx bench/bare-process.ts <answers.json>     (answers: { status, contentType?, contentEncoding?, body: base64 }[])
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { serveBenchProcess } from './bench-process.ts';

export interface BareAnswer {
  status: number;
  contentType?: string;
  contentEncoding?: string;
  /** base64 */
  body: string;
}

const answers = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as BareAnswer[];
const app = Fastify({ logger: false });

await serveBenchProcess(
  async () => {
    await app.register(helmet);
    const paths = answers.map((answer, i) => {
      const path = `/base/${i}`;
      const body = Buffer.from(answer.body, 'base64');
      app.get(path, (_request, reply) => {
        void reply.code(answer.status);
        if (answer.contentType) void reply.header('content-type', answer.contentType);
        if (answer.contentEncoding) void reply.header('content-encoding', answer.contentEncoding);
        return reply.send(body);
      });
      return path;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, paths };
  },
  () => Promise.reject(new Error('a base não atende pedidos')),
  () => app.close(),
);
