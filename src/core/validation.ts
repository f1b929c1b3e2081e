import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';

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

type Validator = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * A validator compiled on its route's first request, not at start-up: compiling every route's
 * schemas (validation and serialization) was a quarter of the time to `/readyz`, for routes most
 * processes never see. Fastify reads `errors` off the function after a failed call.
 */
function compiledOnFirstUse(compile: () => Validator): Validator {
  let validate: Validator | undefined;
  const check: Validator = (data) => {
    validate ??= compile();
    const valid = validate(data);
    check.errors = validate.errors;
    return valid;
  };
  return check;
}

/**
 * Query strings and path parameters arrive as text and are coerced to their declared types; JSON
 * bodies are typed already and are not (a body `"timeout": "5"` is an error, not 5). Validators and
 * response serializers are compiled when a route is first used.
 */
export function registerValidation(app: FastifyInstance): void {
  const forBody = makeAjv(false);
  const forText = makeAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }) =>
    compiledOnFirstUse(() => (httpPart === 'body' ? forBody : forText).compile(schema as object)),
  );
  const compileSerializer = SerializerSelector()({}, {});
  app.setSerializerCompiler((route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => {
      serialize ??= compileSerializer({ ...route, httpStatus: String(route.httpStatus) });
      return serialize(data);
    };
  });
}
