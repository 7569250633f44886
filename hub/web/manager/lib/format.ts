/** The pages' formatting lives in hub/web/shared/format.ts (the register uses it too); the manager's modules import it from here. */
export * from '../../shared/format';
