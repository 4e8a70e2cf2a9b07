import fp from 'fastify-plugin';

/**
 * The API speaks JSON only, and a call that takes no body accepts what clients send it: an empty body under
 * a JSON content type (the web app, like most HTTP clients, sets `Content-Type: application/json` on every
 * call, sign-out included) or no content type at all. A route that takes a body still refuses an empty one.
 */
export default fp(
  async (app) => {
    // Fastify's default text/plain parser would let a JSON text through as a string.
    app.removeContentTypeParser('text/plain');
    // Fastify's own JSON parser (with its prototype-poisoning protection), for every body that is not empty.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '' && !request.routeOptions.schema?.body) {
        done(null, undefined);
        return;
      }
      void parseJson(request, body as string, done);
    });
  },
  { name: 'content-types' },
);
