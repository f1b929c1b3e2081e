import { describe, expect, it } from 'vitest';
import { EgressDeniedError } from '../../src/core/egress-guard.js';
import { AppError, conflict } from '../../src/core/errors.js';
import { translateEngineError } from '../../src/modules/containerhost/docker-errors.js';

// How a failure of the container engine (dockerode's errors: statusCode, json, code) becomes the
// gateway's answer, without an engine.
const CONTAINER = { containerId: 'web' };

/** The answer a translated failure gives: status and details, as the error handler sends them. */
function answerTo(failure: unknown, what: Record<string, unknown> = CONTAINER) {
  const error = translateEngineError(failure, what);
  expect(error).toBeInstanceOf(AppError);
  return { status: (error as AppError).statusCode, details: (error as AppError).details };
}

/** An engine's HTTP answer as dockerode reports it. */
const engineAnswer = (statusCode: number, json: unknown) =>
  Object.assign(new Error(`(HTTP code ${statusCode}) unexpected`), { statusCode, json });

describe('engine answers', () => {
  it("turns a 404 into NOT_FOUND naming what was asked for and the engine's words", () => {
    expect(answerTo(engineAnswer(404, { message: 'no such container' }))).toEqual({
      status: 404,
      details: { containerId: 'web', engineMessage: 'no such container' },
    });
  });

  it('reads the engine message from a JSON body, a text body, or the error itself', () => {
    expect(answerTo(engineAnswer(404, '  not here\n')).details).toMatchObject({ engineMessage: 'not here' });
    expect(answerTo(engineAnswer(404, null)).details).toMatchObject({
      engineMessage: '(HTTP code 404) unexpected',
    });
  });

  it.each([409, 403])('turns a %i into 409 ENGINE_CONFLICT with the engine status', (statusCode) => {
    expect(answerTo(engineAnswer(statusCode, { message: 'name in use' }))).toEqual({
      status: 409,
      details: { reason: 'ENGINE_CONFLICT', explanation: 'name in use', engineStatus: statusCode },
    });
  });

  it.each([
    'container state improper',
    'that name is already in use',
    'network already exists',
    'volume is being used',
    'image is in use by a container',
    'unable to delete abc by ID with more than one tag (a, b): please force removal',
  ])("reads Podman's 500 with the cause %j as the conflict Docker answers", (cause) => {
    expect(answerTo(engineAnswer(500, { message: 'refused', cause }))).toMatchObject({
      status: 409,
      details: { reason: 'ENGINE_CONFLICT', engineStatus: 500 },
    });
  });

  it('keeps a 500 whose cause is no known conflict, or only contains one, a refusal', () => {
    for (const cause of ['disk full', 'the container state improper here'])
      expect(answerTo(engineAnswer(500, { message: 'broke', cause }))).toEqual({
        status: 422,
        details: { reason: 'ENGINE_REFUSED', explanation: 'broke', engineStatus: 500 },
      });
  });

  it('turns any other engine status into 422 ENGINE_REFUSED', () => {
    expect(answerTo(engineAnswer(400, { message: 'bad parameter' }))).toEqual({
      status: 422,
      details: { reason: 'ENGINE_REFUSED', explanation: 'bad parameter', engineStatus: 400 },
    });
  });
});

describe('engines that cannot be reached', () => {
  // Nothing listening, no socket file, a socket without permission, an unknown host name.
  it.each(['ECONNREFUSED', 'ENOENT', 'EACCES', 'ENOTFOUND'])(
    'answers 422 ENGINE_UNREACHABLE with the errno %s',
    (code) => {
      expect(answerTo(Object.assign(new Error(`connect ${code}`), { code }))).toEqual({
        status: 422,
        details: {
          reason: 'ENGINE_UNREACHABLE',
          explanation: `the container engine could not be reached: ${code}`,
          errno: code,
        },
      });
    },
  );

  it('finds the errno in the cause of a wrapped error', () => {
    const wrapped = new Error('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }),
    });
    expect(answerTo(wrapped).details).toMatchObject({ reason: 'ENGINE_UNREACHABLE', errno: 'ECONNRESET' });
  });

  it('answers 422 ENGINE_TIMEOUT to a socket timeout', () => {
    for (const message of ['socket timeout', 'request timed out'])
      expect(answerTo(new Error(message)).details).toEqual({
        reason: 'ENGINE_TIMEOUT',
        explanation: 'the container engine did not answer in time',
      });
  });

  it("answers anything else as unreachable, in the failure's own words", () => {
    const handshake = Object.assign(new Error('EPROTO: handshake failed'), { code: 'EPROTO' });
    expect(answerTo(handshake).details).toEqual({
      reason: 'ENGINE_UNREACHABLE',
      explanation: 'the container engine could not be reached: EPROTO: handshake failed',
    });
    expect(answerTo('torn').details).toMatchObject({
      explanation: 'the container engine could not be reached: torn',
    });
  });
});

describe("the gateway's own refusals", () => {
  it('answers an egress denial anywhere in the cause chain as 422 EGRESS_DENIED with its rule', () => {
    const denial = new EgressDeniedError('engine.example', '169.254.169.254', 'metadata addresses');
    expect(answerTo(new Error('fetch failed', { cause: denial }))).toEqual({
      status: 422,
      details: { reason: 'EGRESS_DENIED', explanation: denial.message, rule: 'metadata addresses' },
    });
  });

  it('passes an answer the gateway already made through unchanged', () => {
    const made = conflict('CONTAINER_RUNNING');
    expect(translateEngineError(made, CONTAINER)).toBe(made);
  });
});
