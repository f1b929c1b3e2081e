import type { GatewayModule } from '../../core/app.js';
import { certificateRoutes } from './routes.js';
import { CertificateService } from './service.js';

/** Certificates: builds the service once and registers its routes. */
const certificatesModule: GatewayModule = async (app) => {
  await app.register(certificateRoutes, { certificates: new CertificateService(app.deps) });
};

export default certificatesModule;
