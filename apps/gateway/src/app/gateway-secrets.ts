import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Module } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { configPart } from '@cs/service-kit';

export interface GatewaySecrets {
  /** Protects /admin; the admin CLI reads it from ADMIN_TOKEN, or from the data folder in standalone mode. */
  adminToken: string;
  /** Signs presigned upload URLs of the standalone gateway. */
  presignSecret: string;
}
export const GATEWAY_SECRETS = Symbol('GatewaySecrets');

export const ADMIN_TOKEN_FILE = 'admin-token';

async function readOrCreate(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('base64url');
  await fs.mkdir(path.dirname(file), { recursive: true });
  try {
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await fs.readFile(file, 'utf8')).trim();
    throw error;
  }
}

/**
 * From the environment when set there, else created once in the data folder and kept: standalone
 * mode only, as the cluster's gateway refuses to start without both (every replica must share them).
 */
export async function loadGatewaySecrets(config: Pick<AppConfig, 'adminToken' | 'presignSecret' | 'dataDir'>): Promise<GatewaySecrets> {
  return {
    adminToken: config.adminToken ?? (await readOrCreate(path.join(config.dataDir, ADMIN_TOKEN_FILE))),
    presignSecret: config.presignSecret ?? (await readOrCreate(path.join(config.dataDir, 'presign-secret'))),
  };
}

/** The gateway's secrets, for the admin API's guard and the presigned uploads. */
@Module({
  providers: [
    {
      provide: GATEWAY_SECRETS,
      useFactory: (adminToken: AppConfig['adminToken'], presignSecret: AppConfig['presignSecret'], dataDir: AppConfig['dataDir']) =>
        loadGatewaySecrets({ adminToken, presignSecret, dataDir }),
      inject: [configPart('adminToken'), configPart('presignSecret'), configPart('dataDir')],
    },
  ],
  exports: [GATEWAY_SECRETS],
})
export class GatewaySecretsModule {}
