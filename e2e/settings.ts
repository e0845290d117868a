/** Ports and names shared by playwright.config.ts, the simulator launcher and the specs. */
export const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3217);
export const APP_ORIGIN = `http://127.0.0.1:${APP_PORT}`;

export const OPERATOR_TOKEN = 'e2e-operator-token-0123456789';

export const SIM_PORT = Number(process.env.E2E_SIM_PORT ?? 3218);
export const SIM_ORIGIN = `http://127.0.0.1:${SIM_PORT}`;

function shop(domain: string, name: string, accessToken: string) {
  return { domain, name, accessToken, url: `${SIM_ORIGIN}/shops/${domain}` };
}

/** The shop shoppers buy from: registered, synced and verified by the shopper spec's setup. */
export const E2E_SHOP = shop('harbour-home.example', 'Harbour Home', 'shpat_e2e_harbour');
/** The shop the staff spec registers, syncs and verifies through the pages. */
export const STAFF_SHOP = shop('kiln-and-co.example', 'Kiln and Co', 'shpat_e2e_kiln');
