import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: true,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Query strings and path parameters arrive as text and are coerced to their declared types; JSON
 * bodies are typed already and are not (a body `"timeout": "5"` is an error, not 5).
 */
export function registerValidation(app: FastifyInstance): void {
  const forBody = makeAjv(false);
  const forText = makeAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? forBody : forText).compile(schema as object),
  );
}
