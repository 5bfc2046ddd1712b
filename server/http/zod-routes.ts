/**
 * Routes declare their params, query, body and response with zod schemas (most from events/),
 * through fastify-type-provider-zod: one schema gives the validation, the handler's types and
 * the OpenAPI document (server/http/openapi.ts).
 *
 * Responses: the schemas type the handlers and document the API. At run time the answer is
 * serialised with JSON.stringify; under test (NODE_ENV=test, as Vitest sets it) it is also
 * checked against its schema, so a route that answers something else than it declares fails
 * the suite, while production does not pay for re-validating a 5,000-location map per request
 * nor turn a harmless extra field into a 500.
 */
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** The app (or a plugin's scope) with its routes typed from their zod schemas. */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}
export type TypedApp = ReturnType<typeof typed>;

const checkResponses = process.env.NODE_ENV === 'test';

const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url }) => {
  return (data: unknown) => {
    if (checkResponses && typeof (schema as { safeParse?: unknown }).safeParse === 'function') {
      const parsed = (schema as z.ZodType).safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`The answer of ${method} ${url} does not match its schema: ${issue?.path.join('.')}: ${issue?.message}`);
      }
    }
    return JSON.stringify(data);
  };
};

export function useZodSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler as FastifySchemaCompiler<z.ZodType>);
  app.setSerializerCompiler(serializerCompiler);
}
