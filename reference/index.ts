// The reference Animal Store server's public surface: an in-process handler and a socket listener.
export type { AppRequest, AppResponse, Handle } from './types.ts';
export { createApp, DEFAULT_MAX_BODY_BYTES, type App, type ReferenceOptions } from './app.ts';
export { listen, SERVER_LIMITS, type ListenOptions, type RunningServer, type ServerLimits } from './server.ts';
export { FAULT_DESCRIPTIONS, type ReferenceFaults } from './faults.ts';
export { DEFAULT_VARIANTS, type ReferenceVariants } from './variants.ts';
export { DEFAULT_MAX_PETS } from './store.ts';
export { BASE_PATH, DEPRECATED_SINCE } from './routes.ts';
export { ERROR_CODES } from './responses.ts';
