import { Inject } from '@nestjs/common';
import type { AppConfig } from '@cs/config';

/** The one injection token every process shares: its validated configuration, whole. */
export const APP_CONFIG = Symbol('AppConfig');

const PART_TOKENS = new Map<keyof AppConfig, symbol>();

/** The injection token of one top-level part of the configuration (ConfigModule provides each). */
export function configPart(key: keyof AppConfig): symbol {
  let token = PART_TOKENS.get(key);
  if (!token) PART_TOKENS.set(key, (token = Symbol(`AppConfig.${key}`)));
  return token;
}

/**
 * Injects the part of the configuration a provider uses, not the whole (declare the parameter
 * as `AppConfig['<key>']`): what a class depends on shows in its constructor, and a test gives it that.
 */
export const InjectConfig = (key: keyof AppConfig): PropertyDecorator & ParameterDecorator => Inject(configPart(key));
