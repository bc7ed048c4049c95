export { SessionsModule } from './sessions.module';
export { Session } from './session.entity';
export { SessionStore, MAX_SESSION_STATE_BYTES } from './session-store';
export type { SessionOwner, SessionView } from './session-store';
