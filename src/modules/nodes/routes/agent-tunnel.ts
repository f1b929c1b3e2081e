import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { GatewayModule } from '../../../core/app.js';
import { unauthorized, validationError } from '../../../core/errors.js';
import { DataOf, WriteOnly } from '../../../core/http-schemas.js';
import type { AgentEnrollment, AgentIdentity } from '../agents/agent-enrollment.js';
import type { TunnelHub } from '../agents/tunnel-hub.js';

const tags = ['nodes'];

/** Public to the gateway's authentication: the enrolment token is the body's, the credential the route's. */
const enrollAccess = { public: true, errors: [401] } as const;
const connectAccess = { public: true, ownToken: 'agentCredential', errors: [401] } as const;

const EnrollRequest = Type.Object({
  token: WriteOnly(
    Type.String({ minLength: 1, maxLength: 128, description: 'the one-time enrolment token (`igwe_…`)' }),
  ),
});

const AgentEnrolled = Type.Object({
  nodeId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  credential: Type.String({
    description: 'the agent’s credential (`igwa_…`), answered this once; keep it secret',
  }),
});

const bearer = (request: FastifyRequest) => /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];

/**
 * The agents' way in, outside /api: the token exchange and the tunnel. Neither takes an API token,
 * and no /api route takes what they hand out.
 */
export const agentTunnelRoutes: GatewayModule<{ enrollment: AgentEnrollment; hub: TunnelHub }> = async (
  app,
  { enrollment, hub },
) => {
  app.post(
    '/enroll',
    {
      config: enrollAccess,
      schema: {
        tags,
        summary: 'Exchange an agent node’s enrolment token for the agent’s credential (once)',
        description:
          'An unknown, already used or expired token is 401, and nothing changes. The agent keeps the credential ' +
          'in its state directory and opens its tunnel with it.',
        body: EnrollRequest,
        response: { 200: DataOf(AgentEnrolled) },
      },
    },
    async (request) => ({ data: await enrollment.exchange(request.body.token, request.ip, request.id) }),
  );

  const agents = new WeakMap<FastifyRequest, AgentIdentity>();
  app.get(
    '/connect',
    {
      websocket: true,
      config: connectAccess,
      schema: {
        tags,
        summary: 'Open the agent’s tunnel (WebSocket, the agent dials out)',
        description:
          'Upgrade with `Authorization: Bearer igwa_…`; an unknown or revoked credential is 401 before the upgrade. ' +
          'The agent says `hello` (version, root, host facts, capabilities) and the gateway answers `welcome`; ' +
          'a frame over 1 MiB (1009), of an unknown type or of the wrong shape (1008) closes the tunnel. ' +
          'A revoked node’s tunnel closes with 4001.',
      },
      preHandler: async (request) => {
        const agent = await enrollment.authenticate(bearer(request) ?? '');
        if (!agent) throw unauthorized();
        if (!request.ws)
          throw validationError([
            { path: [], message: 'open the tunnel as a WebSocket (Upgrade: websocket)' },
          ]);
        agents.set(request, agent);
      },
    },
    (socket, request) => hub.admit(agents.get(request)!, socket),
  );
};
