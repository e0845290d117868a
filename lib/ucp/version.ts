/** The UCP version this service implements, and the only one its profile and bodies state. */
export const UCP_VERSION = '2026-01-11';
